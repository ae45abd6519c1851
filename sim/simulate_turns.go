package sim

// TurnPlanner is a strategy that, under the standard rules, settles a
// whole turn when it starts: it rolls while the turn total is below
// HoldFrom of the turn's first position, and holds from it (a number
// above any target never holds: it rolls to win). Its Decide must agree
// with that on every roll of the turn. The simulator plays a game whose
// players all plan their turns a turn at a time, with the same dice and
// the same result as one decision at a time (playPlanned).
type TurnPlanner interface {
	Strategy
	HoldFrom(p *Position) int
	// ReadsPosition is false for a plan that is the same whatever the
	// position (hold:N): the simulator then builds none.
	ReadsPosition() bool
}

// HoldFrom is N: hold:N rolls below N (crossesTarget only asks under
// equal turns).
func (h HoldAt) HoldFrom(*Position) int { return int(h) }

// ReadsPosition is false: hold:N holds at N wherever it is.
func (HoldAt) ReadsPosition() bool { return false }

// ReadsPosition is true: kper's hold point follows the scores.
func (KeepPace) ReadsPosition() bool { return true }

// HoldFrom is the kper rule's hold point for the turn: past 71 (scaled),
// either score rolls to win; below, 21 + round((opponent - own) / 8).
func (k KeepPace) HoldFrom(p *Position) int {
	t := p.Variant.Target
	if 100*p.Score >= 71*t || 100*p.Opponent >= 71*t {
		return t + 1 // no turn total short of the target holds
	}
	return kperHold(*p, t)
}

// throwOutcome is what one throw of a roll does, by its faces.
type throwOutcome struct {
	points     int
	bust, wipe bool
}

// maxPlannedDice bounds the pieces a roll throws for the turn-at-a-time
// simulator: its table has 6^n outcomes.
const maxPlannedDice = 3

// outcomesOf lists the outcome of every throw of game g's roll, by the
// throw's faces read as a number in base 6 (the first die lowest), when its
// pieces are fair dice and a roll throws at most maxPlannedDice; else nil.
func outcomesOf(g Game) []throwOutcome {
	r := g.Rules()
	n := g.Dice()
	if !r.fairDie || r.Turn != ManyRolls || n < 1 || n > maxPlannedDice {
		return nil
	}
	size := 1
	for range n {
		size *= 6
	}
	out := make([]throwOutcome, size)
	var f Faces
	for i := range out {
		f.n = 0
		for x, k := i, 0; k < n; k, x = k+1, x/6 {
			f.push(x%6 + 1)
		}
		points, bust, wipe := RollPoints(g, &f)
		out[i] = throwOutcome{points, bust, wipe}
	}
	return out
}

// planners returns players as TurnPlanners when every one is, else nil.
func planners(players []Strategy) []TurnPlanner {
	out := make([]TurnPlanner, len(players))
	for i, p := range players {
		tp, ok := p.(TurnPlanner)
		if !ok {
			return nil
		}
		out[i] = tp
	}
	return out
}

// playPlanned is PlayFast for players that plan their turns, in a game of
// fair dice under the standard rules (outcomes is outcomesOf the game): a
// turn is one plan and a loop of rolls, each a table look-up, with the
// dice drawn in the same order and the state changed as State.Do would.
// The final state is PlayFast's, to the last field. p is the worker's
// own, for the plans to read.
func playPlanned(v Variant, plans []TurnPlanner, outcomes []throwOutcome, d *FastDice, p *Position) State {
	s := NewState(v, 0)
	dice := v.Game.Dice()
	reads := false
	for _, plan := range plans {
		reads = reads || plan.ReadsPosition()
	}
	for turns := 0; !s.Over && turns < maxTurns; turns++ {
		seat := s.Seat
		if reads {
			s.positionInto(p)
		}
		hold := plans[seat].HoldFrom(p)
		score, total, rolls := s.Scores[seat], 0, 0
		for total < hold {
			rolls++
			i := d.Face() - 1
			for k, unit := 1, 6; k < dice; k, unit = k+1, unit*6 {
				i += (d.Face() - 1) * unit
			}
			o := &outcomes[i]
			if o.wipe {
				score = 0
			}
			if o.bust {
				total = 0
				break
			}
			total += o.points
			if score+total >= v.Target {
				s.Scores[seat], s.Rolls = score+total, rolls
				s.Turns[seat]++
				s.finish(seat)
				return s
			}
		}
		s.Scores[seat] = score + total
		s.Timeouts[seat] = 0
		s.endTurn()
	}
	return s
}
