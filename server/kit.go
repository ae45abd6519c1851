package server

import (
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/contest"
	"pigclass/server/limit"
	"pigclass/server/platforms"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/sim"
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
	// send each class's addresses to the instance that holds it (cmd/pigclass's guide,
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
	// LabBudget is the most time a lab run may simulate (0: LabBudget,
	// 3 s); a test lowers it.
	LabBudget time.Duration
	// Retain is how long a class is kept after its last activity, then
	// erased (cmd/pigclass's guide, "How long a class is kept"); 0 keeps every class
	// until its teacher deletes it.
	Retain time.Duration
	// Limits are what the door every match starts through lets through
	// (play.Limits); the zero value means play.DefaultLimits.
	Limits play.Limits
	// Chance is where every draw of the server's comes from: the seeds of
	// rounds, practice, homework, tables and Skunk, the order a round
	// pairs students in, join codes and generated names. Nil means
	// sim.Crypto; a test gives a sim.Stream and deals the seeds it needs.
	// Secrets (the key, tokens) are crypto/rand's alone.
	Chance sim.Chance
}

// DefaultClassJoins is the joins a class takes per minute before the
// teacher must allow more: a whole class joining at once fits.
const DefaultClassJoins = classroom.DefaultClassJoins

// Server holds the app's state: the store, the solved tables and the live
// classroom.
type Server struct {
	cfg     Config
	reports *report.Reports // the disk's history, for a class's members
	log     *slog.Logger
	tables  *solve.Cache
	room    *classroom.Room
	hall    *play.Hall       // where the room's matches are played (Room.Hall)
	views   *views           // the view models the handlers share
	contest *contest.Contest // the students' strategies and the class's tournaments

	proxies []netip.Prefix

	hosts       *hostGate
	metrics     *metrics
	crossOrigin *http.CrossOriginProtection
	tokens      *tokens              // fresh player tokens on join
	moves       *limit.Limiter       // moves, by player: a script cannot flood a match
	newClasses  *limit.Limiter       // classes started, by client address
	district    *classroom.District  // on a district's shared Postgres: the classes this instance serves; nil on SQLite
	streams     *streams             // the pages' event streams (push.go)
	labRuns     *runPaths            // the lab's runs just made, until their page draws them
	labRate     *limit.Limiter       // the lab's runs, by class and student (labRunsPerMinute)
	labGate     *labGate             // the lab's simulation slots, shared fairly by the classes
	lti         *platforms.Platforms // the learning platforms (LTI 1.3): front_lti.go
}

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
// play.DefaultLimits.KindsClass times a minute for one class and
// KindsServer for the whole server, whatever starts it (the door:
// play.Hall.Start).
const TablesBudget = 96 << 20

// classesPerMinute is how many classes a device (a client address) may
// start a minute. Practice matches are limited by the door every match
// starts through (play.DefaultLimits.DeviceStarts: a whole lab behind
// one address may start one each).
const classesPerMinute = 10

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
