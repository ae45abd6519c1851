package charts

import (
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// LabKey is the chart of the class's lab (issue 62): every run of the
// lab's question with its 95% interval, sorted (the "dance of the
// intervals"), the runs pooled, and once the teacher reveals it the exact
// answer, with how many intervals cover it.
const LabKey = "lab"

// LabData is the class's lab as its chart shows it.
type LabData struct {
	// Question is the lab's question in words, "" when none is posed.
	Question string
	Runs     []LabRun
	// The runs pooled: their games, the share won and its interval.
	Games          int
	Pooled, Lo, Hi float64
	// Exact is the question's exact answer once revealed, NaN before;
	// Covering of Covered runs' intervals hold it.
	Exact             float64
	Covering, Covered int
}

// LabRun is one run: its games, the share won and its 95% interval.
type LabRun struct {
	Games         int
	Share, Lo, Hi float64
}

// Lab is the lab's chart.
func Lab(l *i18n.Localizer, d LabData) templates.Chart {
	if d.Question == "" {
		return empty(l, LabKey, t(l, LabKey, "caption_none"), t(l, LabKey, "none"))
	}
	caption := t(l, LabKey, "caption", "Question", d.Question)
	if len(d.Runs) == 0 {
		return empty(l, LabKey, caption, t(l, LabKey, "empty"))
	}
	tbl := templates.DataTable{Headers: []string{t(l, LabKey, "run"), t(l, LabKey, "games"), t(l, LabKey, "share"), t(l, LabKey, "interval")}}
	var labels []string
	var data []opts.BoxPlotData
	for i, r := range d.Runs {
		labels = append(labels, num(l, i+1))
		data = append(data, opts.BoxPlotData{Value: []float64{round4(r.Lo), round4(r.Lo), round4(r.Share), round4(r.Hi), round4(r.Hi)}})
		tbl.Rows = append(tbl.Rows, []string{num(l, i+1), num(l, r.Games), pct(l, r.Share), t(l, LabKey, "range", "Lo", pct(l, r.Lo), "Hi", pct(l, r.Hi))})
	}
	labels = append(labels, t(l, LabKey, "pooled_label"))
	data = append(data, opts.BoxPlotData{Value: []float64{round4(d.Lo), round4(d.Lo), round4(d.Pooled), round4(d.Hi), round4(d.Hi)}})
	tbl.Rows = append(tbl.Rows, []string{t(l, LabKey, "pooled_row"), num(l, d.Games), pct(l, d.Pooled), t(l, LabKey, "range", "Lo", pct(l, d.Lo), "Hi", pct(l, d.Hi))})
	finding := t(l, LabKey, "pooled", "Share", pct(l, d.Pooled), "Games", num(l, d.Games), "Lo", pct(l, d.Lo), "Hi", pct(l, d.Hi))
	if !math.IsNaN(d.Exact) {
		e := round4(d.Exact)
		labels = append(labels, t(l, LabKey, "exact_label"))
		data = append(data, opts.BoxPlotData{Value: []float64{e, e, e, e, e}})
		tbl.Rows = append(tbl.Rows, []string{t(l, LabKey, "exact_row"), "", pct(l, d.Exact), ""})
		finding = t(l, LabKey, "covering", "Covering", num(l, d.Covering), "Covered", num(l, d.Covered), "Exact", pct(l, d.Exact))
	}
	lo, hi := labRange(d)
	box := charts.NewBoxPlot()
	box.SetGlobalOptions(append(global(LabKey, "360px"),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, LabKey, "axis"), Min: lo, Max: hi}))...)
	box.SetXAxis(labels).AddSeries(t(l, LabKey, "series"), data)
	c := finish(l, LabKey, "360px", caption, box.RenderSnippet().Option, tbl)
	c.Finding = finding
	return c
}

// labRange is the share axis of the lab's chart: the intervals (and the
// exact answer) with a margin, in steps of 5 points, so that the runs'
// intervals are drawn large enough to compare.
func labRange(d LabData) (lo, hi float64) {
	lo, hi = d.Lo, d.Hi
	for _, r := range d.Runs {
		lo, hi = math.Min(lo, r.Lo), math.Max(hi, r.Hi)
	}
	if !math.IsNaN(d.Exact) {
		lo, hi = math.Min(lo, d.Exact), math.Max(hi, d.Exact)
	}
	return math.Max(0, math.Floor((lo-0.02)*20)/20), math.Min(1, math.Ceil((hi+0.02)*20)/20)
}

// LabPathKey is the chart of one run of the lab: how the share won
// wandered as its games were added, and settled (the law of large
// numbers).
const LabPathKey = "lab-path"

