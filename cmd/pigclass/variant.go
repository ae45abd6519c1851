package main

import (
	"flag"

	"pigclass/sim"
)

// variantFlags are the flags that choose a game and its rules.
type variantFlags struct {
	game       string
	target     int
	maxDice    int
	equalTurns bool
}

func (v *variantFlags) register(fs *flag.FlagSet) {
	v.registerStandard(fs)
	fs.BoolVar(&v.equalTurns, "equal-turns", false, "play the round out so everyone has the same number of turns")
}

// registerStandard registers the flags of the standard rules only, for a
// command that takes no other (advise: advice is for the standard rules).
func (v *variantFlags) registerStandard(fs *flag.FlagSet) {
	fs.StringVar(&v.game, "game", "pig", "the game: "+sim.GameNames())
	fs.IntVar(&v.target, "target", sim.DefaultTarget, "the score that wins")
	fs.IntVar(&v.maxDice, "max-dice", sim.DefaultMaxDice, "Hog: the most dice a player may throw")
}

// variant builds and validates the variant for the given number of seats.
func (v *variantFlags) variant(seats int) (sim.Variant, error) {
	g, err := sim.ParseGame(v.game)
	if err != nil {
		return sim.Variant{}, usageError{"--game: " + err.Error()}
	}
	out := sim.Standard(g)
	out.Target = v.target
	out.Seats = seats
	out.EqualTurns = v.equalTurns
	if g.ChoosesDice() {
		out.MaxDice = v.maxDice
	}
	if err := out.Validate(); err != nil {
		return out, usageError{err.Error()}
	}
	return out, nil
}
