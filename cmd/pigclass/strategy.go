package main

import (
	"fmt"

	"pigclass/sim"
	"pigclass/sim/solve"
)

// strategyNames lists the strategies the commands accept.
const strategyNames = solve.StrategyNames

// tables keeps the tables solved during one run of the command, solved on
// every core (main sets them).
var tables solve.Cache

// parseStrategy reads a strategy for variant v. With more than two
// players optimal is perfect play for that many (solve.Perfect on their
// table), where the solver takes them.
func parseStrategy(name string, v sim.Variant) (sim.Strategy, error) {
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
