package play

import (
	"context"
	"sync"
	"time"

	"pigclass/sim"
)

// CheckDeadlines makes every timeout that is due: when a student's
// per-roll deadline passes, the server holds for them (Hog: the turn
// passes), recorded as a timeout. The matches' timeouts are made side by
// side (at most 64 at once), so that their writes share the writer's
// batches as students' moves do.
func (h *Hall) CheckDeadlines(ctx context.Context) {
	now := h.now()
	lms := h.each(func(lm *Live) bool { return lm.row.Variant.Deadline > 0 })
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for _, lm := range lms {
		if s := lm.snap.Load(); s.Over() || now.Sub(s.Last) < time.Duration(s.Variant.Deadline) {
			continue // not due, whatever the extra time (checked again under the match's lock)
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			h.timeout(ctx, lm, now)
		})
	}
	wg.Wait()
}

// timeout holds for the student on turn in lm if their deadline has passed.
func (h *Hall) timeout(ctx context.Context, lm *Live, now time.Time) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	st := lm.m.State()
	due := !lm.ended && !st.Over && lm.bots[st.Seat] == nil && now.Sub(lm.last) >= lm.row.Limit(st.Seat, lm.host)
	if due && lm.host != nil && lm.host.Paused() {
		due = false
	}
	if due {
		if err := h.advance(ctx, lm, &pending{seat: st.Seat, action: sim.Timeout, by: ByTimeout}); err != nil {
			h.logger.Error("timeout", "match", lm.row.ID, "err", err)
		}
	}
}

// Limit is the time the player at seat has for each move: the round's
// deadline, and the extra time their class gives them (host; nil for
// practice); 0 for no deadline.
func (m *Match) Limit(seat int, host interface {
	ExtraTime(studentID int64) time.Duration
}) time.Duration {
	d := time.Duration(m.Variant.Deadline)
	if d == 0 || host == nil || seat < 0 || seat >= len(m.Seats) {
		return d
	}
	return d + host.ExtraTime(m.Seats[seat].StudentID)
}

// Showing returns match m as the player at seat is about to be shown it:
// if it is theirs to move and this is the first showing of the position,
// their deadline starts now. The limit counts from when they can see the
// position, not from when the server made it (a poll's delay, a page
// loading); only the first showing of each position counts, so a turn
// lasts at most twice the limit however the board is fetched.
func (h *Hall) Showing(m *Match, seat int) *Match {
	if m.Variant.Deadline == 0 || m.Over() || m.State.Seat != seat {
		return m
	}
	lm := h.live(m.ID)
	if lm == nil {
		return m
	}
	h.shownTo(lm, seat)
	return lm.snap.Load()
}

// shownTo starts the deadline of the player at seat in lm (see Showing).
func (h *Hall) shownTo(lm *Live, seat int) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	st := lm.m.State()
	if lm.ended || st.Over || st.Seat != seat || lm.bots[seat] != nil || lm.row.Variant.Deadline == 0 || lm.shown == len(lm.rows)+1 {
		return
	}
	if lm.host != nil && lm.host.Paused() {
		return // the clocks start again when play resumes
	}
	lm.shown = len(lm.rows) + 1
	if now := h.now(); now.After(lm.last) {
		lm.last = now
	}
	lm.publish()
}

// EndIdle ends the matches outside rounds (practice and homework) whose
// last move, or start, is idle ago or more, and forgets them; end stores
// each one's end.
func (h *Hall) EndIdle(idle time.Duration, end func(id int64) error) error {
	now := h.now()
	lms := h.each(func(lm *Live) bool {
		return (lm.host == nil || lm.row.AssignmentID != 0) && now.Sub(lm.snap.Load().Last) >= idle
	})
	return h.EndEach(lms, end)
}
