package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// The bots the product offers by name (the families hold:N and dice:N are
// named by their number): the one place a bot's name is written.
const (
	PerfectBot  = "optimal" // perfect play: the solved table (package solve)
	EVBot       = "ev"      // expected-value play: the most points this turn (package solve)
	KeepPaceBot = "kper"    // keep pace and end race (KeepPace)
	BeginnerBot = "hold:10" // the beginner: holds at 10
	// MysteryBot plays at one of MysteryStrengths, drawn for each match and
	// seat from the match's seed (Seed.Mystery), hidden until the seed is.
	MysteryBot = "mystery"
)

// MysteryStrengths are the strengths the mystery bot may play at in a game
// of many rolls, weakest first: the beginner, the game's rule of thumb
// (GameRules.HoldAt) and perfect play.
func MysteryStrengths(g Game) []string {
	return []string{BeginnerBot, HoldAt(g.Rules().HoldAt).String(), PerfectBot}
}

// MysteryStrength is the strength the mystery bot at seat plays at in a
// match of game g with seed (one of MysteryStrengths, one in three each).
func MysteryStrength(g Game, seed *Seed, seat int) string {
	all := MysteryStrengths(g)
	return all[seed.Mystery(seat, len(all))]
}

// MysteryAgrees reports, for each of MysteryStrengths in order, whether
// that strength makes the move a at position p (a game of many rolls):
// the hold points by their rule, perfect play where a is best, the solved
// table's best option there. The review rules strengths out by it.
func MysteryAgrees(p Position, a, best Action) []bool {
	all := MysteryStrengths(p.Variant.Game)
	out := make([]bool, len(all))
	for i, name := range all {
		if name == PerfectBot {
			out[i] = a == best
			continue
		}
		if s, err := ParseStrategy(name, p.Variant.Game); err == nil {
			out[i] = s.Decide(p) == a
		}
	}
	return out
}

// BotMenu lists the bots a menu offers, weakest first: the beginner, the
// rule of thumb "hold at ruleOfThumb" (a game's own, GameRules.HoldAt),
// keep pace and end race, perfect play, expected-value play, the mystery
// bot, and Hog's dice:3, dice:5 and dice:8. A menu for one game keeps
// those that play it.
func BotMenu(ruleOfThumb int) []string {
	return []string{BeginnerBot, HoldAt(ruleOfThumb).String(), KeepPaceBot, PerfectBot, EVBot, MysteryBot, "dice:3", "dice:5", "dice:8"}
}

// BotWords names a bot for people: the words' key of its name and the
// number the words take (hold:N's N, dice:N's N, 0 for none); plural says
// the words have plural forms by that number. ruleOfThumb is the game's
// own hold point (GameRules.HoldAt), which the rule-of-thumb bot is named
// by. A bot of no family known here has no key ("").
func BotWords(name string, ruleOfThumb int) (key string, n int, plural bool) {
	switch name {
	case BeginnerBot:
		return "bot.hold10", 0, false
	case HoldAt(ruleOfThumb).String():
		return "bot.rule", ruleOfThumb, false
	case PerfectBot:
		return "bot.optimal", 0, false
	case EVBot:
		return "bot.ev", 0, false
	case KeepPaceBot:
		return "bot.kper", 0, false
	case MysteryBot:
		return "bot.mystery", 0, false
	}
	kind, arg, _ := strings.Cut(name, ":")
	n, err := strconv.Atoi(arg)
	switch {
	case err != nil:
	case kind == "hold":
		return "bot.holdn", n, false
	case kind == "dice":
		return "bot.dicen", n, true
	}
	return "", 0, false
}

// Strategy decides a move from the position alone: it is a pure function,
// so a bot is a Strategy seated in a match.
type Strategy interface {
	// Decide returns roll or hold (Pig games) or dice:N (Hog).
	Decide(p Position) Action
	// String returns the strategy's name as commands spell it.
	String() string
}

// HoldAt is the bot hold:N: roll until the turn total reaches N (or the
// target, ahead of everyone), then hold.
type HoldAt int

// Decide rolls below N and holds from N.
func (h HoldAt) Decide(p Position) Action {
	if p.TurnTotal < int(h) && !crossesTarget(p) {
		return Roll
	}
	return Hold
}

