package sim

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// FastDice is the simulator's generator: PCG (math/rand/v2) seeded per game
// from the simulation key, each 64-bit output cut into four 16-bit pieces,
// each mapped to a face by Lemire's multiply-and-reject (pieces whose low half
// of 6·x falls below 65536 mod 6 = 4 are skipped), so every face is exactly
// 1/6. It is not the match dice of dice.md: it is for Monte Carlo only.
type FastDice struct {
	pcg  rand.PCG
	bits uint64
	left int
}

// NewFastDice returns the generator for game number game of a simulation
// keyed by key.
func NewFastDice(key [2]uint64, game uint64) *FastDice {
	d := &FastDice{}
	d.Reset(key, game)
	return d
}

// Reset reseeds d for game number game.
func (d *FastDice) Reset(key [2]uint64, game uint64) {
	d.pcg.Seed(key[0]^splitmix(game), key[1]^splitmix(^game))
	d.left = 0
}

// Face returns one die, 1 to 6.
func (d *FastDice) Face() int {
	for {
		if d.left == 0 {
			d.bits = d.pcg.Uint64()
			d.left = 4
		}
		m := (d.bits & 0xffff) * 6
		d.bits >>= 16
		d.left--
		if m&0xffff >= 4 {
			return int(m>>16) + 1
		}
	}
}

// Throw fills f with n dice.
func (d *FastDice) Throw(f *Faces, n int) {
	f.n = 0
	for range n {
		f.push(d.Face())
	}
}

// below returns a whole number below m (at most 65536), each exactly
// equally likely, by the same multiply-and-reject on 16-bit pieces as Face
// (which is below(6) + 1).
func (d *FastDice) below(m int) int {
	reject := uint64((1 << 16) % m)
	for {
		if d.left == 0 {
			d.bits = d.pcg.Uint64()
			d.left = 4
		}
		x := (d.bits & 0xffff) * uint64(m)
		d.bits >>= 16
		d.left--
		if x&0xffff >= reject {
			return int(x >> 16)
		}
	}
}

// ThrowOf fills f with n pieces of game g's kind: fair dice by Face, other
// pieces (and a mishap) by their weights.
func (d *FastDice) ThrowOf(g Game, f *Faces, n int) {
	r := g.Rules()
	if r.fairDie {
		d.Throw(f, n)
		return
	}
	f.n = 0
	if r.Mishap.Weight > 0 && d.below(r.Mishap.Of) < r.Mishap.Weight {
		for range n {
			f.push(int(r.Mishap.Mark))
		}
		return
	}
	total := r.Piece.total()
	for range n {
		f.push(r.Piece.mark(d.below(total)))
	}
}

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// SimKey derives a simulation key from any seed text (SHA-256 of it), so
// that "--seed 7" and "--seed lesson-3" both name a reproducible run.
func SimKey(seed string) [2]uint64 {
	sum := sha256.Sum256([]byte(seed))
	return [2]uint64{binary.BigEndian.Uint64(sum[0:]), binary.BigEndian.Uint64(sum[8:])}
}

// maxTurns ends a simulated game that goes on for ever (two strategies that
// both hold on nothing); such a game has no winner.
const maxTurns = 100000

// PlayFast plays one game between players, seat 0 first, with dice from d,
// and returns the final state. A game still going after maxTurns turns is
// returned unfinished.
func PlayFast(v Variant, players []Strategy, d *FastDice) State {
	var f Faces
	return playFast(v, players, d, &f)
}

// playFast is PlayFast with the throw's faces kept by the caller (a
// simulation's worker keeps one for all its games).
func playFast(v Variant, players []Strategy, d *FastDice, f *Faces) State {
	s := NewState(v, 0)
	g := v.Game
	n := g.Dice()
	turns := 0
	for !s.Over && turns < maxTurns {
		seat := s.Seat
		a := players[seat].Decide(s.Position())
		switch a.Kind {
		case RollKind:
			d.ThrowOf(g, f, n)
		case DiceKind:
			d.ThrowOf(g, f, int(a.Dice))
		}
		s.Do(seat, a, f)
		if s.Seat != seat {
			turns++
		}
	}
	return s
}

// SimConfig is one Monte Carlo tournament.
type SimConfig struct {
	Variant  Variant
	Players  []Strategy // one per seat, seat 0 moves first
	Games    int
	Key      [2]uint64
	Workers  int             // 0 means GOMAXPROCS
	Progress func(games int) // called now and then with the games done so far
	// Each, if set, is called after every game with its number and its
	// winner's seat (-1 for a game cut off), by the worker that played it:
	// with one worker, game by game in order.
	Each func(game, winner int)
}

// SimResult counts the outcome of a tournament. Game i always uses the dice
// of (key, i), so the counts do not depend on the number of workers.
type SimResult struct {
	Games      int
	Wins       []int // per seat
	Unfinished int   // games cut off at maxTurns
	Turns      int64 // turns taken in all games, all seats together
}

// MeanTurns returns the mean number of turns in a game, all seats together.
func (r SimResult) MeanTurns() float64 { return float64(r.Turns) / float64(r.Games) }

// WinRate returns seat's share of the games.
func (r SimResult) WinRate(seat int) float64 { return float64(r.Wins[seat]) / float64(r.Games) }

// Z95 is the normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// CI95 returns the Wilson 95% confidence interval of seat's win rate.
func (r SimResult) CI95(seat int) (lo, hi float64) {
	return Wilson(r.Wins[seat], r.Games, Z95)
}

