package play

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// memLog is a Log in memory, for the hall's own tests.
type memLog struct {
	mu      sync.Mutex
	matches map[int64]Match
	events  map[int64][]Event
	guesses []Guess
}

func newMemLog() *memLog { return &memLog{matches: map[int64]Match{}, events: map[int64][]Event{}} }

func (l *memLog) CreateMatch(_ context.Context, m Match) (int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m.ID = int64(len(l.matches) + 1)
	l.matches[m.ID] = m
	return m.ID, nil
}

func (l *memLog) AppendEvents(_ context.Context, id int64, events []Event, result *sim.Result) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events[id] = append(l.events[id], events...)
	if result != nil {
		m := l.matches[id]
		m.Status, m.Result = Over, result
		l.matches[id] = m
	}
	return nil
}

func (l *memLog) EndMatch(_ context.Context, id int64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.matches[id]
	m.Status = Ended
	l.matches[id] = m
	return nil
}

func (l *memLog) FillAnalyses(context.Context, []Event) error                     { return nil }
func (l *memLog) PendingMatches(context.Context, int64) ([]int64, error)          { return nil, nil }
func (l *memLog) PlayingEvents(context.Context, int64) (map[int64][]Event, error) { return nil, nil }
func (l *memLog) PlayingMatches(context.Context, int64) ([]Match, error)          { return nil, nil }
func (l *memLog) SaveGuess(_ context.Context, g Guess) error {
	l.guesses = append(l.guesses, g)
	return nil
}
func (l *memLog) Guesses(context.Context, int64) ([]Guess, error) { return l.guesses, nil }

func (l *memLog) MatchByID(_ context.Context, id int64) (Match, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.matches[id]
	if !ok {
		return Match{}, ErrNoMatch
	}
	return m, nil
}

func (l *memLog) MatchEvents(_ context.Context, id int64) ([]Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events[id], nil
}

// class is a Host for the tests: the hall tells it of changes from its
// own goroutines (bots' moves), so it counts them atomically.
type class struct{ changed atomic.Int64 }

func (c *class) Paused() bool                  { return false }
func (c *class) Changed()                      { c.changed.Add(1) }
func (c *class) Counted(*Match, []Event, bool) {}
func (c *class) ExtraTime(int64) time.Duration { return 0 }

// TestTheDoorHoldsEveryOrigin (issue 40, item 2): a round, a practice
// match and a game of homework are refused by the same limits: the
// server's live matches, a class's, and the allowance of new kinds; each
// refusal names its limit and starts nothing.
func TestTheDoorHoldsEveryOrigin(t *testing.T) {
	h := NewHall(newMemLog(), &solve.Cache{}, nil, []byte("test key"), slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now)
	defer h.Close()
	h.SetLimits(Limits{Live: 4, ClassLive: 3, PlayerOpen: 2, DeviceStarts: 100, ClassStarts: 100, KindsClass: 1, KindsServer: 3})
	ctx := context.Background()
	a, b := &class{}, &class{}
	pig := sim.Standard(sim.Pig)
	match := func(v sim.Variant, player int64) Match {
		return NewMatch(v, testSeeds.Seed(), []Seat{{Seat: 0, StudentID: player}, {Seat: 1, Bot: "hold:20"}})
	}
	round := func(host *class, code string, n int, v sim.Variant) Request {
		req := Request{Origin: FromRound, Host: host, Class: code}
		for i := range n {
			req.Matches = append(req.Matches, match(v, int64(100+i)))
		}
		return req
	}
	practice := func(player int64, v sim.Variant) Request {
		return Request{Origin: FromPractice, Device: "127.0.0.1", Player: player, Matches: []Match{match(v, player)}}
	}
	homework := func(host *class, code string, player int64, v sim.Variant) Request {
		return Request{Origin: FromHomework, Host: host, Class: code, Device: "127.0.0.1", Player: player, Matches: []Match{match(v, player)}}
	}
	refused := func(what string, req Request, want Limit) {
		t.Helper()
		before := len(h.Matches())
		_, err := h.Start(ctx, req)
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != want {
			t.Errorf("%s: %v, want the limit %s", what, err, want)
		}
		if len(h.Matches()) != before {
			t.Errorf("%s: refused, yet %d matches started", what, len(h.Matches())-before)
		}
	}
	started := func(what string, req Request) {
		t.Helper()
		if _, err := h.Start(ctx, req); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	// The class's live matches: a round of three fills class A.
	started("a round of three", round(a, "A", 3, pig))
	refused("A's homework", homework(a, "A", 1, pig), LimitClassLive)
	four := round(a, "A", 4, pig)
	four.Ending = 3
	if err := h.Admit(four); !errors.As(err, new(*LimitError)) || err.(*LimitError).Limit != LimitClassLive {
		t.Errorf("A's round of four, ending its three: %v, want the class's limit", err)
	}
	// A round again replaces A's own: its places count as free.
	if err := h.Admit(Request{Origin: FromRound, Host: a, Class: "A", Matches: round(a, "A", 3, pig).Matches, Ending: 3}); err != nil {
		t.Errorf("A's round again, ending its own: %v", err)
	}
	// The server's live matches: four in all.
	started("B's homework", homework(b, "B", 7, pig))
	refused("practice on a full server", practice(9, pig), LimitLive)
	refused("B's round on a full server", round(b, "B", 1, pig), LimitLive)
	refused("B's homework on a full server", homework(b, "B", 8, pig), LimitLive)

	// New kinds: one a minute for a class (or a device without one), a
	// few for the server; each origin spends its own.
	h.SetLimits(Limits{Live: 100, ClassLive: 100, PlayerOpen: 5, DeviceStarts: 100, ClassStarts: 100, KindsClass: 1, KindsServer: 3})
	kind := func(target int) sim.Variant {
		v := pig
		v.Target = target
		return v
	}
	started("C's round of a new kind", round(&class{}, "C", 1, kind(21)))
	refused("C's homework of another new kind", homework(&class{}, "C", 11, kind(22)), LimitKindsClass)
	started("practice of a new kind", practice(12, kind(23)))
	refused("practice of another new kind from the device", practice(12, kind(24)), LimitKindsClass)
	started("D's homework of a new kind", homework(&class{}, "D", 13, kind(25)))
	refused("E's round of a new kind: the server's allowance spent", round(&class{}, "E", 1, kind(26)), LimitKindsServer)
	if err := h.NewKind("F", &class{}, kind(27)); !errors.As(err, new(*LimitError)) {
		t.Errorf("homework set of a new kind with the server's allowance spent: %v", err)
	}
	if h.KindsSpent("") != 3 || h.KindsSpent("C") != 1 {
		t.Errorf("kinds spent: %d in all, %d by C", h.KindsSpent(""), h.KindsSpent("C"))
	}
}

// testSeeds are the seeds the package's tests play: the same on every run.
var testSeeds = sim.NewStream(20261204)
