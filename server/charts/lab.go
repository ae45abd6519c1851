package charts

import (
	"math"

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
