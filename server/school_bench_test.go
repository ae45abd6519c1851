package server

import (
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// BenchmarkBigKindsBesideASchool: one class asks for the three kinds of
// round the third probe saw take the heap to 146 MB (Pig to 200, Pig to
// 199 with equal turns, Big Pig to 200, the perfect-play bot), one after
// another, while a school of 1,000 students in 34 classes plays a round of
// Pig against hold at 20 (students move as fast as the server answers).
// It reports the heap's peak (it fails past the server's soft limit of 160
// MiB), the tables' memory, the kinds the round form refused for room, and
// the students' moves a second.
//
//	go test ./server -run X -bench BigKindsBesideASchool -benchtime 1x
//
// (one run a process: the strategy ladder, computed once a process,
// keeps the first server's tables, so a second run starts above the first)
func BenchmarkBigKindsBesideASchool(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(160 << 20)) // as pigclass serve sets it
	for b.Loop() {
		benchSchool(b)
	}
}

func benchSchool(b *testing.B) {
	tables := &solve.Cache{}
	a := newAppConfig(b, func(c *Config) { c.Tables = tables })
	type kid struct {
		b    *browser
		code string
	}
	var kids []kid
	for len(kids) < 1000 {
		t := a.browser()
		code := teacherStart(b, t)
		for i := 0; i < 30 && len(kids) < 1000; i++ {
			kids = append(kids, kid{join(b, a, code, "kid"+strconv.Itoa(len(kids))), code})
		}
		t.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
		if t.status() != http.StatusOK {
			b.Fatalf("the school's round: %d", t.status())
		}
		a.clock.add(time.Minute) // the joins' and classes' limits
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var peak atomic.Uint64
	wg.Go(func() { // the heap's peak, sampled
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak.Store(max(peak.Load(), ms.HeapAlloc))
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	var moves atomic.Int64
	for w := range 8 { // the school plays, each worker its share of students
		wg.Go(func() {
			for i := w; ; i = (i + 8) % len(kids) {
				select {
				case <-stop:
					return
				default:
				}
				if schoolMove(kids[i].b, kids[i].code) {
					moves.Add(1)
				}
			}
		})
	}
	teacher := a.browser()
	code := teacherStart(b, teacher)
	join(b, a, code, "Ana")
	refused := 0
	start := time.Now()
	for _, f := range []url.Values{
		{"game": {"pig"}, "target": {"200"}},
		{"game": {"pig"}, "target": {"199"}, "equal_turns": {"on"}},
		{"game": {"big-pig"}, "target": {"200"}},
	} {
		f.Set("mode", "bot")
		f.Set("bot", "optimal")
		f.Set("seats", "2")
		teacher.post(paths.Rounds.For(code), f)
		if teacher.status() != http.StatusOK {
			refused++
		}
		for end := time.Now().Add(time.Minute); tables.Solving() > 0 && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
		}
	}
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(tables.Bytes())/(1<<20), "tables-MB")
	b.ReportMetric(float64(refused), "refused")
	b.ReportMetric(float64(moves.Load())/elapsed.Seconds(), "moves/s")
	if peak.Load() > 160<<20 {
		b.Errorf("the heap peaked at %d MB, past the soft limit of 160 MiB", peak.Load()>>20)
	}
}

// schoolMove is one look at a student's page, and their move if it is
// their turn (hold at 20), safe from any goroutine: it reports whether a
// move was made.
func schoolMove(br *browser, code string) bool {
	req, _ := http.NewRequest(http.MethodGet, br.app.url+"/c/"+code, nil)
	doc, ok := br.try(req)
	if !ok {
		return false
	}
	st, ok := readBoard(doc)
	if !ok || !st.yourTurn {
		return false
	}
	action := "hold"
	if st.turnTot < 20 {
		action = "roll"
	}
	req, _ = http.NewRequest(http.MethodPost, br.app.url+st.act, strings.NewReader(url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {action}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	_, ok = br.try(req)
	return ok
}

// try is do for a goroutine: no test stops from it; false for an error or
// an answer other than 200.
func (b *browser) try(req *http.Request) (*goquery.Document, bool) {
	resp, err := b.c.Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	return doc, err == nil && resp.StatusCode == http.StatusOK
}
