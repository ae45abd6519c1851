package report

import (
	"context"
	"fmt"
	"sort"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// classData is everything a class has, read for the dashboard and exports.
type classData struct {
	class    store.Class
	day      string // the day the data counts ("" every day)
	students []store.Student
	matches  []play.Match
	events   []play.Event
	states   map[int64]sim.State
	stats    map[int64]store.StudentStats
	skunks   skunkData
	platform map[int64]string // each student's user id at their learning platform, when the teacher asks
	members  map[int64]string // the same, always: who came from a platform (students.csv's came)
}

// skunkData is a class's Skunk games with their logs, and each game
// replayed (by replay, for the files that need the games' scores).
type skunkData struct {
	games  []store.SkunkGame
	log    map[int64][]store.SkunkEvent
	played map[int64]*sim.Skunk
}

// loadSkunks reads a class's Skunk games and their logs.
func loadSkunks(ctx context.Context, st *store.Store, classID int64) (skunkData, error) {
	k := skunkData{log: map[int64][]store.SkunkEvent{}, played: map[int64]*sim.Skunk{}}
	var err error
	if k.games, err = st.SkunkGames(ctx, classID, ""); err != nil {
		return k, err
	}
	for _, g := range k.games {
		if k.log[g.ID], err = st.SkunkEvents(ctx, g.ID); err != nil {
			return k, err
		}
	}
	return k, nil
}

// replay plays each game again from its log, for its scores and winners.
func (k *skunkData) replay() error {
	for _, g := range k.games {
		played, err := store.ReplaySkunk(g, k.log[g.ID])
		if err != nil {
			return fmt.Errorf("skunk game %d: %w", g.ID, err)
		}
		k.played[g.ID] = played
	}
	return nil
}

// loadStudents reads a class's students and their totals: of one day of
// the class, or of every day ("").
func loadStudents(ctx context.Context, st *store.Store, class store.Class, day string) (*classData, error) {
	d := &classData{class: class, day: day}
	var err error
	if d.stats, _, err = st.ClassStatsOn(ctx, class.ID, day); err != nil {
		return nil, err
	}
	if d.students, err = st.Students(ctx, class.ID); err != nil {
		return nil, err
	}
	removed, err := st.RemovedStudents(ctx, class.ID)
	if err != nil {
		return nil, err
	}
	d.students = append(d.students, removed...)
	sort.Slice(d.students, func(i, j int) bool { return d.students[i].ID < d.students[j].ID })
	if d.skunks, err = loadSkunks(ctx, st, class.ID); err != nil {
		return nil, err
	}
	d.skunks = d.skunks.on(day)
	if err := d.skunks.replay(); err != nil {
		return nil, err
	}
	for _, g := range d.skunks.games { // Skunk counts as any game
		store.AddSkunkGame(d.stats, g, d.skunks.played[g.ID], d.skunks.log[g.ID])
	}
	return d, nil
}

// loadClassData reads a class from st and replays its matches.
func loadClassData(ctx context.Context, st *store.Store, class store.Class) (*classData, error) {
	d := &classData{class: class, states: map[int64]sim.State{}}
	var err error
	if d.stats, _, err = st.ClassStats(ctx, class.ID); err != nil {
		return nil, err
	}
	if d.students, err = st.Students(ctx, class.ID); err != nil {
		return nil, err
	}
	if d.matches, err = st.Matches(ctx, store.MatchFilter{ClassID: class.ID}); err != nil {
		return nil, err
	}
	if d.events, err = st.Events(ctx, store.EventFilter{ClassID: class.ID}); err != nil {
		return nil, err
	}
	if d.skunks, err = loadSkunks(ctx, st, class.ID); err != nil {
		return nil, err
	}
	if err := d.skunks.replay(); err != nil {
		return nil, err
	}
	byMatch := map[int64][]play.Event{}
	for _, e := range d.events {
		byMatch[e.MatchID] = append(byMatch[e.MatchID], e)
	}
	for _, m := range d.matches {
		replayed, err := sim.Replay(m.Variant, m.Seed, play.SimEvents(byMatch[m.ID]))
		if err != nil {
			return nil, fmt.Errorf("report: match %d: %w", m.ID, err)
		}
		d.states[m.ID] = replayed.State()
	}
	return d, nil
}

// IsDecision reports whether an event is a decision (not a resignation).
func IsDecision(e play.Event) bool { return e.Action.Kind != sim.ResignKind }

// ChosenAction is the option a decision took (a timeout holds).
func ChosenAction(e play.Event) sim.Action {
	if e.Action.Kind == sim.TimeoutKind {
		return sim.Hold
	}
	return e.Action
}

// on keeps the games of Skunk of one day of the class ("" every day).
func (k skunkData) on(day string) skunkData {
	if day == "" {
		return k
	}
	out := skunkData{log: k.log, played: k.played}
	for _, g := range k.games {
		if g.Day == day {
			out.games = append(out.games, g)
		}
	}
	return out
}

// on keeps the matches and games of Skunk of one day of the class (""
// every day).
func (d *classData) on(day string) *classData {
	if day == "" {
		return d
	}
	out := *d
	out.day, out.matches, out.skunks = day, nil, d.skunks.on(day)
	for _, m := range d.matches {
		if m.Day == day {
			out.matches = append(out.matches, m)
		}
	}
	return &out
}
