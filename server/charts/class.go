package charts

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
)

// ClassDice is chart 5a: how often each face came up in the class.
func ClassDice(faces []int) templates.Chart {
	const caption = "Every die the class threw. Each face should come up about a sixth of the time: are the differences bigger than chance?"
	if len(faces) == 0 {
		return empty(DiceKey, caption, "No dice thrown yet.")
	}
	var counts [7]int
	for _, f := range faces {
		counts[f]++
	}
	labels := []string{"1", "2", "3", "4", "5", "6"}
	var data, expect []opts.BarData
	var tbl templates.DataTable
	tbl.Headers = []string{"face", "count", "share", "expected count"}
	for f := 1; f <= 6; f++ {
		data = append(data, opts.BarData{Value: counts[f]})
		e := float64(len(faces)) / 6
		expect = append(expect, opts.BarData{Value: round4(e)})
		tbl.Rows = append(tbl.Rows, []string{labels[f-1], strconv.Itoa(counts[f]), pct(float64(counts[f]) / float64(len(faces))), f4(e)})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(global(DiceKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "face"}), charts.WithYAxisOpts(opts.YAxis{Name: "dice"}))...)
	bar.SetXAxis(labels).AddSeries("class", data).AddSeries("a sixth of all dice", expect)
	return finish(DiceKey, "320px", caption, bar.RenderSnippet().Option, tbl)
}

// ShareOfOnes is chart 5b: the running share of 1s as the class's dice
// accumulate, approaching 1/6.
func ShareOfOnes(faces []int) templates.Chart {
	const caption = "The share of 1s after each die thrown: it wanders at first and settles near 1/6 (the dashed line) as the dice add up: the law of large numbers."
	if len(faces) == 0 {
		return empty(OnesKey, caption, "No dice thrown yet.")
	}
	// At most 200 points: the share after every step-th die.
	step := max(1, (len(faces)+199)/200)
	var labels []string
	var share, sixth []opts.LineData
	var tbl templates.DataTable
	tbl.Headers = []string{"dice thrown", "1s", "share of 1s"}
	ones := 0
	for i, f := range faces {
		if f == 1 {
			ones++
		}
		if n := i + 1; n%step == 0 || n == len(faces) {
			labels = append(labels, strconv.Itoa(n))
			share = append(share, opts.LineData{Value: round4(float64(ones) / float64(n))})
			sixth = append(sixth, opts.LineData{Value: round4(1.0 / 6)})
			tbl.Rows = append(tbl.Rows, []string{strconv.Itoa(n), strconv.Itoa(ones), f4(float64(ones) / float64(n))})
		}
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(OnesKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "dice thrown"}), charts.WithYAxisOpts(opts.YAxis{Name: "share of 1s", Min: 0, Max: 0.5}))...)
	line.SetXAxis(labels).AddSeries("share of 1s", share, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)})).
		AddSeries("1/6", sixth, charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed"}), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}))
	return finish(OnesKey, "320px", caption, line.RenderSnippet().Option, tbl)
}

// HogDice is chart 6a: the dice the students chose against the count
// perfect play chooses in the same state.
func HogDice(decisions []store.Decision) templates.Chart {
	const caption = "Each bubble is how often the class threw that many dice (up) where perfect play throws the count across. On the diagonal the class agreed; expected-value play always throws 5."
	counts := map[[2]int]int{}
	for _, d := range decisions {
		chosen, ok1 := diceOf(d.Action.String())
		best, ok2 := diceOf(d.Best)
		if ok1 && ok2 {
			counts[[2]int{best, chosen}]++
		}
	}
	if len(counts) == 0 {
		return empty(HogDiceKey, caption, "No Hog decisions yet: play a round of Hog first.")
	}
	var points []opts.ScatterData
	var tbl templates.DataTable
	tbl.Headers = []string{"perfect play's dice", "class's dice", "times"}
	for best := 1; best <= sim.MaxDiceLimit; best++ {
		for chosen := 1; chosen <= sim.MaxDiceLimit; chosen++ {
			if n := counts[[2]int{best, chosen}]; n > 0 {
				points = append(points, opts.ScatterData{Value: []int{best, chosen, n}, SymbolSize: 8 + min(40, 4*n)})
				tbl.Rows = append(tbl.Rows, []string{strconv.Itoa(best), strconv.Itoa(chosen), strconv.Itoa(n)})
			}
		}
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(append(global(HogDiceKey, "360px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "perfect play's dice", Type: "value", Min: 0}),
		charts.WithYAxisOpts(opts.YAxis{Name: "class's dice", Type: "value", Min: 0}))...)
	sc.AddSeries("decisions", points)
	return finish(HogDiceKey, "360px", caption, sc.RenderSnippet().Option, tbl)
}

func diceOf(action string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(action, "dice:"))
	return n, err == nil && strings.HasPrefix(action, "dice:")
}

// HogCurve is chart 6b: the expected points of n dice, 4n(5/6)^n.
func HogCurve(maxDice int) templates.Chart {
	const caption = "More dice score more when no 1 shows, but a 1 gets likelier with each die: the expected points 4n(5/6)^n peak at 5 and 6 dice, which tie."
	var labels []string
	var data []opts.LineData
	var tbl templates.DataTable
	tbl.Headers = []string{"dice", "expected points", "chance of no 1"}
	for n := 1; n <= maxDice; n++ {
		e := sim.ExpectedGain(sim.Hog, 0, 0, n)
		labels = append(labels, strconv.Itoa(n))
		data = append(data, opts.LineData{Value: round4(e)})
		tbl.Rows = append(tbl.Rows, []string{strconv.Itoa(n), f4(e), pct(math.Pow(5.0/6, float64(n)))})
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(HogCurveKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "dice"}), charts.WithYAxisOpts(opts.YAxis{Name: "expected points"}))...)
	line.SetXAxis(labels).AddSeries("4n(5/6)^n", data)
	return finish(HogCurveKey, "320px", caption, line.RenderSnippet().Option, tbl)
}

