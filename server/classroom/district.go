package classroom

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"pigclass/server/store"
)

// A district: several instances on one Postgres database (store.Leases).
// An instance serves a class once it holds the class's lease: the first
// request for a class it does not hold takes the lease if it is free or
// expired and loads the class as a restart would (TakeOver); if another
// instance holds it, the request is told ErrElsewhere (the server answers
// a member 503, which the district's proxy passes to the next instance:
// pigclass proxyconf --shared-db). A class lost to another instance
// leaves memory (Evict); the store refuses what it would still write for
// it (fencing).

// ErrElsewhere is a class another instance of the district serves.
var ErrElsewhere = store.ErrLeaseHeld

// District is an instance's part in a district: the classes it serves.
type District struct {
	leases *store.Leases
	st     *store.Store
	room   *Room
	log    *slog.Logger

	codes sync.Map // join code -> class ID: codes never change

	mu    sync.Mutex // guards ready, and takes one class over at a time
	ready map[int64]bool

	stop chan struct{}
	done chan struct{}
}

// NewDistrict starts the room's part in a district, or returns nil when
// its store is a SQLite file.
func NewDistrict(room *Room, log *slog.Logger) *District {
	st := room.st
	if st.Leases() == nil {
		return nil
	}
	d := &District{leases: st.Leases(), st: st, room: room, log: log, ready: map[int64]bool{}, stop: make(chan struct{}), done: make(chan struct{})}
	d.leases.Fence(d.lost)
	go d.renew()
	return d
}

// lost is told of a class this instance no longer serves, found by a
// renewal or a write.
func (d *District) lost(classID int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.drop(classID)
	d.log.Info("district: class served elsewhere now", "class", classID)
}

// Serves reports whether this instance serves the class now.
func (d *District) Serves(classID int64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ready[classID]
}

// drop forgets a class another instance serves now; d.mu is held.
func (d *District) drop(classID int64) {
	delete(d.ready, classID)
	Evict(d.room, classID)
}

// renew renews the leases held, every store.LeaseRenew, until close.
func (d *District) renew() {
	defer close(d.done)
	t := time.NewTicker(store.LeaseRenew)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), store.LeaseRenew)
			if err := d.leases.Renew(ctx); err != nil {
				d.log.Error("district: renewing leases", "err", err)
			}
			cancel()
		}
	}
}

// Close stops renewing and hands the classes back: the other instances
// take them over at once, not after their leases expire.
func (d *District) Close() {
	close(d.stop)
	<-d.done
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.leases.Release(ctx); err != nil {
		d.log.Error("district: releasing leases", "err", err)
	}
}

// Serve makes the class with the code this instance's to serve (serve),
// and returns ctx marked for it, so that the request's writes are fenced
// by its lease (store.ForClass); ErrElsewhere if another instance serves
// it. A code of no class changes nothing: the route answers as ever.
func (d *District) Serve(ctx context.Context, code string) (context.Context, error) {
	id, ok, err := d.classID(ctx, code)
	if err != nil || !ok {
		return ctx, err
	}
	if err := d.serve(ctx, id); err != nil {
		if errors.Is(err, ErrElsewhere) {
			return ctx, err
		}
		// A class deleted since its code was kept here has no lease to
		// take: its code is asked again.
		d.codes.Delete(code)
		if _, ok, rerr := d.classID(ctx, code); rerr == nil && !ok {
			return ctx, nil
		}
		return ctx, err
	}
	return store.ForClass(ctx, id), nil
}

// ServeClass is Serve for a class the request has just started.
func (d *District) ServeClass(ctx context.Context, classID int64) error {
	return d.serve(ctx, classID)
}

// classID is the ID of the class with the code, or false if there is
// none.
func (d *District) classID(ctx context.Context, code string) (int64, bool, error) {
	if id, ok := d.codes.Load(code); ok {
		return id.(int64), true, nil
	}
	row, err := d.st.ClassByCode(ctx, code)
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	d.codes.Store(code, row.ID)
	return row.ID, true, nil
}

// serve makes the class this instance's to serve: its lease held, its
// state loaded. ErrElsewhere if another instance serves it.
func (d *District) serve(ctx context.Context, classID int64) error {
	d.mu.Lock()
	ready := d.ready[classID]
	d.mu.Unlock()
	if ready && d.leases.Holds(classID) {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	fresh, err := d.leases.Take(ctx, classID)
	if errors.Is(err, store.ErrLeaseHeld) {
		d.drop(classID) // what this instance had of it is another's now
		return ErrElsewhere
	}
	if err != nil {
		return err
	}
	if fresh || !d.ready[classID] {
		start := time.Now()
		n, err := TakeOver(context.WithoutCancel(ctx), d.room, classID)
		if err != nil {
			return err
		}
		d.log.Info("district: serving a class", "class", classID, "playing", n, "seconds", time.Since(start).Seconds())
	}
	d.ready[classID] = true
	return nil
}
