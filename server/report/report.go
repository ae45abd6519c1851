// Package report is what pigclass reads back for people: the CSV files a
// teacher downloads (and the glossary of their columns) and a class's
// history, which the charts, the podium, a student's past matches and the
// dashboard read. It reads through the store's read-only pool, and every
// read takes who is asking (a classroom.Viewer): a class's history only for
// its members, its files only for its teacher. The web layer (package
// server) reads the disk only through it and the live classroom.
package report

import (
	"context"
	"io"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// Reports reads a class's history for its members.
type Reports struct {
	st     *store.Store
	tables *solve.Cache // the server's solved tables (the lab's exact answers)
}

// New reads the history in st, with the server's solved tables.
func New(st *store.Store, tables *solve.Cache) *Reports { return &Reports{st: st, tables: tables} }

// member is the class of a viewer who is in it (its student, teacher or
// projector).
func member(v classroom.Viewer) (*classroom.Class, error) {
	if c := v.Class(); c != nil {
		return c, nil
	}
	return nil, classroom.ErrNotStudent
}

// Ping checks that the database answers.
func (r *Reports) Ping(ctx context.Context) error { return r.st.Ping(ctx) }

// WriterStats are the store's writer's own counters, for the metrics: the
// batches and writes committed, and the writes waiting.
func (r *Reports) WriterStats() (batches, writes int64, queued int) {
	b, w := r.st.WriterStats()
	return b, w, r.st.Queued()
}

// Writable reports whether the last batch of writes reached the disk.
func (r *Reports) Writable() bool { return r.st.Writable() }

// Rounds are the class's rounds, oldest first.
func (r *Reports) Rounds(ctx context.Context, v classroom.Viewer) ([]play.Round, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	return r.st.Rounds(ctx, c.ID)
}

// History is the viewer's own matches in the class, oldest first.
func (r *Reports) History(ctx context.Context, v classroom.Viewer) ([]play.Match, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	me, ok := v.Student()
	if !ok {
		return nil, classroom.ErrNotStudent
	}
	return r.st.Matches(ctx, store.MatchFilter{ClassID: c.ID, StudentID: me.ID})
}

// ClassMatches are every match of the class, oldest first, for its
// members (a podium of a day or of the unit counts them).
func (r *Reports) ClassMatches(ctx context.Context, v classroom.Viewer) ([]play.Match, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	return r.st.Matches(ctx, store.MatchFilter{ClassID: c.ID})
}

// StudentMatches are one student's matches in the class, oldest first,
// for the class's teacher.
func (r *Reports) StudentMatches(ctx context.Context, v classroom.Viewer, studentID int64) ([]play.Match, error) {
	c, err := member(v)
	if err != nil || !v.Teacher() {
		return nil, classroom.ErrNotTeacher
	}
	return r.st.Matches(ctx, store.MatchFilter{ClassID: c.ID, StudentID: studentID})
}

// SkunkDecisions are the stand and sit decisions of the class's games of
// whole-class Skunk, for its members.
func (r *Reports) SkunkDecisions(ctx context.Context, v classroom.Viewer, day string) ([]store.SkunkDecision, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	k, err := loadSkunks(ctx, r.st, c.ID)
	if err != nil {
		return nil, err
	}
	var out []store.SkunkDecision
	for _, g := range k.games {
		if day != "" && g.Day != day {
			continue
		}
		for _, e := range k.log[g.ID] {
			if e.Action == store.SkunkStand || e.Action == store.SkunkSit {
				out = append(out, store.SkunkDecision{SkunkEvent: e, Rounds: g.Rounds})
			}
		}
	}
	return out, nil
}

// RoundMatches are the matches of one of the class's rounds.
func (r *Reports) RoundMatches(ctx context.Context, v classroom.Viewer, roundID int64) ([]play.Match, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	return r.st.Matches(ctx, store.MatchFilter{ClassID: c.ID, RoundID: roundID})
}

// MysterySeats are the class's mystery bots whose seed is published, with
// their players' guesses, for its members.
func (r *Reports) MysterySeats(ctx context.Context, v classroom.Viewer, day string) ([]store.MysterySeat, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	return r.st.MysterySeats(ctx, c.ID, day)
}

// Today is the date now in the server's time zone, as days are written.
func (r *Reports) Today() string { return r.st.Today() }

// PlayedOn reports whether the viewer's class started a round or a game
// of Skunk on day, for its members.
func (r *Reports) PlayedOn(ctx context.Context, v classroom.Viewer, day string) (bool, error) {
	c, err := member(v)
	if err != nil {
		return false, err
	}
	return r.st.PlayedOn(ctx, c.ID, day)
}

// ClassDays are the days the viewer's class played, with the lesson plan
// of each, for its teacher.
func (r *Reports) ClassDays(ctx context.Context, v classroom.Viewer) ([]store.ClassDay, error) {
	c, err := member(v)
	if err != nil || !v.Teacher() {
		return nil, classroom.ErrNotTeacher
	}
	return r.st.ClassDays(ctx, c.ID)
}

// LastActive is when the viewer's class was last active, for its
// teacher (store.LastActive).
func (r *Reports) LastActive(ctx context.Context, v classroom.Viewer) (time.Time, error) {
	c, err := member(v)
	if err != nil || !v.Teacher() {
		return time.Time{}, classroom.ErrNotTeacher
	}
	return r.st.LastActive(ctx, c.ID)
}

// PigTargets are the targets of the class's Pig matches, most played first.
func (r *Reports) PigTargets(ctx context.Context, v classroom.Viewer) ([]int, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	return r.st.PigTargets(ctx, c.ID)
}

// Decisions are the class's decisions that f picks (its ClassID is the
// viewer's class), students' only with studentsOnly.
func (r *Reports) Decisions(ctx context.Context, v classroom.Viewer, f store.ChartFilter, studentsOnly bool) ([]store.Decision, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	f.ClassID = c.ID
	return r.st.Decisions(ctx, f, studentsOnly)
}

// Faces are the class's dice, face by face.
func (r *Reports) Faces(ctx context.Context, v classroom.Viewer) ([]int, error) {
	m, err := r.Marks(ctx, v, sim.DieName, "")
	return m.All, err
}

// Marks are the marks the class's pieces of one kind showed ("pig": the
// pigs' landings), piece by piece: all of them, and those entered by hand
// at tables apart.
func (r *Reports) Marks(ctx context.Context, v classroom.Viewer, piece, day string) (store.Thrown, error) {
	c, err := member(v)
	if err != nil {
		return store.Thrown{}, err
	}
	return r.st.Marks(ctx, c.ID, piece, day)
}

// FirstPlayerRules counts the class's finished two-player matches by
// their rules (f's day).
func (r *Reports) FirstPlayerRules(ctx context.Context, v classroom.Viewer, f store.ChartFilter) ([]store.FirstRules, error) {
	c, err := member(v)
	if err != nil {
		return nil, err
	}
	f.ClassID = c.ID
	return r.st.FirstPlayerRules(ctx, f)
}

// FirstPlayerResults counts the class's finished matches that f picks and
// those the first player won.
func (r *Reports) FirstPlayerResults(ctx context.Context, v classroom.Viewer, f store.ChartFilter) (games, firstWins int, err error) {
	c, err := member(v)
	if err != nil {
		return 0, 0, err
	}
	f.ClassID = c.ID
	return r.st.FirstPlayerResults(ctx, f)
}

// Export writes one CSV file of the viewer's class, for its teacher:
// decisions, matches, match_players or students. Names are the real
// nicknames when real is set (else the generated ones of anonymous mode).
// platformIDs fills students.csv's platform_user with each student's user
// id at the learning platform they came from (LTI), which only the
// teacher's asking puts in a file.
func (r *Reports) Export(ctx context.Context, v classroom.Viewer, what string, real bool, day string, platformIDs bool, w io.Writer) error {
	if !v.Teacher() {
		return classroom.ErrNotTeacher
	}
	write, err := exporter(what)
	if err != nil {
		return err
	}
	return write(ctx, exportSource{st: r.st, tables: r.tables, platformIDs: platformIDs}, v.Class().Class, real, day, w)
}
