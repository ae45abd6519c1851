package report

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"pigclass/server/classroom"
	"pigclass/sim/solve"
)

// TestHistoryIsTheStudentsOwn: the history a student sees on their class
// page is their own matches, oldest first, as the store holds them, read
// as the viewer the classroom found; a classmate sees theirs, the teacher
// reads one student's through StudentMatches, and a browser that is no
// student of the class reads nothing.
func TestHistoryIsTheStudentsOwn(t *testing.T) {
	st, code, played := playedClass(t)
	ctx := context.Background()
	room := classroom.New(st, []byte("test key"), &solve.Cache{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	r := New(st, &solve.Cache{})
	as := func(token string) classroom.Viewer {
		v, err := room.Identify(ctx, classroom.Credentials{Code: code, TokenHash: token})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for i, nick := range []string{"Ana", "Bo"} {
		ms, err := r.History(ctx, as("token"+nick))
		if err != nil || len(ms) != 1 {
			t.Fatalf("%s's history: %d matches, %v", nick, len(ms), err)
		}
		m, final := ms[0], played[i].State()
		if m.Seats[0].Nickname != nick || m.Status != "over" || m.Result == nil || m.Result.Scores[0] != final.Scores[0] || m.Result.Scores[1] != final.Scores[1] || m.Winner != final.Winner {
			t.Errorf("%s's match: seats %v status %s result %+v winner %d; the engine's scores %v winner %d", nick, m.Seats, m.Status, m.Result, m.Winner, final.Scores[:2], final.Winner)
		}
	}
	if _, err := r.History(ctx, as("a stranger's token")); !errors.Is(err, classroom.ErrNotStudent) {
		t.Errorf("a stranger's history: %v, want ErrNotStudent", err)
	}
	teacher, err := room.Operator(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	ana, _ := as("tokenAna").Student()
	if ms, err := r.StudentMatches(ctx, teacher, ana.ID); err != nil || len(ms) != 1 || ms[0].Seats[0].Nickname != "Ana" {
		t.Errorf("the teacher reads Ana's matches: %v, %v", ms, err)
	}
	if _, err := r.StudentMatches(ctx, as("tokenBo"), ana.ID); !errors.Is(err, classroom.ErrNotTeacher) {
		t.Errorf("Bo reads Ana's matches: %v, want ErrNotTeacher", err)
	}
}
