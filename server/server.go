// Package server is pigclass's web app: gin routes and handlers over the
// live classroom (package classroom), the class's history (package
// report) and the templ views. A handler parses a request, asks the
// classroom or the reports as the viewer the request is (who is asking is
// decided by the classroom, first), builds a view model from what it gets
// back and renders it: no handler takes a lock of the classroom, holds the
// store or builds an address by hand (package paths).
//
// The files stand in floors, each using only the files below it
// (TestServerFilesUseOnlyDownward; go test -run that -v prints the house):
//
//   - routes.go, at the top: the route table, address by address, and
//     server.go: New, the wiring.
//   - The handlers, named by who they serve, so a page's address leads to
//     its file: front*.go (the front page, joining, practice, the glossary,
//     the language, a learning platform's: front_lti*.go and
//     lti_services.go over lti_kit.go), student_*.go (a class's student:
//     /c/{code}...),
//     match_*.go (a match's page, board, moves and record, for its players,
//     practice included, and the teacher watching), teacher_*.go (the
//     dashboard and every control of /t/{code}...), projector.go (/p/...,
//     the teacher's projector view included) and verify.go.
//   - The kit the handlers share, naming no handler: kit.go (Server,
//     Config), reply.go (render, refuse, a notice), viewer.go (who is
//     asking), middleware.go, language.go, identity.go (codes, tokens,
//     cookies), request.go, hosts.go, metrics.go.
//   - At the bottom, views*.go: the view models the handlers share (type
//     views: the board, the charts' data, the lesson, the podium's words,
//     the review, Skunk's table, a student's history, the dashboard's live
//     part), built from what the classroom and the reports answer for the
//     viewer they are given, and ladder.go. They handle no request.
package server

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"pigclass/server/classroom"
	"pigclass/server/contest"
	"pigclass/server/limit"
	"pigclass/server/platforms"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// New builds the server, solves the standard tables and rebuilds every match
// still in progress from its log, so that play goes on after a restart.
func New(ctx context.Context, cfg Config, st *store.Store, log *slog.Logger) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	cfg.JoinAttempts = cmp.Or(cfg.JoinAttempts, classroom.DefaultGuesses)
	cfg.ClassJoins = cmp.Or(cfg.ClassJoins, DefaultClassJoins)
	cfg.MovesPerSecond = cmp.Or(cfg.MovesPerSecond, DefaultMovesPerSecond)
	cfg.Chance = cmp.Or[sim.Chance](cfg.Chance, sim.Crypto)
	if err := CheckCodePrefix(cfg.CodePrefix); err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	crossOrigin, err := newCrossOrigin(cfg.PublicURL)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s := &Server{
		cfg: cfg, reports: report.New(st, cfg.Tables), log: log, tables: cfg.Tables,
		moves:       limit.New(cfg.MovesPerSecond, time.Second, time.Now),
		newClasses:  limit.New(classesPerMinute, time.Minute, cfg.Now),
		proxies:     cfg.TrustedProxies,
		hosts:       newHostGate(cfg.PublicURL, cfg.Listen),
		crossOrigin: crossOrigin,
		tokens:      &tokens{now: cfg.Now, rotated: map[string]rotation{}},
		streams:     newStreams(),
		labRuns:     &runPaths{byID: map[int64]sim.ExperimentResult{}},
		labRate:     limit.New(labRunsPerMinute, time.Minute, cfg.Now),
		labGate:     newLabGate(labSlotCount),
	}
	if s.tables == nil {
		s.tables = &solve.Cache{}
	}
	s.tables.SetBudget(cmp.Or(cfg.TablesBudget, TablesBudget))
	for _, v := range play.DefaultVariants() {
		s.tables.Pin(v, false)
	}
	// The tables are solved while the matches are restored: two cores,
	// and a restart with a school's matches serves again within a second.
	start := time.Now()
	solved := s.solveDefaults(start, log)
	if s.cfg.Key == nil {
		s.cfg.Key = make([]byte, store.KeySize)
		rand.Read(s.cfg.Key)
	}
	s.room = classroom.New(st, s.cfg.Key, s.tables, log, cfg.Now)
	s.lti = platforms.New(st, s.cfg.Key, cfg.Now, log)
	s.governRoom()
	s.metrics = newMetrics(s.room, s.reports, s.tables)
	s.contest = contest.New(st, s.tables, log, cfg.Now)
	s.contest.Changed = s.room.Touch // the pages of a class whose tournament moved on hear of it
	s.views = &views{now: cfg.Now, room: s.room, reports: s.reports, tables: s.tables, log: log, ladder: newLadder(s.tables, log), figs: figuresOf(s.tables)}
	n, err := s.openClasses(ctx, log)
	if err := errors.Join(err, <-solved); err != nil {
		return nil, err
	}
	log.Info("matches restored", "playing", n, "seconds", time.Since(start).Seconds())
	if err := errors.Join(s.views.loadLessons(), s.lti.Load(ctx)); err != nil {
		return nil, err
	}
	s.room.Watch()
	go s.lti.SendScoresEvery(s.serves())
	return s, nil
}

// solveDefaults solves the default variants' tables in the background:
// the channel says when they are, or what failed.
func (s *Server) solveDefaults(start time.Time, log *slog.Logger) <-chan error {
	solved := make(chan error, 1)
	go func() {
		for _, v := range play.DefaultVariants() {
			if _, err := s.tables.Get(v); err != nil {
				solved <- fmt.Errorf("server: solve %v: %w", v, err)
				return
			}
		}
		log.Info("tables solved", "seconds", time.Since(start).Seconds())
		solved <- nil
	}()
	return solved
}

// openClasses starts the server's part in a district (a shared
// Postgres), where each class is loaded by the instance that takes it
// when it is first asked for; on SQLite it rebuilds every match still
// playing, and returns how many.
func (s *Server) openClasses(ctx context.Context, log *slog.Logger) (int, error) {
	if s.district = classroom.NewDistrict(s.room, log); s.district != nil {
		return 0, nil
	}
	return s.room.Restore(ctx)
}

// governRoom sets the room's policy and its hall's limits as the config
// says.
func (s *Server) governRoom() {
	cfg := s.cfg
	s.hall = s.room.Hall()
	s.room.Set(classroom.Policy{Guesses: cfg.JoinAttempts, ClassJoins: cfg.ClassJoins, Retain: cfg.Retain, Chance: cfg.Chance})
	if cfg.Limits != (play.Limits{}) {
		s.hall.SetLimits(cfg.Limits)
	}
}

// Close ends the pages' streams, stops the deadline watcher and the
// scores' sending and, in a
// district, hands the classes this instance serves to the others.
func (s *Server) Close() {
	close(s.lti.Stop)
	s.streams.end()
	s.room.Close()
	if s.district != nil {
		s.district.Close()
	}
}

// MetricsHandler serves the metrics in Prometheus' text format, for the
// separate --metrics-addr.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// serves says which classes this instance serves: on a district's
// Postgres those it holds (District.Serves), else all (nil).
func (s *Server) serves() func(classID int64) bool {
	if s.district == nil {
		return nil
	}
	return s.district.Serves
}
