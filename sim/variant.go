// Package sim holds the games of pigclass: each table game described in a
// file of its own (game_*.go) and read through its GameRules, Skunk, the
// counter-based dice, the bots and the Monte Carlo simulator. It is pure Go: no I/O, no clocks, no global randomness. The same
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

// Standard returns the default variant of g for two players: its own
// default target and, where a turn is one throw of chosen dice, the most
// dice (10 in Hog); no deadline.
func Standard(g Game) Variant {
	r := g.Rules()
	v := Variant{Game: g, Target: r.Target, Seats: 2}
	if r.Turn == OneThrow {
		v.MaxDice = r.MaxPieces
	}
	return v
}

// Validate reports the first field of v that is out of range, saying what is
// allowed.
func (v Variant) Validate() error {
	if !v.Game.known() {
		return fmt.Errorf("variant: game %d: use one of %s", v.Game, GameNames())
	}
	if v.Target < MinTarget || v.Target > MaxTarget {
		return fmt.Errorf("variant: target %d: must be from %d to %d", v.Target, MinTarget, MaxTarget)
	}
	if v.Seats < MinSeats || v.Seats > MaxSeats {
		return fmt.Errorf("variant: seats %d: must be from %d to %d", v.Seats, MinSeats, MaxSeats)
	}
	if v.Game.ChoosesDice() {
		if v.MaxDice < 1 || v.MaxDice > MaxDiceLimit {
			return fmt.Errorf("variant: max dice %d: must be from 1 to %d", v.MaxDice, MaxDiceLimit)
		}
	} else if v.MaxDice != 0 {
		return fmt.Errorf("variant: max dice is for games of one throw of chosen dice, not %s", v.Game.Title())
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
	if v.Game.ChoosesDice() {
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
