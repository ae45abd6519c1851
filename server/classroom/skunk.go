package classroom

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// skunk is a class's game of Skunk in memory; its log on disk is the truth,
// as for matches.
type skunk struct {
	mu   sync.Mutex
	game store.SkunkGame
	g    *sim.Skunk
	rows []store.SkunkEvent // committed
	// pending are moves applied to g and not yet committed; flushing is
	// set while a commit of them is made without mu; gen moves on when a
	// commit fails (the moves of an earlier gen not committed are lost);
	// done wakes those waiting for a commit. All under mu.
	pending  []store.SkunkEvent
	inflight int // moves being committed (taken from pending)
	flushing bool
	gen      int
	done     *sync.Cond
	ver      int64
	cls      *class
	// ended: the teacher stopped the game; its board stays, with the final
	// scores and winners, until the next round or game.
	ended bool

	snap atomic.Pointer[Skunk]
}

// Skunk is a game of Skunk as last committed. Do not modify it.
type Skunk struct {
	Game       store.SkunkGame
	Round      int // rounds finished
	Rounds     int
	Rolls      int // shared rolls in the whole game
	RoundTotal int
	Over       bool
	// Moment names the point a sit answers: the round and the roll in it.
	Moment   string
	Standing []bool
	// Left: the participant was removed from the class and left the game
	// (what they banked stays theirs, in the signed record).
	Left    []bool
	Scores  []int
	Winners []int // when over
	// Ended: the teacher stopped the game before its last round.
	Ended bool
	// LastRoll is the last shared roll's dice (HasRoll false before it).
	LastRoll sim.Faces
	HasRoll  bool
	Version  int64
}

// Participant returns a student's participant number, or -1.
func (s *Skunk) Participant(studentID int64) int {
	for i, id := range s.Game.Students {
		if id == studentID {
			return i
		}
	}
	return -1
}

// skunkEV is expected-value play for Skunk: the Two-Dice Pig rule, stand
// while one more roll adds more on average than it risks.
var skunkEV = solve.NewEVPlay(sim.Standard(sim.TwoDice))

// EVStand is the expected-value choice in Skunk: stand or sit.
func EVStand(score, roundTotal int) store.SkunkAction {
	if skunkEV.Decide(sim.Position{Variant: sim.Standard(sim.TwoDice), Score: score, TurnTotal: roundTotal}) == sim.Roll {
		return store.SkunkStand
	}
	return store.SkunkSit
}

// publish makes the snapshot of the game. mu must be held.
func (k *skunk) publish() {
	k.ver++
	g := k.g
	s := &Skunk{Game: k.game, Round: g.Round(), Rounds: g.Rounds(), Rolls: countRolls(k.rows), RoundTotal: g.RoundTotal(),
		Over: g.Over() || k.ended, Ended: k.ended && !g.Over(), Moment: skunkMoment(g), Scores: g.Scores(), Version: k.ver}
	for p := range g.Participants() {
		s.Standing = append(s.Standing, g.Standing(p))
		s.Left = append(s.Left, g.Left(p))
	}
	if g.Over() || k.ended {
		s.Winners = g.Leaders()
	}
	for i := len(k.rows) - 1; i >= 0; i-- {
		if k.rows[i].Action == store.SkunkRoll {
			s.LastRoll, s.HasRoll = k.rows[i].Faces, true
			break
		}
	}
	k.snap.Store(s)
	if k.cls != nil {
		k.cls.changedClass()
	}
}

func skunkMoment(g *sim.Skunk) string { return fmt.Sprintf("%d.%d", g.Round(), g.Rolls()) }

func countRolls(rows []store.SkunkEvent) int {
	n := 0
	for _, r := range rows {
		if r.Action == store.SkunkRoll {
			n++
		}
	}
	return n
}

