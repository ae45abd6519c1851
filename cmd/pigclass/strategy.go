package main

import (
	"pigclass/sim"
	"pigclass/sim/solve"
)

// strategyNames lists the strategies the commands accept.
const strategyNames = solve.StrategyNames

// tables keeps the tables solved during one run of the command.
var tables solve.Cache

// parseStrategy reads a strategy for variant v.
func parseStrategy(name string, v sim.Variant) (sim.Strategy, error) {
	return solve.ParseStrategy(name, v, &tables)
}
