package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A Plan is a strategy a student designs without code, for a game of
// rolls and holds (Pig, Two-Dice Pig, Big Pig, Pass the Pigs), in one of
// three forms, each a step up (sim/plans.md says more):
//
//   - PlanHold: hold at Hold;
//   - PlanRule: hold at Hold, but at BehindHold when behind by more than
//     BehindBy, at AheadHold when ahead by more than AheadBy (a By of 0
//     leaves that part out), and always roll while the other is within
//     EndRace of the target (0: never);
//   - PlanMap: a coarse grid over (my score, the other's score), cells of
//     MapCell by MapCell points, each cell its own hold value.
//
// Every form holds once the turn reaches the target (under equal turns,
// ahead of the other). A hold value is a turn total from 1 to the target
// (the target itself: roll until the turn wins). Plans are data: stored
// with the class and written as JSON, which "pigclass duel" reads.
type Plan struct {
	Name       string  `json:"name,omitempty"`
	Form       string  `json:"form"`
	Game       string  `json:"game"`
	Target     int     `json:"target"`
	Hold       int     `json:"hold,omitempty"`
	BehindBy   int     `json:"behind_by,omitempty"`
	BehindHold int     `json:"behind_hold,omitempty"`
	AheadBy    int     `json:"ahead_by,omitempty"`
	AheadHold  int     `json:"ahead_hold,omitempty"`
	EndRace    int     `json:"end_race,omitempty"`
	Cells      [][]int `json:"cells,omitempty"` // [my score / MapCell][the other's / MapCell]
}

// The forms of a Plan.
const (
	PlanHold = "hold"
	PlanRule = "rule"
	PlanMap  = "map"
)

// MapCell is the side of a map's cell, in points.
const MapCell = 10

// MapSize is the number of cells a side of a map for target has.
func MapSize(target int) int { return (target + MapCell - 1) / MapCell }

// Decide rolls while the turn total is under the plan's hold value for
// the scores, and holds from it.
func (pl *Plan) Decide(p Position) Action {
	if crossesTarget(p) {
		return Hold
	}
	if p.TurnTotal < pl.HoldValue(p.Score, p.Opponent) {
		return Roll
	}
	return Hold
}

// HoldValue is the turn total the plan holds at with score i against j.
func (pl *Plan) HoldValue(i, j int) int {
	switch pl.Form {
	case PlanMap:
		n := len(pl.Cells)
		return pl.Cells[min(i/MapCell, n-1)][min(j/MapCell, n-1)]
	case PlanRule:
		switch {
		case pl.EndRace > 0 && j >= pl.Target-pl.EndRace:
			return pl.Target // the other is close: roll for the win
		case pl.BehindBy > 0 && j-i > pl.BehindBy:
			return pl.BehindHold
		case pl.AheadBy > 0 && i-j > pl.AheadBy:
			return pl.AheadHold
		}
	}
	return pl.Hold
}

// String returns the plan's name, or its form.
func (pl *Plan) String() string {
	if pl.Name != "" {
		return pl.Name
	}
	return "plan:" + pl.Form
}