// liveSkunk registers a game, replaying its log.
func liveSkunk(c *class, game store.SkunkGame, rows []store.SkunkEvent) error {
	g, err := store.ReplaySkunk(game, rows)
	if err != nil {
		return errorf(fmt.Sprintf("skunk game %d", game.ID), err)
	}
	k := &skunk{game: game, g: g, rows: rows, cls: c}
	k.done = sync.NewCond(&k.mu)
	k.publish()
	c.skunk.Store(k)
	return nil
}

// restoreSkunk rebuilds the games of Skunk still playing.
// Of one class, or of every class (0).
func (r *Room) restoreSkunk(ctx context.Context, classID int64) error {
	games, err := r.st.SkunkGames(ctx, classID, play.Playing)
	if err != nil {
		return err
	}
	for _, g := range games {
		rows, err := r.st.SkunkEvents(ctx, g.ID)
		if err != nil {
			return err
		}
		c, err := r.classes.load(ctx, g.ClassID)
		if err != nil {
			return err
		}
		if err := liveSkunk(c, g, rows); err != nil {
			return err
		}
	}
	return nil
}

// StartSkunk ends the class's open round and its game of Skunk, if any,
// and starts a game with every student.
func (r *Room) StartSkunk(ctx context.Context, v Viewer, rounds int) error {
	return r.startSkunkOf(ctx, v, rounds, "")
}

// startSkunkOf is StartSkunk for a phase of lesson ("" for the teacher's
// own game).
func (r *Room) startSkunkOf(ctx context.Context, v Viewer, rounds int, lesson string) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	return c.change(func() error { return r.startSkunk(ctx, c, rounds, lesson) })
}

// startSkunk is StartSkunk within a change of the class.
func (r *Room) startSkunk(ctx context.Context, c *class, rounds int, lesson string) error {
	classID := c.id
	if err := r.endRound(ctx, c); err != nil {
		return err
	}
	if err := r.st.EndSkunk(ctx, classID); err != nil {
		return err
	}
	c.skunk.Store(nil)
	students := c.snap.Load().Present()
	if len(students) == 0 {
		return ErrNoStudents
	}
	ids := make([]int64, len(students))
	for i, st := range students {
		ids[i] = st.ID
	}
	id, err := r.st.CreateSkunk(ctx, classID, r.chance.Seed(), rounds, ids, lesson)
	if err != nil {
		return err
	}
	games, err := r.st.SkunkGames(ctx, classID, play.Playing)
	if err != nil {
		return err
	}
	for _, g := range games {
		if g.ID == id {
			return liveSkunk(c, g, nil)
		}
	}
	return errorf("start skunk", fmt.Errorf("game %d vanished", id))
}

// EndSkunk stops the class's game of Skunk. Its board stays, with the
// final scores and winners, until the next round or game.
func (r *Room) EndSkunk(ctx context.Context, v Viewer) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	return c.change(func() error {
		if err := r.st.EndSkunk(ctx, c.id); err != nil {
			return err
		}
		if k := c.skunk.Load(); k != nil {
			k.mu.Lock()
			k.ended = true
			k.publish()
			k.mu.Unlock()
		}
		c.changedClass()
		return nil
	})
}

// SkunkRoll throws the shared dice. Every participant still standing has
// decided to stand for this roll: each such decision is stored with its
// state and the expected-value choice, with the roll, in one write.
func (r *Room) SkunkRoll(ctx context.Context, v Viewer) (*Skunk, error) {
	c, err := v.teaching()
	if err != nil {
		return nil, err
	}
	k, err := skunkOf(c)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.g.Over() || k.ended {
		return k.snap.Load(), ErrSkunkIsOver
	}
	round, roll, total := k.g.Round(), k.g.Rolls(), k.g.RoundTotal()
	var rows []store.SkunkEvent
	seq := k.moves()
	now := r.now()
	for p := range k.g.Participants() {
		if k.g.Standing(p) {
			seq++
			score := k.g.Score(p)
			rows = append(rows, store.SkunkEvent{GameID: k.game.ID, Seq: seq, Action: store.SkunkStand, Participant: p, Round: round, Roll: roll,
				RoundTotal: total, Score: score, EV: EVStand(score, total), At: now})
		}
	}
	e, err := k.g.Roll()
	if err != nil {
		return k.snap.Load(), err
	}
	for i := range rows {
		rows[i].Faces = e.Faces
	}
	seq++
	rows = append(rows, store.SkunkEvent{GameID: k.game.ID, Seq: seq, Action: store.SkunkRoll, Participant: -1, Round: round, Roll: roll, Faces: e.Faces, RoundTotal: total, At: now})
	err = r.commitSkunk(ctx, k, rows)
	return k.snap.Load(), err
}

