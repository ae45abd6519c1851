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
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// ClassDice is chart 5a: how often each face came up in the class.
//
// The dice entered by hand at tables (real dice) are tested apart too,
// when some are and not all.
func ClassDice(l *i18n.Localizer, thrown store.Thrown) templates.Chart {
	faces := thrown.All
	caption := t(l, DiceKey, "caption")
	if len(faces) == 0 {
		return empty(l, DiceKey, caption, l.T("chart.nodice"))
	}
	var counts [7]int
	for _, f := range faces {
		counts[f]++
	}
	// Each face's share with its interval beside a sixth: does every
	// face's interval contain 1 in 6?
	var boxes shareBoxes
	var tbl templates.DataTable
	tbl.Headers = []string{t(l, DiceKey, "face"), t(l, DiceKey, "count"), t(l, DiceKey, "share"), t(l, DiceKey, "interval"), t(l, DiceKey, "expected")}
	for f := 1; f <= 6; f++ {
		face := strconv.Itoa(f)
		share, lo, hi := boxes.add(l, face, counts[f], len(faces), 1.0/6)
		tbl.Rows = append(tbl.Rows, []string{face, num(l, counts[f]), pct(l, share),
			t(l, DiceKey, "range", "Lo", pct(l, lo), "Hi", pct(l, hi)), f4(l, float64(len(faces))/6)})
	}
	finding := fairWords(l, counts[1:])
	if n := len(thrown.Entered); n > 0 && n < len(faces) {
		var real [7]int
		for _, f := range thrown.Entered {
			real[f]++
		}
		finding += " " + t(l, DiceKey, "entered", "N", num(l, n)) + " " + fairWords(l, real[1:])
	}
	option := boxes.option(l, DiceKey, "320px", opts.XAxis{Name: t(l, DiceKey, "face"), AxisLabel: &opts.AxisLabel{Interval: "0"}}, "share", "sixth")
	c := finish(l, DiceKey, "320px", caption, option, tbl)
	c.Finding = finding
	return c
}

// fairWords says the chi-square test of the faces' counts against a fair
// die's in words a class reads: how often fair dice differ this much, and
// what that says (sim.ChiSquareFair); too few dice (a face expected fewer
// than 5 times) are too few to test.
func fairWords(l *i18n.Localizer, counts []int) string {
	n := 0
	for _, c := range counts {
		n += c
	}
	if n < 5*len(counts) {
		return t(l, DiceKey, "chi.scarce", "N", num(l, 5*len(counts)))
	}
	stat, tail := sim.ChiSquareFair(counts)
	return chiWords(l, DiceKey, stat, tail, len(counts)-1)
}

// chiWords says a chi-square test's outcome in chart key's words: the
// statistic and its degrees of freedom, how often chance alone differs
// this much, and the verdict (fair from 5%, unusual below, rare below 1%).
func chiWords(l *i18n.Localizer, key string, stat, tail float64, df int) string {
	verdict := "fair"
	switch {
	case tail < 0.01:
		verdict = "rare"
	case tail < 0.05:
		verdict = "unusual"
	}
	return t(l, key, "chi."+verdict, "Chi", l.Dec(stat, 2), "Df", num(l, df), "P", pct(l, tail))
}

// ShareOfOnes is chart 5b: the running share of 1s as the class's dice
// accumulate, approaching 1/6.
func ShareOfOnes(l *i18n.Localizer, faces []int) templates.Chart {
	caption := t(l, OnesKey, "caption")
	if len(faces) == 0 {
		return empty(l, OnesKey, caption, l.T("chart.nodice"))
	}
	// At most 200 points: the share after every step-th die.
	step := max(1, (len(faces)+199)/200)
	var labels []string
	var share, sixth []opts.LineData
	var tbl templates.DataTable
	tbl.Headers = []string{t(l, OnesKey, "thrown"), t(l, OnesKey, "ones"), t(l, OnesKey, "share")}
	ones := 0
	for i, f := range faces {
		if f == 1 {
			ones++
		}
		if n := i + 1; n%step == 0 || n == len(faces) {
			labels = append(labels, strconv.Itoa(n))
			share = append(share, opts.LineData{Value: round4(float64(ones) / float64(n))})
			sixth = append(sixth, opts.LineData{Value: round4(1.0 / 6)})
			tbl.Rows = append(tbl.Rows, []string{num(l, n), num(l, ones), f4(l, float64(ones)/float64(n))})
		}
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(OnesKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, OnesKey, "thrown")}), charts.WithYAxisOpts(opts.YAxis{Name: t(l, OnesKey, "share"), Min: 0, Max: 0.5}))...)
	line.SetXAxis(labels).AddSeries(t(l, OnesKey, "share"), share, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)})).
		AddSeries("1/6", sixth, charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed"}), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}))
	return finish(l, OnesKey, "320px", caption, line.RenderSnippet().Option, tbl)
}

