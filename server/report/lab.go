package report

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"slices"
	"strconv"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// Experiments are the class's runs of the lab, for its members.
func (r *Reports) Experiments(ctx context.Context, v classroom.Viewer) ([]store.Experiment, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	return r.st.Experiments(ctx, c.ID)
}

// A LabRun is one run of the lab's question as the shared screen shows it:
// its student, its games, its share and the share's 95% interval.
type LabRun struct {
	StudentID       int64
	Games, Wins     int
	Share, Lo, Hi   float64
	Seed            string
	CoversTheAnswer bool // the interval holds the exact answer (when known)
}

// A Lab is the class's runs of one question pooled: each run, sorted by
// its share (the "dance of the intervals"), their games and wins
// together, and, when the exact answer is known, how many intervals
// cover it.
type Lab struct {
	Runs              []LabRun
	Games, Wins       int
	Pooled, Lo, Hi    float64
	Exact             float64 // NaN when not known
	Covering, Covered int     // runs whose interval covers the exact answer, of how many
}

// PoolLab pools the runs of question q among exps; exact is q's exact
// answer, NaN when it is not known (or not revealed).
func PoolLab(exps []store.Experiment, q classroom.LabQuestion, exact float64) Lab {
	l := Lab{Exact: exact}
	for _, e := range exps {
		if classroom.QuestionOf(e) != q {
			continue
		}
		run := LabRun{StudentID: e.StudentID, Games: e.Games, Wins: e.Wins, Seed: e.Seed, Share: float64(e.Wins) / float64(e.Games)}
		run.Lo, run.Hi = sim.Wilson(e.Wins, e.Games, sim.Z95)
		if !math.IsNaN(exact) {
			run.CoversTheAnswer = run.Lo <= exact && exact <= run.Hi
			l.Covered++
			if run.CoversTheAnswer {
				l.Covering++
			}
		}
		l.Games += e.Games
		l.Wins += e.Wins
		l.Runs = append(l.Runs, run)
	}
	slices.SortStableFunc(l.Runs, func(a, b LabRun) int {
		switch {
		case a.Share < b.Share:
			return -1
		case a.Share > b.Share:
			return 1
		}
		return 0
	})
	if l.Games > 0 {
		l.Pooled = float64(l.Wins) / float64(l.Games)
		l.Lo, l.Hi = sim.Wilson(l.Wins, l.Games, sim.Z95)
	}
	return l
}

// ExperimentsFile is one row per run of the class's lab: its question, its
// games, seed and wins, the share's interval, and the exact answer once
// the teacher revealed it.
var ExperimentsFile = newFile("experiments",
	colClass,
	Column{"student", KindText, false, nil},
	colDay, colGame,
	Column{"target", KindInteger, false, nil},
	Column{"first", KindText, false, nil},
	Column{"second", KindText, false, nil},
	Column{"games", KindInteger, false, nil},
	Column{"seed", KindText, false, nil},
	Column{"wins", KindInteger, false, nil},
	Column{"share_pct", KindNumber, false, nil},
	Column{"ci_low_pct", KindNumber, false, nil},
	Column{"ci_high_pct", KindNumber, false, nil},
	Column{"exact_pct", KindNumber, true, nil},
)

// LabStrategies are a lab question's two strategies. Perfect play needs
// its solved table: while tables solves it (in the background), the
// error is solve.ErrSolving and nothing waits.
func LabStrategies(q classroom.LabQuestion, tables *solve.Cache) (first, second sim.Strategy, err error) {
	if q.First == sim.PerfectBot || q.Second == sim.PerfectBot {
		if _, err := tables.Ready(q.Variant); err != nil {
			return nil, nil, err
		}
	}
	if first, err = labStrategy(q.First, q.Variant, tables); err != nil {
		return nil, nil, err
	}
	second, err = labStrategy(q.Second, q.Variant, tables)
	return first, second, err
}

// labStrategy is one of a lab question's strategies: a bot, or a
// student's plan written as its JSON (sim.PlanName).
func labStrategy(name string, v sim.Variant, tables *solve.Cache) (sim.Strategy, error) {
	if sim.IsPlanName(name) {
		return sim.ReadPlan([]byte(name), v)
	}
	return solve.ParseStrategy(name, v, tables)
}

// LabExact is a lab question's exact answer (the first strategy's chance
// of winning, by policy evaluation), false while it cannot be known
// (perfect play's table being solved).
func LabExact(q classroom.LabQuestion, tables *solve.Cache) (float64, bool) {
	first, second, err := LabStrategies(q, tables)
	if err != nil {
		return 0, false
	}
	x, err := solve.Duel(q.Variant, first, second)
	return x, err == nil
}

// writeExperiments writes experiments.csv: every run of the class's lab.
func writeExperiments(ctx context.Context, src exportSource, class store.Class, real bool, day string, w io.Writer) error {
	st := src.st
	who, err := names(ctx, st, class, real)
	if err != nil {
		return err
	}
	exps, err := st.Experiments(ctx, class.ID)
	if err != nil {
		return err
	}
	return writeCSV(w, ExperimentsFile.Header(), experimentRows(class, who, exps, day, src.tables))
}

// experimentRows are experiments.csv's rows of exps (those of day, or
// all), the exact answer beside the runs of the question the teacher
// revealed.
func experimentRows(class store.Class, who map[int64]string, exps []store.Experiment, day string, tables *solve.Cache) [][]string {
	var posed classroom.LabQuestion
	revealed := class.LabRevealed && class.Lab != "" && json.Unmarshal([]byte(class.Lab), &posed) == nil
	exact, known := 0.0, false
	if revealed {
		exact, known = LabExact(posed, tables)
	}
	var rows [][]string
	for _, e := range exps {
		if day != "" && e.Day != day {
			continue
		}
		lo, hi := sim.Wilson(e.Wins, e.Games, sim.Z95)
		r := ExperimentsFile.row().set("class", class.Code).set("student", who[e.StudentID]).set("day", e.Day).set("game", e.Variant.Game.String()).
			set("target", strconv.Itoa(e.Variant.Target)).set("first", e.First).set("second", e.Second).set("games", strconv.Itoa(e.Games)).
			set("seed", e.Seed).set("wins", strconv.Itoa(e.Wins)).set("share_pct", PctCell(float64(e.Wins)/float64(e.Games))).
			set("ci_low_pct", PctCell(lo)).set("ci_high_pct", PctCell(hi))
		if known && classroom.QuestionOf(e) == posed {
			r = r.set("exact_pct", PctCell(exact))
		}
		rows = append(rows, r.cells)
	}
	return rows
}