// moves counts the moves made: committed, being committed and pending
// (the seq of the last).
func (k *skunk) moves() int { return len(k.rows) + k.inflight + len(k.pending) }

// errSkunkLost refuses a move made on top of moves whose commit failed.
var errSkunkLost = fmt.Errorf("%w: the moves before it were not saved", ErrNotSaved)

// commitSkunk commits rows, moves already applied to the game under k.mu
// (held, and held again on return), with every other move pending: the
// first to wait commits all the pending moves in one write made without
// k.mu, so that a class sitting down at once shares one commit, and the
// others wait for it. If a commit fails, the game goes back to what is
// stored and every pending move is refused.
func (r *Room) commitSkunk(ctx context.Context, k *skunk, rows []store.SkunkEvent) error {
	gen := k.gen
	k.pending = append(k.pending, rows...)
	last := k.moves() // the seq of the last of rows
	for {
		for k.flushing && k.gen == gen && len(k.rows) < last {
			k.done.Wait()
		}
		switch {
		case k.gen != gen:
			return errSkunkLost
		case len(k.rows) >= last:
			return nil
		}
		k.flushing = true
		batch, over := k.pending, k.g.Over()
		k.pending, k.inflight = nil, len(batch)
		k.mu.Unlock()
		err := r.st.AppendSkunk(ctx, k.game.ID, batch, over)
		k.mu.Lock()
		k.flushing, k.inflight = false, 0
		k.done.Broadcast()
		if err != nil {
			k.gen++
			k.pending = nil
			r.rebuildSkunk(k)
			k.publish()
			return err
		}
		k.rows = append(k.rows, batch...)
		k.count(batch, over)
		// The snapshot is the game as played (moves applied since, waiting
		// for the next commit, included; a failed commit takes them back).
		k.publish()
	}
}

// skunkOf returns the class's game being played.
func skunkOf(c *class) (*skunk, error) {
	k := c.skunk.Load()
	if k == nil {
		return nil, ErrNoSkunk
	}
	return k, nil
}

// rebuildSkunk puts a game back as its stored log says.
func (r *Room) rebuildSkunk(k *skunk) {
	g, err := store.ReplaySkunk(k.game, k.rows)
	if err != nil {
		r.log.Error("skunk rollback", "game", k.game.ID, "err", err)
		return
	}
	k.g = g
}

// Sit sits a student down. moment is the point of the game the student's
// page showed: a sit sent before a roll or a new round that has happened
// since is stale and does nothing, and sitting twice changes nothing.
func (r *Room) Sit(ctx context.Context, v Viewer, moment string) (*Skunk, error) {
	c, studentID, err := v.studying()
	if err != nil {
		return nil, err
	}
	k, err := skunkOf(c)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	p := k.snap.Load().Participant(studentID)
	if p < 0 || moment != skunkMoment(k.g) || k.g.Over() || k.ended || !k.g.Standing(p) {
		return k.snap.Load(), nil
	}
	round, roll, total, score := k.g.Round(), k.g.Rolls(), k.g.RoundTotal(), k.g.Score(p)
	if _, err := k.g.Sit(p); err != nil {
		return k.snap.Load(), nil
	}
	row := store.SkunkEvent{GameID: k.game.ID, Seq: k.moves() + 1, Action: store.SkunkSit, Participant: p, Round: round, Roll: roll,
		RoundTotal: total, Score: score, EV: EVStand(score, total), At: r.now()}
	err = r.commitSkunk(ctx, k, []store.SkunkEvent{row})
	return k.snap.Load(), err
}

