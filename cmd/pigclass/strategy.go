package main

import "pigclass/sim"

// strategyNames lists the strategies the commands accept.
const strategyNames = "hold:N, kper, dice:N (Hog)"

// parseStrategy reads a strategy for variant v.
func parseStrategy(name string, v sim.Variant) (sim.Strategy, error) {
	return sim.ParseStrategy(name, v.Game)
}
