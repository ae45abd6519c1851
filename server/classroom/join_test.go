package classroom

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
)

// tokenCount numbers the fresh tokens the tests draw.
var tokenCount atomic.Int64

// enter knocks with a fresh token each time and returns the entry and the
// refusal's reason (0 when let in).
func enter(t *testing.T, r *Room, k Knock) (Entry, JoinReason) {
	t.Helper()
	if k.NewTokenHash == "" {
		k.NewTokenHash = HashToken(strconv.Itoa(int(tokenCount.Add(1))) + "-fresh-token")
	}
	e, err := r.Enter(context.Background(), k)
	var no *JoinRefusal
	if errors.As(err, &no) {
		return e, no.Reason
	}
	if err != nil {
		t.Fatal(err)
	}
	return e, 0
}

// TestEnterDecidesJoins: the door is the classroom's, and says why it
// refuses, typed: a wrong code and a wrong rejoin code count as guesses,
// a bad nickname, a taken one or one that looks taken, a locked class, a
// removed browser (and its own rejoin code), a device's second name and a
// class's joins a minute are refused; a browser already in comes back to
// its seat; a rejoin code takes a student's name to a new browser, whose
// identities move to its fresh token.
func TestEnterDecidesJoins(t *testing.T) {
	r, _, _ := openRoom(t, filepath.Join(t.TempDir(), "join.db"))
	r.Set(Policy{Guesses: 4, ClassJoins: 3})
	ctx := context.Background()
	c, err := r.CreateClass(ctx, func() string { return "KMNPRT" }, "hash", "")
	if err != nil {
		t.Fatal(err)
	}
	knock := func(nick, token, device string) Knock {
		return Knock{Code: c.Code, Nickname: nick, TokenHash: HashToken(token), NewTokenHash: HashToken(token + "'"), Guesser: "203.0.113.9", Device: device}
	}
	if _, why := enter(t, r, Knock{Code: "AAAAAA", Nickname: "Ana", Guesser: "203.0.113.9"}); why != NoClass {
		t.Errorf("a wrong code: %v, want NoClass", why)
	}
	ana, why := enter(t, r, knock("  Ana ", "ana", "dev-1"))
	if why != 0 || ana.Student.Nickname != "Ana" || !ana.TookToken || ana.Student.TokenHash != HashToken("ana'") {
		t.Fatalf("Ana's join: %v, %+v", why, ana)
	}
	if e, why := enter(t, r, knock("Ana", "ana'", "dev-1")); why != 0 || !e.Already || e.TookToken || e.Student.ID != ana.Student.ID {
		t.Errorf("Ana's browser again: %v, %+v", why, e)
	}
	if _, why := enter(t, r, knock("Bea", "bea", "dev-1")); why != DeviceHasName {
		t.Errorf("a second name from Ana's device: %v, want DeviceHasName", why)
	}
	for _, tc := range []struct {
		nick string
		want JoinReason
	}{{"Ana", NicknameTaken}, {"ANA", LooksTaken}, {"A\u200bna", BadNickname}, {"", BadNickname}} {
		k := knock(tc.nick, "other"+tc.nick, "")
		k.Guesser = "192.0.2.50"
		if _, why := enter(t, r, k); why != tc.want {
			t.Errorf("nickname %q: %v, want %v", tc.nick, why, tc.want)
		}
	}
	// A taken name, or one that looks taken, counts as a guess (a bad
	// nickname does not): two spent of four, two more and that guesser can
	// no longer ask which names the class has.
	for _, nick := range []string{"Ana", "ANA"} {
		k := knock(nick, "again"+nick, "")
		k.Guesser = "192.0.2.50"
		enter(t, r, k)
	}
	zed := knock("Zed", "zed", "")
	zed.Guesser = "192.0.2.50"
	if _, why := enter(t, r, zed); why != TooManyGuesses {
		t.Errorf("after four taken names: %v, want TooManyGuesses", why)
	}
	code := r.RejoinCode(ana.Class, ana.Student)
	if _, why := enter(t, r, Knock{Code: c.Code, Nickname: "Ana", Rejoin: "AAAA-AAAA", NewTokenHash: HashToken("x"), Guesser: "203.0.113.9"}); why != WrongRejoin {
		t.Errorf("a wrong rejoin code: %v, want WrongRejoin", why)
	}
	phone, why := enter(t, r, Knock{Code: c.Code, Nickname: "Ana", Rejoin: " " + code[:4] + code[5:] + " ", NewTokenHash: HashToken("phone"), Guesser: "203.0.113.9"})
	if why != 0 || phone.Student.ID != ana.Student.ID || !phone.TookToken {
		t.Fatalf("Ana's rejoin code on her phone: %v, %+v", why, phone)
	}
	// One wrong join code spent of four (a wrong rejoin code is counted
	// apart, for the name, the class and the address: a school behind
	// one address goes on joining): three more, and the guesser is done.
	for range 3 {
		enter(t, r, Knock{Code: "AAAAAA", Guesser: "203.0.113.9"})
	}
	if _, why := enter(t, r, knock("Cy", "cy", "")); why != TooManyGuesses {
		t.Errorf("after four wrong guesses: %v, want TooManyGuesses", why)
	}
	if r.Guessers() != 2 {
		t.Errorf("%d guessers remembered, want 2 (one of wrong codes, one of taken names)", r.Guessers())
	}
	// Another address; the class takes three joins a minute (Ana and two).
	knock2 := func(nick string) Knock { k := knock(nick, nick, ""); k.Guesser = "198.51.100.1"; return k }
	for _, nick := range []string{"Cy", "Dee"} {
		if _, why := enter(t, r, knock2(nick)); why != 0 {
			t.Fatalf("%s: %v", nick, why)
		}
	}
	if _, why := enter(t, r, knock2("Eve")); why != ClassBusy {
		t.Errorf("the fourth join in a minute: %v, want ClassBusy", why)
	}
	if joins, limit := r.JoinsLastMinute(c); joins != 3 || limit != 3 {
		t.Errorf("joins last minute %d of %d, want 3 of 3", joins, limit)
	}
	teacher := operator(t, r, c)
	if err := r.SetJoinsUnlimited(teacher, true); err != nil {
		t.Fatal(err)
	}
	if _, why := enter(t, r, knock2("Eve")); why != 0 {
		t.Errorf("with joins unlimited: %v", why)
	}
	if _, err := r.SetSwitches(ctx, teacher, func(s *Switches) { s.Locked = true }); err != nil {
		t.Fatal(err)
	}
	if _, why := enter(t, r, knock2("Fay")); why != Locked {
		t.Errorf("a locked class: %v, want Locked", why)
	}
	if err := r.RemoveStudent(ctx, teacher, ana.Student.ID); err != nil {
		t.Fatal(err)
	}
	if _, why := enter(t, r, Knock{Code: c.Code, Nickname: "Ana", TokenHash: HashToken("phone"), NewTokenHash: HashToken("y"), Guesser: "198.51.100.1"}); why != Removed {
		t.Errorf("Ana's phone, removed: %v, want Removed", why)
	}
	removed, _ := r.Class(ctx, c.Code)
	code = r.RejoinCode(removed, removed.Removed[0])
	if _, why := enter(t, r, Knock{Code: c.Code, Nickname: "Ana", Rejoin: code, NewTokenHash: HashToken("z"), Guesser: "198.51.100.1"}); why != Removed {
		t.Errorf("Ana's rejoin code, removed: %v, want Removed", why)
	}
}

