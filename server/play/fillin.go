package play

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"pigclass/sim"
)

// A kind of round whose table is not solved yet starts at once: its table
// is solved in the background (solve.Cache), its decisions are stored
// pending (no analysis yet) and its perfect-play bots wait to move. When
// the table is ready the cache tells the room (tableReady), which fills in
// the analyses, in memory and on disk, and lets the bots move. Pending
// decisions outlive a restart: Restore asks for their tables again.

// keyFor is the cache's key of the table that analyses a decision made
// in st (see tableFor).
func keyFor(st *sim.State) sim.Variant {
	k, _ := tableFor(st.Variant, st.Position().Players)
	return k
}

// reads reports whether a match of v may read the table of key.
func reads(v sim.Variant, key sim.Variant) bool { return slices.Contains(tablesOf(v), key) }

// awaiting notes that a decision waits for the table of key, so that the
// table's solve goes on (needs), and the table is kept, even if no match
// of it is playing any more.
func (h *Hall) awaiting(key sim.Variant) {
	h.waitMu.Lock()
	defer h.waitMu.Unlock()
	h.waiting[key] = true
}

// needs reports whether the room still needs the table of key: decisions
// wait for it, or a match being played may read it (tablesOf).
func (h *Hall) needs(key sim.Variant) bool { return h.needsBut(key, nil) }

// needsBut is needs without the matches of host's open round (nil:
// every match).
func (h *Hall) needsBut(key sim.Variant, host Host) bool {
	h.waitMu.Lock()
	waiting := h.waiting[key]
	h.waitMu.Unlock()
	if waiting {
		return true
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, lm := range h.matches {
		if s := lm.snap.Load(); !s.Over() && reads(s.Variant, key) && (host == nil || lm.host != host || lm.row.RoundID == 0) {
			return true
		}
	}
	return false
}

// tableReady is told by the cache that the table of key is solved: the
// decisions that waited for it get their analysis, and the perfect-play
// bots that waited move.
func (h *Hall) tableReady(key sim.Variant) {
	if err := h.fillIn(context.Background(), key); err != nil {
		h.logger.Error("fill in analyses", "variant", key.String(), "err", err)
	}
}

// fillIn fills in the pending analyses of the decisions of key's table,
// first of the matches in memory (and moves their bots), then, if any of
// key's decisions waited, of those only on disk (ended, or practice that
// left memory).
func (h *Hall) fillIn(ctx context.Context, key sim.Variant) error {
	h.mu.RLock()
	var lms []*Live
	for _, lm := range h.matches {
		if reads(lm.snap.Load().Variant, key) {
			lms = append(lms, lm)
		}
	}
	h.mu.RUnlock()
	var errs []error
	for _, lm := range lms {
		lm.mu.Lock()
		err := h.fillLive(ctx, lm)
		if err == nil && !lm.ended {
			err = h.advance(ctx, lm)
		}
		lm.mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("match %d: %w", lm.row.ID, err))
		}
	}
	h.waitMu.Lock()
	waited := h.waiting[key]
	h.waitMu.Unlock()
	if !waited {
		return errors.Join(errs...) // nothing of key's on disk waits: no reading
	}
	ids, err := h.log.PendingMatches(ctx, 0)
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	for _, id := range ids {
		h.mu.RLock()
		_, live := h.matches[id]
		h.mu.RUnlock()
		if live {
			continue // filled above, or another table's
		}
		if err := h.fillStored(ctx, id, key); err != nil {
			errs = append(errs, fmt.Errorf("match %d: %w", id, err))
		}
	}
	if len(errs) == 0 {
		h.waitMu.Lock()
		delete(h.waiting, key)
		h.waitMu.Unlock()
	}
	return errors.Join(errs...)
}

