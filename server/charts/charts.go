// Package charts builds pigclass's charts: go-echarts options from class
// data and the solver, each with a caption and a table alternative. The
// options are rendered with RenderSnippet and drawn by the vendored ECharts;
// every chart has a fixed ID.
package charts

import (
	"math"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/templates"
	"pigclass/templates/i18n"
)

// Okabe-Ito colours, safe for colour-blind readers, then Tol's wine and a
// grey: one for each player of a match of ten (sim.MaxSeats).
var palette = opts.Colors{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000", "#882255", "#999999"}

// Keys of the charts, in the order the dashboard offers them.
const (
	HoldPointsKey  = "hold-points"
	DecisionMapKey = "decision-map"
	SkillLuckKey   = "skill-luck"
	TimelineKey    = "timeline"
	DiceKey        = "class-dice"
	OnesKey        = "share-of-ones"
	SkunkSitsKey   = "skunk-sits"
	HogDiceKey     = "hog-dice"
	HogCurveKey    = "hog-curve"
	FirstPlayerKey = "first-player"
	LadderKey      = "ladder"
)

// Title names a chart in the reader's language, for pickers and lessons.
// The words of every chart are the catalog's "chart.KEY.*" messages.
func Title(l *i18n.Localizer, key string) string { return l.T("chart." + key + ".title") }

// global are the options every chart shares.
func global(key, height string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: "chart-" + key, Width: "100%", Height: height}),
		charts.WithAnimation(false),
		charts.WithColorsOpts(palette),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true)}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom"}),
		charts.WithAriaOpts(&opts.Aria{Enabled: opts.Bool(true)}),
	}
}

// finish renders a chart's option and wraps it with its words and table.
func finish(l *i18n.Localizer, key, height, caption string, option string, table templates.DataTable) templates.Chart {
	return templates.Chart{Key: key, ID: "chart-" + key, Title: Title(l, key), Caption: caption, Option: option, Height: height, Table: table}
}

// empty is a chart with no data yet.
func empty(l *i18n.Localizer, key, caption, why string) templates.Chart {
	return templates.Chart{Key: key, ID: "chart-" + key, Title: Title(l, key), Caption: caption, Empty: why}
}

// chartName makes a player's name safe in an ECharts option: go-echarts
// takes "__f__" in a string for the edge of JavaScript code and deletes
// it, so the underscores are set apart by thin spaces.
func chartName(s string) string { return strings.ReplaceAll(s, "__f__", "_\u2009_f_\u2009_") }

// t is a chart's message: "chart.KEY.ID".
func t(l *i18n.Localizer, key, id string, args ...any) string {
	return l.T("chart."+key+"."+id, args...)
}

// The tables' numbers, in the reader's format.
func f4(l *i18n.Localizer, x float64) string  { return l.Dec(x, 4) }
func pct(l *i18n.Localizer, x float64) string { return l.Pct(x, 1) }
func num(l *i18n.Localizer, n int) string     { return l.Int(n) }
func round4(x float64) float64 {
	return math.Round(x*10000) / 10000
}
