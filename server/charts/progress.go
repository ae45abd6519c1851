package charts

import (
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/templates"
	"pigclass/templates/i18n"
)

// ProgressKey is the class's unit, day by day.
const ProgressKey = "progress"

// ProgressDay is one day of the class's play: the chance of winning a
// game of its students gave away on average, with its 95% interval (equal
// to the mean when the day has too few different games to tell), over how
// many games (report's rule: Progress).
type ProgressDay struct {
	Day          string
	Games        int
	Mean, Lo, Hi float64
}

// ProgressData is the class's days and what the change from the first to
// the last says, by the same rule as a student's page.
type ProgressData struct {
	Days    []ProgressDay
	Verdict string
}

// Progress is the class over its unit: where it started and where it is,
// the chance of winning a decision gave away on average each day, with
// the interval chance leaves around it.
func Progress(l *i18n.Localizer, data ProgressData) templates.Chart {
	caption, days := t(l, ProgressKey, "caption"), data.Days
	if data.Verdict != "" {
		caption += " " + data.Verdict
	}
	if len(days) == 0 {
		return empty(l, ProgressKey, caption, t(l, ProgressKey, "empty"))
	}
	var labels []string
	var mean, lo, hi []opts.LineData
	var tbl templates.DataTable
	tbl.Headers = []string{t(l, ProgressKey, "day"), t(l, ProgressKey, "games"), t(l, ProgressKey, "mean"), t(l, ProgressKey, "low"), t(l, ProgressKey, "high")}
	for _, d := range days {
		labels = append(labels, d.Day)
		mean = append(mean, opts.LineData{Value: round4(100 * d.Mean)})
		lo = append(lo, opts.LineData{Value: round4(100 * d.Lo)})
		hi = append(hi, opts.LineData{Value: round4(100 * d.Hi)})
		tbl.Rows = append(tbl.Rows, []string{d.Day, num(l, d.Games), pct(l, d.Mean), pct(l, d.Lo), pct(l, d.Hi)})
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(ProgressKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, ProgressKey, "day")}),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, ProgressKey, "axis"), Min: 0}))...)
	dashed := charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed"})
	line.SetXAxis(labels).
		AddSeries(t(l, ProgressKey, "mean"), mean).
		AddSeries(t(l, ProgressKey, "low"), lo, dashed).
		AddSeries(t(l, ProgressKey, "high"), hi, dashed)
	return finish(l, ProgressKey, "320px", caption, line.RenderSnippet().Option, tbl)
}