// HogDice is chart 6a: the dice the students chose against the count
// perfect play chooses in the same state.
func HogDice(l *i18n.Localizer, decisions []store.Decision) templates.Chart {
	caption := t(l, HogDiceKey, "caption")
	counts := map[[2]int]int{}
	for _, d := range decisions {
		if d.Action.Kind == sim.DiceKind && d.Best.Kind == sim.DiceKind {
			counts[[2]int{int(d.Best.Dice), int(d.Action.Dice)}]++
		}
	}
	if len(counts) == 0 {
		return empty(l, HogDiceKey, caption, t(l, HogDiceKey, "empty"))
	}
	var points []opts.ScatterData
	var tbl templates.DataTable
	tbl.Headers = []string{t(l, HogDiceKey, "best"), t(l, HogDiceKey, "chosen"), t(l, HogDiceKey, "times")}
	for best := 1; best <= sim.MaxDiceLimit; best++ {
		for chosen := 1; chosen <= sim.MaxDiceLimit; chosen++ {
			if n := counts[[2]int{best, chosen}]; n > 0 {
				points = append(points, opts.ScatterData{Value: []int{best, chosen, n}, SymbolSize: 8 + min(40, 4*n)})
				tbl.Rows = append(tbl.Rows, []string{num(l, best), num(l, chosen), num(l, n)})
			}
		}
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(append(global(HogDiceKey, "360px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, HogDiceKey, "best"), Type: "value", Min: 0}),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, HogDiceKey, "chosen"), Type: "value", Min: 0}))...)
	sc.AddSeries(t(l, HogDiceKey, "series"), points)
	return finish(l, HogDiceKey, "360px", caption+approximateNote(l, decisions), sc.RenderSnippet().Option, tbl)
}

// HogCurve is chart 6b: the expected points of n dice of game g (Hog:
// 4n(5/6)^n).
func HogCurve(l *i18n.Localizer, g sim.Game, maxDice int) templates.Chart {
	caption := t(l, HogCurveKey, "caption")
	var labels []string
	var data []opts.LineData
	var tbl templates.DataTable
	tbl.Headers = []string{t(l, HogCurveKey, "dice"), t(l, HogCurveKey, "points"), t(l, HogCurveKey, "noone")}
	for n := 1; n <= maxDice; n++ {
		e := sim.ExpectedGain(g, 0, 0, n)
		labels = append(labels, strconv.Itoa(n))
		data = append(data, opts.LineData{Value: round4(e)})
		tbl.Rows = append(tbl.Rows, []string{num(l, n), f4(l, e), pct(l, math.Pow(5.0/6, float64(n)))})
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(HogCurveKey, "320px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, HogCurveKey, "dice")}), charts.WithYAxisOpts(opts.YAxis{Name: t(l, HogCurveKey, "points")}))...)
	line.SetXAxis(labels).AddSeries("4n(5/6)^n", data)
	return finish(l, HogCurveKey, "320px", caption, line.RenderSnippet().Option, tbl)
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
func FirstPlayer(l *i18n.Localizer, results []FirstResults) templates.Chart {
	var exact []string
	for _, r := range results {
		exact = append(exact, t(l, FirstPlayerKey, "exact", "Rules", r.Rules, "Share", pct(l, r.Exact)))
	}
	caption := t(l, FirstPlayerKey, "caption", "Exact", strings.Join(exact, "; "))
	var labels []string
	var data []opts.BoxPlotData
	tbl := templates.DataTable{Headers: []string{t(l, FirstPlayerKey, "rules"), "", t(l, FirstPlayerKey, "games"), t(l, FirstPlayerKey, "won"), t(l, FirstPlayerKey, "share"), t(l, FirstPlayerKey, "interval")}}
	for _, r := range results {
		if r.Games == 0 {
			continue
		}
		rate := float64(r.FirstWins) / float64(r.Games)
		lo, hi := sim.Wilson(r.FirstWins, r.Games, sim.Z95)
		e := round4(r.Exact)
		labels = append(labels, l.N("chart."+FirstPlayerKey+".classlabel", r.Games, "Rules", r.Rules), t(l, FirstPlayerKey, "bestlabel", "Rules", r.Rules))
		data = append(data, opts.BoxPlotData{Value: []float64{round4(lo), round4(lo), round4(rate), round4(hi), round4(hi)}},
			opts.BoxPlotData{Value: []float64{e, e, e, e, e}})
		tbl.Rows = append(tbl.Rows,
			[]string{r.Rules, l.T("chart.class"), num(l, r.Games), num(l, r.FirstWins), pct(l, rate), t(l, FirstPlayerKey, "range", "Lo", pct(l, lo), "Hi", pct(l, hi))},
			[]string{r.Rules, t(l, FirstPlayerKey, "bestrow"), "", "", pct(l, r.Exact), ""})
	}
	if len(labels) == 0 {
		return empty(l, FirstPlayerKey, caption, t(l, FirstPlayerKey, "empty"))
	}
	box := charts.NewBoxPlot()
	box.SetGlobalOptions(append(global(FirstPlayerKey, "320px"),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, FirstPlayerKey, "axis"), Min: 0, Max: 1}))...)
	box.SetXAxis(labels).AddSeries(t(l, FirstPlayerKey, "series"), data)
	return finish(l, FirstPlayerKey, "320px", caption, box.RenderSnippet().Option, tbl)
}

// Rung is one step of the strategy ladder: hold:N against perfect play.
type Rung struct {
	N             int
	First, Second float64 // hold:N's exact chance moving first, moving second
}

// LadderRungs computes the ladder from the two-player table of Pig to 100:
// exact duels of hold:N against perfect play, N = 5..40, moving first and
// second. The same for every class: a server computes it once.
func LadderRungs(t *solve.Table) ([]Rung, error) {
	v := sim.Standard(sim.Pig)
	opt := solve.Optimal{T: t}
	var rungs []Rung
	for n := 5; n <= 40; n++ {
		first, err := solve.Duel(v, sim.HoldAt(n), opt)
		if err != nil {
			return nil, fmt.Errorf("ladder, hold:%d first: %w", n, err)
		}
		second, err := solve.Duel(v, opt, sim.HoldAt(n))
		if err != nil {
			return nil, fmt.Errorf("ladder, hold:%d second: %w", n, err)
		}
		rungs = append(rungs, Rung{N: n, First: first, Second: 1 - second})
	}
	return rungs, nil
}

// Ladder is chart 8: the exact chance of hold:N against perfect play, for
// N = 5..40, moving first and moving second.
func Ladder(l *i18n.Localizer, rungs []Rung) templates.Chart {
	caption := t(l, LadderKey, "caption")
	if len(rungs) == 0 {
		c := empty(l, LadderKey, caption, t(l, LadderKey, "empty"))
		c.Pending = true // the solver is computing it
		return c
	}
	var labels []string
	var first, second, avg []opts.LineData
	var tbl templates.DataTable
	tbl.Headers = []string{"N", t(l, LadderKey, "first_col"), t(l, LadderKey, "second_col"), t(l, LadderKey, "average")}
	for _, r := range rungs {
		labels = append(labels, strconv.Itoa(r.N))
		a := (r.First + r.Second) / 2
		first = append(first, opts.LineData{Value: round4(r.First)})
		second = append(second, opts.LineData{Value: round4(r.Second)})
		avg = append(avg, opts.LineData{Value: round4(a)})
		tbl.Rows = append(tbl.Rows, []string{num(l, r.N), f4(l, r.First), f4(l, r.Second), f4(l, a)})
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(LadderKey, "340px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, LadderKey, "xaxis")}), charts.WithYAxisOpts(opts.YAxis{Name: t(l, LadderKey, "yaxis"), Min: 0, Max: 0.6}))...)
	line.SetXAxis(labels).AddSeries(t(l, LadderKey, "first"), first).AddSeries(t(l, LadderKey, "second"), second).
		AddSeries(t(l, LadderKey, "average"), avg, charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed"}))
	return finish(l, LadderKey, "340px", caption, line.RenderSnippet().Option, tbl)
}
