package classroom

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// CreateClass stores a new class with a fresh join code drawn by newCode
// and returns it.
func (r *Room) CreateClass(ctx context.Context, newCode func() string, teacherHash, lesson string) (*Class, error) {
	var row store.Class
	var err error
	for range 20 {
		row, err = r.st.CreateClass(ctx, newCode(), teacherHash)
		if !errors.Is(err, store.ErrCodeTaken) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	if lesson != "" {
		// Chosen, its first phase not started: the teacher's "Start phase
		// 1" starts it, as for a plan chosen later.
		if err := r.st.SetLesson(ctx, row.ID, lesson, -1); err != nil {
			return nil, err
		}
	}
	return r.ClassByID(ctx, row.ID)
}

// Join seats a new student in a class with a generated name unique in it,
// checked under the class's lock (the door, Enter, checks first to say why
// in the order a student should hear it; this is the last word): a
// nickname in use is store.ErrNicknameTaken, one that looks like a
// nickname in use ErrLooksTaken; a locked class ErrLocked, a removed
// browser ErrRemoved. nickname must come from Nickname. A browser comes
// in through Enter; the command line and tests seat students here.
func (r *Room) Join(ctx context.Context, classID int64, nickname, tokenHash string) (store.Student, error) {
	c, err := r.classes.load(ctx, classID)
	if err != nil {
		return store.Student{}, err
	}
	return r.joinQueued(ctx, c, nickname, tokenHash)
}

// Switches are the switches a teacher turns.
type Switches = store.Switches

// SetSwitches turns a class's switches. Resuming play gives every student on
// turn a fresh deadline.
func (r *Room) SetSwitches(ctx context.Context, v Viewer, change func(*Switches)) (*Class, error) {
	c, err := v.teaching()
	if err != nil {
		return nil, err
	}
	var snap *Class
	err = c.save(func() error {
		old := c.snap.Load()
		f := Switches{Locked: old.Locked, Paused: old.Paused, Anonymous: old.Anonymous, CodesOpen: old.CodesOpen, ListHidden: old.ListHidden}
		change(&f)
		if err := r.st.SetSwitches(ctx, c.id, f); err != nil {
			return err
		}
		snap = c.publishLocked(false, func(next *Class) {
			next.Locked, next.Paused, next.Anonymous, next.CodesOpen, next.ListHidden = f.Locked, f.Paused, f.Anonymous, f.CodesOpen, f.ListHidden
		})
		if old.Paused && !f.Paused {
			r.hall.RestartClocks(uniqueMatches(*c.live.Load()))
		}
		return nil
	})
	return snap, err
}

// setClass changes one of a class's settings: save stores it (nil for a
// setting kept in memory only), then change publishes it in a new
// snapshot, whose version tells the live parts to redraw.
func (r *Room) setClass(v Viewer, save func(classID int64) error, change func(*Class)) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	return c.save(func() error {
		if save != nil {
			if err := save(c.id); err != nil {
				return err
			}
		}
		c.publishLocked(false, change)
		return nil
	})
}

// Linked says a learning platform's link now opens the class (made by its
// first launch): it takes that platform's launches, and codes only once
// its teacher opens it to them.
func (r *Room) Linked(ctx context.Context, classID int64) error {
	c, err := r.classes.load(ctx, classID)
	if err != nil {
		return err
	}
	return c.save(func() error {
		c.publishLocked(false, func(next *Class) { next.Platform = true })
		return nil
	})
}

// SetJoinsUnlimited lifts (or puts back) the cap on joins a minute.
func (r *Room) SetJoinsUnlimited(v Viewer, unlimited bool) error {
	return r.setClass(v, nil, func(next *Class) { next.JoinsUnlimited = unlimited })
}

// SetProjector chooses the chart the projector shows ("" for none).
func (r *Room) SetProjector(ctx context.Context, v Viewer, chart string) error {
	return r.setClass(v, func(classID int64) error { return r.st.SetProjector(ctx, classID, chart) },
		func(next *Class) { next.Projector = chart })
}

// SetLanguage sets the class's language ("" for each reader's own); the
// version changes, so the live parts of the projector redraw in it.
func (r *Room) SetLanguage(ctx context.Context, v Viewer, lang string) error {
	return r.setClass(v, func(classID int64) error { return r.st.SetLanguage(ctx, classID, lang) },
		func(next *Class) { next.Language = lang })
}

