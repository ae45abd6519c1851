package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"
)

// A district's instances share one Postgres database, and each class is
// served by one instance at a time: the one holding its lease, a row of
// class_leases with an expiry that its holder renews every LeaseRenew.
// Another instance takes a lease over only once it has expired (the
// holder stopped, or lost the database), and each takeover adds one to
// the class's generation.
//
// A row with an expiry, not an advisory lock: an advisory lock belongs to
// a connection, and the store's writes go through the writer's single
// connection while a batch holds many classes' jobs; a row can be read by
// every instance (who holds the class, until when), survives a connection
// that drops for a moment, and gives the generation that fences.
//
// Fencing: every write for a class checks, in its own transaction, that
// the lease row still has the holder and generation this instance took
// (SELECT ... FOR SHARE, so that a takeover waits for the batch that
// checked it). An instance that lost a class (paused past the expiry,
// cut from the network) has its writes for it refused with ErrLeaseLost:
// it writes nothing more there, whatever it still has in memory.
//
// The expiry is the database's clock (now()), not the instances': the
// district's machines need not agree on the time.

// LeaseTTL is how long a lease lasts unless renewed; LeaseRenew is how
// often its holder renews it. A class whose instance stops is taken over
// by another at most LeaseTTL after its last renewal.
const (
	LeaseTTL   = 6 * time.Second
	LeaseRenew = 2 * time.Second
)

// ErrLeaseHeld is a class another instance serves; ErrLeaseLost a write
// refused because this instance no longer holds the class's lease.
var (
	ErrLeaseHeld = errors.New("the class is served by another instance")
	ErrLeaseLost = fmt.Errorf("%w: this instance lost the class's lease", ErrNotSaved)
)

// Leases are this instance's leases on a Postgres store (nil on SQLite:
// a file has one server, which serves every class).
type Leases struct {
	c      *conn
	holder string // this instance: its own random name, new at each start

	mu      sync.Mutex
	held    map[int64]heldLease
	fencing bool                // writes are fenced (Fence)
	lost    func(classID int64) // told of each class lost (Fence)
}

// heldLease is a lease this instance holds: its generation, and until
// when (this machine's clock, kept short of the database's expiry) it
// may be used without asking the database again.
type heldLease struct {
	gen   int64
	until time.Time
}

func newLeases(c *conn) *Leases {
	var b [8]byte
	rand.Read(b[:])
	return &Leases{c: c, holder: hex.EncodeToString(b[:]), held: map[int64]heldLease{}}
}

// Leases are the store's leases: nil unless it is on Postgres.
func (c *conn) Leases() *Leases { return c.leases }

// Holder names this instance in the lease rows.
func (l *Leases) Holder() string { return l.holder }

// Fence turns fencing on: from now on each write for a class (a request
// for it, ForClass, or a match of it) is refused unless this instance
// holds the class's lease. lost is told of each class this instance
// loses (a renewal or a write that finds another holder), so that it
// leaves memory. A server on Postgres fences from its start; a store
// alone (a command, a test) writes unfenced.
func (l *Leases) Fence(lost func(classID int64)) {
	l.mu.Lock()
	l.fencing, l.lost = true, lost
	l.mu.Unlock()
}

// Holds reports whether this instance holds the class's lease, as far as
// it knows without asking the database (the writes check).
func (l *Leases) Holds(classID int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	h, ok := l.held[classID]
	return ok && time.Now().Before(h.until)
}

