package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"pigclass/sim"
)

// simPlayer is one seat of the --json output.
type simPlayer struct {
	Seat     int        `json:"seat"`
	Strategy string     `json:"strategy"`
	Wins     int        `json:"wins"`
	WinRate  float64    `json:"win_rate"`
	CI95     [2]float64 `json:"ci95"`
}

// simOutput is the contract of "simulate --json".
type simOutput struct {
	Game       string      `json:"game"`
	Target     int         `json:"target"`
	EqualTurns bool        `json:"equal_turns"`
	Seed       string      `json:"seed"`
	Games      int         `json:"games"`
	Unfinished int         `json:"unfinished"`
	MeanTurns  float64     `json:"mean_turns"`
	Seconds    float64     `json:"seconds"`
	Players    []simPlayer `json:"players"`
}

func runSimulate(e env, args []string) error {
	fs := newFlags(e, "simulate", "--players S1,S2[,S3,...] [--seats N] [--game G] [--games N] [--seed S] [--json]")
	var vf variantFlags
	vf.register(fs)
	players := fs.String("players", "hold:20,hold:20", "comma-separated strategies, seat 0 (moving first) first: "+strategyNames)
	games := fs.Int("games", 100000, "number of games")
	seed := fs.String("seed", "", "any text; the same seed gives the same results (default: random, printed)")
	workers := fs.Int("workers", 0, "goroutines to play on (default: all cores)")
	seats := fs.Int("seats", 0, fmt.Sprintf("players, %d to %d: one strategy in --players plays every seat (default: as many as --players)", sim.MinSeats, sim.MaxSeats))
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	names := strings.Split(*players, ",")
	if *seats != 0 && len(names) == 1 {
		names = slices.Repeat(names, max(*seats, 1))
	}
	if *seats != 0 && *seats != len(names) {
		return usagef("--seats %d: %d strategies in --players; give one, or one a seat", *seats, len(names))
	}
	v, err := vf.variant(len(names))
	if err != nil {
		return err
	}
	if *games < 1 {
		return usagef("--games %d: must be at least 1", *games)
	}
	strategies := make([]sim.Strategy, len(names))
	for i, n := range names {
		if strategies[i], err = parseStrategy(strings.TrimSpace(n), v); err != nil {
			return usageError{"--players: " + err.Error()}
		}
	}
	if *seed == "" {
		*seed = sim.NewSeed().String()[:16]
	}
	cfg := sim.SimConfig{Variant: v, Players: strategies, Games: *games, Key: sim.SimKey(*seed), Workers: *workers}
	if bar := newProgress(e.stderr, *games); bar != nil {
		cfg.Progress = bar.update
		defer bar.done()
	}
	start := time.Now()
	r, err := sim.Simulate(e.ctx, cfg)
	if err != nil {
		return err
	}
	out := simOutput{
		Game: v.Game.String(), Target: v.Target, EqualTurns: v.EqualTurns, Seed: *seed,
		Games: r.Games, Unfinished: r.Unfinished, MeanTurns: r.MeanTurns(), Seconds: time.Since(start).Seconds(),
	}
	for seat, st := range strategies {
		lo, hi := r.CI95(seat)
		out.Players = append(out.Players, simPlayer{Seat: seat, Strategy: st.String(), Wins: r.Wins[seat], WinRate: r.WinRate(seat), CI95: [2]float64{lo, hi}})
	}
	if *asJSON {
		return writeJSON(e.stdout, out)
	}
	fmt.Fprintf(e.stdout, "%s: %d games, seed %q, %.1fs\n", v, out.Games, out.Seed, out.Seconds)
	fmt.Fprintf(e.stdout, "%-5s %-10s %10s %9s  %s\n", "seat", "strategy", "wins", "win rate", "95% CI")
	for _, p := range out.Players {
		fmt.Fprintf(e.stdout, "%-5d %-10s %10d %8.2f%%  [%.2f%%, %.2f%%]\n", p.Seat, p.Strategy, p.Wins, 100*p.WinRate, 100*p.CI95[0], 100*p.CI95[1])
	}
	fmt.Fprintf(e.stdout, "mean turns per game (all players): %.2f\n", out.MeanTurns)
	if out.Unfinished > 0 {
		fmt.Fprintf(e.stdout, "%d games never ended and count for nobody\n", out.Unfinished)
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	return enc.Encode(v)
}

// progress draws a bar on a terminal for long runs.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	last  time.Time
}

// newProgress returns a bar when w is a terminal and the run is long, or nil.
func newProgress(w io.Writer, total int) *progress {
	f, ok := w.(*os.File)
	if !ok || total < 200000 {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progress{w: w, total: total}
}

// update is called from several goroutines.
func (p *progress) update(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.last) > 200*time.Millisecond || done == p.total {
		p.last = now
		const width = 40
		n := width * done / p.total
		fmt.Fprintf(p.w, "\r[%s%s] %3d%%", strings.Repeat("#", n), strings.Repeat(".", width-n), 100*done/p.total)
	}
}

func (p *progress) done() { fmt.Fprintln(p.w) }
