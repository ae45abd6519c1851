package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// ActionKind says what a player does.
type ActionKind uint8

// The kinds of action. The zero value is not an action.
const (
	NoAction    ActionKind = iota
	RollKind               // roll the die or dice (Pig, Two-Dice Pig, Big Pig)
	HoldKind               // bank the turn total and pass the turn
	DiceKind               // Hog: throw N dice
	ResignKind             // leave the match, placed last
	TimeoutKind            // the per-roll deadline passed (made by the server)
)

// Action is one move of a player. Dice is the number of dice for DiceKind.
type Action struct {
	Kind ActionKind
	Dice uint8
}

// The actions that carry no number.
var (
	Roll    = Action{Kind: RollKind}
	Hold    = Action{Kind: HoldKind}
	Resign  = Action{Kind: ResignKind}
	Timeout = Action{Kind: TimeoutKind}
)

// Dice returns the Hog action of throwing n dice.
func Dice(n int) Action { return Action{Kind: DiceKind, Dice: uint8(n)} }

// String returns the action as forms and logs spell it: roll, hold, dice:N,
// resign, timeout.
func (a Action) String() string {
	switch a.Kind {
	case RollKind:
		return "roll"
	case HoldKind:
		return "hold"
	case DiceKind:
		return "dice:" + strconv.Itoa(int(a.Dice))
	case ResignKind:
		return "resign"
	case TimeoutKind:
		return "timeout"
	}
	return ""
}

// ParseAction reads an action: roll, hold, dice:N, resign or timeout.
func ParseAction(s string) (Action, error) {
	switch s {
	case "roll":
		return Roll, nil
	case "hold":
		return Hold, nil
	case "resign":
		return Resign, nil
	case "timeout":
		return Timeout, nil
	}
	if rest, ok := strings.CutPrefix(s, "dice:"); ok {
		n, err := strconv.Atoi(rest)
		if err == nil && n >= 1 && n <= MaxDiceLimit {
			return Dice(n), nil
		}
		return Action{}, fmt.Errorf("action %q: the number of dice must be from 1 to %d", s, MaxDiceLimit)
	}
	return Action{}, fmt.Errorf("action %q: use roll, hold, dice:N, resign or timeout", s)
}

// MarshalText writes the action's name.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads an action's name.
func (a *Action) UnmarshalText(b []byte) error {
	v, err := ParseAction(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}