// SetLesson sets the lesson a class follows and its phase.
func (r *Room) SetLesson(ctx context.Context, v Viewer, lesson string, phase int) error {
	return r.setClass(v, func(classID int64) error { return r.st.SetLesson(ctx, classID, lesson, phase) },
		func(next *Class) { next.Lesson, next.Phase = lesson, phase })
}

// PhaseStart is what a lesson's phase does when it starts.
type PhaseStart struct {
	Lesson string
	Phase  int
	Chart  string     // the projector's first chart, "" for none
	Round  *RoundSpec // the round the phase plays, or nil
	Skunk  int        // the rounds of whole-class Skunk it plays, or 0
}

// StartPhase moves the class to a phase of its lesson, for its teacher.
// What the phase plays comes first (its round, a game of Skunk, or else
// the open round ends); only if that succeeds do the lesson's phase and
// the projector's chart change, in one write, so a refused round leaves
// the class in the phase it was. With no students yet nothing plays: the
// phase moves all the same and the error is ErrNoStudents.
func (r *Room) StartPhase(ctx context.Context, v Viewer, p PhaseStart) (play.Round, int, error) {
	if _, err := v.teaching(); err != nil {
		return play.Round{}, 0, err
	}
	var round play.Round
	var err error
	n := 0
	switch {
	case p.Round != nil:
		spec := *p.Round
		spec.Lesson = p.Lesson
		round, n, err = r.startRoundOf(ctx, v, spec, false)
	case p.Skunk > 0:
		err = r.startSkunkOf(ctx, v, p.Skunk, p.Lesson)
	default:
		err = r.EndRound(ctx, v)
	}
	if err != nil && !errors.Is(err, ErrNoStudents) {
		return round, n, err
	}
	set := r.setClass(v, func(classID int64) error { return r.st.SetPhase(ctx, classID, p.Lesson, p.Phase, p.Chart) },
		func(next *Class) {
			next.Lesson, next.Phase, next.Projector, next.OffLesson = p.Lesson, p.Phase, p.Chart, false
			next.Countdown = time.Time{} // the last phase's
		})
	if set != nil {
		return round, n, set
	}
	return round, n, err
}

// RoundSpec is what a round plays: from the form or from a lesson phase.
type RoundSpec struct {
	Variant  sim.Variant
	Mode     play.Mode
	Bot      string
	SameSeed bool
	// Arms: a round of the experiment "Decide before you roll", each
	// student in their arm (drawn at random the first time: Arms).
	Arms bool
	// Lesson is the lesson plan whose phase the round plays ("" for the
	// teacher's own round): the class's day keeps it.
	Lesson string
}

// StartRound ends the open round and starts a new one: every student in a
// match, against the bot or paired (seats left over go to the bot), one
// seed for all on request. It returns the round and its number of matches.
// It is the teacher's own round (the form's): a class following a lesson
// leaves it, until a phase starts again.
func (r *Room) StartRound(ctx context.Context, v Viewer, spec RoundSpec) (round play.Round, n int, err error) {
	return r.startRoundOf(ctx, v, spec, true)
}

// LeaveLesson takes a class following a lesson off it (a game of the
// teacher's own, such as Skunk from the dashboard), until a phase starts
// again; a class without a lesson, or off it already, is left as it is.
func (r *Room) LeaveLesson(ctx context.Context, v Viewer) error {
	if snap := v.Class(); snap == nil || snap.Lesson == "" || snap.OffLesson {
		return nil
	}
	return r.setClass(v, func(classID int64) error { return r.st.LeaveLesson(ctx, classID) },
		func(next *Class) { next.OffLesson, next.Projector = true, "" })
}

// StartRoundAgain starts a round like one played before ("Play again"):
// a class following a lesson stays where it was in it, on or off.
func (r *Room) StartRoundAgain(ctx context.Context, v Viewer, spec RoundSpec) (play.Round, int, error) {
	if snap := v.Class(); snap != nil && !snap.OffLesson {
		spec.Lesson = snap.Lesson // a phase's round again: the lesson's still
	}
	return r.startRoundOf(ctx, v, spec, false)
}

