package charts

import (
	"math"
	"sort"
	"strconv"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// holdBin is the bin of a hold turn total: 0-4, 5-9, ..., 40 and more.
func holdBin(k int) int { return min(k/5, 8) }

func holdBinLabel(l *i18n.Localizer, b int) string {
	if b == 8 {
		return l.T("chart.bin_last", "N", l.Int(40))
	}
	return l.T("chart.bin", "Lo", l.Int(5*b), "Hi", l.Int(5*b+4))
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
func HoldPoints(l *i18n.Localizer, decisions []store.Decision, tb *solve.Table) templates.Chart {
	caption := t(l, HoldPointsKey, "caption")
	b := binHolds(decisions, tb)
	if b.holds == 0 {
		return empty(l, HoldPointsKey, caption, t(l, HoldPointsKey, "empty"))
	}
	tbl := templates.DataTable{Headers: []string{t(l, HoldPointsKey, "total"), t(l, HoldPointsKey, "class"), t(l, HoldPointsKey, "twenty_col"), t(l, HoldPointsKey, "best_col")}}
	labels := make([]string, 9)
	for i := range 9 {
		labels[i] = holdBinLabel(l, i)
		tbl.Rows = append(tbl.Rows, []string{labels[i], num(l, int(b.held[i])), f4(l, b.twenty[i]), f4(l, b.optimal[i])})
	}
	bar := holdBar(l)
	bar.SetXAxis(labels).AddSeries(l.T("chart.class"), barSeries(b.held)).AddSeries(l.T("chart.twenty"), barSeries(b.twenty)).AddSeries(l.T("chart.best"), barSeries(b.optimal))
	return finish(l, HoldPointsKey, "360px", caption+manySeatsNote(l, decisions), bar.RenderSnippet().Option, tbl)
}

// MyHoldPoints is chart 1 on a student's own page: their holds beside the
// class's (scaled to as many turns as theirs) and beside what hold-at-20
// and perfect play would hold from their turn starts.
func MyHoldPoints(l *i18n.Localizer, mine, class []store.Decision, tb *solve.Table) templates.Chart {
	caption := t(l, HoldPointsKey, "mine_caption")
	me, all := binHolds(mine, tb), binHolds(class, tb)
	if me.holds == 0 {
		c := empty(l, HoldPointsKey, caption, t(l, HoldPointsKey, "mine_empty"))
		c.Title = t(l, HoldPointsKey, "mine_title")
		return c
	}
	var scaled [9]float64
	for i := range scaled {
		scaled[i] = all.held[i] * float64(me.starts) / float64(max(all.starts, 1))
	}
	tbl := templates.DataTable{Headers: []string{t(l, HoldPointsKey, "total"), t(l, HoldPointsKey, "yours"), t(l, HoldPointsKey, "scaled"), t(l, HoldPointsKey, "twenty_col"), t(l, HoldPointsKey, "best_col")}}
	labels := make([]string, 9)
	for i := range 9 {
		labels[i] = holdBinLabel(l, i)
		tbl.Rows = append(tbl.Rows, []string{labels[i], num(l, int(me.held[i])), f4(l, scaled[i]), f4(l, me.twenty[i]), f4(l, me.optimal[i])})
	}
	bar := holdBar(l)
	bar.SetXAxis(labels).AddSeries(l.T("chart.you"), barSeries(me.held)).AddSeries(l.T("chart.class"), barSeries(scaled)).
		AddSeries(l.T("chart.twenty"), barSeries(me.twenty)).AddSeries(l.T("chart.best"), barSeries(me.optimal))
	c := finish(l, HoldPointsKey, "360px", caption+manySeatsNote(l, class), bar.RenderSnippet().Option, tbl)
	c.Title = t(l, HoldPointsKey, "mine_title")
	return c
}

// manySeatsNote labels the hold-points charts when some turn starts are of
// matches of more than two players: perfect play's holds there are read
// from the two-player table against the leader, an approximation.
func manySeatsNote(l *i18n.Localizer, decisions []store.Decision) string {
	for _, d := range decisions {
		if d.MatchSeats > 2 {
			return " " + l.T("chart.approximate_holds")
		}
	}
	return ""
}

// holdBar is the bar chart both hold-point charts draw on.
func holdBar(l *i18n.Localizer) *charts.Bar {
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(global(HoldPointsKey, "360px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, HoldPointsKey, "xaxis"), NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, HoldPointsKey, "yaxis")}))...)
	return bar
}

// DecisionMap is chart 2: every decision at (own score minus opponent's,
// turn total), roll and hold in two colours and shapes, over the turn total
// where perfect play starts to hold against the typical opponent score.
func DecisionMap(l *i18n.Localizer, decisions []store.Decision, tb *solve.Table) templates.Chart {
	caption := t(l, DecisionMapKey, "caption")
	var rolls, holds []opts.ScatterData
	var opponents []int
	var tbl templates.DataTable
	tbl.Headers = []string{l.T("chart.student"), t(l, DecisionMapKey, "score"), t(l, DecisionMapKey, "opponent"), t(l, DecisionMapKey, "lead"), t(l, DecisionMapKey, "total"), t(l, DecisionMapKey, "choice"), l.T("chart.best")}
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
		tbl.Rows = append(tbl.Rows, []string{d.Student, num(l, d.Score), num(l, d.Opponent), num(l, lead), num(l, d.TurnTotal), ActionWord(l, d.Action), ActionWord(l, d.Best)})
	}
	if len(opponents) == 0 {
		return empty(l, DecisionMapKey, caption, t(l, DecisionMapKey, "empty"))
	}
	sort.Ints(opponents)
	j := opponents[len(opponents)/2]
	// Where perfect play never holds (it rolls on to win) the line breaks:
	// no point at the target, which would draw a sawtooth.
	var boundary []opts.LineData
	target := tb.Variant().Target
	for i := range target {
		if k := tb.HoldThreshold(i, j); k < target-i {
			boundary = append(boundary, opts.LineData{Value: []any{i - j, k}})
		} else {
			boundary = append(boundary, opts.LineData{Value: []any{i - j, "-"}})
		}
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(append(global(DecisionMapKey, "420px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, DecisionMapKey, "xaxis"), Type: "value", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, DecisionMapKey, "total"), Type: "value"}))...)
	sc.AddSeries(l.T("action.roll"), rolls, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#0072B2"})).
		AddSeries(l.T("action.hold"), holds, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#E69F00"}))
	line := charts.NewLine()
	line.AddSeries(t(l, DecisionMapKey, "line", "N", num(l, j)), boundary,
		charts.WithLineChartOpts(opts.LineChart{Step: "end", ShowSymbol: opts.Bool(false)}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#000000"}))
	sc.Overlap(line)
	return finish(l, DecisionMapKey, "420px", caption+approximateNote(l, decisions), sc.RenderSnippet().Option, tbl)
}

// SkillLuck is chart 3: each student's total decision cost against their
// dice luck, both in percentage points of the chance of winning (luck: the
// chance after each throw's dice minus what the same throw expects), over
// every two-player game of the class: with the other player's, they add up
// to each game's change of chances (sim/solve's Table.Luck).
//
// On a student's own page (mine) the words are a student's: the same
// figures, said in percent of a chance, not percentage points.
func SkillLuck(l *i18n.Localizer, decisions []store.Decision, names func(store.Decision) string, mine bool) templates.Chart {
	word := func(id string) string {
		if mine {
			id += "_mine"
		}
		return t(l, SkillLuckKey, id)
	}
	games := map[int64]bool{}
	for _, d := range decisions {
		if d.MatchSeats == 2 {
			games[d.MatchID] = true
		}
	}
	caption := word("caption") + " " + l.N("chart.skill-luck.games", len(games))
	// Each student's sums are said a game (issue 81: summed over a
	// unit's games, the axis ran to 250 percentage points, no chance a
	// game ever has).
	type sums struct {
		cost, luck float64
		n          int
		games      map[int64]bool
	}
	per := map[string]*sums{}
	var order []string
	for _, d := range decisions {
		if d.MatchSeats != 2 {
			continue
		}
		name := names(d)
		s := per[name]
		if s == nil {
			s = &sums{games: map[int64]bool{}}
			per[name] = s
			order = append(order, name)
		}
		s.games[d.MatchID] = true
		if d.Analysed {
			s.cost += d.Cost
			s.n++
		}
		if d.HasLuck {
			s.luck += d.Luck
		}
	}
	if len(order) == 0 {
		return empty(l, SkillLuckKey, caption, t(l, SkillLuckKey, "empty"))
	}
	sort.Strings(order)
	var points []opts.ScatterData
	var tbl templates.DataTable
	tbl.Headers = []string{l.T("chart.student"), t(l, SkillLuckKey, "decisions"), t(l, SkillLuckKey, "games_col"), word("cost_col"), word("luck")}
	for _, name := range order {
		s := per[name]
		g := float64(len(s.games))
		points = append(points, opts.ScatterData{Name: chartName(name), Value: []float64{round4(100 * s.cost / g), round4(100 * s.luck / g)}, SymbolSize: 14})
		tbl.Rows = append(tbl.Rows, []string{name, num(l, s.n), num(l, len(s.games)), f4(l, 100*s.cost/g), f4(l, 100*s.luck/g)})
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(append(global(SkillLuckKey, "380px"),
		charts.WithXAxisOpts(opts.XAxis{Name: word("xaxis"), Type: "value", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: word("luck"), Type: "value"}))...)
	sc.AddSeries(t(l, SkillLuckKey, "series"), points, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "right", Formatter: "{b}"}))
	return finish(l, SkillLuckKey, "380px", caption+approximateNote(l, decisions), sc.RenderSnippet().Option, tbl)
}

// approximateNote labels a chart whose decisions include approximate
// ones (three or more players before their exact table was solved).
func approximateNote(l *i18n.Localizer, decisions []store.Decision) string {
	for _, d := range decisions {
		if d.Approximate && d.Analysed {
			return " " + l.T("chart.approximate_decisions")
		}
	}
	return ""
}

// ActionWord is an action ("roll", "hold", "dice:3", "timeout",
// "resign") in the reader's words, for charts, tables and pages.
func ActionWord(l *i18n.Localizer, a sim.Action) string {
	switch a.Kind {
	case sim.DiceKind:
		return l.N("board.dice", int(a.Dice))
	case sim.RollKind, sim.HoldKind, sim.TimeoutKind, sim.ResignKind:
		return l.T("action." + a.String())
	}
	return a.String()
}

// ThrowWords says a throw in the reader's words: a die's faces as numbers
// ("3 5"), other pieces by their marks' names ("razorback and dot up").
func ThrowWords(l *i18n.Localizer, g sim.Game, f *sim.Faces) string {
	return l.Say(ThrowMsg(g, f))
}

// ThrowMsg is ThrowWords before it is put in a language.
func ThrowMsg(g sim.Game, f *sim.Faces) i18n.Msg {
	p := &g.Rules().Piece
	if p.Numbered || f.Len() == 0 {
		return i18n.Text(f.String())
	}
	words := make([]i18n.Msg, f.Len())
	for i := range words {
		words[i] = i18n.M(g.Rules().MarkKey(f.At(i)))
	}
	if len(words) == 1 {
		return words[0] // a throw of one piece
	}
	return i18n.M("piece.join", "A", i18n.Join(", ", words[:len(words)-1]...), "B", words[len(words)-1])
}

// PiecesWord names a game's pieces, as a column's header: "Dice",
// "Pigs", a game's own pieces by its words (piece.<name>.pieces).
func PiecesWord(l *i18n.Localizer, g sim.Game) string {
	return l.T("piece." + g.Rules().Piece.Name + ".pieces")
}

// Timeline is chart 4: both players' chances of winning under perfect play
// from each decision of a match, with each decision marked by its shape.
func Timeline(l *i18n.Localizer, g sim.Game, events []play.Event, names []string) templates.Chart {
	caption := t(l, TimelineKey, "caption")
	symbols := map[string]string{"roll": "circle", "hold": "triangle", "timeout": "rect"}
	lines := make([][]opts.LineData, len(names))
	var labels []string
	var tbl templates.DataTable
	tbl.Headers = append([]string{t(l, TimelineKey, "decision"), t(l, TimelineKey, "player"), t(l, TimelineKey, "choice"), PiecesWord(l, g)}, names...)
	for _, e := range events {
		a := e.Analysis
		if a == nil {
			continue
		}
		mover := a.Options[a.Best]
		labels = append(labels, strconv.Itoa(len(labels)+1))
		f := e.Faces
		row := []string{num(l, len(labels)), names[e.Seat], ActionWord(l, e.Action), ThrowWords(l, g, &f)}
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
			// In percent, as the caption and the table say it.
			lines[seat] = append(lines[seat], opts.LineData{Value: math.Round(p*10000) / 100, Symbol: sym, SymbolSize: 7})
			row = append(row, pct(l, p))
		}
		tbl.Rows = append(tbl.Rows, row)
	}
	if len(labels) == 0 {
		return empty(l, TimelineKey, caption, t(l, TimelineKey, "empty"))
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(global(TimelineKey, "340px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, TimelineKey, "decision")}),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, TimelineKey, "yaxis"), Min: 0, Max: 100}),
		// The legend names each player's line by its colour: a symbol
		// there would read as a roll or a hold.
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom", Icon: "roundRect"}))...)
	line.SetXAxis(labels)
	for seat, n := range names {
		line.AddSeries(chartName(n), lines[seat])
	}
	c := caption
	for _, e := range events {
		if e.Analysis != nil && e.Analysis.Approximate {
			c += " " + l.T("chart.approximate")
			break
		}
	}
	return finish(l, TimelineKey, "340px", c, line.RenderSnippet().Option, tbl)
}

// SkunkSits is the chart of whole-class Skunk's decisions: at the moments
// the class faced (each student standing before a roll), by round total,
// how many sat, and how many of the same moments perfect play (the most
// final points, sim.SkunkPlan) and the expected-value rule would have sat
// at.
func SkunkSits(l *i18n.Localizer, decisions []store.SkunkDecision) templates.Chart {
	caption := t(l, SkunkSitsKey, "caption")
	if len(decisions) == 0 {
		return empty(l, SkunkSitsKey, caption, t(l, SkunkSitsKey, "empty"))
	}
	var sat, perfect, ev [9]float64
	for _, d := range decisions {
		b := min(d.RoundTotal/5, 8)
		if d.Action == store.SkunkSit {
			sat[b]++
		}
		if stand, sit, ok := sim.PlanSkunk(d.Rounds).Values(d.Round, d.Score, d.RoundTotal); ok && sit >= stand {
			perfect[b]++
		}
		if d.EV == store.SkunkSit {
			ev[b]++
		}
	}
	tbl := templates.DataTable{Headers: []string{t(l, SkunkSitsKey, "total"), t(l, SkunkSitsKey, "class"), t(l, SkunkSitsKey, "perfect"), t(l, SkunkSitsKey, "ev")}}
	labels := make([]string, 9)
	for i := range 9 {
		labels[i] = holdBinLabel(l, i)
		tbl.Rows = append(tbl.Rows, []string{labels[i], num(l, int(sat[i])), num(l, int(perfect[i])), num(l, int(ev[i]))})
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(global(SkunkSitsKey, "360px"),
		charts.WithXAxisOpts(opts.XAxis{Name: t(l, SkunkSitsKey, "total"), NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, SkunkSitsKey, "yaxis")}))...)
	bar.SetXAxis(labels).AddSeries(t(l, SkunkSitsKey, "class"), barSeries(sat)).AddSeries(t(l, SkunkSitsKey, "perfect"), barSeries(perfect)).
		AddSeries(t(l, SkunkSitsKey, "ev"), barSeries(ev))
	return finish(l, SkunkSitsKey, "360px", caption, bar.RenderSnippet().Option, tbl)
}