// FirstResults is the class's first-player record under one set of rules,
// beside the exact value under perfect play.
type FirstResults struct {
	Rules     string // e.g. "Pig to 100" or "Pig to 100, equal turns"
	Games     int
	FirstWins int
	Exact     float64
}

// FirstPlayer is chart 7: the class's first-player win rate with its 95%
// confidence interval, beside the exact value under perfect play, for each
// set of rules the class played (the standard rules first).
func FirstPlayer(results []FirstResults) templates.Chart {
	caption := "Does moving first help? Each box is the class's 95% interval; the line beside it is the exact share under perfect play"
	for _, r := range results {
		caption += fmt.Sprintf("; %s: %s", r.Rules, pct(r.Exact))
	}
	caption += "."
	var labels []string
	var data []opts.BoxPlotData
	tbl := templates.DataTable{Headers: []string{"rules", "", "games", "first player won", "share", "95% interval"}}
	for _, r := range results {
		if r.Games == 0 {
			continue
		}
		rate := float64(r.FirstWins) / float64(r.Games)
		lo, hi := sim.Wilson(r.FirstWins, r.Games, 1.959963984540054)
		e := round4(r.Exact)
		labels = append(labels, fmt.Sprintf("%s: class (%d games)", r.Rules, r.Games), r.Rules+": perfect play")
		data = append(data, opts.BoxPlotData{Value: []float64{round4(lo), round4(lo), round4(rate), round4(hi), round4(hi)}},
			opts.BoxPlotData{Value: []float64{e, e, e, e, e}})
		tbl.Rows = append(tbl.Rows,
			[]string{r.Rules, "class", strconv.Itoa(r.Games), strconv.Itoa(r.FirstWins), pct(rate), pct(lo) + " to " + pct(hi)},
			[]string{r.Rules, "perfect play (exact)", "", "", pct(r.Exact), ""})
	}
	if len(labels) == 0 {
		return empty(FirstPlayerKey, caption, "No finished two-player matches yet.")
	}
	box := charts.NewBoxPlot()
	box.SetGlobalOptions(append(global(FirstPlayerKey, "320px"),
		charts.WithYAxisOpts(opts.YAxis{Name: "first player wins", Min: 0, Max: 1}))...)
	box.SetXAxis(labels).AddSeries("first player's share", data)
	return finish(FirstPlayerKey, "320px", caption, box.RenderSnippet().Option, tbl)
}

// Rung is one step of the strategy ladder: hold:N against perfect play.
type Rung struct {
	N             int
	First, Second float64 // hold:N's exact chance moving first, moving second
}

// Ladder is chart 8: the exact chance of hold:N against perfect play, for
// N = 5..40, moving first and moving second.
func Ladder(rungs []Rung) templates.Chart {
	const caption = "The exact chance that always holding at N beats a perfect player. Even the best N stays below one half on average: the rule of thumb is good, not perfect."
	if len(rungs) == 0 {
		return empty(LadderKey, caption, "The solver is still computing the ladder: reload in a few seconds.")
	}
	var labels []string
	var first, second, avg []opts.LineData
	var tbl templates.DataTable
	tbl.Headers = []string{"N", "hold:N moving first", "hold:N moving second", "average"}
	for _, r := range rungs {
		labels = append(labels, strconv.Itoa(r.N))
		a := (r.First + r.Second) / 2
		first = append(first, opts.LineData{Value: round4(r.First)})
		second = append(second, opts.LineData{Value: round4(r.Second)})
		avg = append(avg, opts.LineData{Value: round4(a)})
		tbl.Rows = append(tbl.Rows, []string{strconv.Itoa(r.N), f4(r.First), f4(r.Second), f4(a)})
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(LadderKey, "340px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "hold at N"}), charts.WithYAxisOpts(opts.YAxis{Name: "chance to beat perfect play", Min: 0, Max: 0.6}))...)
	line.SetXAxis(labels).AddSeries("moving first", first).AddSeries("moving second", second).
		AddSeries("average", avg, charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed"}))
	return finish(LadderKey, "340px", caption, line.RenderSnippet().Option, tbl)
}
