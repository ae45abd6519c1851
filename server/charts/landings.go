package charts

import (
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// PigLandingsKey is the chart of how the class's pigs landed.
const PigLandingsKey = "pig-landings"

// fitWords says the chi-square test of the class's landings against the
// chances the game plays with (sim.ChiSquareFit, rare landings pooled) in
// words a class reads, or that there are too few pigs to test.
func fitWords(l *i18n.Localizer, counts []int, probs []float64) string {
	stat, tail, bins, ok := sim.ChiSquareFit(counts, probs)
	if !ok {
		return t(l, PigLandingsKey, "chi.scarce")
	}
	return chiWords(l, PigLandingsKey, stat, tail, bins-1)
}

// landingCounts counts marks by landing (counts[m], m from 1), the pigs
// that landed apart, and those that touched.
func landingCounts(r *sim.GameRules, marks []int) (counts []int, pieces, touched int) {
	counts = make([]int, len(r.Piece.Weights)+1)
	for _, m := range marks {
		switch {
		case m >= 1 && m <= len(r.Piece.Weights):
			counts[m]++
			pieces++
		case r.Mishap.Weight > 0 && m == int(r.Mishap.Mark):
			touched++
		}
	}
	return counts, pieces, touched
}

// PigLandings sets the class's landings of game g's pieces (marks, piece by
// piece, as thrown) beside the chances the game is played with (Kern's
// counts for Pass the Pigs): for each landing the class's share of the
// pigs with its 95% interval, and the data's share; the touches as a share
// of the throws.
//
// The landings entered by hand at tables (real pigs) are tested apart
// too, when some are and not all.
func PigLandings(l *i18n.Localizer, g sim.Game, thrown store.Thrown) templates.Chart {
	caption := t(l, PigLandingsKey, "caption")
	r := g.Rules()
	p := &r.Piece
	counts, pieces, touched := landingCounts(r, thrown.All)
	throws := pieces/r.Pieces + touched/r.Pieces
	if throws == 0 {
		return empty(l, PigLandingsKey, caption, t(l, PigLandingsKey, "empty"))
	}
	total := 0
	for _, w := range p.Weights {
		total += w
	}
	var boxes shareBoxes
	tbl := templates.DataTable{Headers: []string{t(l, PigLandingsKey, "landing"), t(l, PigLandingsKey, "count"), t(l, PigLandingsKey, "share"), t(l, PigLandingsKey, "interval"), t(l, PigLandingsKey, "data")}}
	add := func(label string, k, n int, want float64) {
		share, lo, hi := boxes.add(l, label, k, n, want)
		tbl.Rows = append(tbl.Rows, []string{label, num(l, k), pct(l, share), t(l, PigLandingsKey, "range", "Lo", pct(l, lo), "Hi", pct(l, hi)), pct(l, want)})
	}
	for m, w := range p.Weights {
		add(l.T(r.MarkKey(m+1)), counts[m+1], pieces, float64(w)/float64(total))
	}
	if r.Mishap.Weight > 0 {
		add(t(l, PigLandingsKey, "touching"), touched/r.Pieces, throws, float64(r.Mishap.Weight)/float64(r.Mishap.Of))
	}
	caption = l.N("chart."+PigLandingsKey+".counted", throws, "Pieces", num(l, pieces), "Throws", num(l, throws)) + " " + caption
	probs := make([]float64, len(p.Weights))
	for m, w := range p.Weights {
		probs[m] = float64(w) / float64(total)
	}
	caption += " " + fitWords(l, counts[1:], probs)
	if n := len(thrown.Entered); n > 0 && n < len(thrown.All) {
		real, _, _ := landingCounts(r, thrown.Entered)
		caption += " " + t(l, PigLandingsKey, "entered", "N", num(l, n)) + " " + fitWords(l, real[1:], probs)
	}
	option := boxes.option(l, PigLandingsKey, "360px", opts.XAxis{AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: 30}}, "axis", "data")
	return finish(l, PigLandingsKey, "360px", caption, option, tbl)
}
