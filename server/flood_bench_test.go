package server

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"pigclass/sim/solve"
)

// BenchmarkVariantFlood is a round's first move (a round of Pig to 100
// against hold:20 started, the board read, the student's roll answered)
// with nothing else going on (quiet), while a stranger's class posts
// rounds of kinds solved at start (known: the requests' own cost), and
// while it floods the server with rounds of kinds never solved (flood):
// any game, target
// 10 to 200, two or three seats, equal turns or not, the perfect-play bot,
// one every floodEvery (whenever the server's limits refuse, the app's
// clock passes their minute: the flood is hundreds of times what a real
// minute allows). It reports the first move's p50 and p99, the heap's peak
// under the server's soft limit of 160 MiB (it fails past it) and the
// solves the flood started.
//
//	go test ./server -run X -bench VariantFlood -benchtime 200x -count 6
func BenchmarkVariantFlood(b *testing.B) {
	b.Run("quiet", func(b *testing.B) { benchFlood(b, 0) })
	b.Run("known", func(b *testing.B) { benchFlood(b, knownKinds) })
	b.Run("flood", func(b *testing.B) { benchFlood(b, newKinds) })
}

// What the stranger's class posts: nothing, rounds of kinds already solved
// (the requests alone, to tell their cost from the solves'), or rounds of
// kinds never solved.
const (
	knownKinds = 1 + iota
	newKinds
)

// floodEvery is the flood's pace: 100 rounds a second.
const floodEvery = 10 * time.Millisecond

func benchFlood(b *testing.B, flood int) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(160 << 20)) // as pigclass serve sets it
	tables := &solve.Cache{}
	a := newAppConfig(b, func(c *Config) { c.Tables = tables })
	teacher := a.browser()
	code := teacherStart(b, teacher)
	ana := join(b, a, code, "Ana")
	round := url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var peak uint64
	wg.Go(func() { // the heap's peak, sampled
		var ms runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	solvedBefore, _ := tables.Solves()
	if flood != 0 {
		stranger := a.browser()
		fcode := teacherStart(b, stranger)
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(1, 2))
			games := []string{"pig", "big-pig", "two-dice", "hog"}
			for n := 0; n < 100000; n++ {
				select {
				case <-stop:
					return
				default:
				}
				f := url.Values{"game": {games[rng.IntN(len(games))]}, "target": {strconv.Itoa(10 + rng.IntN(191))},
					"mode": {"bot"}, "bot": {"optimal"}, "seats": {strconv.Itoa(2 + rng.IntN(2))}}
				if f.Get("game") == "hog" {
					f.Set("max_dice", strconv.Itoa(1+rng.IntN(20)))
				} else if rng.IntN(3) == 0 {
					f.Set("equal_turns", "on")
				}
				if flood == knownKinds {
					f = url.Values{"game": {games[n%len(games)]}, "target": {"100"}, "mode": {"bot"}, "bot": {"optimal"}, "seats": {"2"}}
				}
				stranger.post("/t/"+fcode+"/rounds", f)
				if stranger.status() != http.StatusOK {
					a.clock.add(time.Minute) // the limits' minute passes
				}
				time.Sleep(floodEvery)
			}
		})
		time.Sleep(time.Second) // the flood under way
	}

	var firsts []time.Duration
	for b.Loop() {
		start := time.Now()
		teacher.post("/t/"+code+"/rounds", round)
		if teacher.status() != http.StatusOK {
			b.Fatalf("round: %d %s", teacher.status(), teacher.body)
		}
		st, ok := readBoard(ana.get("/c/" + code))
		if !ok || !st.yourTurn {
			b.Fatalf("Ana's board: %+v", st)
		}
		ana.post(st.act, url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}})
		if ana.status() != http.StatusOK {
			b.Fatalf("roll: %d %s", ana.status(), ana.body)
		}
		firsts = append(firsts, time.Since(start))
	}
	b.StopTimer()
	close(stop)
	wg.Wait()
	solved, _ := tables.Solves()
	for end := time.Now().Add(time.Minute); tables.Solving() > 0 && time.Now().Before(end); {
		time.Sleep(100 * time.Millisecond) // what nobody needs is given up: the next run starts quiet
	}
	slices.Sort(firsts)
	at := func(q float64) float64 {
		return float64(firsts[min(len(firsts)-1, int(q*float64(len(firsts))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(solved-solvedBefore), "solves")
	b.ReportMetric(float64(tables.Bytes())/(1<<20), "tables-MB")
	if peak > 160<<20 {
		b.Errorf("the heap peaked at %d MB, past the soft limit of 160 MiB", peak>>20)
	}
}