// startRoundOf is StartRound; a round of the teacher's own (leave: from
// the form, not a lesson's phase) takes a class that follows a lesson off
// it (LeaveLesson), in the same change.
func (r *Room) startRoundOf(ctx context.Context, v Viewer, spec RoundSpec, leave bool) (round play.Round, n int, err error) {
	c, err := v.teaching()
	if err != nil {
		return play.Round{}, 0, err
	}
	err = c.change(func() error {
		if round, n, err = r.startRound(ctx, c, spec); err != nil {
			return err
		}
		if snap := c.snap.Load(); leave && snap.Lesson != "" && !snap.OffLesson {
			if err := r.st.LeaveLesson(ctx, c.id); err != nil {
				return err
			}
			c.mu.Lock()
			c.publish(false, func(next *Class) { next.OffLesson, next.Projector = true, "" })
			c.mu.Unlock()
		}
		return nil
	})
	return round, n, err
}

// startRound is StartRound within a change of the class. The round's
// matches start through the door every match starts through (its limits:
// play.LimitError, *solve.RoomError, play.ErrMysteryWaits); a refusal,
// asked of the door before the open round ends, changes nothing.
func (r *Room) startRound(ctx context.Context, c *class, spec RoundSpec) (play.Round, int, error) {
	students := c.snap.Load().Present() // a name of the class list not yet in its seat plays no match
	if len(students) == 0 {
		return play.Round{}, 0, ErrNoStudents // refused: nothing is solved for it
	}
	round := play.Round{ClassID: c.id, Variant: spec.Variant, Mode: spec.Mode, Bot: spec.Bot, SameSeed: spec.SameSeed, Lesson: spec.Lesson, Arms: spec.Arms}
	var arms map[int64]play.Arm
	if spec.Arms {
		if spec.Variant.Game.ChoosesDice() {
			return play.Round{}, 0, ErrArmsRollHold
		}
		var err error
		if arms, err = r.st.ClassArms(ctx, c.id); err != nil {
			return play.Round{}, 0, err
		}
		drawArms(r.chance, arms, students)
	}
	ms := roundMatches(r.chance, c.id, spec, students)
	for i := range ms {
		for j := range ms[i].Seats {
			ms[i].Seats[j].Arm = arms[ms[i].Seats[j].StudentID] // "" for a bot and outside the experiment
		}
	}
	req := play.Request{Origin: play.FromRound, Host: c, Class: c.snap.Load().Code, Matches: ms,
		Ending: len(roundLives(r.hall, c)),
		Store: func(ctx context.Context, ms []play.Match) ([]int64, error) {
			var ids []int64
			var err error
			if round, ids, err = r.st.CreateRound(ctx, round, ms); err != nil {
				return nil, err
			}
			for i := range ms {
				ms[i].RoundID, ms[i].RoundIndex, ms[i].Day = round.ID, round.Number, round.Day
			}
			open := round
			c.mu.Lock()
			c.skunk.Store(nil) // a finished game of Skunk's results give way
			c.publish(false, func(next *Class) { next.Round = &open })
			c.mu.Unlock()
			return ids, nil
		}}
	if err := r.hall.Admit(req); err != nil {
		return play.Round{}, 0, err
	}
	if err := r.endRound(ctx, c); err != nil {
		return play.Round{}, 0, err
	}
	req.Ending = 0
	lms, err := r.hall.Start(ctx, req)
	c.mu.Lock()
	index(c, lms)
	c.mu.Unlock()
	return round, len(req.Matches), err
}

// ErrArmsRollHold refuses the experiment "Decide before you roll" in a
// game whose turns are not rolls and a hold (Hog's one throw a turn).
var ErrArmsRollHold = errors.New("decide before you roll needs a game of rolling and holding, not Hog")

