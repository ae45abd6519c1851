package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
)

// A district: several instances on one Postgres database (store.Leases).
// An instance serves a class once it holds the class's lease: the first
// request for a class it does not hold takes the lease if it is free or
// expired and loads the class as a restart would (classroom.TakeOver);
// if another instance holds it, a member of the class is answered 503
// with Retry-After, which the district's proxy passes to the next
// instance (pigclass proxyconf --shared-db). A class lost to another
// instance leaves memory (classroom.Evict); the store refuses what it
// would still write for it (fencing).

// district is a server's part in a district; nil on SQLite.
type district struct {
	leases *store.Leases
	st     *store.Store
	room   *classroom.Room
	log    *slog.Logger

	codes sync.Map // join code -> class ID: codes never change

	mu    sync.Mutex // guards ready, and takes one class over at a time
	ready map[int64]bool

	stop chan struct{}
	done chan struct{}
}

// newDistrict starts the district's part of a server on st, or returns
// nil when st is a SQLite file.
func newDistrict(st *store.Store, room *classroom.Room, log *slog.Logger) *district {
	if st.Leases() == nil {
		return nil
	}
	d := &district{leases: st.Leases(), st: st, room: room, log: log, ready: map[int64]bool{}, stop: make(chan struct{}), done: make(chan struct{})}
	d.leases.Fence(d.lost)
	go d.renew()
	return d
}

// lost is told of a class this instance no longer serves.
func (d *district) lost(classID int64) {
	d.mu.Lock()
	delete(d.ready, classID)
	d.mu.Unlock()
	classroom.Evict(d.room, classID)
	d.log.Info("district: class served elsewhere now", "class", classID)
}

// renew renews the leases held, every store.LeaseRenew, until close.
func (d *district) renew() {
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

// close stops renewing and hands the classes back: the other instances
// take them over at once, not after their leases expire.
func (d *district) close() {
	close(d.stop)
	<-d.done
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.leases.Release(ctx); err != nil {
		d.log.Error("district: releasing leases", "err", err)
	}
}

// classID is the ID of the class with the code, or false if there is
// none.
func (d *district) classID(ctx context.Context, code string) (int64, bool, error) {
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
// state loaded. store.ErrLeaseHeld if another instance serves it.
func (d *district) serve(ctx context.Context, classID int64) error {
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
		// What this instance had of the class is another's now.
		delete(d.ready, classID)
		classroom.Evict(d.room, classID)
		return err
	}
	if err != nil {
		return err
	}
	if fresh || !d.ready[classID] {
		start := time.Now()
		n, err := classroom.TakeOver(context.WithoutCancel(ctx), d.room, classID)
		if err != nil {
			return err
		}
		d.log.Info("district: serving a class", "class", classID, "playing", n, "seconds", time.Since(start).Seconds())
	}
	d.ready[classID] = true
	return nil
}

// elsewhereKey marks a request for a class another instance serves.
const elsewhereKey = "pigclass.elsewhere"

// atClass, before everything else a class's route does, makes sure this
// instance serves the class its address names (on a district's store);
// the request's writes are then fenced by its lease. A class another
// instance serves is marked, and the role's gate (servedHere) answers for
// it once the request is known to be a member's: a stranger is answered
// as for any class that is not theirs.
func (s *Server) atClass(c *gin.Context) {
	d := s.district
	if d == nil {
		return
	}
	code := classroom.NormalizeCode(c.Param("code"))
	if code == "" {
		return
	}
	ctx := c.Request.Context()
	id, ok, err := d.classID(ctx, code)
	if err != nil {
		fail(c, err)
		return
	}
	if !ok {
		return // no such class: the route answers as ever
	}
	switch err := d.serve(ctx, id); {
	case errors.Is(err, store.ErrLeaseHeld):
		c.Set(elsewhereKey, true)
	case err != nil:
		fail(c, err)
	default:
		c.Request = c.Request.WithContext(store.ForClass(ctx, id))
	}
}

// servedHere ends a member's request for a class another instance serves:
// 503, to try again (the district's proxy tries the next instance). A
// stranger's request goes on, to be answered as every class not theirs
// is (the handlers decide that from the class as stored, and refuse).
func servedHere(c *gin.Context) {
	if !c.GetBool(elsewhereKey) {
		return
	}
	v := viewerFrom(c)
	if _, student := v.Student(); student || v.Teacher() || v.Projector() {
		elsewhere(c)
	}
}

// elsewhere answers a request for a class another instance serves.
func elsewhere(c *gin.Context) {
	c.Header("Retry-After", "1")
	refuse(c, http.StatusServiceUnavailable, loc(c).T("error.served_elsewhere"))
}
