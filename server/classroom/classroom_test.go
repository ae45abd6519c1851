package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// tables is shared by the tests: Pig to 100 is solved once.
var tables = &solve.Cache{}

// fault makes the store's commits fail while it is set; while gate holds
// a channel, each commit waits for it to close.
type fault struct {
	on   atomic.Bool
	gate atomic.Pointer[chan struct{}]
}

func (f *fault) beforeCommit() error {
	if g := f.gate.Load(); g != nil {
		<-*g
	}
	if f.on.Load() {
		return errors.New("injected: the disk refused")
	}
	return nil
}

// openRoom opens a store on path with fault injection and a room on it,
// restored.
func openRoom(t *testing.T, path string) (*Room, *store.Store, *fault) {
	t.Helper()
	f := &fault{}
	st, err := store.OpenWith(context.Background(), path, store.Options{BeforeCommit: f.beforeCommit})
	if err != nil {
		t.Fatal(err)
	}
	r := New(st, []byte("test key"), tables, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	r.Set(Policy{Chance: sim.NewStream(uint64(len(t.Name())))})
	if _, err := r.Restore(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.hall.Close(); st.Close() })
	return r, st, f
}

// classWithRound makes a class of n students in a round against hold:20.
func classWithRound(t *testing.T, r *Room, n int) (*Class, []store.Student) {
	t.Helper()
	ctx := context.Background()
	// The table first: a bot that moves first in a match whose decisions
	// waited for it would have them filled in (a new version of the match)
	// in the middle of a test that compares versions.
	if _, err := tables.Get(sim.Standard(sim.Pig)); err != nil {
		t.Fatal(err)
	}
	c, err := r.CreateClass(ctx, func() string { return "TESTAA" }, "hash", "")
	if err != nil {
		t.Fatal(err)
	}
	var students []store.Student
	for i := range n {
		st, err := r.Join(ctx, c.ID, fmt.Sprintf("s%d", i), fmt.Sprintf("token%d", i))
		if err != nil {
			t.Fatal(err)
		}
		students = append(students, st)
	}
	if _, _, err := r.StartRound(ctx, operator(t, r, c), RoundSpec{Variant: sim.Standard(sim.Pig), Mode: "bot", Bot: "hold:20"}); err != nil {
		t.Fatal(err)
	}
	return c, students
}

// actAll has every student roll or hold (at 20) once, all at once, and
// returns each one's error.
func actAll(r *Room, c *Class, students []store.Student) []error {
	errs := make([]error, len(students))
	var wg sync.WaitGroup
	for i, st := range students {
		wg.Go(func() {
			m := r.classes.loaded(c.ID).playing(st.ID)
			if m == nil || m.Over() {
				errs[i] = play.ErrNotPlaying
				return
			}
			_, errs[i] = r.hall.Act(context.Background(), m.ID, st.ID, m.Seq(), sim.HoldAt(20).Decide(m.State.Position()))
		})
	}
	wg.Wait()
	return errs
}

// TestFailedCommitLeavesMatchesAsBefore: when the disk refuses a batch,
// every action in it is refused with ErrNotSaved and every match is as it
// was, in memory and on disk; the same moves then succeed.
func TestFailedCommitLeavesMatchesAsBefore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fault.db")
	r, st, f := openRoom(t, path)
	c, students := classWithRound(t, r, 24)
	before := map[int64]*play.Match{}
	for _, s := range students {
		before[s.ID] = r.classes.loaded(c.ID).playing(s.ID)
	}
	statsBefore, totalBefore := r.classes.loaded(c.ID).statsCopy()
	f.on.Store(true)
	for i, err := range actAll(r, c, students) {
		if !errors.Is(err, ErrNotSaved) {
			t.Errorf("student %d: %v, want ErrNotSaved", i, err)
		}
	}
	f.on.Store(false)
	for _, s := range students {
		now, was := r.classes.loaded(c.ID).playing(s.ID), before[s.ID]
		if now.Version != was.Version || now.Seq() != was.Seq() || now.State != was.State {
			t.Errorf("student %d's match changed: version %d→%d, seq %d→%d", s.ID, was.Version, now.Version, was.Seq(), now.Seq())
		}
	}
	if stats, total := r.classes.loaded(c.ID).statsCopy(); total != totalBefore || len(stats) != len(statsBefore) {
		t.Errorf("totals moved on a refused batch: %d decisions, was %d", total, totalBefore)
	}
	// Tried again, the same moves are taken, and only once.
	for i, err := range actAll(r, c, students) {
		if err != nil {
			t.Errorf("student %d, second try: %v", i, err)
		}
	}
	want := map[int64]int{}
	for _, s := range students {
		m := r.classes.loaded(c.ID).playing(s.ID)
		want[m.ID] = m.Seq()
	}
	st.Close()
	r2, _, _ := openRoom(t, path)
	for id, seq := range want {
		m := r2.hall.Match(id)
		if m == nil && seq > 0 {
			t.Errorf("match %d did not come back", id)
			continue
		}
		if m != nil && m.Seq() != seq {
			t.Errorf("match %d: %d events after a restart, %d acknowledged", id, m.Seq(), seq)
		}
	}
}