// drawArms puts each of the students not in an arm yet (not in arms) in
// one at random, by ch: in a random order, each to the arm with fewer
// students so far, a tie drawn, so the arms stay as even as they can.
func drawArms(ch sim.Chance, arms map[int64]play.Arm, students []store.Student) {
	var fresh []int64
	n := map[play.Arm]int{}
	for _, s := range students {
		if a, ok := arms[s.ID]; ok {
			n[a]++
		} else {
			fresh = append(fresh, s.ID)
		}
	}
	slices.Sort(fresh)
	sim.Shuffle(ch, fresh)
	for _, id := range fresh {
		a := play.Free
		switch {
		case n[play.Committed] < n[play.Free]:
			a = play.Committed
		case n[play.Committed] == n[play.Free] && ch.Below(2) == 1:
			a = play.Committed
		}
		arms[id] = a
		n[a]++
	}
}

// roundMatches are the matches of a round for the students (shuffled):
// each against the bot or paired (seats left over go to the bot), one
// seed for all on request. Every draw is ch's: the order first, then
// each match's seed in the order of the shuffled students.
func roundMatches(ch sim.Chance, classID int64, spec RoundSpec, students []store.Student) []play.Match {
	sim.Shuffle(ch, students)
	seed := ch.Seed()
	var rows []play.Match
	n := spec.Variant.Seats
	for i := 0; i < len(students); {
		if !spec.SameSeed && i > 0 {
			seed = ch.Seed()
		}
		seats := []play.Seat{seatOf(students[i], 0)}
		i++
		for len(seats) < n {
			if spec.Mode == play.InPairs && i < len(students) {
				seats = append(seats, seatOf(students[i], len(seats)))
				i++
			} else {
				seats = append(seats, play.Seat{Seat: len(seats), Bot: spec.Bot})
			}
		}
		row := play.NewMatch(spec.Variant, seed, seats)
		row.ClassID = classID
		rows = append(rows, row)
	}
	return rows
}

// change runs a round change of the class (a round or a game of Skunk
// started or ended, a student removed, the class deleted): it waits until
// no other change is in flight, then runs fn without holding c.mu. fn
// takes c.mu itself only to publish what it committed, so joins, the
// teacher's switches and every reader go on while its commits are made.
func (c *class) change(fn func() error) error { return c.turnstile(&c.changing, fn) }

// save runs a small change of the class (a join, a switch, a setting, a
// readmission, a rejoin) as change runs a round change: one at a time
// among themselves (they read the snapshot, commit, then publish), with
// their commit made without c.mu. Round changes and small changes do not
// wait for each other; each publishes its own part of the snapshot.
func (c *class) save(fn func() error) error { return c.turnstile(&c.saving, fn) }

// turnstile waits until *busy is clear, sets it, runs fn without c.mu,
// and clears it. *busy is guarded by c.mu.
func (c *class) turnstile(busy *bool, fn func() error) error {
	c.mu.Lock()
	for *busy {
		c.idle.Wait()
	}
	*busy = true
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		*busy = false
		c.idle.Broadcast()
		c.mu.Unlock()
	}()
	return fn()
}

// publishLocked is publish taking c.mu.
func (c *class) publishLocked(roster bool, change func(*Class)) *Class {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.publish(roster, change)
}

// EndRound ends the class's open round and its matches.
func (r *Room) EndRound(ctx context.Context, v Viewer) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	return c.change(func() error { return r.endRound(ctx, c) })
}

// endRound ends the open round: its matches stop, on disk in one write,
// then in memory, and leave the room. It runs within a change of c.
func (r *Room) endRound(ctx context.Context, c *class) error {
	open := c.snap.Load().Round
	if open == nil {
		return nil
	}
	lms := roundLives(r.hall, c)
	if err := r.hall.End(lms, func() error { return r.st.EndRound(ctx, open.ID) }); err != nil {
		return err
	}
	r.hall.Forget(lms)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live.Store(&map[int64]*play.Live{})
	// The class's tables are not the round's: they go on, and their
	// players find them again on their pages.
	index(c, r.hall.Of(c, func(m *play.Match) bool { return m.AtTable }))
	c.publish(false, func(next *Class) { next.Round = nil })
	return nil
}

// roundLives are the live matches of the class's open round (none
// without one), whoever's page shows them: its tables are not the
// round's.
func roundLives(h *play.Hall, c *class) []*play.Live {
	open := c.snap.Load().Round
	if open == nil {
		return nil
	}
	return h.Of(c, func(m *play.Match) bool { return m.RoundID == open.ID })
}

