package classroom

import (
	"context"
	"encoding/json"
	"errors"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// The class's lab (issue 62): the teacher poses a question (how often one
// strategy, moving first, beats another in a game), each student runs
// experiments of simulated games on it (sim.Experiment, each replayable
// from its seed), the class's runs pool on the shared screen, and the
// teacher reveals the exact answer, which the solver knows.

// A LabQuestion is what the lab asks: how often First, moving first,
// beats Second in Variant (two seats). A strategy is a bot's name, or a
// student's own plan written as its JSON (sim.PlanName).
type LabQuestion struct {
	Variant sim.Variant `json:"variant"`
	First   string      `json:"first"`
	Second  string      `json:"second"`
}

// ErrNoLab says the class's lab has no question yet.
var ErrNoLab = errors.New("classroom: the lab has no question")

// Lab is the question the class's lab asks, false for none.
func (c *Class) LabQuestion() (LabQuestion, bool) {
	if c.Lab == "" {
		return LabQuestion{}, false
	}
	var q LabQuestion
	if err := json.Unmarshal([]byte(c.Lab), &q); err != nil {
		return LabQuestion{}, false
	}
	return q, true
}

// QuestionOf is the lab question a run of the lab answers.
func QuestionOf(e store.Experiment) LabQuestion {
	return LabQuestion{Variant: e.Variant, First: e.First, Second: e.Second}
}

// ErrMysteryInLab: the mystery bot plays no lab question. Its strength is
// drawn from a match's seed and kept secret until the match ends; a run
// of many games has no such secret to keep (issue 79).
var ErrMysteryInLab = errors.New("classroom: the mystery bot plays matches, not the lab")

// Check says what is wrong with a question, or nil: a game of two seats
// under the standard rules, and two strategies the game has.
func (q LabQuestion) Check() error {
	if q.Variant.Seats != 2 || q.Variant.EqualTurns {
		return errors.New("classroom: a lab question is a game of two players")
	}
	if err := q.Variant.Validate(); err != nil {
		return err
	}
	if err := checkLabStrategy(q.First, q.Variant); err != nil {
		return err
	}
	return checkLabStrategy(q.Second, q.Variant)
}

// checkLabStrategy checks one of a question's strategies: a bot's, or a
// student's plan (sim.PlanName) for the question's game and target.
func checkLabStrategy(name string, v sim.Variant) error {
	if name == sim.MysteryBot {
		return ErrMysteryInLab
	}
	if sim.IsPlanName(name) {
		_, err := sim.ReadPlan([]byte(name), v)
		return err
	}
	return solve.CheckStrategy(name, v)
}

// PoseLab sets the question of the class's lab (its exact answer hidden
// again). Only the teacher may pose one.
func (r *Room) PoseLab(ctx context.Context, v Viewer, q LabQuestion) error {
	if err := q.Check(); err != nil {
		return err
	}
	b, err := json.Marshal(q)
	if err != nil {
		return err
	}
	return r.setClass(v, func(classID int64) error { return r.st.SetLab(ctx, classID, string(b), false) },
		func(next *Class) { next.Lab, next.LabRevealed = string(b), false })
}

// RevealLab shows (or hides again) the exact answer of the lab's question
// on the shared screen. Only the teacher may.
func (r *Room) RevealLab(ctx context.Context, v Viewer, revealed bool) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	lab := c.snap.Load().Lab
	if lab == "" {
		return ErrNoLab
	}
	return r.setClass(v, func(classID int64) error { return r.st.SetLab(ctx, classID, lab, revealed) },
		func(next *Class) { next.LabRevealed = revealed })
}

// Experiments counts the viewer's own runs of their class's lab (a
// student's: for their bound).
func (r *Room) Experiments(ctx context.Context, v Viewer) (int, error) {
	c, me, err := v.studying()
	if err != nil {
		return 0, err
	}
	return r.st.StudentExperiments(ctx, c.id, me)
}

// AddExperiment stores a student's run of a lab question (the teacher's,
// or one of their own) and tells the class's pages (the shared screen
// pools the runs of the teacher's question). Only a student of the class
// may add their own.
func (r *Room) AddExperiment(ctx context.Context, v Viewer, e store.Experiment) (store.Experiment, error) {
	c, me, err := v.studying()
	if err != nil {
		return e, err
	}
	if err := QuestionOf(e).Check(); err != nil {
		return e, err
	}
	e.ClassID, e.StudentID = c.id, me
	err = c.save(func() error {
		if e, err = r.st.AddExperiment(ctx, e); err != nil {
			return err
		}
		c.publishLocked(false, func(next *Class) { next.LabRuns++ })
		return nil
	})
	return e, err
}
