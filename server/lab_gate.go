package server

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/sim"
)

// The lab's runs share the server's simulation slots (issue 79): two at
// once (two cores' worth), given out fairly between classes. A slot that
// frees goes to the waiting run whose class runs fewest now (the earliest
// of those), so one class's costly runs hold another class's run no
// longer than one run's budget (labBudget): a class alone still uses both
// slots.
const (
	labSlotCount = 2
	// LabBudget is the most time one run may simulate (Config.LabBudget):
	// a question whose games run long (both sides holding at 1,000) is
	// stopped within a game or two of it and refused in words, and a run
	// waiting for a slot waits no longer than this for a slot another
	// class holds.
	LabBudget = 3 * time.Second
	// A student's runs: at most labRunsPerMinute a minute, and
	// labRunsPerStudent in a class, every question's together (each is
	// stored, and pooled on the class's pages).
	labRunsPerMinute  = 20
	labRunsPerStudent = 300
)

// errLabBudget: a run's games took longer than its budget to play.
var errLabBudget = errors.New("lab: the run's games take longer than its budget")

// labBudget is the server's LabBudget.
func (s *Server) labBudget() time.Duration {
	if s.cfg.LabBudget > 0 {
		return s.cfg.LabBudget
	}
	return LabBudget
}

// simulateLab runs a lab question's games in a slot of the class's
// (Server.labGate), within budget: errLabBudget past it.
func (s *Server) simulateLab(ctx context.Context, class int64, budget time.Duration, q classroom.LabQuestion, first, second sim.Strategy, games int, seed string) (sim.ExperimentResult, error) {
	release, err := s.labGate.take(ctx, class)
	if err != nil {
		return sim.ExperimentResult{}, err
	}
	defer release()
	run, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	r, err := sim.Experiment(run, q.Variant, first, second, games, seed)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return r, errLabBudget
	}
	return r, err
}

// labRunsLeft says, in the reader's words, why a student may run no more
// experiments now ("" while they may): labRunsPerMinute a minute, or
// labRunsPerStudent in the class. A run let through is counted.
func (s *Server) labRunsLeft(c *gin.Context, classID, studentID int64) string {
	// classID and studentID are the viewer's (a student of the class).
	l := loc(c)
	key := strconv.FormatInt(classID, 10) + "/" + strconv.FormatInt(studentID, 10)
	if !s.labRate.Allow(key) {
		return l.T("lab.error.rate", "N", l.Int(labRunsPerMinute))
	}
	// A count that cannot be read lets the run through: the rate above
	// still bounds it, and the run's own store says what failed.
	n, err := s.room.Experiments(c.Request.Context(), viewerFrom(c))
	if err == nil && n >= labRunsPerStudent {
		return l.T("lab.error.total", "N", l.Int(labRunsPerStudent))
	}
	s.labRate.Hit(key)
	return ""
}
