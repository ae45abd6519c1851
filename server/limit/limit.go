// Package limit counts events per key (a client's address, a class's
// code) in a sliding window, with bounded memory: the rate limits of the
// web layer and of the classroom's doors.
package limit

import (
	"slices"
	"sync"
	"time"
)

// Limiter counts events per key in a sliding window. Its memory is
// bounded: past Keys keys it forgets the expired ones, and then the ones
// least lately seen.
type Limiter struct {
	mu      sync.Mutex
	limit   int
	window  time.Duration
	now     func() time.Time
	maxKeys int
	hits    map[string][]time.Time
}

// Keys is how many keys a limiter remembers at most.
const Keys = 10000

// New is a limiter of limit events per key in window, by the clock now.
func New(limit int, window time.Duration, now func() time.Time) *Limiter {
	return &Limiter{limit: limit, window: window, now: now, maxKeys: Keys, hits: map[string][]time.Time{}}
}

// Allow reports whether key is under its limit, without counting.
func (l *Limiter) Allow(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.prune(key)) < l.limit
}

// Count returns the events of key in the window.
func (l *Limiter) Count(key string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.prune(key))
}

// Hit counts one event for key.
func (l *Limiter) Hit(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.prune(key)
	if h == nil && len(l.hits) >= l.maxKeys {
		l.shrink()
	}
	l.hits[key] = append(h, l.now())
}

// Forget forgets key's events: its limit is lifted at once.
func (l *Limiter) Forget(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.hits, key)
}

// Size is the number of keys remembered.
func (l *Limiter) Size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.hits)
}

// shrink forgets every expired key and, if that is not enough, a tenth of
// the keys, the least lately seen first. l.mu must be held.
func (l *Limiter) shrink() {
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

func (l *Limiter) prune(key string) []time.Time {
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
