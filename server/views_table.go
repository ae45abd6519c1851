package server

import (
	"strings"

	"pigclass/server/charts"
	"pigclass/server/play"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// tableEntry is how a table's device enters the turn of the player to
// move (issue 45): the throw's pieces with the marks each can show, drawn
// as the board draws them, and the last throw to enter again while no
// decision has followed it.
func tableEntry(l *i18n.Localizer, code string, m *play.Match, names []i18n.Msg) *templates.TableEntry {
	g := m.Variant.Game
	r := g.Rules()
	t := &templates.TableEntry{EnterURL: paths.ClassEnter.With(code, m.ID), Throw: sim.Roll.String(),
		Ask: l.T("table.ask", "Name", l.Say(names[m.State.Seat])), Send: l.T("table.send")}
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
	if n := len(m.Events); n > 0 && m.Events[n-1].Entered {
		last := m.Events[n-1]
		t.Last = l.T("table.last", "Name", l.Say(names[last.Seat]), "Faces", l.Say(charts.ThrowMsg(g, &last.Faces)))
	}
	return t
}

// tableRowExample is a turn of game g as its row is typed: two throws
// and a hold ("4 6 h"; "35 12 h" with two pieces a throw).
func tableRowExample(g sim.Game) string {
	if g.Dice() == 2 {
		return "35 42 h"
	}
	return "4 6 h"
}