// leaveSkunk takes a student removed from the class out of its game of
// Skunk being played, if they are in it: the game's log says they left.
func (r *Room) leaveSkunk(ctx context.Context, c *class, studentID int64) error {
	k := c.skunk.Load()
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	p := k.snap.Load().Participant(studentID)
	if p < 0 || k.g.Over() || k.ended || k.g.Left(p) {
		return nil
	}
	round, roll := k.g.Round(), k.g.Rolls()
	if _, err := k.g.Leave(p); err != nil {
		return err
	}
	row := store.SkunkEvent{GameID: k.game.ID, Seq: k.moves() + 1, Action: store.SkunkLeave, Participant: p, Round: round, Roll: roll,
		RoundTotal: k.g.RoundTotal(), Score: k.g.Score(p), At: r.now()}
	return r.commitSkunk(ctx, k, []store.SkunkEvent{row})
}

// SkunkRecord returns the record of one of the class's games of Skunk,
// signed, with its seed, for its members, once the game is no longer
// played: a game that is not the viewer's class's answers as one that
// does not exist (play.ErrNotSeated); a game still played answers
// play.SeedLaterError.
func (r *Room) SkunkRecord(ctx context.Context, v Viewer, gameID int64) (sim.SkunkRecord, error) {
	if v.cls == nil {
		return sim.SkunkRecord{}, play.ErrNotSeated
	}
	games, err := r.st.SkunkGames(ctx, v.cls.id, "")
	if err != nil {
		return sim.SkunkRecord{}, errorf("skunk record", err)
	}
	i := slices.IndexFunc(games, func(g store.SkunkGame) bool { return g.ID == gameID })
	if i < 0 {
		return sim.SkunkRecord{}, play.ErrNotSeated
	}
	game := games[i]
	if game.Status == play.Playing {
		return sim.SkunkRecord{}, &play.SeedLaterError{}
	}
	rows, err := r.st.SkunkEvents(ctx, game.ID)
	if err != nil {
		return sim.SkunkRecord{}, errorf("skunk record", err)
	}
	g, err := store.ReplaySkunk(game, rows)
	if err != nil {
		return sim.SkunkRecord{}, errorf(fmt.Sprintf("skunk game %d", game.ID), err)
	}
	rec := g.Record()
	// The engine's events are the log's rolls and sits, in order.
	n := 0
	for _, row := range rows {
		if row.Action == store.SkunkStand {
			continue
		}
		if n < len(rec.Events) {
			rec.Events[n].At = row.At.UTC().Truncate(time.Millisecond)
		}
		n++
	}
	rec, err = rec.Sign(r.signer)
	if err != nil {
		return sim.SkunkRecord{}, errorf(fmt.Sprintf("sign skunk game %d", game.ID), err)
	}
	return rec, nil
}

// count adds committed moves to the class's students' totals, and the
// game itself once over says the batch finished it. k.mu must be held.
func (k *skunk) count(batch []store.SkunkEvent, over bool) {
	c := k.cls
	if c == nil {
		return
	}
	var done *sim.Skunk
	if over {
		done = k.g
	}
	c.statsMu.Lock()
	today := c.day // the moves' day: the last one's, as the room's clock stamped it
	if len(batch) > 0 {
		today = batch[len(batch)-1].At.In(time.Local).Format(time.DateOnly)
	}
	store.AddSkunkGame(c.stats, k.game, done, batch)
	store.AddSkunkGame(c.todayStats(today), k.game, done, batch)
	c.statsMu.Unlock()
}
