package platforms

import (
	"testing"
	"time"

	"pigclass/server/store"
)

// TestARetryGoesAtItsDueTick (issue 79, item 12): a score refused at one
// tick is tried at the next, though that tick comes a few milliseconds
// before the minute is up; for the first retryEvery failures every tick
// tries it (an outage of a few minutes costs a minute after it, not the
// doubled waits), and only later do the waits double.
func TestARetryGoesAtItsDueTick(t *testing.T) {
	tick := time.Date(2026, 12, 7, 13, 43, 34, 0, time.UTC)
	was := store.ScoreSent{Failures: 1, RetryAt: tick.Add(retryAfter(1))}
	for _, early := range []time.Duration{0, 3 * time.Millisecond, 2 * time.Second} {
		if next := tick.Add(scoresEvery - early); !retryDue(was, next) {
			t.Errorf("the tick %v before the minute is up does not retry", early)
		}
	}
	if retryDue(was, tick.Add(scoresEvery/3)) {
		t.Error("a retry went before its tick")
	}
	if !retryDue(store.ScoreSent{}, tick) {
		t.Error("a score never refused waits")
	}
	for f := 1; f <= retryEvery; f++ {
		if d := retryAfter(f); d != scoresEvery {
			t.Errorf("after %d failures the wait is %v, want a tick", f, d)
		}
	}
	if d := retryAfter(retryEvery + 1); d != 2*scoresEvery {
		t.Errorf("after %d failures the wait is %v, want two ticks", retryEvery+1, d)
	}
	if d := retryAfter(100); d != 6*time.Hour {
		t.Errorf("after 100 failures the wait is %v, want 6 hours", d)
	}
}
