// Package server is pigclass's web app: gin routes and handlers over the
// live classroom (package classroom), the class's history (package
// report) and the templ views. A handler parses a request, asks the
// classroom or the reports as the viewer the request is (who is asking is
// decided by the classroom, first), builds a view model from what it gets
// back and renders it: no handler takes a lock of the classroom, holds the
// store or builds an address by hand (package paths).
package server

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"pigclass/lessons"
	"pigclass/lessons/figures"
	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim/solve"
)

// Config is what the server needs beyond its store.
type Config struct {
	// PublicURL is how students reach the app, shown on the projector
	// (e.g. "http://10.0.0.5:8080"); empty means the request's own host,
	// one of the addresses the server listens on.
	PublicURL string
	// Listen is the address the server listens on ("localhost:8080",
	// ":8080"): with PublicURL's host, the only hosts it answers for.
	// Empty answers every host (a handler tested alone).
	Listen string
	// Now is the clock (tests replace it); nil means time.Now.
	Now func() time.Time
	// JoinAttempts is how many wrong join codes one address may try per
	// minute; 0 means 20.
	JoinAttempts int
	// ClassJoins is how many students may join one class per minute until
	// the teacher lifts the cap; 0 means DefaultClassJoins.
	ClassJoins int
	// MovesPerSecond is how many moves a player may make a second, by the
	// wall clock; 0 means DefaultMovesPerSecond.
	MovesPerSecond int
	// TrustedProxies are the reverse proxies whose X-Forwarded-For and
	// X-Forwarded-Proto are believed; none by default, so a client cannot
	// choose its own address.
	TrustedProxies []netip.Prefix
	// CodePrefix starts every join code this instance draws (up to two
	// code characters), so that a proxy in front of several instances can
	// send each class's addresses to the instance that holds it (README,
	// "A school or a district"). Empty: any code.
	CodePrefix string
	// Key is the server's own key, kept outside the database
	// (store.LoadKey): the projector key and the rejoin codes are derived
	// with it. Nil draws one for this run (they then change on restart).
	Key []byte
	// Tables are the solved tables to use; nil solves them anew. Solved
	// tables never change, so servers in one process (the tests) may
	// share them.
	Tables *solve.Cache
	// TablesBudget bounds the tables kept (0: TablesBudget).
	TablesBudget int64
}

// DefaultClassJoins is the joins a class takes per minute before the
// teacher must allow more: a whole class joining at once fits.
const DefaultClassJoins = 60

// Server holds the app's state: the store, the solved tables and the live
// classroom.
type Server struct {
	cfg     Config
	reports *report.Reports // the disk's history, for a class's members
	log     *slog.Logger
	tables  *solve.Cache
	room    *classroom.Room

	lessons []lessons.Lesson
	proxies []netip.Prefix

	hosts       *hostGate
	metrics     *metrics
	crossOrigin *http.CrossOriginProtection
	tokens      *tokens  // fresh player tokens on join
	joins       *limiter // wrong join codes, by client address
	classJoins  *limiter // joins, by class: a script cannot fill a class
	deviceJoins *limiter // joins, by class and device: one name a device
	moves       *limiter // moves, by player: a script cannot flood a match
	variants    *limiter // new variants solved, by class and ("") in all
	newClasses  *limiter // classes started, by client address
	practices   *limiter // practice matches started, by client address
	// figureValues are the lessons' figures, computed once for this
	// server (figureOnce) from its tables.
	figureOnce   sync.Once
	figureValues map[string]figures.Value
	figureErr    error
}

// A device (its address; an IPv6 device's /64) joins a class under one
// name in deviceJoinWindow (until the teacher allows more): a second name
// from it is refused, and the rejoin code is the way to one's own name on
// another device.
const deviceJoinWindow = 10 * time.Minute

// DefaultMovesPerSecond is the moves a player may make a second: faster
// than a hand, slower than a script.
const DefaultMovesPerSecond = 8