// fillLive fills in a live match's pending analyses. lm.mu must be held.
func (h *Hall) fillLive(ctx context.Context, lm *Live) error {
	filled, at := h.analyseds(lm.row, lm.rows)
	if len(filled) == 0 {
		return nil
	}
	if err := h.log.FillAnalyses(ctx, filled); err != nil {
		return err
	}
	rows := slices.Clone(lm.rows) // the snapshot shares the old ones
	for n, i := range at {
		rows[i] = filled[n]
	}
	lm.rows = rows
	if lm.host != nil {
		lm.host.Counted(&lm.row, filled, true)
	}
	lm.publish()
	return nil
}

// fillStored fills in the pending analyses of a match only on disk, if
// key's table analyses it (another table's match waits for its own).
func (h *Hall) fillStored(ctx context.Context, id int64, key sim.Variant) error {
	row, err := h.log.MatchByID(ctx, id)
	if err != nil || !reads(row.Variant, key) {
		return err
	}
	events, err := h.log.MatchEvents(ctx, id)
	if err != nil {
		return err
	}
	filled, _ := h.analyseds(row, events)
	if len(filled) == 0 {
		return nil
	}
	if err := h.log.FillAnalyses(ctx, filled); err != nil {
		return err
	}
	if row.ClassID != 0 {
		if host := h.classes.Host(row.ClassID); host != nil {
			host.Counted(&row, filled, true)
			host.Changed()
		}
	}
	return nil
}

// analyseds returns the pending decisions of a match's log with their
// analysis now that the table is ready, and where they are in the log.
// The state before each is rebuilt from the match's seed.
func (h *Hall) analyseds(row Match, rows []Event) ([]Event, []int) {
	if !slices.ContainsFunc(rows, func(e Event) bool { return e.Pending }) {
		return nil, nil
	}
	m, err := sim.NewMatch(row.Variant, row.Seed)
	if err != nil {
		return nil, nil
	}
	var out []Event
	var at []int
	for i, e := range rows {
		pre := m.State()
		if e.Pending {
			if a, pending := Analyse(h.tables, &pre, e.Action); !pending {
				e.Analysis, e.Pending = a, false
				mysteryAgrees(row, &pre, &e)
				out, at = append(out, e), append(at, i)
			}
		}
		if _, err := m.Apply(e.Seat, e.Action); err != nil {
			break // cannot happen for a stored log; what is before it is filled
		}
	}
	return out, at
}

// restorePending asks, after a restart, for the tables of the decisions
// still waiting for their analysis: each is solved in the background and
// fills them in (one reading of the disk a table).
func (h *Hall) restorePending(ctx context.Context, classID int64) error {
	ids, err := h.log.PendingMatches(ctx, classID)
	if err != nil {
		return err
	}
	keys := map[sim.Variant]bool{}
	for _, id := range ids {
		row, err := h.log.MatchByID(ctx, id)
		if err != nil {
			return err
		}
		events, err := h.log.MatchEvents(ctx, id)
		if err != nil {
			return err
		}
		for _, k := range pendingKeys(row.Variant, row.Seed, events) {
			h.awaiting(k)
			keys[k] = true
		}
	}
	for key := range keys {
		if h.ask(key) {
			// solved before the room was told of solves: fill in now
			if err := h.fillIn(ctx, key); err != nil {
				return err
			}
		}
	}
	return nil
}

// pendingKeys returns the tables the pending decisions of a match's log
// wait for, the state before each rebuilt from the seed.
func pendingKeys(v sim.Variant, seed sim.Seed, rows []Event) []sim.Variant {
	m, err := sim.NewMatch(v, seed)
	if err != nil {
		return nil
	}
	var out []sim.Variant
	for _, e := range rows {
		if pre := m.State(); e.Pending && !slices.Contains(out, keyFor(&pre)) {
			out = append(out, keyFor(&pre))
		}
		if _, err := m.Apply(e.Seat, e.Action); err != nil {
			break
		}
	}
	return out
}

// ask has the table of key solved in the background, and reports whether
// it is ready.
func (h *Hall) ask(key sim.Variant) bool {
	var err error
	switch {
	case key.Seats > 2:
		_, err = h.tables.MultiReady(key)
	case key.EqualTurns:
		_, err = h.tables.ReadyEqual(key)
	default:
		_, err = h.tables.Ready(key)
	}
	return err == nil
}
