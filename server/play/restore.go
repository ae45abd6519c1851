package play

import (
	"context"
	"fmt"

	"pigclass/sim"
)

// Restore rebuilds every match still playing from the log: after a
// restart play goes on where it stopped. classID restores one class's
// alone (a district's instance taking the class over), 0 every match.
// hostOf loads the class of a class ID. It calls index with each class's
// matches, before any of them moves, and returns how many it rebuilt.
func (h *Hall) Restore(ctx context.Context, classID int64, hostOf func(ctx context.Context, classID int64) (Host, error), index func(Host, []*Live)) (int, error) {
	ms, err := h.log.PlayingMatches(ctx, classID)
	if err != nil {
		return 0, err
	}
	logs, err := h.log.PlayingEvents(ctx, classID)
	if err != nil {
		return 0, err
	}
	var todo []*Live
	for _, row := range ms {
		m, err := sim.Replay(row.Variant, row.Seed, SimEvents(logs[row.ID]))
		if err != nil {
			return 0, fmt.Errorf("play: restore match %d: %w", row.ID, err)
		}
		var host Host
		if row.ClassID != 0 {
			if host, err = hostOf(ctx, row.ClassID); err != nil {
				return 0, err
			}
		}
		lm, err := h.newLive(row, m, logs[row.ID], host)
		if err != nil {
			return 0, err
		}
		todo = append(todo, lm)
	}
	h.register(todo)
	byHost := map[Host][]*Live{}
	var hosts []Host
	for _, lm := range todo {
		if lm.host != nil {
			if byHost[lm.host] == nil {
				hosts = append(hosts, lm.host)
			}
			byHost[lm.host] = append(byHost[lm.host], lm)
		}
	}
	for _, host := range hosts {
		index(host, byHost[host])
	}
	for _, lm := range todo {
		lm.mu.Lock()
		err := h.advance(ctx, lm)
		lm.mu.Unlock()
		if err != nil {
			return 0, err
		}
	}
	return len(ms), h.restorePending(ctx, classID)
}

// register puts live matches in the hall.
func (h *Hall) register(lms []*Live) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, lm := range lms {
		h.matches[lm.row.ID] = lm
	}
}

// newLive wraps a stored match, replayed, with its bots.
func (h *Hall) newLive(row Match, m *sim.Match, rows []Event, host Host) (*Live, error) {
	lm := &Live{row: row, m: m, rows: rows, bots: make([]sim.Strategy, row.Variant.Seats), last: h.now(), host: host}
	lm.row.State, lm.row.Events = sim.State{}, nil
	for _, seat := range row.Seats {
		if seat.Bot == "" {
			continue
		}
		bot, err := newBot(seat.Bot, row.Variant, &row.Seed, seat.Seat)
		if err != nil {
			return nil, fmt.Errorf("play: match %d seat %d: %w", row.ID, seat.Seat, err)
		}
		lm.bots[seat.Seat] = bot
	}
	lm.publish()
	return lm, nil
}