// Check says what is wrong with the plan for variant v, naming the field
// to fix; nil when it plays v.
func (pl *Plan) Check(v Variant) error {
	if v.Game.ChoosesDice() {
		return fmt.Errorf("plan: %s has no hold; a plan plays a game of rolls and holds (%s)", v.Game.Title(), GameTitles(func(r *GameRules) bool { return r.Turn != OneThrow }))
	}
	if pl.Game != v.Game.String() || pl.Target != v.Target {
		return fmt.Errorf("plan: it is for %s to %d, not %s to %d", pl.Game, pl.Target, v.Game, v.Target)
	}
	value := func(field string, n int) error {
		if n < 1 || n > pl.Target {
			return fmt.Errorf("plan: %s %d: a hold value is a turn total from 1 to the target, %d", field, n, pl.Target)
		}
		return nil
	}
	gap := func(field string, n int) error {
		if n < 0 || n >= pl.Target {
			return fmt.Errorf("plan: %s %d: from 0 (left out) to %d points", field, n, pl.Target-1)
		}
		return nil
	}
	switch pl.Form {
	case PlanHold:
		return value("hold", pl.Hold)
	case PlanRule:
		errs := []error{value("hold", pl.Hold), gap("behind_by", pl.BehindBy), gap("ahead_by", pl.AheadBy), gap("end_race", pl.EndRace)}
		if pl.BehindBy > 0 {
			errs = append(errs, value("behind_hold", pl.BehindHold))
		}
		if pl.AheadBy > 0 {
			errs = append(errs, value("ahead_hold", pl.AheadHold))
		}
		return errors.Join(errs...)
	case PlanMap:
		n := MapSize(pl.Target)
		if len(pl.Cells) != n {
			return fmt.Errorf("plan: a map for a target of %d has %d rows of %d cells (%d points a side), not %d rows", pl.Target, n, n, MapCell, len(pl.Cells))
		}
		for i, row := range pl.Cells {
			if len(row) != n {
				return fmt.Errorf("plan: the map's row %d has %d cells, not %d", i+1, len(row), n)
			}
			for j, h := range row {
				if err := value(fmt.Sprintf("cell (%d, %d)", i*MapCell, j*MapCell), h); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return fmt.Errorf("plan: form %q: one of %s, %s, %s", pl.Form, PlanHold, PlanRule, PlanMap)
}

// PlanName is a plan written as the name of a strategy: its JSON (its
// name left out), which ReadPlan reads back. The lab (issue 62) sets a
// student's own plan against other strategies by it, and stores it so.
func PlanName(pl Plan) string {
	pl.Name = ""
	b, _ := json.Marshal(pl) // a Plan always marshals
	return string(b)
}

// IsPlanName reports whether a strategy's name is a plan's (PlanName),
// not a bot's.
func IsPlanName(name string) bool { return strings.HasPrefix(name, "{") }

// ReadPlan reads a plan written as JSON and checks it for variant v.
func ReadPlan(data []byte, v Variant) (*Plan, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	var pl Plan
	if err := d.Decode(&pl); err != nil {
		return nil, fmt.Errorf("plan: not a plan's JSON: %w", err)
	}
	if err := pl.Check(v); err != nil {
		return nil, err
	}
	return &pl, nil
}

// MapOf is the map form of any strategy s for variant v: each cell holds
// the turn total at which s first holds from the cell's middle (its
// lower corner for a cell cut by the target), with the other's turn
// total at 0. A plan already a map is copied.
func MapOf(s Strategy, v Variant, name string) *Plan {
	n := MapSize(v.Target)
	pl := &Plan{Name: name, Form: PlanMap, Game: v.Game.String(), Target: v.Target, Cells: make([][]int, n)}
	for a := range n {
		pl.Cells[a] = make([]int, n)
		for b := range n {
			i, j := min(a*MapCell+MapCell/2, v.Target-1), min(b*MapCell+MapCell/2, v.Target-1)
			k := 1
			for ; k < v.Target; k++ {
				if s.Decide(Position{Variant: v, Score: i, Opponent: j, TurnTotal: k, Players: 2}) == Hold {
					break
				}
			}
			pl.Cells[a][b] = k
		}
	}
	return pl
}

// KeepPacePlan is Neller and Presser's "keep pace and end race" as a rule
// a student can start from: hold at 21, at 25 when behind by more than
// 16, at 17 when ahead by more than 16, and roll for the win once the
// other has 71 (each scaled from a target of 100 to v's).
func KeepPacePlan(v Variant) *Plan {
	scale := func(n int) int { return max(1, roundDiv(n*v.Target, DefaultTarget)) }
	return &Plan{Name: KeepPaceBot, Form: PlanRule, Game: v.Game.String(), Target: v.Target,
		Hold: scale(21), BehindBy: scale(16), BehindHold: scale(25), AheadBy: scale(16), AheadHold: scale(17), EndRace: scale(29)}
}