// TestActionsShareBatches: students in different matches acting at once
// share the writer's transactions, and every acknowledged action is stored
// once.
func TestActionsShareBatches(t *testing.T) {
	r, st, _ := openRoom(t, filepath.Join(t.TempDir(), "batch.db"))
	c, students := classWithRound(t, r, 40)
	b0, w0 := st.WriterStats()
	acked := 0
	for range 5 {
		for _, err := range actAll(r, c, students) {
			if err == nil {
				acked++
			}
		}
	}
	b1, w1 := st.WriterStats()
	if w1-w0 != int64(acked) || b1-b0 >= w1-w0 {
		t.Errorf("%d acknowledged actions in %d writes and %d batches: no group commit", acked, w1-w0, b1-b0)
	}
	events, err := st.Events(context.Background(), store.EventFilter{ClassID: c.ID})
	if err != nil {
		t.Fatal(err)
	}
	byStudent := 0
	for _, e := range events {
		if e.By == "student" {
			byStudent++
		}
	}
	if byStudent != acked {
		t.Errorf("%d student events stored, %d acknowledged", byStudent, acked)
	}
	stats, _ := r.classes.loaded(c.ID).statsCopy()
	counted := 0
	for _, s := range stats {
		counted += s.Decisions
	}
	fromDisk, _, err := st.ClassStats(context.Background(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	diskCounted := 0
	for _, s := range fromDisk {
		diskCounted += s.Decisions
	}
	if counted != acked || diskCounted != acked {
		t.Errorf("totals in memory %d, on disk %d, acknowledged %d", counted, diskCounted, acked)
	}
}

// TestSnapshotsAreImmutable: a snapshot taken before a move does not
// change when the match moves on.
func TestSnapshotsAreImmutable(t *testing.T) {
	r, _, _ := openRoom(t, filepath.Join(t.TempDir(), "snap.db"))
	c, students := classWithRound(t, r, 1)
	old := r.classes.loaded(c.ID).playing(students[0].ID)
	seq, version, state := old.Seq(), old.Version, old.State
	if _, err := r.hall.Act(context.Background(), old.ID, students[0].ID, old.Seq(), sim.Roll); err != nil {
		t.Fatal(err)
	}
	if old.Seq() != seq || old.Version != version || old.State != state {
		t.Error("an old snapshot changed")
	}
	if now := r.classes.loaded(c.ID).playing(students[0].ID); now.Version <= version || now.Seq() <= seq {
		t.Errorf("the new snapshot did not move: version %d, seq %d", now.Version, now.Seq())
	}
	if _, err := r.hall.Act(context.Background(), old.ID, students[0].ID, seq, sim.Roll); !errors.Is(err, play.ErrStale) {
		t.Errorf("a stale move: %v, want play.ErrStale", err)
	}
}

// TestEndRoundStopsEveryMatch: ending a round stops its matches in memory
// and on disk in one write, and a move after it is refused.
func TestEndRoundStopsEveryMatch(t *testing.T) {
	r, st, _ := openRoom(t, filepath.Join(t.TempDir(), "end.db"))
	c, students := classWithRound(t, r, 10)
	m := r.classes.loaded(c.ID).playing(students[0].ID)
	if err := r.EndRound(context.Background(), operator(t, r, c)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.hall.Act(context.Background(), m.ID, students[0].ID, m.Seq(), sim.Roll); !errors.Is(err, play.ErrNotPlaying) {
		t.Errorf("a move after the round ended: %v", err)
	}
	playing, err := st.Matches(context.Background(), store.MatchFilter{ClassID: c.ID, Status: play.Playing})
	if err != nil || len(playing) != 0 {
		t.Errorf("%d matches still playing on disk (%v)", len(playing), err)
	}
	if snap, _ := r.ClassByID(context.Background(), c.ID); snap.Round != nil {
		t.Error("the class still has an open round")
	}
}

// operator is the class's teacher as the room's operator.
func operator(t testing.TB, r *Room, c *Class) Viewer {
	t.Helper()
	v, err := r.Operator(context.Background(), c.Code)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMatchTooLongEnds: two students holding on nothing for ever (or a
// script) make a match longer than any honest game; at MaxMatchEvents it
// ends, stored as ended, and no move is taken after.
func TestMatchTooLongEnds(t *testing.T) {
	r, st, _ := openRoom(t, filepath.Join(t.TempDir(), "long.db"))
	r.hall.MaxEvents = 12
	ctx := context.Background()
	c, err := r.CreateClass(ctx, func() string { return "LONGAA" }, "hash", "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := r.Join(ctx, c.ID, fmt.Sprintf("s%d", i), fmt.Sprintf("token%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := r.StartRound(ctx, operator(t, r, c), RoundSpec{Variant: sim.Standard(sim.Pig), Mode: play.InPairs, Bot: "hold:20"}); err != nil {
		t.Fatal(err)
	}
	m := r.classes.loaded(c.ID).matches()[0]
	for range 100 {
		if m.Over() {
			break
		}
		seat := m.State.Seat
		if m, err = r.hall.Act(ctx, m.ID, m.Seats[seat].StudentID, m.Seq(), sim.Hold); err != nil {
			t.Fatal(err)
		}
	}
	if m.Seq() != 12 || m.Status != play.Ended {
		t.Fatalf("after %d events: status %s", m.Seq(), m.Status)
	}
	if _, err := r.hall.Act(ctx, m.ID, m.Seats[m.State.Seat].StudentID, m.Seq(), sim.Hold); !errors.Is(err, play.ErrNotPlaying) {
		t.Errorf("a move after the end: %v", err)
	}
	if row, err := st.MatchByID(ctx, m.ID); err != nil || row.Status != play.Ended {
		t.Errorf("on disk: %v %v", row.Status, err)
	}
}

// TestSkunkSitsShareCommits: a class sitting down at once: every sit is
// committed and acknowledged, in fewer writes than sits; and when the disk
// refuses, every sit pending is refused and the game is as stored.
func TestSkunkSitsShareCommits(t *testing.T) {
	r, st, f := openRoom(t, filepath.Join(t.TempDir(), "skunk.db"))
	ctx := context.Background()
	c, err := r.CreateClass(ctx, func() string { return "SKUNKA" }, "hash", "")
	if err != nil {
		t.Fatal(err)
	}
	const n = 30
	var viewers []Viewer
	for i := range n {
		token := fmt.Sprintf("token%d", i)
		if _, err := r.Join(ctx, c.ID, fmt.Sprintf("s%d", i), token); err != nil {
			t.Fatal(err)
		}
		v, err := r.Identify(ctx, Credentials{Code: c.Code, TokenHash: token})
		if err != nil {
			t.Fatal(err)
		}
		viewers = append(viewers, v)
	}
	teacher := operator(t, r, c)
	// The first roll scores: there are points to sit on.
	seed, _, err := sim.FindSeed(1, 1000, func(s *sim.Seed) bool { f := s.RollFaces(0, 0, 0, 2); return f.Ones() == 0 })
	if err != nil {
		t.Fatal(err)
	}
	r.chance.(*sim.Stream).Deal(seed)
	if err := r.StartSkunk(ctx, teacher, 5); err != nil {
		t.Fatal(err)
	}
	k, err := r.SkunkRoll(ctx, teacher)
	if err != nil {
		t.Fatal(err)
	}
	if k.RoundTotal == 0 {
		t.Fatalf("the first roll of seed %v left a round total of 0", seed)
	}
	sitAll := func(vs []Viewer) []error {
		moment := teacher.Skunk().Moment
		errs := make([]error, len(vs))
		var wg sync.WaitGroup
		for i, v := range vs {
			wg.Go(func() { _, errs[i] = r.Sit(ctx, v, moment) })
		}
		wg.Wait()
		return errs
	}
	f.on.Store(true)
	for i, err := range sitAll(viewers[:10]) {
		if !errors.Is(err, ErrNotSaved) {
			t.Errorf("sit %d with the disk refusing: %v", i, err)
		}
	}
	f.on.Store(false)
	for p, standing := range teacher.Skunk().Standing {
		if !standing {
			t.Fatalf("participant %d sat though nothing was stored", p)
		}
	}
	// The first sit's commit is held until the others wait behind it, so
	// that a busy machine running the sits one after another cannot
	// decide what is measured.
	gate := make(chan struct{})
	f.gate.Store(&gate)
	go func() {
		k := r.classes.loaded(c.ID).skunk.Load()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			k.mu.Lock()
			waiting := len(k.pending)
			k.mu.Unlock()
			if waiting >= n-1 {
				break
			}
		}
		f.gate.Store(nil)
		close(gate)
	}()
	b0, _ := st.WriterStats()
	for i, err := range sitAll(viewers) {
		if err != nil {
			t.Errorf("sit %d: %v", i, err)
		}
	}
	b1, _ := st.WriterStats()
	// Everyone sat: each banked the round total (and the next round began).
	total := k.RoundTotal
	k = teacher.Skunk()
	for p, score := range k.Scores {
		if score != total {
			t.Errorf("participant %d banked %d, want %d", p, score, total)
		}
	}
	if b1-b0 >= n {
		t.Errorf("%d sits took %d commits", n, b1-b0)
	}
	games, _ := st.SkunkGames(ctx, c.ID, "")
	rows, _ := st.SkunkEvents(ctx, games[len(games)-1].ID)
	sits := 0
	for _, e := range rows {
		if e.Action == store.SkunkSit {
			sits++
		}
	}
	if sits != n {
		t.Errorf("%d sits stored, want %d", sits, n)
	}
}
