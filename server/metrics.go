package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/sim/solve"
)

// metrics are what a district's monitoring reads, in Prometheus' text
// format, on an address of their own (--metrics-addr, off by default):
// request latency by route, acknowledged actions, the writer's batches,
// writes and queue, the classes, students and matches in memory, and the
// solved tables' memory, beside Go's and the process's own. The registry
// is the server's own, not the global one.
type metrics struct {
	reg     *prometheus.Registry
	latency *prometheus.HistogramVec
	actions prometheus.Counter
}

func newMetrics(room *classroom.Room, reports *report.Reports, tables *solve.Cache) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "pigclass_http_request_duration_seconds",
			Help:    "Time to answer a request, by method and route (the route's pattern, not the address).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"method", "route"}),
		actions: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "pigclass_actions_total", Help: "Moves acknowledged (on disk) to students."}),
	}
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f)
	}
	counter := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f)
	}
	m.reg.MustRegister(m.latency, m.actions,
		gauge("pigclass_classes", "Classes in memory.", func() float64 { return float64(room.Counts().Classes) }),
		gauge("pigclass_students", "Students of the classes in memory.", func() float64 { return float64(room.Counts().Students) }),
		gauge("pigclass_matches_playing", "Matches being played.", func() float64 { return float64(room.Counts().Playing) }),
		counter("pigclass_writer_batches_total", "Transactions the writer committed (group commit).", func() float64 {
			b, _, _ := reports.WriterStats()
			return float64(b)
		}),
		counter("pigclass_writer_writes_total", "Writes committed; divided by the batches, the mean batch size.", func() float64 {
			_, w, _ := reports.WriterStats()
			return float64(w)
		}),
		gauge("pigclass_writer_queue", "Writes waiting for the writer.", func() float64 {
			_, _, q := reports.WriterStats()
			return float64(q)
		}),
		gauge("pigclass_solver_cache_bytes", "Memory of the solved tables kept, of two and of more players.", func() float64 { return float64(tables.Bytes()) }),
		counter("pigclass_solver_solves_total", "Tables whose solve was started (in the background, or waited for).", func() float64 {
			started, _ := tables.Solves()
			return float64(started)
		}),
		counter("pigclass_solver_given_up_total", "Solves given up because no match or waiting decision needed their table any more.", func() float64 {
			_, givenUp := tables.Solves()
			return float64(givenUp)
		}),
		gauge("pigclass_solver_queue", "Solves running or waiting for the solver.", func() float64 { return float64(tables.Solving()) }),
		solveKinds{tables},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// measure times every request for the latency histogram.
func (m *metrics) measure(c *gin.Context) {
	start := time.Now()
	c.Next()
	route := c.FullPath()
	if route == "" {
		route = "unmatched"
	}
	m.latency.WithLabelValues(methodLabel(c.Request.Method), route).Observe(time.Since(start).Seconds())
}

// methodLabel is a request's method as the latency histogram names it: the
// methods the app serves, and "other" for any other a client sends (a
// label's values are the server's to choose, never the client's).
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost:
		return m
	}
	return "other"
}

// solveKinds counts the solves by kind of table, with bounded labels (the
// game, the players, equal turns: at most the games times nine seat counts
// times two); each solve's full kind goes to the log as it starts. A table
// solved again and again while it is needed would show here.
type solveKinds struct{ tables *solve.Cache }

var solveKindsDesc = prometheus.NewDesc("pigclass_solver_solves_by_kind_total",
	"Tables solved, by game, players and equal turns.", []string{"game", "seats", "equal_turns"}, nil)

func (k solveKinds) Describe(ch chan<- *prometheus.Desc) { ch <- solveKindsDesc }

func (k solveKinds) Collect(ch chan<- prometheus.Metric) {
	for kind, n := range k.tables.SolvesByKind() {
		ch <- prometheus.MustNewConstMetric(solveKindsDesc, prometheus.CounterValue, float64(n),
			kind.Game.String(), strconv.Itoa(kind.Seats), strconv.FormatBool(kind.EqualTurns))
	}
}
