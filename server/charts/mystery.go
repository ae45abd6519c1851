package charts

import (
	"slices"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// MysteryKey is the chart of the lesson phase "Which bot did you play?".
const MysteryKey = "mystery-guesses"

// mysteryKinds name the mystery bot's strengths in the order of
// sim.MysteryStrengths (the beginner, the game's rule of thumb, perfect
// play), whatever the game's hold points.
var mysteryKinds = []string{"beginner", "rule", "perfect"}

// MysteryGuesses is the class's guesses of its mystery bots' strengths
// against the strengths the seeds drew (sim.MysteryStrength), counted for
// the bots whose match's seed is published: how many played at each
// strength, how many guesses named it, and how many of those were right.
func MysteryGuesses(l *i18n.Localizer, seats []store.MysterySeat) templates.Chart {
	if len(seats) == 0 {
		return empty(l, MysteryKey, t(l, MysteryKey, "caption_empty"), t(l, MysteryKey, "empty"))
	}
	played, guessed, right := make([]int, len(mysteryKinds)), make([]int, len(mysteryKinds)), make([]int, len(mysteryKinds))
	guesses, rights := 0, 0
	for _, s := range seats {
		strengths := sim.MysteryStrengths(s.Variant.Game)
		truth := sim.MysteryStrength(s.Variant.Game, &s.Seed, s.Seat)
		ti := slices.Index(strengths, truth)
		played[ti]++
		for _, g := range s.Guesses {
			gi := slices.Index(strengths, g)
			if gi < 0 {
				continue
			}
			guessed[gi]++
			guesses++
			if gi == ti {
				right[gi]++
				rights++
			}
		}
	}
	var labels []string
	var tbl templates.DataTable
	tbl.Headers = []string{t(l, MysteryKey, "strength"), t(l, MysteryKey, "played"), t(l, MysteryKey, "guessed"), t(l, MysteryKey, "right")}
	var p, g, r []opts.BarData
	for i, kind := range mysteryKinds {
		name := t(l, MysteryKey, kind)
		labels = append(labels, name)
		p, g, r = append(p, opts.BarData{Value: played[i]}), append(g, opts.BarData{Value: guessed[i]}), append(r, opts.BarData{Value: right[i]})
		tbl.Rows = append(tbl.Rows, []string{name, num(l, played[i]), num(l, guessed[i]), num(l, right[i])})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(global(MysteryKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{AxisLabel: &opts.AxisLabel{Interval: "0"}}), // every strength named; the names say what the axis is
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, MysteryKey, "bots"), MinInterval: 1}))...)
	bar.SetXAxis(labels).
		AddSeries(t(l, MysteryKey, "played"), p).
		AddSeries(t(l, MysteryKey, "guessed"), g).
		AddSeries(t(l, MysteryKey, "right"), r)
	caption := t(l, MysteryKey, "caption", "Bots", num(l, len(seats)), "Right", num(l, rights), "Guesses", num(l, guesses))
	return finish(l, MysteryKey, "320px", caption, bar.RenderSnippet().Option, tbl)
}
