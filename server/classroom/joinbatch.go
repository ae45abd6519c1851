package classroom

import (
	"context"
	"errors"
	"fmt"

	"pigclass/server/store"
)

// Joins come in batches: a whole class joining at once would otherwise
// wait for one commit each, one after the other under the class's
// turnstile (a thousand students: seconds). The first joiner to find no
// batch under way leads: it takes every join queued meanwhile, checks
// them in order against the roster and each other (the checks of Join),
// stores the new students in one write, publishes them in one new
// snapshot and answers each; then it takes the next batch, until none
// is queued. The queue (class.joinQ, class.joining) is guarded by
// class.joinMu, a leaf.

// joinReq is one join waiting in its class's queue.
type joinReq struct {
	nickname, tokenHash string
	done                chan joinRes
}

type joinRes struct {
	st  store.Student
	err error
}

// joinQueued queues a join of class c and waits for its answer, leading
// the batches if none is under way.
func (r *Room) joinQueued(ctx context.Context, c *class, nickname, tokenHash string) (store.Student, error) {
	req := &joinReq{nickname: nickname, tokenHash: tokenHash, done: make(chan joinRes, 1)}
	c.joinMu.Lock()
	c.joinQ = append(c.joinQ, req)
	lead := !c.joining
	c.joining = true
	c.joinMu.Unlock()
	if lead {
		// The batches serve every joiner queued: a request that goes away
		// does not cut them short.
		r.leadJoins(context.WithoutCancel(ctx), c)
	}
	res := <-req.done
	return res.st, res.err
}

// leadJoins takes the queued joins of c batch by batch until none is
// left.
func (r *Room) leadJoins(ctx context.Context, c *class) {
	for {
		c.joinMu.Lock()
		batch := c.joinQ
		c.joinQ = nil
		if len(batch) == 0 {
			c.joining = false
			c.joinMu.Unlock()
			return
		}
		c.joinMu.Unlock()
		c.save(func() error { r.joinBatch(ctx, c, batch); return nil })
	}
}

// joinBatch seats the batch's new students, within c.save: each checked
// as Join says, the new ones stored in one write and published together.
// Every request is answered, once: a write the disk refused refuses every
// new student of the batch.
func (r *Room) joinBatch(ctx context.Context, c *class, batch []*joinReq) {
	snap := c.snap.Load()
	taken := make(map[string]bool, len(snap.Students)+len(batch))
	held := make(looks, 2*(len(snap.Students)+len(batch)))
	for _, other := range snap.Students {
		taken[other.AnonName] = true
		held.add(c.lookOf(other.Nickname), other.Nickname)
	}
	var fresh []store.Student
	var waiting []*joinReq
	var seat []int // waiting[i]'s student in fresh
	byToken := map[string]int{}
	for _, req := range batch {
		if known, ok := snap.Student(req.tokenHash); ok {
			req.done <- joinRes{st: known}
			continue
		}
		if i, ok := byToken[req.tokenHash]; ok && req.tokenHash != "" {
			waiting, seat = append(waiting, req), append(seat, i) // the same browser twice: one seat
			continue
		}
		if err := joinRefusal(snap, req, held); err != nil {
			req.done <- joinRes{err: err}
			continue
		}
		st := store.Student{ClassID: c.id, Nickname: req.nickname, AnonName: AnonName(r.chance, taken), TokenHash: req.tokenHash}
		taken[st.AnonName] = true
		held.add(c.lookOf(st.Nickname), st.Nickname)
		byToken[req.tokenHash] = len(fresh)
		waiting, seat = append(waiting, req), append(seat, len(fresh))
		fresh = append(fresh, st)
	}
	if len(fresh) == 0 {
		return
	}
	stored, err := r.st.AddStudents(ctx, fresh)
	errs := make([]error, len(fresh))
	if errors.Is(err, store.ErrNicknameTaken) && len(fresh) > 1 {
		// A name the disk holds and the roster does not (an erased
		// student's): each alone, so that only its join fails.
		stored = make([]store.Student, len(fresh))
		for i, st := range fresh {
			var one []store.Student
			if one, errs[i] = r.st.AddStudents(ctx, []store.Student{st}); errs[i] == nil {
				stored[i] = one[0]
			}
		}
	} else if err != nil {
		for _, req := range waiting {
			req.done <- joinRes{err: err}
		}
		return
	}
	var seated []store.Student
	for i, st := range stored {
		if errs[i] == nil {
			seated = append(seated, st)
		}
	}
	c.seat(seated)
	for i, req := range waiting {
		req.done <- joinRes{st: stored[seat[i]], err: errs[seat[i]]}
	}
}

// joinRefusal says why req may not join the class as snap shows it (with
// the batch's names in looks), or nil.
func joinRefusal(snap *Class, req *joinReq, held looks) error {
	switch {
	case snap.WasRemoved(req.tokenHash):
		return ErrRemoved
	case snap.Locked:
		return ErrLocked
	}
	for _, other := range snap.Removed {
		if other.Nickname == req.nickname {
			return store.ErrNicknameTaken // a removed student keeps their name
		}
	}
	if other := held.find(lookOf(req.nickname)); other != "" {
		if other == req.nickname {
			return store.ErrNicknameTaken
		}
		return fmt.Errorf("%w: %s", ErrLooksTaken, other)
	}
	return nil
}

// lookOf is a nickname's look, remembered for the class. Called within
// c.save only (joins are its only callers).
func (c *class) lookOf(nick string) look {
	if c.looks == nil {
		c.looks = map[string]look{}
	}
	k, ok := c.looks[nick]
	if !ok {
		k = lookOf(nick)
		c.looks[nick] = k
	}
	return k
}

// seat publishes the class with the newcomers on its roster. They change
// no page of the students already there, whose streams are not woken (a
// class of a thousand joining at once would wake them a thousand times
// over).
func (c *class) seat(newcomers []store.Student) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.publishQuietly(true, func(next *Class) {
		next.Students = append(next.Students[:len(next.Students):len(next.Students)], newcomers...)
	})
}
