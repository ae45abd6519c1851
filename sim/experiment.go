package sim

import (
	"context"
	"errors"
	"math"
)

// The lab's experiments (issue 62): a student runs N simulated games of
// one strategy, moving first, against another, with the dice of a seed
// anyone can replay (Simulate's: game i throws the dice of (SimKey(seed),
// i)), and sees the share won, its 95% interval (Wilson) and how the
// share wandered as the games were added.

// The experiments' bounds: a run of 10 to 100,000 games.
const (
	MinExperiment = 10
	MaxExperiment = 100000
)

// pathPoints is about how many points of an experiment's path are kept:
// spread evenly on a logarithmic scale of the games, the last game always
// among them.
const pathPoints = 60

// An ExperimentResult is what a run of the lab found: its games, the first
// player's wins and the path of the share.
type ExperimentResult struct {
	Games, Wins int
	// Path is the wins after some of the games, in order: the last point
	// is the whole run.
	Path []PathPoint
}

// A PathPoint is the first player's wins after the first Games games.
type PathPoint struct{ Games, Wins int }

// Share is the first player's share of the games.
func (r ExperimentResult) Share() float64 { return float64(r.Wins) / float64(r.Games) }

// Interval is the share's 95% interval (Wilson's, z = 1.96).
func (r ExperimentResult) Interval() (lo, hi float64) {
	return Wilson(r.Wins, r.Games, Z95)
}

// ErrExperimentSize says a run's number of games is out of bounds.
var ErrExperimentSize = errors.New("sim: an experiment plays 10 to 100,000 games")

// Experiment plays games games of first (moving first) against second in
// variant v (two seats) with the dice of seed, on one core, and returns
// the first player's wins and their path. A game cut off (two strategies
// that never end it) counts as not won.
func Experiment(ctx context.Context, v Variant, first, second Strategy, games int, seed string) (ExperimentResult, error) {
	if games < MinExperiment || games > MaxExperiment {
		return ExperimentResult{}, ErrExperimentSize
	}
	marks := pathMarks(games)
	r := ExperimentResult{Games: games}
	next := 0
	_, err := Simulate(ctx, SimConfig{Variant: v, Players: []Strategy{first, second}, Games: games, Key: SimKey(seed), Workers: 1,
		Each: func(g, winner int) {
			if winner == 0 {
				r.Wins++
			}
			if next < len(marks) && g+1 == marks[next] {
				r.Path = append(r.Path, PathPoint{Games: g + 1, Wins: r.Wins})
				next++
			}
		}})
	if err != nil {
		return ExperimentResult{}, err
	}
	return r, nil
}

// pathMarks are the game counts a path of n games keeps: every game up to
// ten, then about pathPoints spread on a logarithmic scale, and n.
func pathMarks(n int) []int {
	var out []int
	for k := 1; k <= n && k <= 10; k++ {
		out = append(out, k)
	}
	step := math.Pow(float64(n)/10, 1/float64(pathPoints))
	for x := 10.0; ; {
		x *= step
		k := int(math.Round(x))
		if k >= n {
			break
		}
		if k > out[len(out)-1] {
			out = append(out, k)
		}
	}
	if out[len(out)-1] != n {
		out = append(out, n)
	}
	return out
}
