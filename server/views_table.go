package server

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// matchBoard is the board of match m for the viewer's seat: a table's
// (tableBoardView), or any other (boardView).
func (w *views) matchBoard(l *i18n.Localizer, class *classroom.Class, m *play.Match, viewer int) templates.Board {
	if m.AtTable {
		return w.tableBoardView(l, class, m, viewer)
	}
	return w.boardView(l, class, m, viewer)
}

// tableBoardView is the board of a match at a table (issue 45): its
// players in the order they play, the first one first, as the teacher
// numbered them (and matches.csv has them), not by seat; and, for the
// player to move, the entry of their turn (tableEntry).
func (w *views) tableBoardView(l *i18n.Localizer, class *classroom.Class, m *play.Match, viewer int) templates.Board {
	b, names := w.boardSaid(l, class, m, viewer)
	b.Players = slices.Concat(b.Players[m.FirstSeat:], b.Players[:m.FirstSeat])
	b.AtTable, b.TableQueue = true, paths.ClassEnter.With(b.ClassCode, m.ID)
	if b.YourTurn {
		b.Table = tableEntry(l, b.ClassCode, m, names)
	}
	return b
}

// tableEntry is how a table's device enters the turn of the player to
// move (issue 45): the throw's pieces with the marks each can show, drawn
// as the board draws them, and the last throw to enter again while no
// decision has followed it.
func tableEntry(l *i18n.Localizer, code string, m *play.Match, names []i18n.Msg) *templates.TableEntry {
	g := m.Variant.Game
	r := g.Rules()
	t := &templates.TableEntry{EnterURL: paths.ClassEnter.With(code, m.ID), Throw: sim.Roll.String(),
		Ask: l.T(tableAsk(g), "Name", l.Say(names[m.State.Seat])), Send: l.T("table.send")}
	t.RowLabel, t.RowSend = l.T("table.row", "Example", tableRowExample(g)), l.T("table.row_send")
	if g.ChoosesDice() {
		t.Throw, t.Typed = "dice", true
		t.TypedLabel = l.T("table.typed", "Max", l.Int(m.Variant.MaxDice))
	}
	for i := range g.Dice() {
		p := templates.TablePiece{Legend: l.T("table.piece."+r.Piece.Name, "N", l.Int(i+1))}
		for mark, w := range r.Piece.Weights {
			if w == 0 {
				continue
			}
			f, _ := sim.FacesOf(mark + 1)
			pieces, _ := thrownPieces(g, f)
			pieces[0].Name = l.Say(charts.ThrowMsg(g, &f))
			p.Marks = append(p.Marks, templates.TableMark{Value: mark + 1, Piece: pieces[0]})
		}
		t.Pieces = append(t.Pieces, p)
	}
	if r.Mishap.Weight > 0 {
		t.Touching = strings.TrimSpace(strings.Repeat(" "+string(rune('0'+r.Mishap.Mark)), g.Dice()))
		t.TouchingLabel = l.T("table.mishap." + r.Mishap.Name)
	}
	t.State, t.Words = tableStateOf(l, m, names), tableWords(l, g)
	if n := len(m.Events); n > 0 && m.Events[n-1].Entered {
		last := m.Events[n-1]
		t.Last = l.T("table.last", "Name", l.Say(names[last.Seat]), "Faces", l.Say(charts.ThrowMsg(g, &last.Faces)))
	}
	return t
}

// tableRowExample is a turn of game g as its row is typed: two throws
// and a hold ("4 6 h"; "35 42 h" with two pieces a throw).
func tableRowExample(g sim.Game) string {
	throws := [][]int{{4}, {6}}
	if g.Dice() == 2 {
		throws = [][]int{{3, 5}, {4, 2}}
	}
	// The score after the turn, as the sheet asks for it, played by the
	// game's own rules (none if those throws would end the turn).
	st := sim.NewState(sim.Standard(g), 0)
	var row []string
	for _, marks := range throws {
		f, err := sim.FacesOf(marks...)
		if err != nil || st.Check(0, sim.Roll) != nil {
			return strings.Join(append(row, "h"), " ")
		}
		st.Do(0, sim.Roll, &f)
		typed := ""
		for _, m := range marks {
			typed += strconv.Itoa(m)
		}
		row = append(row, typed)
	}
	if st.Seat != 0 || st.TurnTotal == 0 {
		return strings.Join(append(row, "h"), " ")
	}
	st.Do(0, sim.Hold, nil)
	return strings.Join(append(row, "h", strconv.Itoa(st.Scores[0])), " ")
}

// markLegend says what each mark of g's pieces stands for, when the
// pieces are not numbered dice: "1 Dot", "2 No dot"...
func markLegend(l *i18n.Localizer, g sim.Game) []string {
	r := g.Rules()
	if r.Piece.Numbered {
		return nil
	}
	var out []string
	for m := 1; m <= len(r.Piece.Marks); m++ {
		out = append(out, strconv.Itoa(m)+" "+l.T(r.MarkKey(m)))
	}
	if r.Mishap.Weight > 0 {
		out = append(out, strconv.Itoa(int(r.Mishap.Mark))+" "+l.T(r.MarkKey(int(r.Mishap.Mark))))
	}
	return out
}

