package limit

import (
	"strconv"
	"testing"
	"time"
)

// TestLimiterMemoryIsBounded (hardening, finding 1): the limiter forgets clients past its bound.
func TestLimiterMemoryIsBounded(t *testing.T) {
	now := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	l := New(20, time.Minute, func() time.Time { return now })
	for i := range 3 * Keys {
		l.Hit("client-" + strconv.Itoa(i))
	}
	if n := l.Size(); n > Keys {
		t.Errorf("%d clients remembered, at most %d", n, Keys)
	}
	for range 20 {
		l.Hit("busy")
	}
	if l.Allow("busy") {
		t.Error("a client over its limit is allowed")
	}
}
