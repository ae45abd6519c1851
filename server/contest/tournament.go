package contest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// progress is a tournament being played: its entries, the duels played
// so far and how many of how many, or why it stopped.
type progress struct {
	done, of int
	err      error
	entrants []Entrant
	first    [][]float64
	known    [][]bool
}

// partial is the standings of the duels played so far (nil before any).
func (p *progress) partial() *Result {
	if p.done == 0 {
		return nil
	}
	first := make([][]float64, len(p.first))
	for a := range first {
		first[a] = slices.Clone(p.first[a])
	}
	return &Result{Entries: p.entrants, First: first, Standings: solve.Rank(first, p.known)}
}

// Result is a played tournament, as stored with it (store.Tournament's
// Standings): its entries in entry order, every ordered duel (First[a][b]:
// a's chance moving first against b) and the standings, best first.
type Result struct {
	Entries   []Entrant        `json:"entries"`
	First     [][]float64      `json:"first"`
	Standings []solve.Standing `json:"standings"`
}

// Entrant is one entry: a student's plan (by id, never by name) or a bot,
// with the cells where a student's plan, as a map, differs most from
// perfect play's map.
type Entrant struct {
	Student int64      `json:"student,omitempty"`
	Bot     string     `json:"bot,omitempty"`
	Differs []CellDiff `json:"differs,omitempty"`
}

// CellDiff is one cell of a map (its lower scores) where a plan holds at
// Hold and perfect play's map at Perfect, and the chance of winning a
// turn there costs the plan (Cost).
type CellDiff struct {
	Score, Other, Hold, Perfect int
	Cost                        float64
}

// Status is a class's latest tournament as its pages show it: while
// played, the duels done of how many (or why it stopped) and the
// standings so far (Partial); once played, its result.
type Status struct {
	store.Tournament
	Done, Of int
	Err      error
	Result   *Result
	Partial  *Result
}

// Playing reports whether the entries are closed and the duels not all
// played.
func (s Status) Playing() bool { return !s.ClosedAt.IsZero() && s.Result == nil }

// Status is the class's latest tournament; store.ErrNotFound for none.
// Entries whose closing time has come are closed. A closed tournament
// without standings that is not being played (the server restarted) is
// played again from the start.
func (c *Contest) Status(ctx context.Context, classID int64) (Status, error) {
	t, err := c.st.Plans().LatestTournament(ctx, classID)
	if err != nil {
		return Status{}, err
	}
	if t.ClosedAt.IsZero() && !t.ClosesAt.IsZero() && !c.now().Before(t.ClosesAt) {
		// The time the teacher set has come: the entries close now.
		if err := c.st.Plans().CloseTournament(ctx, classID, t.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return Status{}, err
		}
		return c.Status(ctx, classID)
	}
	s := Status{Tournament: t}
	if t.Standings != nil {
		s.Result = &Result{}
		return s, json.Unmarshal(t.Standings, s.Result)
	}
	if t.ClosedAt.IsZero() {
		return s, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.running[t.ID]
	if p == nil {
		p = &progress{}
		c.running[t.ID] = p
		go c.play(t, p)
	}
	s.Done, s.Of, s.Err, s.Partial = p.done, p.of, p.err, p.partial()
	return s, nil
}

// ErrFew refuses to close a tournament with fewer than two entries.
var ErrFew = errors.New("contest: fewer than two entries: nothing to play")

// MaxEntries bounds a tournament's entries, students' plans and bots
// together: a class of forty with every bot and room to spare. Every
// ordered pair plays a duel, 3,540 of them at sixty entries, some ten
// seconds of one core at about 3 ms a duel of Pig to 100 (each entry's
// choices asked once: solve.DuelChoices); five hundred entries would
// take a core for a quarter of an hour.
const MaxEntries = 60

// TooManyError refuses to close (or play) a tournament of more than
// MaxEntries entries.
type TooManyError struct{ Entries int }

func (e *TooManyError) Error() string {
	return fmt.Sprintf("contest: %d entries, at most %d: a tournament plays every pair", e.Entries, MaxEntries)
}

// Close closes the entries of the class's open tournament id and starts
// playing it; ErrFew while it has fewer than two entries.
func (c *Contest) Close(ctx context.Context, classID, id int64) error {
	t, err := c.st.Plans().LatestTournament(ctx, classID)
	if err != nil {
		return err
	}
	n, err := c.Entered(ctx, classID, t.Variant)
	if err != nil {
		return err
	}
	if t.ID == id && n+len(t.Bots) < 2 {
		return ErrFew
	}
	if t.ID == id && n+len(t.Bots) > MaxEntries {
		return &TooManyError{Entries: n + len(t.Bots)}
	}
	if err := c.st.Plans().CloseTournament(ctx, classID, id); err != nil {
		return err
	}
	_, err = c.Status(ctx, classID)
	return err
}

// play plays tournament t to the end and stores its standings, holding
// the budget for one duel at a time: between two duels it lets whoever
// waits for it go first (another class's tournament, a plan's chances),
// so no class waits behind another's tournament longer than a duel.
func (c *Contest) play(t store.Tournament, p *progress) {
	ctx := context.Background()
	c.budget <- struct{}{}
	res, err := c.playAll(ctx, t, p)
	<-c.budget
	if err == nil {
		var b []byte
		if b, err = json.Marshal(res); err == nil {
			err = c.st.Plans().SaveStandings(ctx, t.ID, b)
		}
	}
	defer c.changed(t.ClassID)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.log.Error("tournament", "class", t.ClassID, "tournament", t.ID, "err", err)
		p.err = err
		return
	}
	delete(c.running, t.ID)
}

