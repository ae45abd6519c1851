package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
)

// playedClass stores a class with two students, each of whom played a
// match of Pig to 30 against hold at 20 to the end (Ana holding at 15, Bo
// at 25), the events made by the engine from the seed; it returns the
// store, the class's code and the engine's matches.
func playedClass(t *testing.T) (*store.Store, string, []*sim.Match) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "report.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	class, err := st.CreateClass(ctx, "K7RXM4", "teacher-hash")
	if err != nil {
		t.Fatal(err)
	}
	v := sim.Standard(sim.Pig)
	v.Target = 30
	var played []*sim.Match
	for i, nick := range []string{"Ana", "Bo"} {
		kid, err := st.AddStudent(ctx, store.Student{ClassID: class.ID, Nickname: nick, AnonName: "Brave Otter", TokenHash: "token" + nick})
		if err != nil {
			t.Fatal(err)
		}
		seed := sim.Seed{byte(i + 1)}
		row := play.Match{ClassID: class.ID, Variant: v, Seed: seed, FirstSeat: seed.FirstSeat(2), Status: play.Playing, Winner: -1,
			Seats: []play.Seat{{Seat: 0, StudentID: kid.ID, Nickname: nick, AnonName: kid.AnonName, TokenHash: kid.TokenHash}, {Seat: 1, Bot: "hold:20"}}}
		if row.ID, err = st.CreateMatch(ctx, row); err != nil {
			t.Fatal(err)
		}
		m, _ := sim.NewMatch(v, seed)
		players := []sim.Strategy{sim.HoldAt(15 + 10*i), sim.HoldAt(20)}
		var events []play.Event
		for !m.State().Over {
			pre := m.State()
			seat := pre.Seat
			e, err := m.Apply(seat, players[seat].Decide(pre.Position()))
			if err != nil {
				t.Fatal(err)
			}
			by := play.ByStudent
			if seat == 1 {
				by = play.ByBot
			}
			events = append(events, play.Event{MatchID: row.ID, Seq: len(events) + 1, Seat: seat, Action: e.Action, Turn: e.Turn, Roll: e.Roll,
				Faces: e.Faces, By: by, At: time.Date(2026, 12, 1, 9, 0, len(events), 0, time.UTC), Score: pre.Scores[seat],
				Scores: append([]int(nil), pre.Scores[:2]...), OpponentScore: pre.Leader(seat), TurnTotal: pre.TurnTotal, Dice: e.Faces.Len()})
		}
		st0 := m.State()
		if err := st.AppendEvents(ctx, row.ID, events, st0.Result()); err != nil {
			t.Fatal(err)
		}
		played = append(played, m)
	}
	return st, class.Code, played
}

// exported writes one of the class's files and reads it back as rows by
// header.
func exported(t *testing.T, st *store.Store, code, what string) []map[string]string {
	t.Helper()
	var b bytes.Buffer
	if err := ExportClass(context.Background(), st, code, what, true, &b); err != nil {
		t.Fatalf("export %s: %v", what, err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("%s: %v", what, err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = r[i]
		}
		out = append(out, row)
	}
	return out
}

// TestFilesOfAPlayedClass: report's files, read from a database the store
// made, say what the engine played: one decisions.csv row per event with
// its dice and state, matches.csv's winners and scores, students.csv's
// games and wins.
func TestFilesOfAPlayedClass(t *testing.T) {
	st, code, played := playedClass(t)
	rows := exported(t, st, code, "decisions")
	n := 0
	for i, m := range played {
		for _, e := range m.Events() {
			r := rows[n]
			n++
			if r["match"] != strconv.Itoa(i+1) || r["action"] != e.Action.String() || r["faces"] != facesCell(e.Faces) || r["game"] != "pig" || r["target"] != "30" {
				t.Errorf("decision %d: %v, the engine's %v %v", n, r, e.Action, e.Faces)
			}
		}
	}
	if n != len(rows) {
		t.Errorf("decisions.csv has %d rows, the matches %d events", len(rows), n)
	}
	matches := exported(t, st, code, "matches")
	students := exported(t, st, code, "students")
	if len(matches) != 2 || len(students) != 2 {
		t.Fatalf("%d matches, %d students", len(matches), len(students))
	}
	for i, m := range played {
		final := m.State()
		res := final.Result()
		winner := "Hold-20 bot"
		if res.Winner == 0 {
			winner = []string{"Ana", "Bo"}[i]
		}
		if matches[i]["winner"] != winner || matches[i]["status"] != "over" {
			t.Errorf("match %d: %v; the engine's winner is seat %d", i+1, matches[i], res.Winner)
		}
		wins := strconv.Itoa(map[bool]int{true: 1, false: 0}[res.Winner == 0])
		if students[i]["student"] != []string{"Ana", "Bo"}[i] || students[i]["games"] != "1" || students[i]["wins"] != wins {
			t.Errorf("student %d: %v, want 1 game and %s wins", i+1, students[i], wins)
		}
	}
}
