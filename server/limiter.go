package server

import (
	"slices"
	"sync"
	"time"
)

// limiter counts events per key (a client's address, a class's code) in a
// sliding window. Its memory is bounded: past maxKeys keys it forgets the
// expired ones, and then the ones least lately seen.
type limiter struct {
	mu      sync.Mutex
	limit   int
	window  time.Duration
	now     func() time.Time
	maxKeys int
	hits    map[string][]time.Time
}

// limiterKeys is how many clients a limiter remembers at most.
const limiterKeys = 10000

func newLimiter(limit int, window time.Duration, now func() time.Time) *limiter {
	return &limiter{limit: limit, window: window, now: now, maxKeys: limiterKeys, hits: map[string][]time.Time{}}
}

// allow reports whether key is under its limit, without counting.
func (l *limiter) allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.prune(key)) < l.limit
}

// count returns the events of key in the window.
func (l *limiter) count(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.prune(key))
}

// hit counts one event for key.
func (l *limiter) hit(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.prune(key)
	if h == nil && len(l.hits) >= l.maxKeys {
		l.shrink()
	}
	l.hits[key] = append(h, l.now())
}

// size is the number of keys remembered.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hits)
}

// shrink forgets every expired key and, if that is not enough, a tenth of
// the keys, the least lately seen first. l.mu must be held.
func (l *limiter) shrink() {
	for k := range l.hits {
		l.prune(k)
	}
	if len(l.hits) < l.maxKeys {
		return
	}
	type seen struct {
		key  string
		last time.Time
	}
	all := make([]seen, 0, len(l.hits))
	for k, h := range l.hits {
		all = append(all, seen{k, h[len(h)-1]})
	}
	// A partial selection would do; a sort of ten thousand keys, once in a
	// while, costs a millisecond.
	sortSeen := func(a, b seen) int { return a.last.Compare(b.last) }
	slices.SortFunc(all, sortSeen)
	for _, s := range all[:len(all)/10+1] {
		delete(l.hits, s.key)
	}
}

func (l *limiter) prune(key string) []time.Time {
	cut := l.now().Add(-l.window)
	h := l.hits[key]
	i := 0
	for i < len(h) && h[i].Before(cut) {
		i++
	}
	h = h[i:]
	if len(h) == 0 {
		delete(l.hits, key)
		return nil
	}
	return h
}
