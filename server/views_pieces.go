package server

import (
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// thrownPieces is a throw as the board draws it, and the name of each
// piece.
func thrownPieces(g sim.Game, f sim.Faces) ([]templates.ThrownPiece, []i18n.Msg) {
	r := g.Rules()
	out, names := make([]templates.ThrownPiece, f.Len()), make([]i18n.Msg, f.Len())
	for i := range out {
		m := f.At(i)
		out[i] = templates.ThrownPiece{Pips: r.Piece.Look == sim.LookDie, Mark: m, Pose: r.Pose(m)}
		names[i] = i18n.M(r.MarkKey(m))
	}
	return out, names
}
