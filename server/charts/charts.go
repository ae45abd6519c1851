// Package charts builds pigclass's charts: go-echarts options from class
// data and the solver, each with a caption and a table alternative. The
// options are rendered with RenderSnippet and drawn by the vendored ECharts;
// every chart has a fixed ID.
package charts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/templates"
)

// Okabe-Ito colours: safe for colour-blind readers.
var palette = opts.Colors{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000"}

// Keys of the charts, in the order the README lists them ("In the
// classroom", step 5).
const (
	HoldPointsKey  = "hold-points"
	DecisionMapKey = "decision-map"
	SkillLuckKey   = "skill-luck"
	TimelineKey    = "timeline"
	DiceKey        = "class-dice"
	OnesKey        = "share-of-ones"
	HogDiceKey     = "hog-dice"
	HogCurveKey    = "hog-curve"
	FirstPlayerKey = "first-player"
	LadderKey      = "ladder"
)

// Titles names every class chart, for pickers and lessons.
var Titles = map[string]string{
	HoldPointsKey:  "Hold points",
	DecisionMapKey: "Decision map",
	SkillLuckKey:   "Skill and luck",
	DiceKey:        "Class dice",
	OnesKey:        "The share of 1s",
	HogDiceKey:     "Hog: dice chosen",
	HogCurveKey:    "Hog: expected points",
	FirstPlayerKey: "First-player advantage",
	LadderKey:      "Strategy ladder",
}

// ClassKeys lists the class charts in order.
var ClassKeys = []string{HoldPointsKey, DecisionMapKey, SkillLuckKey, DiceKey, OnesKey, HogDiceKey, HogCurveKey, FirstPlayerKey, LadderKey}

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
func finish(key, height, caption string, option string, table templates.DataTable) templates.Chart {
	return templates.Chart{Key: key, ID: "chart-" + key, Title: Titles[key], Caption: caption, Option: option, Height: height, Table: table}
}

// empty is a chart with no data yet.
func empty(key, caption, why string) templates.Chart {
	return templates.Chart{Key: key, ID: "chart-" + key, Title: Titles[key], Caption: caption, Empty: why}
}

// chartName makes a player's name safe in an ECharts option: go-echarts
// takes "__f__" in a string for the edge of JavaScript code and deletes
// it, so the underscores are set apart by thin spaces.
func chartName(s string) string { return strings.ReplaceAll(s, "__f__", "_\u2009_f_\u2009_") }

func f4(x float64) string  { return strconv.FormatFloat(x, 'f', 4, 64) }
func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
func round4(x float64) float64 {
	return math.Round(x*10000) / 10000
}
