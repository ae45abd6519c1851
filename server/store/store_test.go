package store

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"pigclass/server/play"
	"pigclass/server/store/pgtest"
	"pigclass/sim"
)

// MustOpen opens a store on a file in t.TempDir().
func MustOpen(tb testing.TB) *Store {
	tb.Helper()
	return mustOpenOn(tb, filepath.Join(tb.TempDir(), "test.db"))
}

// mustOpenOn opens a store on db, a SQLite file or a Postgres URL.
func mustOpenOn(tb testing.TB, db string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), db)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// engines runs fn on each engine: on a SQLite file in t.TempDir(), and
// on a Postgres schema of the test's own (pgtest: skipped where no
// Postgres is reachable, failed in CI).
func engines(t *testing.T, fn func(t *testing.T, db string)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, filepath.Join(t.TempDir(), "p.db")) })
	t.Run("postgres", func(t *testing.T) { fn(t, pgtest.URL(t)) })
}

func TestPragmasOnEveryConnection(t *testing.T) {
	s := MustOpen(t)
	ctx := context.Background()
	check := func(name string, c *sql.Conn, sync, queryOnly int) {
		t.Helper()
		var mode string
		var fk, busy, syn, qo int
		if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk)
		c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy)
		c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&syn)
		c.QueryRowContext(ctx, "PRAGMA query_only").Scan(&qo)
		if mode != "wal" || fk != 1 || busy != 5000 || qo != queryOnly || sync >= 0 && syn != sync {
			t.Errorf("%s: journal_mode %s, foreign_keys %d, busy_timeout %d, synchronous %d, query_only %d", name, mode, fk, busy, syn, qo)
		}
	}
	// Every reader of the pool at once.
	var conns []*sql.Conn
	for range 4 {
		c, err := s.rd.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		check("reader", c, -1, 1)
	}
	for _, c := range conns {
		c.Close()
	}
	// The writer's connection, through a job: synchronous FULL (2).
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var syn, qo int
		tx.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&syn)
		tx.QueryRowContext(ctx, "PRAGMA query_only").Scan(&qo)
		if syn != 2 || qo != 0 {
			t.Errorf("writer: synchronous %d, query_only %d; want 2, 0", syn, qo)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A reader cannot write.
	if _, err := s.rd.ExecContext(ctx, `INSERT INTO classes (code, teacher_hash, created_at) VALUES ('X', 'h', 't')`); err == nil {
		t.Error("the read pool wrote a row")
	}
}

func TestMigrationsApplyOnce(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		dir, least := "migrations", 19
		if IsPostgres(db) {
			dir, least = "migrations/postgres", 1
		}
		files, _ := fs.Glob(migrations, dir+"/*.sql")
		for range 2 {
			s, err := Open(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			s.db.QueryRow("SELECT COUNT(*) FROM migrations").Scan(&n)
			if n != len(files) || n < least {
				t.Errorf("%d migrations recorded, want %d", n, len(files))
			}
			s.Close()
		}
	})
}

func TestNicknamesAreUniqueInAClass(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		s := mustOpenOn(t, db)
		ctx := context.Background()
		a, _ := s.CreateClass(ctx, "AAAAAA", "h")
		b, _ := s.CreateClass(ctx, "CCCCCC", "h")
		if _, err := s.CreateClass(ctx, "AAAAAA", "h"); !errors.Is(err, ErrCodeTaken) {
			t.Errorf("same code twice: %v", err)
		}
		add := func(class int64, nick string) error {
			_, err := s.AddStudent(ctx, Student{ClassID: class, Nickname: nick, AnonName: "x", TokenHash: nick})
			return err
		}
		if err := add(a.ID, "Ana"); err != nil {
			t.Fatal(err)
		}
		if err := add(a.ID, "Ana"); !errors.Is(err, ErrNicknameTaken) {
			t.Errorf("same nickname in a class: %v", err)
		}
		if err := add(b.ID, "Ana"); err != nil {
			t.Errorf("same nickname in another class: %v", err)
		}
		if err := add(0, "Ana"); err != nil || add(0, "Ana") != nil {
			t.Error("practice players need no unique nickname")
		}
	})
}

