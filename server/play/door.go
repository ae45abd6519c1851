package play

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"pigclass/server/limit"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// Every match starts through one door, Hall.Start, whatever asks for it
// (a round, practice, homework, and later a table or a tournament): the
// same limits and allowances hold for each, and a refusal names the
// limit and changes nothing.

// Origin is what asks for a match.
type Origin string

// The origins of matches.
const (
	FromRound    Origin = "round"    // a round of a class: every student at once
	FromPractice Origin = "practice" // anyone, without a class
	FromHomework Origin = "homework" // a student's game of an assignment
	FromTable    Origin = "table"    // a table of the class: one device, real dice
)

// Limits are what the door lets through. A round is held to the live
// matches of the server and of its class, the new kinds and the tables'
// room; the other origins, one player at a time, to the starts a minute
// of a device and of a class too, and homework to the games a student
// has open at once. A practice player's matches are held by the device's
// starts a minute and the server's live matches, not by a count of open
// ones: a practice match left behind ends by itself after an hour, and a
// student who leaves one for another should not be refused for it.
type Limits struct {
	Live         int // matches being played in the server at once
	ClassLive    int // matches being played in one class at once
	PlayerOpen   int // matches of a class outside rounds (homework) one student has open at once
	DeviceStarts int // matches outside rounds started a minute from one device (a network address)
	ClassStarts  int // matches outside rounds started a minute in one class
	KindsClass   int // kinds of match solved anew a minute for one class (or one device, without a class)
	KindsServer  int // kinds of match solved anew a minute in the server
}

// DefaultLimits: a school of a thousand students, each with a round's
// match and homework open, fits, and so does a lab behind one address
// starting a practice match each; a script does not go far past.
var DefaultLimits = Limits{
	Live:         20000,
	ClassLive:    3000,
	PlayerOpen:   3,
	DeviceStarts: 120,
	ClassStarts:  120,
	KindsClass:   3,
	KindsServer:  12,
}

// Limit names one of the limits.
type Limit string

// The limits, as a refusal names them.
const (
	LimitLive         Limit = "live"
	LimitClassLive    Limit = "class_live"
	LimitPlayerOpen   Limit = "player_open"
	LimitDeviceStarts Limit = "device_starts"
	LimitClassStarts  Limit = "class_starts"
	LimitKindsClass   Limit = "kinds_class"
	LimitKindsServer  Limit = "kinds_server"
)

// LimitError refuses a start: which limit, and its size.
type LimitError struct {
	Limit Limit
	N     int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("play: refused by the limit %s (%d)", e.Limit, e.N)
}

// door holds the counts of the limits a minute.
type door struct {
	limits  Limits
	devices *limit.Limiter // starts outside rounds, by device
	classes *limit.Limiter // starts outside rounds, by class
	kinds   *limit.Limiter // kinds solved anew, by class (or device) and ("") in all
	// reserved are the matches admitted and not yet in the hall, by
	// what they count against: "" for the server, a class's key, a
	// player's.
	reserved map[string]int
}

func newDoor(l Limits, now func() time.Time) door {
	return door{
		limits:   l,
		devices:  limit.New(l.DeviceStarts, time.Minute, now),
		classes:  limit.New(l.ClassStarts, time.Minute, now),
		kinds:    limit.New(l.KindsClass, time.Minute, now),
		reserved: map[string]int{},
	}
}

// SetLimits changes the door's limits (tests shrink them; the counts
// start afresh). Call it before the hall plays.
func (h *Hall) SetLimits(l Limits) {
	h.doorMu.Lock()
	defer h.doorMu.Unlock()
	h.door = newDoor(l, h.now)
}

// Request asks the door for matches.
type Request struct {
	Origin Origin
	// Host is the class the matches are played in (nil for practice),
	// and Class its key (its join code) for the limits a class has.
	Host  Host
	Class string
	// Device is where the request came from (a network address), for
	// the starts a minute of one device: "" for a round.
	Device string
	// Player is the student (or practice player) the match is for, by
	// ID, for the matches one player has open: 0 for a round.
	Player int64
	// Matches are the matches to start, of one variant, not yet stored.
	Matches []Match
	// Ending are the live matches the start ends first (a round's
	// previous one): their places count as free.
	Ending int
	// Store stores the matches and returns their IDs (a round's with
	// the round); nil stores each with the log's CreateMatch.
	Store func(ctx context.Context, ms []Match) ([]int64, error)
}

// Admit reports whether the door would let req's matches start now,
// counting and changing nothing: nil, or the refusal Start would give (a
// *LimitError, a *solve.RoomError, ErrMysteryWaits, or the bot's).
func (h *Hall) Admit(req Request) error {
	h.doorMu.Lock()
	defer h.doorMu.Unlock()
	_, err := h.admit(req)
	return err
}