// TablesBudget bounds the solved tables kept, of two and of more players,
// and the one being solved: the pinned ones included (the defaults and the
// lessons', 51 MB once every lesson has been played). A table is solved
// only if it can be kept beside the pinned ones and those still needed (by
// a match being played or a decision waiting for its analysis), and a kind
// of round whose tables cannot is refused by the round form; past the
// budget the least lately used table neither pinned nor needed is
// forgotten. Beside every lesson's tables there is room for the largest
// table a classroom solves (32 MB: TestLessonTablesLeaveRoom), so any kind
// of round plays on a server with nothing else to keep. The tables and the
// solve in flight stay within it, well within the heap's soft limit
// (BenchmarkBigKindsBesideASchool). A new variant is solved at most
// newVariantsPerClass times a minute for one class and
// newVariantsPerMinute for the whole server.
const (
	TablesBudget         = 96 << 20
	newVariantsPerClass  = 3
	newVariantsPerMinute = 12
)

// Per client address and minute: classes a device may start, and
// practice matches (a whole lab behind one address may start one each).
const (
	classesPerMinute   = 10
	practicesPerMinute = 120
)

// New builds the server, solves the standard tables and rebuilds every match
// still in progress from its log, so that play goes on after a restart.
func New(ctx context.Context, cfg Config, st *store.Store, log *slog.Logger) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.JoinAttempts = cmp.Or(cfg.JoinAttempts, 20)
	cfg.ClassJoins = cmp.Or(cfg.ClassJoins, DefaultClassJoins)
	cfg.MovesPerSecond = cmp.Or(cfg.MovesPerSecond, DefaultMovesPerSecond)
	if err := CheckCodePrefix(cfg.CodePrefix); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	crossOrigin, err := newCrossOrigin(cfg.PublicURL)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s := &Server{
		cfg: cfg, reports: report.New(st), log: log, tables: cfg.Tables,
		joins:       newLimiter(cfg.JoinAttempts, time.Minute, cfg.Now),
		classJoins:  newLimiter(cfg.ClassJoins, time.Minute, cfg.Now),
		deviceJoins: newLimiter(1, deviceJoinWindow, cfg.Now),
		moves:       newLimiter(cfg.MovesPerSecond, time.Second, time.Now),
		variants:    newLimiter(newVariantsPerClass, time.Minute, cfg.Now),
		newClasses:  newLimiter(classesPerMinute, time.Minute, cfg.Now),
		practices:   newLimiter(practicesPerMinute, time.Minute, cfg.Now),
		proxies:     cfg.TrustedProxies,
		hosts:       newHostGate(cfg.PublicURL, cfg.Listen),
		crossOrigin: crossOrigin,
		tokens:      &tokens{now: cfg.Now, rotated: map[string]rotation{}},
	}
	if s.tables == nil {
		s.tables = &solve.Cache{}
	}
	s.tables.SetBudget(cmp.Or(cfg.TablesBudget, TablesBudget))
	s.metrics = newMetrics(s)
	for _, v := range classroom.DefaultVariants() {
		s.tables.Pin(v, false)
	}
	// The tables are solved while the matches are restored: two cores,
	// and a restart with a school's matches serves again within a second.
	start := time.Now()
	solved := make(chan error, 1)
	go func() {
		for _, v := range classroom.DefaultVariants() {
			if _, err := s.tables.Get(v); err != nil {
				solved <- fmt.Errorf("server: solve %v: %w", v, err)
				return
			}
		}
		log.Info("tables solved", "seconds", time.Since(start).Seconds())
		solved <- nil
	}()
	if s.cfg.Key == nil {
		s.cfg.Key = make([]byte, store.KeySize)
		rand.Read(s.cfg.Key)
	}
	s.room = classroom.New(st, s.cfg.Key, s.tables, log, cfg.Now)
	n, err := s.room.Restore(ctx)
	if err := errors.Join(err, <-solved); err != nil {
		return nil, err
	}
	log.Info("matches restored", "playing", n, "seconds", time.Since(start).Seconds())
	if err := s.loadLessons(); err != nil {
		return nil, err
	}
	s.room.Watch()
	return s, nil
}

// Close stops the deadline watcher.
func (s *Server) Close() { s.room.Close() }

// render writes a templ component with the request's context.
func render(c *gin.Context, status int, comp templ.Component) {
	c.Status(status)
	c.Header("Content-Type", "text/html; charset=utf-8")
	c.Header("Content-Language", loc(c).Lang())
	if err := comp.Render(c.Request.Context(), c.Writer); err != nil {
		c.Error(err)
	}
}

// isHTMX reports whether the request came from htmx (wants a fragment).
func isHTMX(c *gin.Context) bool { return c.GetHeader("HX-Request") == "true" }

// publicURL returns the address students type, for the projector.
func (s *Server) publicURL(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return s.cfg.PublicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
