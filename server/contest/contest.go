// Package contest is a class's strategy tournament (issue 46; sim/plans.md):
// students' plans, their exact chances while they edit them, and the
// tournament that plays every pair of entries exactly, in the background,
// one duel at a time beside the class's play.
package contest

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// Contest works out plans' chances and plays tournaments for a server.
// Its background work takes one core at most (one duel at a time), so a
// tournament leaves the other to the class's pages and moves. Its maps
// are guarded by mu, a leaf.
type Contest struct {
	st     *store.Store
	tables *solve.Cache
	log    *slog.Logger
	now    func() time.Time
	budget chan struct{} // one duel at a time, whoever asks

	mu      sync.Mutex
	chances map[[32]byte]*Chances // a plan's, by its JSON's hash
	pending int                   // plans whose chances are being worked out
	running map[int64]*progress   // a tournament being played, by id

	// Changed, if set before the first tournament, is told of a class
	// whose tournament moved on (a duel played, the standings stored),
	// so that the pages that show it hear of it (the room's Touch).
	Changed func(classID int64)
}

// New returns the contest of a server's store and tables, on the clock
// now (the entries that close at a time close by it).
func New(st *store.Store, tables *solve.Cache, log *slog.Logger, now func() time.Time) *Contest {
	return &Contest{st: st, tables: tables, log: log, now: now, budget: make(chan struct{}, 1),
		chances: map[[32]byte]*Chances{}, running: map[int64]*progress{}}
}

// Chances are a plan's exact chances of winning against its game's rule
// of thumb (hold at 20 in Pig) and against perfect play: moving first,
// moving second, and the average of the two. Ready once worked out.
type Chances struct {
	Ready                bool
	Err                  error
	RuleOfThumb, Perfect [3]float64
}

// ChancesOf are plan pl's chances so far: worked out in the background
// the first time they are asked for, and kept (a plan's chances never
// change).
func (c *Contest) ChancesOf(pl sim.Plan) Chances {
	pl.Name = ""
	b, _ := json.Marshal(pl)
	key := sha256.Sum256(b)
	c.mu.Lock()
	got, ok := c.chances[key]
	if !ok && c.pending >= maxPending {
		// As many plans wait for the core as a class saves at once: this
		// one is asked again by the page's poll, and waits its turn then.
		c.mu.Unlock()
		return Chances{}
	}
	if !ok {
		if len(c.chances) >= maxChances {
			c.forgetChances()
		}
		got = &Chances{}
		c.chances[key] = got
		c.pending++
		go c.workOut(pl, got)
	}
	out := *got
	c.mu.Unlock()
	return out
}

// maxPending bounds the plans whose chances wait for the core at once: a
// class saving together fits; a script saving plan after plan waits.
const maxPending = 64

// maxChances bounds the plans whose chances are kept: a school's worth
// of edits, about a kilobyte each.
const maxChances = 1 << 14

// forgetChances drops half the worked-out chances kept (any half: the
// next ask works a plan's out again), under mu.
func (c *Contest) forgetChances() {
	n := len(c.chances) / 2
	for k, ch := range c.chances {
		if n == 0 {
			return
		}
		if ch.Ready {
			delete(c.chances, k)
			n--
		}
	}
}

// workOut computes a plan's chances into got.
func (c *Contest) workOut(pl sim.Plan, got *Chances) {
	v, err := VariantOf(pl)
	var res Chances
	if err == nil {
		var perfect sim.Strategy
		if perfect, err = solve.ParseStrategy(sim.PerfectBot, v, c.tables); err == nil {
			for i, other := range []sim.Strategy{sim.HoldAt(v.Game.Rules().HoldAt), perfect} {
				var three [3]float64
				if three, err = c.both(v, &pl, other); err != nil {
					break
				}
				if i == 0 {
					res.RuleOfThumb = three
				} else {
					res.Perfect = three
				}
			}
		}
	}
	res.Ready, res.Err = true, err
	c.mu.Lock()
	*got = res
	c.pending--
	c.mu.Unlock()
}

// both is s's chance against other moving first, second, and averaged,
// two duels within the budget.
func (c *Contest) both(v sim.Variant, s, other sim.Strategy) ([3]float64, error) {
	c.budget <- struct{}{}
	defer func() { <-c.budget }()
	first, err := solve.Duel(v, s, other)
	if err != nil {
		return [3]float64{}, err
	}
	second, err := solve.Duel(v, other, s)
	if err != nil {
		return [3]float64{}, err
	}
	return [3]float64{first, 1 - second, (first + 1 - second) / 2}, nil
}

// VariantOf is the two-player variant a plan is for.
func VariantOf(pl sim.Plan) (sim.Variant, error) {
	g, err := sim.ParseGame(pl.Game)
	if err != nil {
		return sim.Variant{}, err
	}
	v := sim.Standard(g)
	v.Target = pl.Target
	return v, pl.Check(v)
}

// Save stores a student's plan in their class.
func (c *Contest) Save(ctx context.Context, classID, studentID int64, pl sim.Plan) error {
	return c.st.Plans().Save(ctx, classID, studentID, pl)
}

// PlanOf is a student's saved plan; store.ErrNotFound for none.
func (c *Contest) PlanOf(ctx context.Context, classID, studentID int64) (sim.Plan, error) {
	got, err := c.st.Plans().Of(ctx, classID, studentID)
	if err != nil {
		return sim.Plan{}, err
	}
	if len(got) == 0 {
		return sim.Plan{}, store.ErrNotFound
	}
	return got[0].Plan, nil
}

// Entered counts the class's saved plans for v.
func (c *Contest) Entered(ctx context.Context, classID int64, v sim.Variant) (int, error) {
	got, err := c.st.Plans().Of(ctx, classID, 0)
	n := 0
	for _, sp := range got {
		if sp.Plan.Check(v) == nil {
			n++
		}
	}
	return n, err
}

// Bots a teacher may add to a tournament of game g: its rule of thumb,
// keep pace and end race where the game has it, and perfect play.
func Bots(g sim.Game) []string {
	out := []string{sim.HoldAt(g.Rules().HoldAt).String()}
	if g.Rules().KeepPace {
		out = append(out, sim.KeepPaceBot)
	}
	return append(out, sim.PerfectBot)
}

// Errors a teacher's tournament request gets.
var (
	ErrOpen    = errors.New("contest: the class has a tournament open or being played")
	ErrNoHolds = errors.New("contest: a tournament plays a game of rolls and holds")
)

// Open opens a new tournament of v for a class, with the bots given (each
// one of Bots(v.Game)), its entries closing by themselves at closes (zero:
// on the teacher's button), unless one is open or being played.
func (c *Contest) Open(ctx context.Context, classID int64, v sim.Variant, bots []string, closes time.Time) (store.Tournament, error) {
	if v.Game.ChoosesDice() {
		return store.Tournament{}, ErrNoHolds
	}
	if err := solve.CheckStrategy(sim.PerfectBot, v); err != nil {
		return store.Tournament{}, err
	}
	// One at a time: a tournament open or being played bars another, one
	// whose duels stopped (Err) does not.
	if st, err := c.Status(ctx, classID); err == nil && st.Result == nil && st.Err == nil {
		return store.Tournament{}, ErrOpen
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.Tournament{}, err
	}
	for _, b := range bots {
		if !slices.Contains(Bots(v.Game), b) {
			return store.Tournament{}, fmt.Errorf("contest: bot %q does not play %s in a tournament", b, v.Game.Title())
		}
	}
	return c.st.Plans().OpenTournament(ctx, store.Tournament{ClassID: classID, Variant: v, Bots: bots, ClosesAt: closes})
}