// Take takes the class's lease, or renews it if this instance holds it:
// fresh is true when the class was not this instance's a moment ago (its
// state must be loaded from the database, as a restart would).
// ErrLeaseHeld if another instance holds it and it has not expired: the
// caller acts on that (Fence's function is not told: it is for what is
// found away from a caller, by a renewal or a write).
func (l *Leases) Take(ctx context.Context, classID int64) (fresh bool, err error) {
	l.mu.Lock()
	before, had := l.held[classID]
	l.mu.Unlock()
	var gen int64
	start := time.Now()
	err = l.c.w.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO class_leases (class_id, holder, generation, expires_at)
			VALUES (?, ?, 1, now() + CAST(? AS double precision) * INTERVAL '1 second')
			ON CONFLICT (class_id) DO UPDATE SET
				generation = class_leases.generation + CASE WHEN class_leases.holder = excluded.holder AND class_leases.expires_at >= now() THEN 0 ELSE 1 END,
				holder = excluded.holder, expires_at = excluded.expires_at
			WHERE class_leases.holder = excluded.holder OR class_leases.expires_at < now()
			RETURNING generation`, classID, l.holder, LeaseTTL.Seconds()).Scan(&gen)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrLeaseHeld
		}
		return err
	})
	if err != nil {
		if errors.Is(err, ErrLeaseHeld) {
			l.mu.Lock()
			delete(l.held, classID)
			l.mu.Unlock()
		}
		return false, err
	}
	l.mu.Lock()
	l.held[classID] = heldLease{gen: gen, until: start.Add(LeaseTTL - LeaseRenew)}
	l.mu.Unlock()
	return !had || before.gen != gen, nil
}

// Renew renews every lease this instance holds, in one statement, and
// lets go of those that expired or another instance took meanwhile (told
// to Fence's function).
func (l *Leases) Renew(ctx context.Context) error {
	l.mu.Lock()
	mine := make(map[int64]int64, len(l.held))
	for id, h := range l.held {
		mine[id] = h.gen
	}
	l.mu.Unlock()
	if len(mine) == 0 {
		return nil
	}
	start := time.Now()
	var renewed map[int64]int64 // class -> generation, as the rows say
	err := l.c.w.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		renewed = map[int64]int64{}
		// An expired lease is not renewed, even if nobody took it: it
		// ended, and is taken again (a new generation, the class loaded
		// afresh).
		rows, err := tx.QueryContext(ctx, `UPDATE class_leases SET expires_at = now() + CAST(? AS double precision) * INTERVAL '1 second'
			WHERE holder = ? AND expires_at >= now() RETURNING class_id, generation`, LeaseTTL.Seconds(), l.holder)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, gen int64
			if err := rows.Scan(&id, &gen); err != nil {
				return err
			}
			renewed[id] = gen
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("store: renewing leases: %w", err)
	}
	var lost []int64
	l.mu.Lock()
	for id, gen := range mine {
		switch got, ok := renewed[id]; {
		case !ok:
			lost = append(lost, id)
		case got == gen && l.held[id].gen == gen:
			l.held[id] = heldLease{gen: gen, until: start.Add(LeaseTTL - LeaseRenew)}
		}
		// A row renewed at another generation was taken again by this
		// instance meanwhile: Take keeps it.
	}
	l.mu.Unlock()
	for _, id := range lost {
		l.forget(id, mine[id])
	}
	return nil
}

// Release lets go of every lease this instance holds (a graceful stop):
// another instance takes the classes over at once, not after the expiry.
func (l *Leases) Release(ctx context.Context) error {
	l.mu.Lock()
	l.held = map[int64]heldLease{}
	l.mu.Unlock()
	return l.c.w.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE class_leases SET expires_at = now() - INTERVAL '1 second' WHERE holder = ?`, l.holder)
		return err
	})
}

func (l *Leases) fencingOn() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fencing
}

// forget drops the lease of the class at generation gen, which this
// instance no longer holds, and says so; a lease taken again since, at
// another generation, stays.
func (l *Leases) forget(classID, gen int64) {
	l.mu.Lock()
	h, had := l.held[classID]
	had = had && h.gen == gen
	if had {
		delete(l.held, classID)
	}
	lost := l.lost
	l.mu.Unlock()
	if had && lost != nil {
		lost(classID)
	}
}

// fence refuses, with ErrLeaseLost, a write for the class unless the
// lease row still has this instance's holder and generation; the row is
// locked until the write's batch commits, so no takeover slips between.
func (l *Leases) fence(ctx context.Context, tx *sql.Tx, classID int64) error {
	l.mu.Lock()
	h, ok := l.held[classID]
	fencing := l.fencing
	l.mu.Unlock()
	if !fencing {
		return nil
	}
	if ok {
		var gen int64
		var holder string
		err := tx.QueryRowContext(ctx, `SELECT generation, holder FROM class_leases WHERE class_id = ? FOR SHARE`, classID).Scan(&gen, &holder)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err == nil && gen == h.gen && holder == l.holder {
			return nil
		}
		go l.forget(classID, h.gen)
	}
	return ErrLeaseLost
}

// fenceMatch is fence for the class of a match; a practice match, of no
// class, is not fenced.
func (l *Leases) fenceMatch(ctx context.Context, tx *sql.Tx, matchID int64) error {
	var class sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT class_id FROM matches WHERE id = ?`, matchID).Scan(&class); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil // the write itself says there is no such match
		}
		return err
	}
	if !class.Valid {
		return nil
	}
	return l.fence(ctx, tx, class.Int64)
}

// classKey carries the class a request writes for (ForClass).
type classKey struct{}

// ForClass marks ctx as a request for the class: on a district's store,
// each of its writes is fenced by the class's lease (see fence).
func ForClass(ctx context.Context, classID int64) context.Context {
	return context.WithValue(ctx, classKey{}, classID)
}

// fenced wraps a write job with the fence of the class its caller's ctx
// names, if any (on Postgres).
func (c *conn) fenced(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) func(ctx context.Context, tx *sql.Tx) error {
	classID, ok := ctx.Value(classKey{}).(int64)
	if c.leases == nil || !ok {
		return fn
	}
	return func(ctx context.Context, tx *sql.Tx) error {
		if err := c.leases.fence(ctx, tx, classID); err != nil {
			return err
		}
		// The job's own context says it is fenced: a match's write in
		// it (fenceMatch) need not ask again.
		return fn(context.WithValue(ctx, classKey{}, classID), tx)
	}
}

// fenceMatch fences a write of a match's log by its class's lease (on
// Postgres): bots, deadlines and analyses write from no request.
func (c *conn) fenceMatch(ctx context.Context, tx *sql.Tx, matchID int64) error {
	if c.leases == nil || !c.leases.fencingOn() {
		return nil
	}
	if _, fenced := ctx.Value(classKey{}).(int64); fenced {
		return nil // a request's write for its class: fenced already
	}
	return c.leases.fenceMatch(ctx, tx, matchID)
}