// tableState is what a table's device needs to play on while the network
// is down (app.js): each seat's name and whether a bot plays it, the
// scores, the player to move and their turn total, the seq, the target,
// and what each throw the game's pieces can land does to a turn (its
// points, and whether it ends the turn, or wipes the score). A game of
// one throw a turn (Hog) has none: its device waits for the network after
// each entry.
type tableState struct {
	Seq       int               `json:"seq"`
	Seat      int               `json:"seat"`
	TurnTotal int               `json:"tt"`
	Scores    []int             `json:"scores"`
	Target    int               `json:"target"`
	Names     []string          `json:"names"`
	Bots      []bool            `json:"bots"`
	Effects   map[string][]int  `json:"effects,omitempty"` // faces "3 5": points, 0 adds / 1 ends the turn / 2 wipes the score
	Said      map[string]string `json:"said,omitempty"`    // faces "3 5": the throw in words
	LastThrow string            `json:"last,omitempty"`    // the last event's faces, if an entered throw
}

// tableStateOf is m's tableState, names in the reader's words, as JSON.
func tableStateOf(l *i18n.Localizer, m *play.Match, names []i18n.Msg) string {
	st := m.State
	ts := tableState{Seq: m.Seq(), Seat: st.Seat, TurnTotal: st.TurnTotal, Scores: st.Scores[:m.Variant.Seats], Target: m.Variant.Target}
	for i, s := range m.Seats {
		ts.Names = append(ts.Names, l.Say(names[i]))
		ts.Bots = append(ts.Bots, s.Bot != "")
	}
	if g := m.Variant.Game; !g.ChoosesDice() && !m.Variant.EqualTurns {
		// Every throw the pieces can land, the mishap's too, as sim
		// scores it: 0 adds, 1 ends the turn, 2 wipes the score.
		effect := map[sim.Effect]int{sim.Adds: 0, sim.Busts: 1, sim.Wipes: 2}
		outcomes, _ := g.Rules().Outcomes(g.Dice())
		ts.Effects, ts.Said = map[string][]int{}, map[string]string{}
		for _, o := range outcomes {
			ts.Effects[o.Faces.String()] = []int{o.Points, effect[o.Effect]}
			ts.Said[o.Faces.String()] = l.Say(charts.ThrowMsg(g, &o.Faces))
		}
	}
	if n := len(m.Events); n > 0 && m.Events[n-1].Entered {
		ts.LastThrow = m.Events[n-1].Faces.String()
	}
	b, _ := json.Marshal(ts)
	return string(b)
}

// entryWords says a decision at a table, a throw with its pieces: "a
// hold", "a throw of 4".
func entryWords(l *i18n.Localizer, g sim.Game, a sim.Action, f sim.Faces) string {
	switch a.Kind {
	case sim.RollKind, sim.DiceKind:
		return l.T("table.a_throw", "Faces", l.Say(charts.ThrowMsg(g, &f)))
	case sim.HoldKind:
		return l.T("table.a_hold")
	}
	return l.T("action." + a.String())
}

// tableAsk is the words asking what a throw of g's pieces gave, the
// pieces' verb in it (a die is rolled, pigs are thrown).
func tableAsk(g sim.Game) string { return "table." + g.Rules().Piece.Name + ".ask" }

// conflictWords say what another device of the table entered before this
// one's entry reached the server (a table's conflict, 409): app.js holds
// the entries left for the player to decide on.
func conflictWords(l *i18n.Localizer, taken *play.ConflictError) string {
	return l.T("error.table_conflict", "There", entryWords(l, taken.Game, taken.There.Action, taken.There.Faces),
		"Entered", entryWords(l, taken.Game, taken.Entered.Action, taken.Entered.Faces))
}

// tableWords are the device's words while the network is down, in the
// reader's language, as JSON: {name}, {faces} and {n} are filled in by
// app.js.
func tableWords(l *i18n.Localizer, g sim.Game) string {
	b, _ := json.Marshal(map[string]string{
		"turn": l.T("table.turn", "Name", "{name}"), "ask": l.T(tableAsk(g), "Name", "{name}"),
		"last": l.T("table.last", "Name", "{name}", "Faces", "{faces}"), "bot": l.T("table.offline_bot", "Name", "{name}"),
		"over": l.T("table.offline_over"), "queued": l.T("table.queued"), "hog": l.T("table.offline_hog"),
		"held": l.T("table.held", "List", "{faces}"), "again": l.T("table.held_again"), "drop": l.T("table.held_drop"),
		"a_hold": l.T("table.a_hold"), "a_throw": l.T("table.a_throw", "Faces", "{faces}"), "a_row": l.T("table.a_row", "Row", "{faces}"),
	})
	return string(b)
}
