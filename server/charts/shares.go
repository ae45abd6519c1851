package charts

import (
	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"pigclass/sim"
	"pigclass/templates/i18n"
)

// shareBoxes is a chart of the class's shares beside the chances they are
// tested against (the class's dice, the pigs' landings): for each kind,
// the share as a box from its 95% interval's low end to its high end (the
// share its middle line), the chance beside it as a line, and the share
// written above the box (a rare kind's box is a sliver).
type shareBoxes struct {
	labels      []string
	class, want []opts.BoxPlotData
	shares      []opts.ScatterData
}

// add puts a kind: k of n, against the chance want; it returns the share
// and its 95% Wilson interval, for the chart's table.
func (b *shareBoxes) add(l *i18n.Localizer, label string, k, n int, want float64) (share, lo, hi float64) {
	if n > 0 {
		share = float64(k) / float64(n)
	}
	lo, hi = sim.Wilson(k, n, sim.Z95)
	b.labels = append(b.labels, label)
	b.class = append(b.class, opts.BoxPlotData{Value: []float64{round4(lo), round4(lo), round4(share), round4(hi), round4(hi)}})
	w := round4(want)
	b.want = append(b.want, opts.BoxPlotData{Value: []float64{w, w, w, w, w}})
	b.shares = append(b.shares, opts.ScatterData{Name: pct(l, share), Value: round4(hi), SymbolSize: 1})
	return share, lo, hi
}

// option renders the chart key's option: its x axis, its y axis named
// yName and the chance's series wantName (both chart key's words), the
// shares written above as key's "share".
func (b *shareBoxes) option(l *i18n.Localizer, key, height string, x opts.XAxis, yName, wantName string) string {
	box := charts.NewBoxPlot()
	box.SetGlobalOptions(append(global(key, height),
		charts.WithXAxisOpts(x),
		charts.WithYAxisOpts(opts.YAxis{Name: t(l, key, yName), Min: 0}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "bottom", Data: []string{l.T("chart.class"), t(l, key, wantName)}}))...)
	box.SetXAxis(b.labels).AddSeries(l.T("chart.class"), b.class).AddSeries(t(l, key, wantName), b.want)
	written := charts.NewScatter()
	written.SetXAxis(b.labels).AddSeries(t(l, key, "share"), b.shares,
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "top", Formatter: "{b}"}))
	box.Overlap(written)
	return box.RenderSnippet().Option
}