// uniqueMatches are the matches of a class's map of students to matches,
// each once.
func uniqueMatches(live map[int64]*play.Live) []*play.Live {
	seen := map[*play.Live]bool{}
	var out []*play.Live
	for _, lm := range live {
		if !seen[lm] {
			seen[lm] = true
			out = append(out, lm)
		}
	}
	return out
}

// RemoveStudent takes a student out of the class: their match stops, and
// their past decisions stay in the exports.
func (r *Room) RemoveStudent(ctx context.Context, v Viewer, studentID int64) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	return c.change(func() error { return r.removeStudent(ctx, c, studentID) })
}

// removeStudent is RemoveStudent within a change of the class.
func (r *Room) removeStudent(ctx context.Context, c *class, studentID int64) error {
	classID := c.id
	var lms []*play.Live
	if lm := (*c.live.Load())[studentID]; lm != nil {
		lms = append(lms, lm)
	}
	err := r.hall.End(lms, func() error {
		for _, lm := range lms {
			if !lm.Match().Over() {
				if err := r.st.EndMatch(ctx, lm.Match().ID); err != nil {
					return err
				}
			}
		}
		return r.st.RemoveStudent(ctx, classID, studentID)
	})
	if err != nil {
		return err
	}
	if err := r.leaveSkunk(ctx, c, studentID); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.publish(true, func(next *Class) {
		var kept []store.Student
		for _, st := range next.Students {
			if st.ID != studentID {
				kept = append(kept, st)
			} else {
				st.Removed = true
				next.Removed = append(next.Removed[:len(next.Removed):len(next.Removed)], st)
			}
		}
		next.Students = kept
	})
	return nil
}

// Readmit lets a removed student back into the class, with their history.
// Their nickname taken meanwhile is store.ErrNicknameTaken.
func (r *Room) Readmit(ctx context.Context, v Viewer, studentID int64) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	return c.save(func() error {
		if err := r.st.ReadmitStudent(ctx, c.id, studentID); err != nil {
			return err
		}
		c.publishLocked(true, readmitted(studentID))
		return nil
	})
}

// readmitted moves a removed student back among the class's students.
func readmitted(studentID int64) func(*Class) {
	return func(next *Class) {
		var still []store.Student
		for _, st := range next.Removed {
			if st.ID == studentID {
				st.Removed = false
				next.Students = append(next.Students[:len(next.Students):len(next.Students)], st)
			} else {
				still = append(still, st)
			}
		}
		next.Removed = still
	}
}

// DeleteClass deletes the class and every row that belongs to it; its
// matches and Skunk stop.
func (r *Room) DeleteClass(ctx context.Context, v Viewer) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	return r.erase(ctx, c)
}

// erase deletes a class and everything in it, its matches being played
// ended first (DeleteClass, and retention: Sweep).
func (r *Room) erase(ctx context.Context, c *class) error {
	return c.change(func() error {
		lms := r.hall.Of(c, func(*play.Match) bool { return true })
		if err := r.hall.End(lms, func() error { return r.st.DeleteClass(ctx, c.id) }); err != nil {
			return err
		}
		r.hall.Forget(lms)
		r.classes.drop(c.id)
		c.skunk.Store(nil)
		return nil
	})
}

// The words of generated names. Names are stored and exported in these
// English words; pages say them in the reader's language (the catalog's
// anon.adj.* and anon.animal.*, a test checks each has its words).
var adjectives = []string{"Amber", "Brave", "Calm", "Clever", "Curious", "Daring", "Eager", "Fuzzy", "Gentle", "Happy",
	"Jolly", "Keen", "Lively", "Lucky", "Merry", "Nimble", "Plucky", "Quick", "Quiet", "Rapid", "Shiny", "Silly",
	"Sleepy", "Sunny", "Swift", "Tidy", "Witty", "Zesty", "Bold", "Cosy"}

var animals = []string{"Otter", "Badger", "Falcon", "Panda", "Koala", "Lynx", "Heron", "Beaver", "Gecko", "Puffin",
	"Walrus", "Marmot", "Ibex", "Lemur", "Hedgehog", "Tapir", "Dolphin", "Wombat", "Squirrel", "Toucan",
	"Alpaca", "Narwhal", "Raccoon", "Kiwi", "Seal", "Owl", "Fox", "Yak", "Zebra", "Moose"}

