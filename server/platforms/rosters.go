package platforms

import (
	"context"
	"sync"
	"time"

	"pigclass/server/lti"
	"pigclass/server/store"
)

// A learner's launch is let in only if the course's roster (NRPS) lists
// them as Active (issue 79): the roster as read at most rosterFresh ago,
// read again when older, or when the user is not on it and it was read
// more than rosterRetry ago (so a learner just added gets in, and a flood
// of strangers' launches reads it once in rosterRetry). A platform that
// cannot be read during a launch leaves the last roster read standing
// for rosterStands; with none read in that time, the signed launch
// vouches, as for a platform without NRPS.
const (
	rosterFresh  = time.Minute
	rosterRetry  = 5 * time.Second
	rosterStands = 24 * time.Hour
)

type rosterRead struct {
	at     time.Time
	active map[string]bool // the learners listed Active, by user id
}

type rosters struct {
	mu    sync.Mutex
	reads map[int64]rosterRead // by class
}

func (r *rosters) last(classID int64) (rosterRead, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rr, ok := r.reads[classID]
	return rr, ok
}

func (r *rosters) keep(classID int64, rr rosterRead) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reads == nil {
		r.reads = map[int64]rosterRead{}
	}
	r.reads[classID] = rr
}

// Listed reports whether the course's roster lets the platform's user
// into the class of link as a learner: true for a link with no roster
// service (the launch vouches). The roster is read as said above; err is
// a failure to read it with no read standing.
func (l *Platforms) Listed(ctx context.Context, p lti.Platform, link store.Link, user string) (bool, error) {
	if link.Members == "" {
		return true, nil
	}
	now := l.now()
	rr, ok := l.rosters.last(link.ClassID)
	age := now.Sub(rr.at)
	switch {
	case ok && age <= rosterFresh && rr.active[user]:
		return true, nil
	case ok && age <= rosterRetry:
		return rr.active[user], nil
	}
	learners, _, err := l.Roster(ctx, p, link)
	if err != nil {
		if ok && age <= rosterStands {
			l.log.Warn("lti: the course's roster could not be read: the last read stands", "class", link.ClassID, "read", rr.at, "err", err)
			return rr.active[user], nil
		}
		l.log.Warn("lti: the course's roster could not be read: the launch vouches", "class", link.ClassID, "err", err)
		return true, nil
	}
	fresh := rosterRead{at: now, active: make(map[string]bool, len(learners))}
	for _, m := range learners {
		fresh.active[m.UserID] = true
	}
	l.rosters.keep(link.ClassID, fresh)
	return fresh.active[user], nil
}