// crossesTarget reports whether the turn has taken the player from below
// the target to it, ahead of the leading opponent. Under the standard rules
// that ends the match on the roll, so only equal turns ask; in a tie-break
// everyone is past the target already and it is false.
func crossesTarget(p Position) bool {
	t := p.Score + p.TurnTotal
	return p.Score < p.Variant.Target && t >= p.Variant.Target && t > p.Opponent
}

// String returns "hold:N".
func (h HoldAt) String() string { return "hold:" + strconv.Itoa(int(h)) }

// KeepPace is the bot kper, "keep pace and end race" (Neller and Presser
// 2010): if either score is 71 or more, roll to win; otherwise roll while the
// turn total is under 21 + round((opponent - own score) / 8). Scores are
// scaled to the target, so 71 stands for 71% of it.
type KeepPace struct{}

// Decide applies the kper rule. Under equal turns "to win" means past the
// target and ahead of the leading opponent, then it holds.
func (KeepPace) Decide(p Position) Action {
	t := p.Variant.Target
	if p.Score+p.TurnTotal >= t && p.Score+p.TurnTotal > p.Opponent {
		return Hold
	}
	if 100*p.Score >= 71*t || 100*p.Opponent >= 71*t {
		return Roll
	}
	if p.TurnTotal < kperHold(p, t) {
		return Roll
	}
	return Hold
}

// kperHold is the hold threshold 21 + round((opponent - own) / 8), scaled
// from a target of 100 to t (exact at 100).
func kperHold(p Position, t int) int {
	base := 21 + roundDiv(p.Opponent-p.Score, 8)
	if t == DefaultTarget {
		return base
	}
	return roundDiv(base*t, DefaultTarget)
}

// roundDiv divides a by b > 0, rounding halves away from zero (math.Round).
func roundDiv(a, b int) int {
	if a < 0 {
		return -((-a*2 + b) / (2 * b))
	}
	return (a*2 + b) / (2 * b)
}

// String returns "kper".
func (KeepPace) String() string { return KeepPaceBot }

// ThrowDice is the Hog bot dice:N: always throw N dice (at most the variant's
// maximum).
type ThrowDice int

// Decide throws N dice.
func (d ThrowDice) Decide(p Position) Action { return Dice(min(int(d), p.Variant.MaxDice)) }

// String returns "dice:N".
func (d ThrowDice) String() string { return "dice:" + strconv.Itoa(int(d)) }

// ParseStrategy reads hold:N, kper or dice:N and checks that it plays game g.
// The solver adds optimal and ev (see package solve).
func ParseStrategy(name string, g Game) (Strategy, error) {
	kind, arg, hasArg := strings.Cut(name, ":")
	n, err := strconv.Atoi(arg)
	switch {
	case kind == "hold" && hasArg:
		if err != nil || n < 1 || n > MaxTarget {
			return nil, fmt.Errorf("strategy %q: N in hold:N must be a whole number from 1 to %d", name, MaxTarget)
		}
		if g.ChoosesDice() {
			return nil, fmt.Errorf("strategy %q: %s has no hold; use dice:N", name, g.Title())
		}
		return HoldAt(n), nil
	case name == KeepPaceBot:
		if !g.Rules().KeepPace {
			return nil, fmt.Errorf("strategy %q: kper plays %s, not %s", name, GameTitles(func(r *GameRules) bool { return r.KeepPace }), g.Title())
		}
		return KeepPace{}, nil
	case kind == "dice" && hasArg:
		if err != nil || n < 1 || n > MaxDiceLimit {
			return nil, fmt.Errorf("strategy %q: N in dice:N must be from 1 to %d", name, MaxDiceLimit)
		}
		if !g.ChoosesDice() {
			return nil, fmt.Errorf("strategy %q: dice:N is for %s; %s plays hold:N", name, GameTitles(func(r *GameRules) bool { return r.Turn == OneThrow }), g.Title())
		}
		return ThrowDice(n), nil
	}
	return nil, fmt.Errorf("unknown strategy %q: use hold:N, kper or dice:N (Hog)", name)
}

// OtherGamesBot reports whether bot is a bot of another kind of game than
// g: one that rolls and holds for a game of one throw of chosen dice, or
// one that throws dice (or keeps pace) for a game of many rolls.
func OtherGamesBot(g Game, bot string) bool {
	holds := strings.HasPrefix(bot, "hold:") || bot == KeepPaceBot || bot == MysteryBot
	switch {
	case g.ChoosesDice():
		return holds
	case bot == KeepPaceBot:
		return !g.Rules().KeepPace
	}
	return strings.HasPrefix(bot, "dice:")
}
