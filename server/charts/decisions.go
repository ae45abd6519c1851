package charts

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
)

// holdBin is the bin of a hold turn total: 0-4, 5-9, ..., 40 and more.
func holdBin(k int) int { return min(k/5, 8) }

func holdBinLabel(b int) string {
	if b == 8 {
		return "40+"
	}
	return fmt.Sprintf("%d-%d", 5*b, 5*b+4)
}

// holdBins counts the holds of decisions by bin, and the holds hold-at-20
// and perfect play would make from the same turn starts (expected counts,
// exact from the solver).
type holdBins struct {
	held, twenty, optimal [9]float64
	holds, starts         int
}

func binHolds(decisions []store.Decision, t *solve.Table) holdBins {
	var b holdBins
	opt := solve.Optimal{T: t}
	for _, d := range decisions {
		if d.Action.Kind == sim.HoldKind || d.Action.Kind == sim.TimeoutKind {
			b.held[holdBin(d.TurnTotal)]++
			b.holds++
		}
		if d.Roll == 0 { // a turn start
			b.starts++
			h20, _ := t.HoldDistribution(d.Score, d.Opponent, sim.HoldAt(20))
			ho, _ := t.HoldDistribution(d.Score, d.Opponent, opt)
			for k := range h20 {
				b.twenty[holdBin(k)] += h20[k]
				b.optimal[holdBin(k)] += ho[k]
			}
		}
	}
	return b
}

func barSeries(v [9]float64) []opts.BarData {
	out := make([]opts.BarData, 9)
	for i := range v {
		out[i] = opts.BarData{Value: round4(v[i])}
	}
	return out
}

// HoldPoints is chart 1: the turn totals at which the students held, beside
// the holds hold-at-20 and perfect play would make from the same turn starts.
// decisions are the students' decisions in one-die Pig under the table's
// rules.
func HoldPoints(decisions []store.Decision, t *solve.Table) templates.Chart {
	const caption = "Where did the class stop? Compare the bars with hold-at-20 and with perfect play from the same turn starts: bars to the left are caution, to the right boldness."
	b := binHolds(decisions, t)
	if b.holds == 0 {
		return empty(HoldPointsKey, caption, "No holds yet: play a round of Pig first.")
	}
	tbl := templates.DataTable{Headers: []string{"turn total", "class holds", "hold-at-20 (expected)", "perfect play (expected)"}}
	labels := make([]string, 9)
	for i := range 9 {
		labels[i] = holdBinLabel(i)
		tbl.Rows = append(tbl.Rows, []string{labels[i], strconv.Itoa(int(b.held[i])), f4(b.twenty[i]), f4(b.optimal[i])})
	}
	bar := holdBar()
	bar.SetXAxis(labels).AddSeries("class", barSeries(b.held)).AddSeries("hold at 20", barSeries(b.twenty)).AddSeries("perfect play", barSeries(b.optimal))
	return finish(HoldPointsKey, "360px", caption, bar.RenderSnippet().Option, tbl)
}

// MyHoldPoints is chart 1 on a student's own page: their holds beside the
// class's (scaled to as many turns as theirs) and beside what hold-at-20
// and perfect play would hold from their turn starts.
func MyHoldPoints(mine, class []store.Decision, t *solve.Table) templates.Chart {
	const caption = "Where did you stop, and where did the class? The class's bars are scaled to as many turns as yours; hold-at-20 and perfect play start from your turns."
	me, all := binHolds(mine, t), binHolds(class, t)
	if me.holds == 0 {
		return empty(HoldPointsKey, caption, "You have not held yet in Pig.")
	}
	var scaled [9]float64
	for i := range scaled {
		scaled[i] = all.held[i] * float64(me.starts) / float64(max(all.starts, 1))
	}
	tbl := templates.DataTable{Headers: []string{"turn total", "your holds", "class holds (scaled)", "hold-at-20 (expected)", "perfect play (expected)"}}
	labels := make([]string, 9)
	for i := range 9 {
		labels[i] = holdBinLabel(i)
		tbl.Rows = append(tbl.Rows, []string{labels[i], strconv.Itoa(int(me.held[i])), f4(scaled[i]), f4(me.twenty[i]), f4(me.optimal[i])})
	}
	bar := holdBar()
	bar.SetXAxis(labels).AddSeries("you", barSeries(me.held)).AddSeries("class", barSeries(scaled)).
		AddSeries("hold at 20", barSeries(me.twenty)).AddSeries("perfect play", barSeries(me.optimal))
	c := finish(HoldPointsKey, "360px", caption, bar.RenderSnippet().Option, tbl)
	c.Title = "Your hold points"
	return c
}