func TestEventsRoundTrip(t *testing.T) {
	engines(t, func(t *testing.T, db string) {
		s := mustOpenOn(t, db)
		ctx := context.Background()
		class, _ := s.CreateClass(ctx, "AAAAAA", "h")
		st, _ := s.AddStudent(ctx, Student{ClassID: class.ID, Nickname: "Ana", AnonName: "Calm Otter", TokenHash: "t"})
		seed := testSeeds.Seed()
		v := sim.Standard(sim.Hog)
		id, err := s.CreateMatch(ctx, play.Match{ClassID: class.ID, Variant: v, Seed: seed, FirstSeat: 1, Seats: []play.Seat{{Seat: 0, StudentID: st.ID}, {Seat: 1, Bot: "dice:5"}}})
		if err != nil {
			t.Fatal(err)
		}
		win, cost := 0.51, 0.02
		at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
		want := []play.Event{
			{MatchID: id, Seq: 1, Seat: 1, Action: sim.Dice(5), Faces: faces(2, 3, 4, 5, 6), By: play.ByBot, At: at, Scores: []int{0, 0}, Dice: 5,
				Analysis: &play.Analysis{WinIfChosen: win, Options: map[sim.Action]float64{sim.Dice(5): win, sim.Dice(6): win + cost}, Best: sim.Dice(6), EV: sim.Dice(5), Cost: cost}},
			{MatchID: id, Seq: 2, Seat: 0, Action: sim.Resign, By: play.ByStudent, At: at, Scores: []int{0, 20}, Score: 0, OpponentScore: 20},
		}
		res := &sim.Result{Winner: 1, Scores: []int{0, 20}, Places: []int{2, 1}}
		if err := s.AppendEvents(ctx, id, want, res); err != nil {
			t.Fatal(err)
		}
		got, err := s.Events(ctx, EventFilter{MatchID: id})
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(sim.Faces{})); d != "" {
			t.Errorf("events (-want +got):\n%s", d)
		}
		if err := s.AppendEvents(ctx, id, want[:1], nil); err == nil {
			t.Error("the same seq twice was stored")
		}
		m, err := s.MatchByID(ctx, id)
		if err != nil || m.Status != play.Over || m.Winner != 1 || m.Seed != seed || m.Seats[0].Nickname != "Ana" || m.Seats[1].Bot != "dice:5" {
			t.Errorf("match %+v, %v", m, err)
		}
	})
}

// BenchmarkAppendEvents is the cost of storing one decision (one
// transaction), the step between a click and its acknowledgement, on
// each engine (Postgres where PIGCLASS_TEST_POSTGRES names one).
func BenchmarkAppendEvents(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchAppend(b, filepath.Join(b.TempDir(), "p.db")) })
	b.Run("postgres", func(b *testing.B) { benchAppend(b, pgtest.URL(b)) })
}

func benchAppend(b *testing.B, db string) {
	s := mustOpenOn(b, db)
	ctx := context.Background()
	id, _ := s.CreateMatch(ctx, play.Match{Variant: sim.Standard(sim.Pig), Seed: testSeeds.Seed(), Seats: []play.Seat{{Seat: 0, Bot: "hold:20"}, {Seat: 1, Bot: "hold:20"}}})
	roll, hold := 0.5, 0.4
	seq := 0
	for b.Loop() {
		seq++
		e := play.Event{MatchID: id, Seq: seq, Action: sim.Roll, Faces: faces(4), By: play.ByBot, At: time.Now(), Scores: []int{0, 0},
			Analysis: &play.Analysis{WinIfRoll: &roll, WinIfHold: &hold, WinIfChosen: roll, Options: map[sim.Action]float64{sim.Roll: roll, sim.Hold: hold}, Best: sim.Roll, EV: sim.Roll}}
		if err := s.AppendEvents(ctx, id, []play.Event{e}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// faces builds sim.Faces for a test.
func faces(dice ...int) sim.Faces {
	f, err := sim.FacesOf(dice...)
	if err != nil {
		panic(err)
	}
	return f
}

// TestPostgresConnections is TestPragmasOnEveryConnection's part on
// Postgres: the read pool cannot write, a read transaction reads one
// snapshot (a write committed meanwhile is not in it), and the writer's
// connection writes.
func TestPostgresConnections(t *testing.T) {
	s := mustOpenOn(t, pgtest.URL(t))
	ctx := context.Background()
	if _, err := s.rd.ExecContext(ctx, `INSERT INTO classes (code, teacher_hash, created_at) VALUES ('X', 'h', 't')`); err == nil {
		t.Error("the read pool wrote a row")
	}
	if _, err := s.CreateClass(ctx, "AAAAAA", "h"); err != nil {
		t.Fatal(err)
	}
	err := s.readTx(ctx, func(tx *sql.Tx) error {
		var before, after int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM classes`).Scan(&before); err != nil {
			return err
		}
		if _, err := s.CreateClass(ctx, "CCCCCC", "h"); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM classes`).Scan(&after); err != nil {
			return err
		}
		if before != 1 || after != 1 {
			t.Errorf("a read transaction saw %d classes, then %d after a commit: want one snapshot of 1", before, after)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.Engine() != "postgres" {
		t.Errorf("engine %q", s.Engine())
	}
}

// testSeeds are the seeds the package's tests play: the same on every run.
var testSeeds = sim.NewStream(20261204)
