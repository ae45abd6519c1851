package main

import (
	"fmt"
	"os"
	"strings"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// strategyNames lists the strategies the commands accept.
const strategyNames = solve.StrategyNames + ", or a plan's JSON file (FILE.json, as a class's strategies download it)"

// tables keeps the tables solved during one run of the command, solved on
// every core (main sets them).
var tables solve.Cache

// parseStrategy reads a strategy for variant v. With more than two
// players optimal is perfect play for that many (solve.Perfect on their
// table), where the solver takes them.
func parseStrategy(name string, v sim.Variant) (sim.Strategy, error) {
	if strings.HasSuffix(strings.ToLower(name), ".json") {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("strategy %s: %w", name, err)
		}
		pl, err := sim.ReadPlan(data, v)
		if err != nil {
			return nil, fmt.Errorf("strategy %s: %w", name, err)
		}
		return pl, nil
	}
	if name != sim.PerfectBot || v.Seats <= 2 || v.EqualTurns || solve.MultiBytes(v) > solve.MaxMultiBytes || v.Target > solve.MaxTarget {
		return solve.ParseStrategy(name, v, &tables)
	}
	m, err := tables.MultiWait(v)
	if err != nil {
		return nil, fmt.Errorf("strategy optimal: %w", err)
	}
	two, err := tables.Get(v)
	if err != nil {
		return nil, fmt.Errorf("strategy optimal: %w", err)
	}
	return &solve.Perfect{M: m, Two: two}, nil
}
