// Package sim holds the games of pigclass: the rules of Pig, Two-Dice Pig,
// Big Pig, Hog and Skunk, the counter-based dice, the bots and the Monte Carlo
// simulator. It is pure Go: no I/O, no clocks, no global randomness. The same
// variant, seed and actions always give the same match.
//
// The rules it implements are written out in rules.md beside this file;
// the dice, the seed and the match record in dice.md; the published
// figures its tests reproduce in published.md.
package sim

import (
	"fmt"
	"strings"
	"time"
)

// Game is one of the dice games pigclass plays.
type Game uint8

// The games. The zero value is Pig.
const (
	Pig     Game = iota // one die; a 1 wipes the turn total
	TwoDice             // two dice; a single 1 wipes the turn, two 1s the score
	BigPig              // two dice; double 1s add 25, other doubles count twice
	Hog                 // one roll per turn of 1 to MaxDice dice; any 1 scores 0
)

var gameNames = [...]string{Pig: "pig", TwoDice: "two-dice", BigPig: "big-pig", Hog: "hog"}

// Games lists every game in the order of its constants.
var Games = []Game{Pig, TwoDice, BigPig, Hog}

// String returns the game's name as commands and URLs spell it.
func (g Game) String() string {
	if int(g) < len(gameNames) {
		return gameNames[g]
	}
	return fmt.Sprintf("game(%d)", uint8(g))
}

// Title returns the game's name as people write it.
func (g Game) Title() string {
	switch g {
	case Pig:
		return "Pig"
	case TwoDice:
		return "Two-Dice Pig"
	case BigPig:
		return "Big Pig"
	case Hog:
		return "Hog"
	}
	return g.String()
}

// Dice returns how many dice one roll throws (Hog: chosen each turn, so 0).
func (g Game) Dice() int {
	switch g {
	case Pig:
		return 1
	case TwoDice, BigPig:
		return 2
	}
	return 0
}

// ParseGame reads a game name; the error names the valid ones.
func ParseGame(s string) (Game, error) {
	for i, n := range gameNames {
		if strings.EqualFold(s, n) {
			return Game(i), nil
		}
	}
	return 0, fmt.Errorf("unknown game %q: use one of %s", s, strings.Join(gameNames[:], ", "))
}

// MarshalText writes the game's name.
func (g Game) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a game's name.
func (g *Game) UnmarshalText(b []byte) error {
	v, err := ParseGame(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// Limits of a variant.
const (
	MinSeats       = 2
	MaxSeats       = 10 // the rules sheets: Pig is for 2 to 10 players
	MinTarget      = 10
	MaxTarget      = 1000
	DefaultTarget  = 100
	DefaultMaxDice = 10
	MaxDiceLimit   = 30 // the most dice a Hog variant may allow
	TimeoutsResign = 3  // timeouts in a row that resign a player
)

// Variant is everything that fixes the rules of one match.
type Variant struct {
	Game       Game     `json:"game"`
	Target     int      `json:"target"`
	Seats      int      `json:"seats"`
	EqualTurns bool     `json:"equal_turns,omitempty"`
	MaxDice    int      `json:"max_dice,omitempty"` // Hog only
	Deadline   Duration `json:"deadline,omitempty"` // per roll; 0 means none
}

// Standard returns the default variant of g for two players: target 100,
// at most 10 dice in Hog, no deadline.
func Standard(g Game) Variant {
	v := Variant{Game: g, Target: DefaultTarget, Seats: 2}
	if g == Hog {
		v.MaxDice = DefaultMaxDice
	}
	return v
}

// Validate reports the first field of v that is out of range, saying what is
// allowed.
func (v Variant) Validate() error {
	if int(v.Game) >= len(gameNames) {
		return fmt.Errorf("variant: game %d: use one of %s", v.Game, strings.Join(gameNames[:], ", "))
	}
	if v.Target < MinTarget || v.Target > MaxTarget {
		return fmt.Errorf("variant: target %d: must be from %d to %d", v.Target, MinTarget, MaxTarget)
	}
	if v.Seats < MinSeats || v.Seats > MaxSeats {
		return fmt.Errorf("variant: seats %d: must be from %d to %d", v.Seats, MinSeats, MaxSeats)
	}
	if v.Game == Hog {
		if v.MaxDice < 1 || v.MaxDice > MaxDiceLimit {
			return fmt.Errorf("variant: max dice %d: must be from 1 to %d", v.MaxDice, MaxDiceLimit)
		}
	} else if v.MaxDice != 0 {
		return fmt.Errorf("variant: max dice is for Hog only, not %s", v.Game.Title())
	}
	if v.Deadline < 0 {
		return fmt.Errorf("variant: deadline %s: must not be negative", v.Deadline)
	}
	return nil
}

// String describes the variant in a few words, e.g. "pig to 100, 2 seats".
func (v Variant) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s to %d, %d seats", v.Game, v.Target, v.Seats)
	if v.Game == Hog {
		fmt.Fprintf(&b, ", up to %d dice", v.MaxDice)
	}
	if v.EqualTurns {
		b.WriteString(", equal turns")
	}
	if v.Deadline > 0 {
		fmt.Fprintf(&b, ", %s per roll", v.Deadline)
	}
	return b.String()
}

// Duration is a time.Duration that reads and writes JSON as "30s".
type Duration time.Duration

// String formats the duration as time.Duration does.
func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText writes the duration as "30s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a duration such as "30s" or "1m".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("deadline %q: write it like 30s or 1m", b)
	}
	*d = Duration(v)
	return nil
}
