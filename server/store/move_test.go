package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pigclass/server/play"
	"pigclass/server/store/pgtest"
	"pigclass/sim"
)

// school is a school's SQLite file with one class: two students, a round
// of two finished matches with their moves, a plan and a tournament whose
// standings name a student by id. pad rows are stored and deleted first,
// so that the school's ids are not the district's.
func school(t *testing.T, code string, pad int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), strings.ToLower(code)+".db")
	s := mustOpenOn(t, path)
	ctx := context.Background()
	for i := range pad {
		c, _ := s.CreateClass(ctx, code[:5]+string(rune('A'+i)), "h")
		s.AddStudent(ctx, Student{ClassID: c.ID, Nickname: "pad", AnonName: "x", TokenHash: "p"})
		if _, err := s.exec(ctx, `DELETE FROM classes WHERE id = ?`, c.ID); err != nil {
			t.Fatal(err)
		}
	}
	class, _ := s.CreateClass(ctx, code, "teacher-"+code)
	ana, _ := s.AddStudent(ctx, Student{ClassID: class.ID, Nickname: "Ana", AnonName: "Calm Otter", TokenHash: "a" + code})
	bo, _ := s.AddStudent(ctx, Student{ClassID: class.ID, Nickname: "Bo", AnonName: "Keen Lynx", TokenHash: "b" + code})
	v := sim.Standard(sim.Pig)
	var ms []play.Match
	for _, st := range []int64{ana.ID, bo.ID} {
		ms = append(ms, play.Match{ClassID: class.ID, Variant: v, Seed: testSeeds.Seed(), Seats: []play.Seat{{Seat: 0, StudentID: st}, {Seat: 1, Bot: "hold:20"}}})
	}
	_, ids, err := s.CreateRound(ctx, play.Round{ClassID: class.ID, Variant: v, Mode: play.AgainstBots, Bot: "hold:20"}, ms)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		e := rollEvent(id, 1)
		e.Scores = []int{0, 0}
		win := 0.5 + float64(i)/10
		e.Analysis = &play.Analysis{WinIfChosen: win, Options: map[sim.Action]float64{sim.Roll: win, sim.Hold: win - .1}, Best: sim.Roll, EV: sim.Roll}
		if err := s.AppendEvents(ctx, id, []play.Event{e}, &sim.Result{Winner: i, Scores: []int{100, 50}, Places: []int{1 + i, 2 - i}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Plans().Save(ctx, class.ID, bo.ID, sim.Plan{Form: "hold", Game: "pig", Target: 100, Hold: 25}); err != nil {
		t.Fatal(err)
	}
	tour, err := s.Plans().OpenTournament(ctx, Tournament{ClassID: class.ID, Variant: v, Bots: []string{"hold:20"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddExperiment(ctx, Experiment{ClassID: class.ID, StudentID: ana.ID, Variant: v, First: "hold:25", Second: "hold:20", Games: 1000, Wins: 531, Seed: "seed-" + code}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetLab(ctx, class.ID, `{"first":"hold:25"}`, true); err != nil {
		t.Fatal(err)
	}
	standings, _ := json.Marshal(map[string]any{"entries": []map[string]any{{"student": bo.ID}, {"bot": "hold:20"}}})
	if err := s.Plans().SaveStandings(ctx, tour.ID, standings); err != nil {
		t.Fatal(err)
	}
	return path
}

// classView is what a class holds, ids left out: the same before and
// after a move.
type classView struct {
	Students  []string
	Matches   []string // seed, status, winner, seats
	Events    [][]play.Event
	Plans     []string
	Standings string // the entrants, each a student's nickname or a bot
	Lab       string // the lab's question and runs
}

func viewOf(t *testing.T, s *Store, code string) classView {
	t.Helper()
	ctx := context.Background()
	c, err := s.ClassByCode(ctx, code)
	if err != nil {
		t.Fatalf("class %s: %v", code, err)
	}
	var v classView
	sts, _ := s.Students(ctx, c.ID)
	names := map[int64]string{}
	for _, st := range sts {
		v.Students = append(v.Students, st.Nickname+"/"+st.AnonName+"/"+st.TokenHash)
		names[st.ID] = st.Nickname
	}
	ms, _ := s.Matches(ctx, MatchFilter{ClassID: c.ID})
	for _, m := range ms {
		seats := ""
		for _, seat := range m.Seats {
			seats += names[seat.StudentID] + seat.Bot + ","
		}
		v.Matches = append(v.Matches, m.Seed.String()+" "+string(m.Status)+" "+string(rune('0'+m.Winner))+" "+seats)
		es, _ := s.Events(ctx, EventFilter{MatchID: m.ID})
		for i := range es {
			es[i].MatchID = 0
		}
		v.Events = append(v.Events, es)
	}
	plans, _ := s.Plans().Of(ctx, c.ID, 0)
	for _, p := range plans {
		b, _ := json.Marshal(p.Plan)
		v.Plans = append(v.Plans, names[p.StudentID]+" "+string(b))
	}
	v.Lab = c.Lab + " " + strconv.FormatBool(c.LabRevealed)
	exps, _ := s.Experiments(ctx, c.ID)
	for _, e := range exps {
		v.Lab += fmt.Sprintf("; %s %s %s %d %d %s %s", names[e.StudentID], e.First, e.Second, e.Games, e.Wins, e.Seed, e.Day)
	}
	ts, _ := s.Plans().Tournaments(ctx, c.ID)
	for _, tour := range ts {
		var res struct {
			Entries []struct {
				Student int64  `json:"student"`
				Bot     string `json:"bot"`
			} `json:"entries"`
		}
		json.Unmarshal(tour.Standings, &res)
		for _, e := range res.Entries {
			v.Standings += names[e.Student] + e.Bot + ";"
		}
	}
	return v
}

// TestMoveSchoolsIntoADistrict: two schools' files, whose ids overlap,
// moved into one Postgres database: each class reads there as it did in
// its file (students, matches, every move with its analysis, plans, a
// tournament's entrants) under new ids; a class whose code the district
// has already is refused whole.
func TestMoveSchoolsIntoADistrict(t *testing.T) {
	db := pgtest.URL(t)
	ctx := context.Background()
	schools := map[string]string{"ACEF34": school(t, "ACEF34", 0), "HJKM79": school(t, "HJKM79", 3)}
	want := map[string]classView{}
	for code, path := range schools {
		s := mustOpenOn(t, path)
		want[code] = viewOf(t, s, code)
		s.Close()
	}
	for _, code := range []string{"ACEF34", "HJKM79"} {
		rep, err := Move(ctx, schools[code], db)
		if err != nil {
			t.Fatalf("moving %s: %v", code, err)
		}
		if rep != (MoveReport{Classes: 1, Students: 2, Matches: 2, Events: 2}) && code == "ACEF34" {
			t.Errorf("moved %+v", rep)
		}
	}
	district := mustOpenOn(t, db)
	for code, w := range want {
		if d := cmp.Diff(w, viewOf(t, district, code), cmp.AllowUnexported(sim.Faces{})); d != "" {
			t.Errorf("class %s after the move (-file +district):\n%s", code, d)
		}
		if len(w.Events) != 2 || w.Standings != "Bo;hold:20;" || !strings.Contains(w.Lab, "; Ana hold:25 hold:20 1000 531 seed-") {
			t.Fatalf("the school %s holds too little to tell: %+v", code, w)
		}
	}
	if _, err := Move(ctx, schools["ACEF34"], db); err == nil || !strings.Contains(err.Error(), "ACEF34 is the district's already") {
		t.Errorf("moving a school twice: %v", err)
	}
	var classes int
	district.rd.QueryRow(`SELECT COUNT(*) FROM classes`).Scan(&classes)
	if classes != 2 {
		t.Errorf("%d classes after the refused move, want 2", classes)
	}
}

// TestMoveRefusesAHostileFile (issue 58, item 2): a school file whose
// classes table has a column named with SQL (which, spliced into the
// INSERT, once took another school's class over) is refused, naming the
// table and the column, and the district is as it was.
func TestMoveRefusesAHostileFile(t *testing.T) {
	db := pgtest.URL(t)
	ctx := context.Background()
	district := mustOpenOn(t, db)
	if _, err := district.CreateClass(ctx, "VKTMAA", "real-teacher"); err != nil {
		t.Fatal(err)
	}
	path := school(t, "ATTACK", 0)
	s := mustOpenOn(t, path)
	hostile := `code, teacher_hash, created_at) VALUES ('VKTMAA', 'attacker', '2026-01-01') ON CONFLICT (code) DO UPDATE SET teacher_hash = excluded.teacher_hash RETURNING id --`
	if _, err := s.exec(ctx, `ALTER TABLE classes ADD COLUMN `+quoteIdent(hostile)+` TEXT`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err := Move(ctx, path, db)
	if err == nil || !strings.Contains(err.Error(), "table classes is not pigclass's") || !strings.Contains(err.Error(), "ON CONFLICT") {
		t.Fatalf("moving a hostile file: %v", err)
	}
	var classes int
	var hash string
	district.rd.QueryRow(`SELECT COUNT(*) FROM classes`).Scan(&classes)
	district.rd.QueryRow(`SELECT teacher_hash FROM classes WHERE code = 'VKTMAA'`).Scan(&hash)
	if classes != 1 || hash != "real-teacher" {
		t.Errorf("after the refused move: %d classes, the victim's teacher hash %q", classes, hash)
	}
}

// TestMoveTakesEveryTable: every table a school's file has is one Move
// copies, or one that holds no school's data (the database's own
// bookkeeping and the server's): a table added to the schema and not to
// moveTables would be left behind in silence by pigclass migrate.
func TestMoveTakesEveryTable(t *testing.T) {
	s := mustOpenOn(t, filepath.Join(t.TempDir(), "school.db"))
	rows, err := s.rd.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	moved := map[string]bool{}
	for _, mt := range moveTables {
		moved[mt.name] = true
	}
	// The migrations applied; when the file first served; the server's
	// platforms, the nonces it saw and its signing keys, which a
	// district registers again (a class's link names its platform by
	// issuer and client id, and moves).
	notData := map[string]bool{"migrations": true, "started": true, "lti_platforms": true, "lti_deployments": true, "lti_nonces": true, "lti_keys": true}
	n := 0
	for rows.Next() {
		var name string
		rows.Scan(&name)
		n++
		if !moved[name] && !notData[name] {
			t.Errorf("pigclass migrate does not copy the table %s", name)
		}
	}
	if n < 10 {
		t.Fatalf("only %d tables read", n)
	}
}
