package charts

import (
	"math"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// ArmsKey is the chart of the experiment "Decide before you roll" (issue
// 62): the arms' mean cost per game (exact), and the randomization test
// of their difference: how the difference fell when the class's arm
// labels were reshuffled at random, and where the class's own falls.
const ArmsKey = "arms"

// ArmsData is the experiment compared, as report.ArmsTest has it; Ready
// is false while either arm has no game played to its end.
type ArmsData struct {
	Ready           bool
	Students, Games [2]int     // free, committed
	Mean            [2]float64 // mean cost per game, a share of the chance to win
	Diff            float64    // committed minus free
	Diffs           []float64  // each reshuffle's difference
	AtLeast         int        // reshuffles at least as far from 0 as Diff
	P               float64
	Seed            uint64
}

// armsBins is how many steps the reshuffles' differences are counted in.
const armsBins = 21

// Arms is the experiment's chart: the reshuffles' differences counted in
// steps from the farthest below 0 to the farthest above, those at least
// as far from 0 as the class's stacked apart, the class's difference
// marked; the finding says the p-value in plain words.
func Arms(l *i18n.Localizer, d ArmsData) templates.Chart {
	caption := t(l, ArmsKey, "caption", "Shuffles", num(l, len(d.Diffs)), "Seed", strconv.FormatUint(d.Seed, 10))
	if !d.Ready {
		return empty(l, ArmsKey, caption, t(l, ArmsKey, "empty"))
	}
	reach := math.Abs(d.Diff)
	for _, x := range d.Diffs {
		reach = math.Max(reach, math.Abs(x))
	}
	width := 2 * reach / armsBins
	bin := func(x float64) int {
		if width == 0 {
			return armsBins / 2
		}
		return max(0, min(armsBins-1, int(math.Floor((x+reach)/width))))
	}
	near, far := make([]int, armsBins), make([]int, armsBins)
	for _, x := range d.Diffs {
		if sim.AsFar(x, d.Diff) {
			far[bin(x)]++
		} else {
			near[bin(x)]++
		}
	}
	labels := make([]string, armsBins)
	nearBars, farBars := make([]opts.BarData, armsBins), make([]opts.BarData, armsBins)
	tbl := templates.DataTable{Headers: []string{t(l, ArmsKey, "bin"), t(l, ArmsKey, "near"), t(l, ArmsKey, "far")}}
	for i := range armsBins {
		// A bar stands at its step's middle (the axis says so); the
		// table gives the step whole, from its low edge to its high.
		lo, hi := -reach+float64(i)*width, -reach+float64(i+1)*width
		labels[i] = l.Dec(100*(lo+hi)/2, 2)
		nearBars[i], farBars[i] = opts.BarData{Value: near[i]}, opts.BarData{Value: far[i]}
		step := t(l, ArmsKey, "range", "Lo", l.Dec(100*lo, 2), "Hi", l.Dec(100*hi, 2))
		tbl.Rows = append(tbl.Rows, []string{step, num(l, near[i]), num(l, far[i])})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(global(ArmsKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, ArmsKey, "axis")}), charts.WithYAxisOpts(opts.YAxis{Name: t(l, ArmsKey, "shuffles"), MinInterval: 1}))...)
	bar.SetXAxis(labels).
		AddSeries(t(l, ArmsKey, "near"), nearBars, charts.WithBarChartOpts(opts.BarChart{Stack: "shuffles"})).
		AddSeries(t(l, ArmsKey, "far"), farBars, charts.WithBarChartOpts(opts.BarChart{Stack: "shuffles"}),
			// The mark stands at its step, and says the class's own
			// difference, not the step's middle (issue 81: the text said
			// -8.63 where the mark said -7.58).
			charts.WithMarkLineNameXAxisItemOpts(opts.MarkLineNameXAxisItem{Name: t(l, ArmsKey, "ours_at", "Diff", l.Dec(100*d.Diff, 2)), XAxis: labels[bin(d.Diff)]}),
			charts.WithMarkLineStyleOpts(opts.MarkLineStyle{Label: &opts.Label{Show: opts.Bool(true), Formatter: "{b}"}}))
	c := finish(l, ArmsKey, "320px", caption, bar.RenderSnippet().Option, tbl)
	c.Finding = armsFinding(l, d)
	return c
}

// armsFinding says the experiment's result and its p-value in words a
// 12-year-old reads: what each group gave away, by how much they differ,
// and how often chance alone made a difference as big.
func armsFinding(l *i18n.Localizer, d ArmsData) string {
	better := "committed_better"
	if d.Diff > 0 {
		better = "free_better"
	}
	said := t(l, ArmsKey, "means", "Free", l.Points(d.Mean[0]), "FreeN", num(l, d.Students[0]), "FreeGames", num(l, d.Games[0]),
		"Committed", l.Points(d.Mean[1]), "CommittedN", num(l, d.Students[1]), "CommittedGames", num(l, d.Games[1])) +
		" " + t(l, ArmsKey, better, "Diff", l.Points(math.Abs(d.Diff))) +
		" " + t(l, ArmsKey, "p", "AtLeast", num(l, d.AtLeast), "Shuffles", num(l, len(d.Diffs)), "P", l.Dec(d.P, 3))
	if d.P < 0.05 {
		return said + " " + t(l, ArmsKey, "rare")
	}
	return said + " " + t(l, ArmsKey, "luck")
}
