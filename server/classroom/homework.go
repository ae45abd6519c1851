package classroom

import (
	"context"
	"errors"
	"slices"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// Homework is set, played and followed here (the teacher's guide, /help, "Homework"): an
// assignment is a number of games of a game against a bot, due at a time;
// its students play it whenever the server is reachable, each game a
// match of the class with no round; a game started after the due time
// counts as late; the teacher closes it, reopens it, or moves its due
// time.

// MaxHomeworkGames is the most games an assignment asks.
const MaxHomeworkGames = 20

// ErrHomeworkClosed refuses a game of an assignment its teacher closed.
var ErrHomeworkClosed = errors.New("this homework is closed")

// HomeworkSpec is an assignment to set.
type HomeworkSpec struct {
	Variant sim.Variant
	Bot     string
	Games   int
	Due     time.Time
}

// MaxOpenAssignments is the most assignments a class holds open at once:
// a teacher's week, with room to spare; a script cannot set hundreds.
const MaxOpenAssignments = 12

// ErrTooManyAssignments refuses an assignment past MaxOpenAssignments
// open ones: close one first.
var ErrTooManyAssignments = errors.New("the class holds as many open assignments as it may: close one first")

// SetHomework sets an assignment for the class, for its teacher: its bot
// must play the game (solve.CheckStrategy), its games be 1 to
// MaxHomeworkGames, the class hold fewer than MaxOpenAssignments open; a
// kind of game new to the server spends the class's allowance of new
// kinds as a round's does (play.Hall.NewKind), since its tables are
// solved now, for the games to come.
func (r *Room) SetHomework(ctx context.Context, v Viewer, spec HomeworkSpec) (store.Assignment, error) {
	c, err := v.teaching()
	if err != nil {
		return store.Assignment{}, err
	}
	if err := solve.CheckStrategy(spec.Bot, spec.Variant); err != nil {
		return store.Assignment{}, err
	}
	if spec.Games < 1 || spec.Games > MaxHomeworkGames {
		return store.Assignment{}, errors.New("an assignment asks 1 to 20 games")
	}
	as, err := r.Assignments(ctx, v) // kept in memory
	if err != nil {
		return store.Assignment{}, err
	}
	if open := slices.DeleteFunc(as, func(a store.Assignment) bool { return a.Closed }); len(open) >= MaxOpenAssignments {
		return store.Assignment{}, ErrTooManyAssignments
	}
	if err := r.hall.NewKind(c.snap.Load().Code, c, spec.Variant); err != nil {
		return store.Assignment{}, err
	}
	a, err := r.st.CreateAssignment(ctx, store.Assignment{ClassID: c.id, Variant: spec.Variant, Bot: spec.Bot, Games: spec.Games, Due: spec.Due})
	c.assignmentsChanged()
	return a, err
}

// SetAssignment closes or reopens an assignment of the class, for its
// teacher, with a new due time unless due is zero.
func (r *Room) SetAssignment(ctx context.Context, v Viewer, id int64, closed bool, due time.Time) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	err = r.st.SetAssignment(ctx, c.id, id, closed, due)
	c.assignmentsChanged()
	return err
}

// Assignments are the class's assignments, newest first, for its members.
// They are read from disk once and kept with the class until one changes
// (every change comes through the room): a page that polls while its
// student waits reads memory.
func (r *Room) Assignments(ctx context.Context, v Viewer) ([]store.Assignment, error) {
	if v.cls == nil || !v.teacher && v.student == 0 {
		return nil, ErrNotStudent
	}
	c := v.cls
	ver := c.hwVer.Load()
	if kept := c.hw.Load(); kept != nil && kept.ver == ver {
		return slices.Clone(kept.list), nil
	}
	as, err := r.st.Assignments(ctx, c.id)
	if err != nil {
		return nil, err
	}
	// Kept as of ver: a change meanwhile moved the version on, and the
	// next reader reads the disk again.
	c.hw.Store(&keptAssignments{ver: ver, list: as})
	return slices.Clone(as), nil
}

// keptAssignments are a class's assignments as read at a version of them.
type keptAssignments struct {
	ver  int64
	list []store.Assignment
}

// assignmentsChanged notes that the class's assignments changed (or may
// have: a failed write too): they are read again, and the pages redraw.
func (c *class) assignmentsChanged() {
	c.hwVer.Add(1)
	c.changedClass()
}

// PlayHomework is the viewer student's game of assignment id, from
// device (a network address): the one they are playing, or a new one
// against the assignment's bot, through the door every match starts
// through (its limits: play.LimitError). A closed assignment starts no
// game.
func (r *Room) PlayHomework(ctx context.Context, v Viewer, id int64, device string) (*play.Match, error) {
	c, studentID, err := v.studying()
	if err != nil {
		return nil, err
	}
	as, err := r.Assignments(ctx, v) // kept in memory
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(as, func(a store.Assignment) bool { return a.ID == id })
	switch {
	case i < 0:
		return nil, store.ErrNotFound
	case as[i].Closed:
		return nil, ErrHomeworkClosed
	}
	a := as[i]
	open := r.hall.Of(c, func(m *play.Match) bool { return m.AssignmentID == id && m.SeatOf(studentID) >= 0 && !m.Over() })
	if len(open) > 0 {
		return open[0].Match(), nil // the game they are playing
	}
	st, ok := c.snap.Load().Student(v.token)
	if !ok {
		return nil, ErrNotStudent
	}
	seats := []play.Seat{seatOf(st, 0)}
	for seat := 1; seat < a.Variant.Seats; seat++ {
		seats = append(seats, play.Seat{Seat: seat, Bot: a.Bot})
	}
	row := play.NewMatch(a.Variant, r.chance.Seed(), seats)
	row.ClassID, row.AssignmentID = c.id, id
	lms, err := r.hall.Start(ctx, play.Request{Origin: play.FromHomework, Host: c, Class: c.snap.Load().Code, Device: device, Player: studentID, Matches: []play.Match{row}})
	if err != nil {
		return nil, err
	}
	c.changedClass()
	return lms[0].Match(), nil
}

// Homework is what each student did of each of the class's assignments,
// for its members (a student reads their own rows).
func (r *Room) Homework(ctx context.Context, v Viewer) ([]store.HomeworkDone, error) {
	if v.cls == nil || !v.teacher && v.student == 0 {
		return nil, ErrNotStudent
	}
	done, err := r.st.Homework(ctx, v.cls.id)
	if err != nil || v.teacher {
		return done, err
	}
	return slices.DeleteFunc(done, func(h store.HomeworkDone) bool { return h.StudentID != v.student }), nil
}