// TestNamesThatDifferByCaseLookAlike: beside "Mia" and "Emma", the join
// door refuses "MIA", "mia", "EMMA" and a Cyrillic "Еmmа" as looking
// taken, and a class list's "mia thompson" beside "Mia Thompson" is
// marked as looking like her rather than added as a second student.
func TestNamesThatDifferByCaseLookAlike(t *testing.T) {
	r, _, _ := openRoom(t, filepath.Join(t.TempDir(), "case.db"))
	ctx := context.Background()
	c, err := r.CreateClass(ctx, func() string { return "CASEAA" }, "hash", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, nick := range []string{"Mia", "Emma"} {
		if _, why := enter(t, r, Knock{Code: c.Code, Nickname: nick, Guesser: "192.0.2.1"}); why != 0 {
			t.Fatalf("%s's join: %v", nick, why)
		}
	}
	for _, nick := range []string{"MIA", "mia", "EMMA", "emma", "Еmmа", "МIA"} {
		if _, why := enter(t, r, Knock{Code: c.Code, Nickname: nick, Guesser: "192.0.2.2"}); why != LooksTaken {
			t.Errorf("%+q beside Mia and Emma: %v, want LooksTaken", nick, why)
		}
	}
	v := operator(t, r, c)
	if _, _, err := r.AddRoster(ctx, v, []string{"Mia Thompson"}); err != nil {
		t.Fatal(err)
	}
	rows, err := v.RosterRows([]string{"mia thompson", "MIA THOMPSON", "Mia Thomson"})
	if err != nil {
		t.Fatal(err)
	}
	want := []RosterStatus{RosterLooks, RosterLooks, RosterNew}
	for i, row := range rows {
		if row.Status != want[i] {
			t.Errorf("%q beside Mia Thompson: status %v (like %q), want %v", row.Name, row.Status, row.Like, want[i])
		}
	}
}
