package solve

import (
	"pigclass/sim"
)

// Choices are a strategy's choices in every state of a two-player
// variant, asked once: what a duel reads instead of asking the strategy a
// million times. A tournament asks each entry once and reads its choices
// in every duel it plays.
//
// In the Pig games most strategies roll while the turn total is below a
// mark and hold from it on (hold at 20, the keep-pace rule, a map's
// cells, perfect play in nearly every state): hold keeps that mark for
// each (i, j), and a turn's sweep reads only the turn totals below the
// mark and the few a roll from there reaches. Where a strategy's choices
// at (i, j) are not of that shape the mark is -1 and rolls keeps every
// choice of that turn. In Hog throws keeps the number of dice at each
// (i, j), 1 to the variant's most, in throws.
type Choices struct {
	variant sim.Variant
	hold    []int16          // Pig games: (i, j) at i*T + j, the first turn total held at, or -1
	rolls   map[int32][]bool // Pig games: the turns that are not of that shape, by i*T + j
	throws  []uint8          // Hog: (i, j) at i*T + j
}

// ChoicesOf asks s for its choice in every state of v (two players, not
// equal turns; Duel checks the variant).
func ChoicesOf(v sim.Variant, s sim.Strategy) *Choices {
	T := v.Target
	c := &Choices{variant: v}
	p := sim.Position{Variant: v}
	if v.Game.ChoosesDice() {
		c.throws = make([]uint8, T*T)
		for i := range T {
			for j := range T {
				p.Score, p.Opponent = i, j
				c.throws[i*T+j] = uint8(min(max(int(s.Decide(p).Dice), 1), v.MaxDice))
			}
		}
		return c
	}
	c.hold = make([]int16, T*T)
	row := make([]bool, T)
	for i := range T {
		for j := range T {
			p.Score, p.Opponent = i, j
			mark, shaped := T-i, true // rolling on to the target holds nowhere
			for k := range T - i {
				p.TurnTotal = k
				row[k] = s.Decide(p) == sim.Roll
				switch {
				case !row[k] && mark == T-i:
					mark = k
				case row[k] && mark < T-i:
					shaped = false
				}
			}
			if shaped {
				c.hold[i*T+j] = int16(mark)
				continue
			}
			if c.rolls == nil {
				c.rolls = map[int32][]bool{}
			}
			c.hold[i*T+j] = -1
			c.rolls[int32(i*T+j)] = append([]bool(nil), row[:T-i]...)
		}
	}
	return c
}