// AsFar reports whether a difference d a randomization test drew is at
// least as far from 0 as the one observed, obs (two-sided: either way
// counts), allowing for the rounding of sums taken in another order. The
// test of "Decide before you roll" counts by it, and its chart draws by
// it.
func AsFar(d, obs float64) bool { return math.Abs(d) >= math.Abs(obs)-1e-9 }

// Wilson returns the Wilson score interval for k successes in n trials at
// the normal quantile z.
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return max(0, mid-half), min(1, mid+half)
}

// simBlock is the number of games a worker takes at a time.
const simBlock = 4096

// Simulate plays the tournament on all workers. It stops early, with the
// error of ctx, when ctx is cancelled.
func Simulate(ctx context.Context, c SimConfig) (SimResult, error) {
	if err := c.Variant.Validate(); err != nil {
		return SimResult{}, err
	}
	if len(c.Players) != c.Variant.Seats {
		return SimResult{}, fmt.Errorf("simulate: %d players for %d seats", len(c.Players), c.Variant.Seats)
	}
	if c.Games < 1 {
		return SimResult{}, errors.New("simulate: the number of games must be at least 1")
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	blocks := (c.Games + simBlock - 1) / simBlock
	var next, done atomic.Int64
	var mu sync.Mutex
	total := SimResult{Games: c.Games, Wins: make([]int, c.Variant.Seats)}
	// Players who all plan their turns, in a game of fair dice under the
	// standard rules, are played a turn at a time: the same games, faster.
	var outcomes []throwOutcome
	if !c.Variant.EqualTurns {
		outcomes = outcomesOf(c.Variant.Game)
	}
	var wg sync.WaitGroup
	for range workers {
		w := &simWorker{c: &c, done: ctx.Done(), players: forks(c.Players), outcomes: outcomes, part: SimResult{Wins: make([]int, c.Variant.Seats)}}
		if outcomes != nil {
			w.plans = planners(w.players)
		}
		wg.Go(func() {
			for ctx.Err() == nil {
				b := int(next.Add(1) - 1)
				if b >= blocks {
					break
				}
				end := min((b+1)*simBlock, c.Games)
				w.play(b*simBlock, end)
				if n := done.Add(int64(end - b*simBlock)); c.Progress != nil {
					c.Progress(int(n))
				}
			}
			mu.Lock()
			defer mu.Unlock()
			total.Turns += w.part.Turns
			total.Unfinished += w.part.Unfinished
			for i, n := range w.part.Wins {
				total.Wins[i] += n
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return SimResult{}, fmt.Errorf("simulate: %w", err)
	}
	return total, nil
}

// simWorker is one of Simulate's workers: its own players (forked), their
// plans where every one plans its turns (else nil), and the dice and
// position it reuses from game to game, so that a game allocates nothing.
type simWorker struct {
	c        *SimConfig
	done     <-chan struct{} // the context's: looked at before every game
	players  []Strategy
	plans    []TurnPlanner
	outcomes []throwOutcome
	d        FastDice
	f        Faces
	p        Position
	part     SimResult
}

// play plays the games numbered from to end (not included) into w.part.
func (w *simWorker) play(from, end int) {
	v := w.c.Variant
	for g := from; g < end; g++ {
		// Cancellation is looked at before every game, not only between
		// blocks: a question whose games run to the turn limit takes
		// tens of milliseconds a game (issue 79), a block of them minutes.
		select {
		case <-w.done:
			return
		default:
		}
		w.d.Reset(w.c.Key, uint64(g))
		var s State
		if w.plans != nil {
			s = playPlanned(v, w.plans, w.outcomes, &w.d, &w.p)
		} else {
			s = playFast(v, w.players, &w.d, &w.f)
		}
		for seat := range v.Seats {
			w.part.Turns += int64(s.Turns[seat])
		}
		winner := -1
		if s.Over {
			w.part.Wins[s.Winner]++
			winner = s.Winner
		} else {
			w.part.Unfinished++
		}
		if w.c.Each != nil {
			w.c.Each(g, winner)
		}
	}
}

// Forker is a strategy that keeps something between its decisions (the
// analysis of the turn being played): Simulate gives each of its workers
// a fork of its own.
type Forker interface {
	Fork() Strategy
}

// forks returns the players with each Forker forked.
func forks(players []Strategy) []Strategy {
	out := make([]Strategy, len(players))
	for i, p := range players {
		out[i] = p
		if f, ok := p.(Forker); ok {
			out[i] = f.Fork()
		}
	}
	return out
}

// TurnOutcomes plays n single turns of strategy st from the position
// (score, opponent) of variant v, and returns how many ended with each number
// of points banked (index = points; a bust, or a wipe, counts as 0).
func TurnOutcomes(v Variant, st Strategy, score, opponent, n int, key [2]uint64) []int {
	var counts []int
	var d FastDice
	var f Faces
	for i := range n {
		d.Reset(key, uint64(i))
		s := NewState(v, 0)
		s.Scores[0], s.Scores[1] = score, opponent
		for s.Seat == 0 {
			a := st.Decide(s.Position())
			switch a.Kind {
			case RollKind:
				d.ThrowOf(v.Game, &f, v.Game.Dice())
			case DiceKind:
				d.ThrowOf(v.Game, &f, int(a.Dice))
			}
			s.Do(0, a, &f)
		}
		points := max(s.Scores[0]-score, 0)
		for len(counts) <= points {
			counts = append(counts, 0)
		}
		counts[points]++
	}
	return counts
}