// LabPath is a run's path: the share after each of its marks of games, on
// a logarithmic scale of the games.
func LabPath(l *i18n.Localizer, r sim.ExperimentResult) templates.Chart {
	var points []opts.LineData
	tbl := templates.DataTable{Headers: []string{t(l, LabPathKey, "games"), t(l, LabPathKey, "share")}}
	for _, p := range r.Path {
		share := float64(p.Wins) / float64(p.Games)
		points = append(points, opts.LineData{Value: []any{p.Games, round4(share)}})
		tbl.Rows = append(tbl.Rows, []string{num(l, p.Games), pct(l, share)})
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(LabPathKey, "300px"),
		charts.WithGridOpts(opts.Grid{Right: "12%"}),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, LabPathKey, "games"), Type: "log", Min: 1}),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, LabPathKey, "share"), Min: 0, Max: 1}))...)
	line.AddSeries(t(l, LabPathKey, "series"), points, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}))
	lo, hi := r.Interval()
	caption := t(l, LabPathKey, "caption", "Games", num(l, r.Games), "Share", pct(l, r.Share()), "Lo", pct(l, lo), "Hi", pct(l, hi))
	return finish(l, LabPathKey, "300px", caption, line.RenderSnippet().Option, tbl)
}

// LabSpreadKey is the chart of how far the class's estimates spread with
// the games a run played: a histogram of the runs' shares, runs of fewer
// than labLarge games beside the rest (the spread shrinks as 1/sqrt(N)).
const LabSpreadKey = "lab-spread"

// labLarge is the games from which a run counts as large.
const labLarge = 1000

// LabSpread is the spread chart: the runs' shares in bins of 2 points,
// small runs and large ones side by side, with each group's spread (the
// standard deviation of its shares) beside the spread chance gives a run
// of its mean size.
func LabSpread(l *i18n.Localizer, d LabData) templates.Chart {
	caption := t(l, LabSpreadKey, "caption", "N", num(l, labLarge))
	if d.Question == "" {
		return empty(l, LabSpreadKey, caption, t(l, LabKey, "none"))
	}
	if len(d.Runs) == 0 {
		return empty(l, LabSpreadKey, caption, t(l, LabKey, "empty"))
	}
	const bin = 0.02
	first, last := math.Inf(1), math.Inf(-1)
	for _, r := range d.Runs {
		first, last = math.Min(first, r.Share), math.Max(last, r.Share)
	}
	lo := math.Floor(first/bin) * bin
	n := int(math.Floor((last-lo)/bin+1e-9)) + 1
	small, large := make([]opts.BarData, n), make([]opts.BarData, n)
	counts := [2][]int{make([]int, n), make([]int, n)}
	var groups [2][]LabRun
	for _, r := range d.Runs {
		g := 0
		if r.Games >= labLarge {
			g = 1
		}
		counts[g][min(n-1, int(math.Floor((r.Share-lo)/bin+1e-9)))]++
		groups[g] = append(groups[g], r)
	}
	labels := make([]string, n)
	tbl := templates.DataTable{Headers: []string{t(l, LabSpreadKey, "bin"), t(l, LabSpreadKey, "small", "N", num(l, labLarge)), t(l, LabSpreadKey, "large", "N", num(l, labLarge))}}
	for i := range n {
		labels[i] = pct(l, lo+float64(i)*bin)
		small[i], large[i] = opts.BarData{Value: counts[0][i]}, opts.BarData{Value: counts[1][i]}
		tbl.Rows = append(tbl.Rows, []string{labels[i], num(l, counts[0][i]), num(l, counts[1][i])})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(global(LabSpreadKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, LabSpreadKey, "axis")}), charts.WithYAxisOpts(opts.YAxis{Name: t(l, LabSpreadKey, "runs"), MinInterval: 1}))...)
	bar.SetXAxis(labels).AddSeries(t(l, LabSpreadKey, "small", "N", num(l, labLarge)), small).AddSeries(t(l, LabSpreadKey, "large", "N", num(l, labLarge)), large)
	c := finish(l, LabSpreadKey, "320px", caption, bar.RenderSnippet().Option, tbl)
	var said []string
	for g, runs := range groups {
		if len(runs) < 2 {
			continue
		}
		sd, games := spread(runs)
		p := d.Pooled
		said = append(said, t(l, LabSpreadKey, []string{"small_spread", "large_spread"}[g], "N", num(l, labLarge), "Runs", num(l, len(runs)),
			"Spread", l.Points(sd), "Chance", l.Points(math.Sqrt(p*(1-p)/games))))
	}
	c.Finding = strings.Join(said, " ")
	return c
}

// spread is the standard deviation of the runs' shares (n-1), and their
// mean number of games.
func spread(runs []LabRun) (sd, games float64) {
	var mean float64
	for _, r := range runs {
		mean += r.Share
		games += float64(r.Games)
	}
	mean /= float64(len(runs))
	games /= float64(len(runs))
	for _, r := range runs {
		sd += (r.Share - mean) * (r.Share - mean)
	}
	return math.Sqrt(sd / float64(len(runs)-1)), games
}