// Start lets req's matches start if every limit allows them: they are
// stored, the allowances spent, the tables they read asked for, and their
// bots that move first play. It returns the live matches. A refusal
// changes nothing.
func (h *Hall) Start(ctx context.Context, req Request) ([]*Live, error) {
	h.doorMu.Lock()
	fresh, err := h.admit(req)
	if err != nil {
		h.doorMu.Unlock()
		return nil, err
	}
	keys := h.reserve(req)
	h.doorMu.Unlock()
	defer func() {
		h.doorMu.Lock()
		h.reserveKeys(keys, -len(req.Matches))
		h.doorMu.Unlock()
	}()
	rows := req.Matches
	ids, err := h.store(ctx, req)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		rows[i].ID = ids[i]
	}
	h.spend(req, fresh)
	h.Prepare(rows[0].Variant)
	return h.begin(ctx, rows, req.Host)
}

// store stores req's matches.
func (h *Hall) store(ctx context.Context, req Request) ([]int64, error) {
	if req.Store != nil {
		return req.Store(ctx, req.Matches)
	}
	ids := make([]int64, len(req.Matches))
	for i, m := range req.Matches {
		id, err := h.log.CreateMatch(ctx, m)
		if err != nil {
			return nil, err
		}
		ids[i] = id
	}
	return ids, nil
}

// admit checks every limit for req; fresh reports that its kind is
// solved anew. h.doorMu must be held.
func (h *Hall) admit(req Request) (fresh bool, err error) {
	if len(req.Matches) == 0 {
		return false, nil
	}
	v := req.Matches[0].Variant
	if err := h.checkBots(req.Matches[0]); err != nil {
		return false, err
	}
	if err := h.checkLive(req); err != nil {
		return false, err
	}
	if req.Origin != FromRound {
		if err := h.checkStarts(req); err != nil {
			return false, err
		}
	}
	fresh = !h.Kept(v)
	if fresh {
		if err := h.checkKind(kindKey(req)); err != nil {
			return false, err
		}
	}
	return fresh, h.fits(v, req)
}

// checkBots checks the bots of a match: each plays its game, and a
// mystery bot's strongest strength has its table.
func (h *Hall) checkBots(m Match) error {
	for _, s := range m.Seats {
		if s.Bot == "" {
			continue
		}
		if err := solve.CheckStrategy(s.Bot, m.Variant); err != nil {
			return err
		}
		if s.Bot == sim.MysteryBot && !h.BotReady(m.Variant) {
			return ErrMysteryWaits // its table is now being solved
		}
	}
	return nil
}

// checkLive checks the matches being played: of the server, the class
// and (outside rounds) the player.
func (h *Hall) checkLive(req Request) error {
	l, n := h.door.limits, len(req.Matches)
	var all, class, player int
	for _, lm := range h.each(func(lm *Live) bool { return !lm.snap.Load().Over() }) {
		all++
		if req.Host != nil && lm.host == req.Host {
			class++
		}
		if req.Player != 0 && lm.row.ClassID != 0 && lm.row.RoundID == 0 && lm.row.SeatOf(req.Player) >= 0 {
			player++
		}
	}
	all += h.door.reserved[""] - req.Ending
	class += h.door.reserved["class:"+req.Class] - req.Ending
	player += h.door.reserved[playerKey(req.Player)]
	switch {
	case all+n > l.Live:
		return &LimitError{Limit: LimitLive, N: l.Live}
	case req.Host != nil && class+n > l.ClassLive:
		return &LimitError{Limit: LimitClassLive, N: l.ClassLive}
	case req.Player != 0 && req.Host != nil && req.Origin != FromRound && player+n > l.PlayerOpen:
		return &LimitError{Limit: LimitPlayerOpen, N: l.PlayerOpen}
	}
	return nil
}

// checkStarts checks the starts a minute of the device and the class.
func (h *Hall) checkStarts(req Request) error {
	l := h.door.limits
	switch {
	case req.Device != "" && !h.door.devices.Allow(req.Device):
		return &LimitError{Limit: LimitDeviceStarts, N: l.DeviceStarts}
	case req.Class != "" && !h.door.classes.Allow(req.Class):
		return &LimitError{Limit: LimitClassStarts, N: l.ClassStarts}
	}
	return nil
}

// checkKind checks the allowance of kinds solved anew of key (a class's,
// or a device's) and of the server.
func (h *Hall) checkKind(key string) error {
	l := h.door.limits
	switch {
	case !h.door.kinds.Allow(key):
		return &LimitError{Limit: LimitKindsClass, N: l.KindsClass}
	case h.door.kinds.Count("") >= l.KindsServer:
		return &LimitError{Limit: LimitKindsServer, N: l.KindsServer}
	}
	return nil
}

// kindKey is whose allowance of new kinds a request spends: its class's,
// or without a class its device's.
func kindKey(req Request) string {
	if req.Class != "" {
		return "class:" + req.Class
	}
	return "device:" + req.Device
}