// holdBar is the bar chart both hold-point charts draw on.
func holdBar() *charts.Bar {
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(global(HoldPointsKey, "360px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "turn total held", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: "holds"}))...)
	return bar
}

// DecisionMap is chart 2: every decision at (own score minus opponent's,
// turn total), roll and hold in two colours and shapes, over the turn total
// where perfect play starts to hold against the typical opponent score.
func DecisionMap(decisions []store.Decision, t *solve.Table) templates.Chart {
	const caption = "Circles are rolls, triangles holds; the line is where perfect play starts holding against a typical opponent. Holds far below the line, or rolls far above it, are worth discussing."
	var rolls, holds []opts.ScatterData
	var opponents []int
	var tbl templates.DataTable
	tbl.Headers = []string{"student", "score", "opponent", "lead", "turn total", "choice", "perfect play"}
	for _, d := range decisions {
		lead := d.Score - d.Opponent
		point := opts.ScatterData{Value: []int{lead, d.TurnTotal}}
		switch d.Action.Kind {
		case sim.RollKind:
			point.Symbol = "circle"
			rolls = append(rolls, point)
		case sim.HoldKind, sim.TimeoutKind:
			point.Symbol = "triangle"
			holds = append(holds, point)
		default:
			continue
		}
		opponents = append(opponents, d.Opponent)
		tbl.Rows = append(tbl.Rows, []string{d.Student, strconv.Itoa(d.Score), strconv.Itoa(d.Opponent), strconv.Itoa(lead), strconv.Itoa(d.TurnTotal), d.Action.String(), d.Best})
	}
	if len(opponents) == 0 {
		return empty(DecisionMapKey, caption, "No decisions yet: play a round of Pig first.")
	}
	sort.Ints(opponents)
	j := opponents[len(opponents)/2]
	var boundary []opts.LineData
	for i := range t.Variant().Target {
		boundary = append(boundary, opts.LineData{Value: []int{i - j, t.HoldThreshold(i, j)}})
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(append(global(DecisionMapKey, "420px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "lead (own score − opponent's)", Type: "value", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: "turn total", Type: "value"}))...)
	sc.AddSeries("roll", rolls, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#0072B2"})).
		AddSeries("hold", holds, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#E69F00"}))
	line := charts.NewLine()
	line.AddSeries(fmt.Sprintf("perfect play starts holding (opponent on %d)", j), boundary,
		charts.WithLineChartOpts(opts.LineChart{Step: "end", ShowSymbol: opts.Bool(false)}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#000000"}))
	sc.Overlap(line)
	return finish(DecisionMapKey, "420px", caption+approximateNote(decisions), sc.RenderSnippet().Option, tbl)
}

// SkillLuck is chart 3: each student's total decision cost against their
// dice luck (points above or below what the same rolls expect).
func SkillLuck(decisions []store.Decision, game sim.Game, names func(store.Decision) string) templates.Chart {
	const caption = "Right means costly decisions, up means lucky dice. A winner in the top-left was skilful and lucky; a loser in the bottom-left played well and was unlucky."
	type sums struct {
		cost, luck float64
		n          int
	}
	per := map[string]*sums{}
	var order []string
	for _, d := range decisions {
		name := names(d)
		s := per[name]
		if s == nil {
			s = &sums{}
			per[name] = s
			order = append(order, name)
		}
		if d.Analysed {
			s.cost += d.Cost
			s.n++
		}
		if d.Faces.Len() > 0 {
			s.luck += sim.Luck(game, d.Score, d.TurnTotal, &d.Faces)
		}
	}
	if len(order) == 0 {
		return empty(SkillLuckKey, caption, "No decisions yet.")
	}
	sort.Strings(order)
	var points []opts.ScatterData
	var tbl templates.DataTable
	tbl.Headers = []string{"student", "decisions", "total cost (points of win probability)", "dice luck (points)"}
	for _, name := range order {
		s := per[name]
		points = append(points, opts.ScatterData{Name: chartName(name), Value: []float64{round4(100 * s.cost), round4(s.luck)}, SymbolSize: 14})
		tbl.Rows = append(tbl.Rows, []string{name, strconv.Itoa(s.n), f4(100 * s.cost), f4(s.luck)})
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(append(global(SkillLuckKey, "380px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "decision cost (percentage points)", Type: "value", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: "dice luck (points)", Type: "value"}))...)
	sc.AddSeries("students", points, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "right", Formatter: "{b}"}))
	return finish(SkillLuckKey, "380px", caption+approximateNote(decisions), sc.RenderSnippet().Option, tbl)
}

// Approximate is the label of chances and costs in matches of three or
// four players.
const Approximate = "With three or four players these chances are approximate: each is read from the two-player table against the leading opponent."

// approximateNote labels a chart whose decisions include matches of three
// or four players.
func approximateNote(decisions []store.Decision) string {
	for _, d := range decisions {
		if d.MatchSeats > 2 && d.Analysed {
			return " Decisions in matches of three or four players are approximate: perfect play and its costs there are read from the two-player table against the leading opponent."
		}
	}
	return ""
}

// Timeline is chart 4: both players' chances of winning under perfect play
// from each decision of a match, with each decision marked by its shape.
func Timeline(events []store.Event, names []string) templates.Chart {
	const caption = "Each point is a decision: the chance each player had of winning, with perfect play from there. Big drops are bad rolls or costly choices."
	symbols := map[string]string{"roll": "circle", "hold": "triangle", "timeout": "rect"}
	lines := make([][]opts.LineData, len(names))
	var labels []string
	var tbl templates.DataTable
	tbl.Headers = append([]string{"decision", "player", "choice", "dice"}, names...)
	for _, e := range events {
		a := e.Analysis
		if a == nil {
			continue
		}
		mover := a.Options[a.Best]
		labels = append(labels, strconv.Itoa(len(labels)+1))
		row := []string{strconv.Itoa(len(labels)), names[e.Seat], e.Action.String(), e.Faces.String()}
		for seat := range names {
			p := 1 - mover
			if seat == e.Seat {
				p = mover
			}
			if len(names) > 2 && seat != e.Seat {
				p = (1 - mover) / float64(len(names)-1)
			}
			sym := symbols[e.Action.String()]
			if sym == "" {
				sym = "diamond"
			}
			if seat != e.Seat {
				sym = "emptyCircle"
			}
			lines[seat] = append(lines[seat], opts.LineData{Value: round4(p), Symbol: sym, SymbolSize: 7})
			row = append(row, pct(p))
		}
		tbl.Rows = append(tbl.Rows, row)
	}
	if len(labels) == 0 {
		return empty(TimelineKey, caption, "No analysed decisions in this match.")
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(TimelineKey, "340px"),
		charts.WithXAxisOpts(opts.XAxis{Name: "decision"}),
		charts.WithYAxisOpts(opts.YAxis{Name: "chance of winning", Min: 0, Max: 1}))...)
	line.SetXAxis(labels)
	for seat, n := range names {
		line.AddSeries(chartName(n), lines[seat])
	}
	c := caption
	if len(names) > 2 {
		c += " " + Approximate
	}
	t := finish(TimelineKey, "340px", c, line.RenderSnippet().Option, tbl)
	t.Title = "Win-probability timeline"
	return t
}
