package server

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"pigclass/server/store/pgtest"
	"pigclass/templates/paths"
)

// TestADistrictHandsAClassOver: two instances on one Postgres database.
// The first serves a class mid-match; asked for it, the second tells the
// class's student and teacher to try again (503, Retry-After), and tells
// a stranger what the first does. The first then stalls past its lease:
// the second takes the class over at the next request and the match goes
// on where it was; the stalled instance, asked again (a proxy's retry),
// has its move refused (not saved) and stores nothing. The match ends on
// the second with every acknowledged decision stored once, and the
// second, stopped gracefully, hands the class back at once.
func TestADistrictHandsAClassOver(t *testing.T) {
	db := pgtest.URL(t)
	clk := &clock{t: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)}
	a, b := openApp(t, db, clk), openApp(t, db, clk)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 15}
	// hold:1 banks at most 6 points a turn: the match outlasts the test's
	// moves before the takeover.
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:1"}})
	for s.actions < 8 {
		if !s.step(t, code) {
			t.Fatal("the match ended before the takeover")
		}
	}
	before, _ := readBoard(s.b.get("/c/" + code))

	// The second instance, while the first serves the class.
	stranger := a.browser()
	strangerAt := func(on *app) (int, string) {
		stranger.moveTo(on)
		status, loc, _ := stranger.send(http.MethodGet, "/c/"+code, nil)
		return status, loc
	}
	aStatus, aLoc := strangerAt(a)
	if bStatus, bLoc := strangerAt(b); bStatus != aStatus || bLoc != aLoc {
		t.Errorf("a stranger asking the other instance: %d %q; the serving one says %d %q", bStatus, bLoc, aStatus, aLoc)
	}
	s.b.moveTo(b)
	teacher.moveTo(b)
	for _, who := range []*browser{s.b, teacher} {
		path := "/c/" + code
		if who == teacher {
			path = paths.Teacher.For(code)
		}
		status, _, h := who.send(http.MethodGet, path, nil)
		if status != http.StatusServiceUnavailable || h.Get("Retry-After") != "1" {
			t.Errorf("%s on the other instance: %d, Retry-After %q; want 503 and 1", path, status, h.Get("Retry-After"))
		}
	}

	// The first instance stalls past its lease.
	expire(t, db, code)
	after, ok := readBoard(s.b.get("/c/" + code))
	if !ok || after.seq != before.seq || after.turnTot != before.turnTot || after.yourTurn != before.yourTurn {
		t.Fatalf("on the instance that took over: %+v, before: %+v", after, before)
	}
	// The stalled instance is asked to move (the proxy's retry of an
	// older request): refused, and nothing of it is stored.
	s.b.moveTo(a)
	status, _, _ := s.b.send(http.MethodPost, after.act, url.Values{"seq": {strconv.Itoa(after.seq)}, "action": {"roll"}})
	if status != http.StatusServiceUnavailable {
		t.Errorf("a move on the instance that lost the class: %d, want 503", status)
	}
	s.b.moveTo(b)
	if again, _ := readBoard(s.b.get("/c/" + code)); again.seq != after.seq {
		t.Errorf("the refused move moved the match: seq %d, want %d", again.seq, after.seq)
	}
	for s.step(t, code) {
	}
	mine := 0
	for _, r := range teacher.csvRows(paths.DecisionsCSV.For(code)) {
		if r["by"] == "student" {
			mine++
		}
	}
	if mine != s.actions {
		t.Errorf("%d decisions acknowledged, %d stored", s.actions, mine)
	}
	if m := teacher.csvRows(paths.MatchesCSV.For(code)); len(m) != 1 || m[0]["status"] != "over" {
		t.Errorf("matches.csv: %v", m)
	}

	// The privacy page says where a district keeps the class, and names
	// its leases.
	page := stranger.get(paths.Privacy.String())
	if page.Find(`[data-testid="privacy-district"]`).Text() == "" || page.Find(`[data-table="class_leases"]`).Length() == 0 {
		t.Error("the privacy page of a district's instance does not say where the class is kept, or its leases")
	}

	// A graceful stop hands the class to the first at once.
	b.stop()
	teacher.moveTo(a)
	if status, _, _ := teacher.send(http.MethodGet, paths.Teacher.For(code), nil); status != http.StatusOK {
		t.Errorf("the dashboard after the other instance stopped: %d, want 200 at once", status)
	}
	// Deleted, the class is no page, whichever instance kept its code.
	c := openApp(t, db, clk)
	stranger.moveTo(c)
	stranger.send(http.MethodGet, "/c/"+code, nil)
	teacher.post(paths.DeleteClass.For(code), url.Values{"confirm": {"yes"}})
	for _, on := range []*app{a, c} {
		stranger.moveTo(on)
		none, _, _ := stranger.send(http.MethodGet, "/c/XXXXXX", nil)
		if status, _, _ := stranger.send(http.MethodGet, "/c/"+code, nil); status != none || status >= 500 {
			t.Errorf("the deleted class asked of an instance: %d, want %d as for a code of no class", status, none)
		}
	}
}

// expire moves a class's lease into the past, as its holder finds it
// after a stall longer than store.LeaseTTL.
func expire(t *testing.T, db, code string) {
	t.Helper()
	conn, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.ExecContext(context.Background(), `UPDATE class_leases SET expires_at = now() - INTERVAL '1 second'
		WHERE class_id = (SELECT id FROM classes WHERE code = $1)`, code)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("no lease of class %s to expire", code)
	}
}