func playerKey(id int64) string { return fmt.Sprintf("player:%d", id) }

// reserve counts req's matches as admitted until they are in the hall,
// and returns the keys it counted them under. h.doorMu must be held.
func (h *Hall) reserve(req Request) []string {
	keys := []string{""}
	if req.Host != nil {
		keys = append(keys, "class:"+req.Class)
	}
	if req.Player != 0 {
		keys = append(keys, playerKey(req.Player))
	}
	h.reserveKeys(keys, len(req.Matches))
	return keys
}

func (h *Hall) reserveKeys(keys []string, n int) {
	for _, k := range keys {
		if h.door.reserved[k] += n; h.door.reserved[k] == 0 {
			delete(h.door.reserved, k)
		}
	}
}

// spend counts a start against the limits a minute, and a kind solved
// anew against the allowances.
func (h *Hall) spend(req Request, fresh bool) {
	h.doorMu.Lock()
	defer h.doorMu.Unlock()
	if req.Origin != FromRound {
		if req.Device != "" {
			h.door.devices.Hit(req.Device)
		}
		if req.Class != "" {
			h.door.classes.Hit(req.Class)
		}
	}
	if fresh {
		h.spendKind(kindKey(req))
	}
}

// spendKind counts a kind solved anew against the allowance of key (a
// class's, or a device's) and the server's. h.doorMu must be held.
func (h *Hall) spendKind(key string) {
	h.door.kinds.Hit(key)
	h.door.kinds.Hit("")
}

// NewKind asks for the tables of v ahead of its matches (homework set for
// later): refused as Start refuses a kind solved anew (the allowances of
// the class and of the server, the tables' room), else spent and asked
// for. class is the class's key.
func (h *Hall) NewKind(class string, host Host, v sim.Variant) error {
	h.doorMu.Lock()
	defer h.doorMu.Unlock()
	if h.Kept(v) {
		return nil
	}
	req := Request{Origin: FromHomework, Class: class, Host: host}
	if err := h.checkKind(kindKey(req)); err != nil {
		return err
	}
	if err := h.fits(v, req); err != nil {
		return err
	}
	h.spendKind(kindKey(req))
	h.Prepare(v)
	return nil
}

// fits checks that the tables of v can be kept beside those that matches
// being played and decisions waiting still need (for a round, its class's
// open round, which it ends, needs nothing then).
func (h *Hall) fits(v sim.Variant, req Request) error {
	if v.Target > solve.MaxTarget {
		return nil
	}
	var host Host
	if req.Origin == FromRound {
		host = req.Host
	}
	return h.tables.FitsBeside(func(key sim.Variant) bool { return h.needsBut(key, host) }, tablesOf(v)...)
}

// Prepare starts solving, in the background, the tables that analyse a
// variant's decisions and that its perfect-play bot reads (tablesOf): the
// match starts at once, its bots move and its analyses fill in when they
// are ready (fillIn).
func (h *Hall) Prepare(v sim.Variant) {
	if v.Target > solve.MaxTarget {
		return
	}
	for _, k := range tablesOf(v) {
		h.ask(k)
	}
}

// Kept reports whether every table a match of v reads is kept (solved, or
// being solved): a match of it asks for no new solve.
func (h *Hall) Kept(v sim.Variant) bool {
	if v.Target > solve.MaxTarget {
		return true // nothing is solved for it
	}
	return h.tables.Kept(tablesOf(v)...)
}

// Fits reports whether the tables of v, for a round of host's, can be
// kept now (see fits): a *solve.RoomError says how much they need and how
// much is free.
func (h *Hall) Fits(host Host, v sim.Variant) error {
	return h.fits(v, Request{Origin: FromRound, Host: host})
}

// begin registers new matches (already stored) and lets the bots that
// move first play, many at once so that their writes share batches. It
// returns the live matches.
func (h *Hall) begin(ctx context.Context, rows []Match, host Host) ([]*Live, error) {
	out := make([]*Live, len(rows))
	for i, row := range rows {
		m, err := sim.NewMatch(row.Variant, row.Seed)
		if err != nil {
			return nil, err
		}
		if out[i], err = h.newLive(row, m, nil, host); err != nil {
			return nil, err
		}
	}
	h.register(out)
	errs := make([]error, len(out))
	sem := make(chan struct{}, 64)
	var wg sync.WaitGroup
	for i, lm := range out {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			lm.mu.Lock()
			defer lm.mu.Unlock()
			errs[i] = h.advance(ctx, lm)
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// KindsSpent counts the kinds solved anew in the last minute for the
// class with key class ("" for the whole server's).
func (h *Hall) KindsSpent(class string) int {
	h.doorMu.Lock()
	defer h.doorMu.Unlock()
	if class == "" {
		return h.door.kinds.Count("")
	}
	return h.door.kinds.Count("class:" + class)
}