// changed tells Changed, if set, that the class's tournament moved on.
func (c *Contest) changed(classID int64) {
	if c.Changed != nil {
		c.Changed(classID)
	}
}

// playAll gathers the entries of t and plays every duel.
func (c *Contest) playAll(ctx context.Context, t store.Tournament, p *progress) (*Result, error) {
	entries, entrants, err := c.entries(ctx, t)
	if err != nil {
		return nil, err
	}
	if len(entries) < 2 {
		return nil, errors.New("contest: fewer than two entries: nothing to play")
	}
	if len(entries) > MaxEntries {
		return nil, &TooManyError{Entries: len(entries)}
	}
	n := len(entries)
	c.mu.Lock()
	p.entrants, p.first, p.known, p.of = entrants, make([][]float64, n), make([][]bool, n), n*(n-1)
	for a := range n {
		p.first[a], p.known[a] = make([]float64, n), make([]bool, n)
	}
	c.mu.Unlock()
	tour, err := solve.PlayTournament(ctx, t.Variant, entries, 1, func(d solve.Played) {
		c.mu.Lock()
		p.done, p.of = d.N, d.Of
		p.first[d.A][d.B], p.known[d.A][d.B] = d.First, true
		c.mu.Unlock()
		c.changed(t.ClassID)
		// The budget is handed to whoever waits for it, in the order
		// they came (a channel's senders queue), and taken back after.
		<-c.budget
		c.budget <- struct{}{}
	})
	if err != nil {
		return nil, err
	}
	return &Result{Entries: entrants, First: tour.First, Standings: tour.Standings}, nil
}

// entries are t's entries: the plans for its game of the class's students
// still in it, then its bots.
func (c *Contest) entries(ctx context.Context, t store.Tournament) ([]solve.Entry, []Entrant, error) {
	students, err := c.st.Students(ctx, t.ClassID)
	if err != nil {
		return nil, nil, err
	}
	// The plans fixed when the entries closed; a tournament closed before
	// pigclass fixed them plays the plans saved now.
	plans := t.Entries
	if !t.Fixed {
		if plans, err = c.st.Plans().Of(ctx, t.ClassID, 0); err != nil {
			return nil, nil, err
		}
	}
	perfect, err := c.tables.Get(t.Variant)
	if err != nil {
		return nil, nil, err
	}
	perfectMap := sim.MapOf(solve.Optimal{T: perfect}, t.Variant, "")
	var entries []solve.Entry
	var entrants []Entrant
	for _, sp := range plans {
		if !slices.ContainsFunc(students, func(s store.Student) bool { return s.ID == sp.StudentID }) || sp.Plan.Check(t.Variant) != nil {
			continue
		}
		pl := sp.Plan
		entries = append(entries, solve.Entry{Name: fmt.Sprint("student ", sp.StudentID), Strategy: &pl})
		entrants = append(entrants, Entrant{Student: sp.StudentID, Differs: differs(&pl, perfectMap, perfect, t.Variant, 3)})
	}
	for _, b := range t.Bots {
		s, err := solve.ParseStrategy(b, t.Variant, c.tables)
		if err != nil {
			return nil, nil, err
		}
		entries = append(entries, solve.Entry{Name: b, Strategy: s})
		entrants = append(entrants, Entrant{Bot: b})
	}
	return entries, entrants, nil
}

// differs are the n cells of plan pl's map that cost most: in each
// cell (from its middle, as sim.MapOf reads it) the chance of winning a
// turn played by the plan gives away against perfect play's choices
// (solve.Table.TurnCost), the costliest first; cells whose hold value is
// perfect play's map's are left out.
func differs(pl *sim.Plan, perfect *sim.Plan, tab *solve.Table, v sim.Variant, n int) []CellDiff {
	mine := sim.MapOf(pl, v, "")
	var out []CellDiff
	for a, row := range mine.Cells {
		for b, h := range row {
			if h == perfect.Cells[a][b] {
				continue
			}
			i, j := min(a*sim.MapCell+sim.MapCell/2, v.Target-1), min(b*sim.MapCell+sim.MapCell/2, v.Target-1)
			out = append(out, CellDiff{Score: a * sim.MapCell, Other: b * sim.MapCell, Hold: h, Perfect: perfect.Cells[a][b], Cost: tab.TurnCost(pl, v, i, j)})
		}
	}
	slices.SortStableFunc(out, func(x, y CellDiff) int { return cmp.Compare(y.Cost, x.Cost) })
	return out[:min(n, len(out))]
}