// AnonWords are the adjectives and animals generated names are made of.
func AnonWords() (adjs, beasts []string) {
	return slices.Clone(adjectives), slices.Clone(animals)
}

// AnonName draws an adjective and an animal from ch, not in taken (past
// 900 students in a class, a number is added).
func AnonName(ch sim.Chance, taken map[string]bool) string {
	tries := 1000
	if len(taken) > 600 {
		tries = 0 // most pairs are taken: number them at once
	}
	for range tries {
		if n := adjectives[ch.Below(len(adjectives))] + " " + animals[ch.Below(len(animals))]; !taken[n] {
			return n
		}
	}
	for i := 2; ; i++ {
		if n := adjectives[ch.Below(len(adjectives))] + " " + animals[ch.Below(len(animals))] + " " + strconv.Itoa(i); !taken[n] {
			return n
		}
	}
}

// retokenStudent moves a student to a new browser (token hash): their seat in the
// class, and in the match they play, follow; the old browser is signed
// out.
func (r *Room) retokenStudent(ctx context.Context, classID, studentID int64, tokenHash string, renew bool) error {
	c, err := r.classes.load(ctx, classID)
	if err != nil {
		return err
	}
	return c.save(func() error { return r.retokenSaving(ctx, c, studentID, tokenHash, renew) })
}

// retokenSaving is retokenStudent within c.save.
func (r *Room) retokenSaving(ctx context.Context, c *class, studentID int64, tokenHash string, renew bool) error {
	if err := r.st.MoveStudent(ctx, c.id, studentID, tokenHash, renew); err != nil {
		return err
	}
	isHim := func(id int64, _ string) bool { return id == studentID }
	c.publishLocked(true, func(next *Class) {
		next.Students = retoken(next.Students, isHim, tokenHash)
		if renew {
			next.Students = changeStudents(next.Students, isStudent(studentID), func(st *store.Student) { st.RejoinEpoch++ })
		}
	})
	if lm := (*c.live.Load())[studentID]; lm != nil {
		lm.Reseat(func(s play.Seat) bool { return s.StudentID == studentID }, func(s *play.Seat) { s.TokenHash = tokenHash })
	}
	return nil
}

// rotateToken moves every identity of a browser (its students in every
// class, removed ones too, and its practice player) from token hash old to
// new. A browser gets a fresh token on every join, so a token planted in
// it beforehand (session fixation) is worth nothing afterwards. Memory
// follows the disk: only the classes and live matches whose snapshots
// hold old are locked.
func (r *Room) rotateToken(ctx context.Context, old, new string) error {
	if old == "" || old == new {
		return nil
	}
	if err := r.st.RotateToken(ctx, old, new); err != nil {
		return err
	}
	isOld := func(_ int64, h string) bool { return h == old }
	var cs []*class
	for _, c := range r.classes.all() {
		snap := c.snap.Load()
		if _, ok := snap.byToken[old]; ok || snap.WasRemoved(old) {
			cs = append(cs, c)
		}
	}
	for _, c := range cs {
		c.mu.Lock()
		c.publish(true, func(next *Class) {
			next.Students, next.Removed = retoken(next.Students, isOld, new), retoken(next.Removed, isOld, new)
		})
		c.mu.Unlock()
	}
	r.hall.Reseat(func(s play.Seat) bool { return s.TokenHash == old }, func(s *play.Seat) { s.TokenHash = new })
	return nil
}

// retoken returns students with the token hash of those who match set to
// h, as a new slice (snapshots share the old one).
func retoken(students []store.Student, match func(id int64, hash string) bool, h string) []store.Student {
	return changeStudents(students, func(st store.Student) bool { return match(st.ID, st.TokenHash) }, func(st *store.Student) { st.TokenHash = h })
}

// changeStudents returns students with change made to those who match, as
// a new slice (snapshots share the old one).
func changeStudents(students []store.Student, match func(store.Student) bool, change func(*store.Student)) []store.Student {
	out := slices.Clone(students)
	for i := range out {
		if match(out[i]) {
			change(&out[i])
		}
	}
	return out
}

// isStudent matches the student id.
func isStudent(id int64) func(store.Student) bool {
	return func(st store.Student) bool { return st.ID == id }
}
