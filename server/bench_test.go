package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// BenchmarkAct is the decision path: a student's roll or hold checked,
// applied, analysed by the solver, answered by the bot and stored, as one
// acknowledged action, one student at a time (each waits for its own
// commit).
func BenchmarkAct(b *testing.B) {
	a := newApp(b)
	ctx := context.Background()
	player, err := a.store.AddStudent(ctx, store.Student{Nickname: "Bench", AnonName: "x", TokenHash: classroom.HashToken(newToken())})
	if err != nil {
		b.Fatal(err)
	}
	newMatch := func() *play.Match {
		m, err := a.srv.room.Practice(ctx, player.TokenHash, "bench", sim.Standard(sim.Pig), "hold:20")
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	m := newMatch()
	v, err := a.srv.room.Identify(ctx, classroom.Credentials{TokenHash: player.TokenHash})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if m.Over() {
			m = newMatch()
			continue
		}
		mv, err := a.srv.hall.Move(ctx, v.Seer(), m.ID, m.Seq(), sim.HoldAt(20).Decide(m.State.Position()))
		if err != nil {
			b.Fatal(err)
		}
		m = mv.Match
	}
}

// BenchmarkActParallel is the decision path with many students at once,
// each in their own match: their writes share the writer's batches (group
// commit), so an action costs a fraction of a sync.
func BenchmarkActParallel(b *testing.B) {
	a := newApp(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(32) // 64 students on 2 cores
	var mu sync.Mutex
	n := 0
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		n++
		player, err := a.store.AddStudent(ctx, store.Student{Nickname: "Bench" + strconv.Itoa(n), AnonName: "x", TokenHash: classroom.HashToken(newToken())})
		mu.Unlock()
		if err != nil {
			b.Error(err)
			return
		}
		v, err := a.srv.room.Identify(ctx, classroom.Credentials{TokenHash: player.TokenHash})
		if err != nil {
			b.Error(err)
			return
		}
		var m *play.Match
		for pb.Next() {
			if m == nil || m.Over() {
				if m, err = a.srv.room.Practice(ctx, player.TokenHash, "bench", sim.Standard(sim.Pig), "hold:20"); err != nil {
					b.Error(err)
					return
				}
			}
			mv, err := a.srv.hall.Move(ctx, v.Seer(), m.ID, m.Seq(), sim.HoldAt(20).Decide(m.State.Position()))
			if err != nil {
				b.Error(err)
				return
			}
			m = mv.Match
		}
	})
	batches, writes := a.store.WriterStats()
	b.ReportMetric(float64(writes)/float64(max(batches, 1)), "writes/batch")
}

// playedClass makes a class of 30 students who have each played a whole
// match of Pig against hold:20 (about 2,500 decisions), through Act.
func playedClass(b *testing.B) (*app, *classroom.Class) {
	a, teacher := classPlaying(b, "BENCH7", 30, -1)
	class, err := a.srv.room.ClassByID(context.Background(), teacher.Class().ID)
	if err != nil {
		b.Fatal(err)
	}
	return a, class
}

// classPlaying makes a class of n students in a round of Pig against
// hold:20, each of whom makes up to moves moves of hold:20 through Act
// (a whole match: moves < 0), and its teacher.
func classPlaying(b *testing.B, code string, n, moves int) (*app, classroom.Viewer) {
	a := newApp(b)
	ctx := context.Background()
	class, err := a.srv.room.CreateClass(ctx, func() string { return code }, classroom.HashToken("secret"), "")
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if _, err := a.srv.room.Join(ctx, class.ID, "s"+strconv.Itoa(i), classroom.HashToken(newToken())); err != nil {
			b.Fatal(err)
		}
	}
	teacher, err := a.srv.room.Operator(ctx, class.Code)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := a.srv.room.StartRound(ctx, teacher, classroom.RoundSpec{Variant: sim.Standard(sim.Pig), Mode: "bot", Bot: "hold:20"}); err != nil {
		b.Fatal(err)
	}
	for _, m := range teacher.Matches() {
		v, err := a.srv.room.Identify(ctx, classroom.Credentials{Code: class.Code, TokenHash: m.Seats[0].TokenHash})
		if err != nil {
			b.Fatal(err)
		}
		for k := 0; !m.Over() && (moves < 0 || k < moves); k++ {
			mv, err := a.srv.hall.Move(ctx, v.Seer(), m.ID, m.Seq(), sim.HoldAt(20).Decide(m.State.Position()))
			if err != nil {
				b.Fatal(err)
			}
			m = mv.Match
		}
	}
	if teacher, err = a.srv.room.Operator(ctx, class.Code); err != nil {
		b.Fatal(err)
	}
	return a, teacher
}

// BenchmarkDashboardLive is the part of the teacher's dashboard polled every
// second, drawn, for a class of 30 that has played a round.
func BenchmarkDashboardLive(b *testing.B) {
	a, class := playedClass(b)
	ctx := context.Background()
	op, err := a.srv.room.Operator(ctx, class.Code)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.srv.views.dashLive(ctx, i18n.For("en"), op, rosterView{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPollUnchanged is a live part's poll that finds nothing new: the
// whole request through the router, answered 204.
func BenchmarkPollUnchanged(b *testing.B) {
	a, class := playedClass(b)
	h := a.srv.Handler()
	op, err := a.srv.room.Operator(context.Background(), class.Code)
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, paths.Poll(paths.TeacherLive.For(class.Code), op.Activity()), nil)
	req.Host = a.http.Listener.Addr().String() // the host the app answers for
	req.AddCookie(&http.Cookie{Name: teacherPrefix + class.Code, Value: "secret"})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusNoContent {
			b.Fatalf("status %d, want 204", w.Code)
		}
	}
}

// BenchmarkClassData is what the exports read: the class replayed, for
// matches.csv.
func BenchmarkClassData(b *testing.B) {
	a, class := playedClass(b)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if err := report.ExportClass(ctx, a.store, class.Code, "matches", true, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClassCharts builds the dashboard's nine charts for a class of 30
// that has played a round.
func BenchmarkClassCharts(b *testing.B) {
	a, class := playedClass(b)
	ctx := context.Background()
	teacher, err := a.srv.room.Operator(ctx, class.Code)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := a.srv.views.classCharts(ctx, i18n.For("en"), teacher, charts.ClassKeys, 0, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBoardView is the reply's drawing of a board: the words of a
// Pig match's last moves in the reader's language (every message of the
// move list and the screen reader's announcement), as after each move.
func BenchmarkBoardView(b *testing.B) {
	a, class := playedClass(b)
	op, err := a.srv.room.Operator(context.Background(), class.Code)
	if err != nil {
		b.Fatal(err)
	}
	ms := op.Matches()
	m := ms[0]
	l := i18n.For("es")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if v := a.srv.views.boardView(l, class, m, m.SeatOf(m.Seats[0].StudentID)); len(v.Recent) == 0 {
			b.Fatal("no moves")
		}
	}
}

// BenchmarkStudentBoardPoll is a student's board poll that finds nothing
// new: the whole request through the router (the removal check, the
// gate, the match), answered 204. A thousand students make a few hundred
// a second.
func BenchmarkStudentBoardPoll(b *testing.B) {
	a := newApp(b)
	ctx := context.Background()
	class, err := a.srv.room.CreateClass(ctx, func() string { return "BENCH8" }, classroom.HashToken("secret"), "")
	if err != nil {
		b.Fatal(err)
	}
	token := newToken()
	if _, err := a.srv.room.Join(ctx, class.ID, "Ana", classroom.HashToken(token)); err != nil {
		b.Fatal(err)
	}
	op, err := a.srv.room.Operator(ctx, class.Code)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := a.srv.room.StartRound(ctx, op, classroom.RoundSpec{Variant: sim.Standard(sim.Pig), Mode: "bot", Bot: "hold:20"}); err != nil {
		b.Fatal(err)
	}
	m := op.Matches()[0]
	c, err := a.srv.room.ClassByID(ctx, class.ID)
	if err != nil {
		b.Fatal(err)
	}
	h := a.srv.Handler()
	req := httptest.NewRequest(http.MethodGet, paths.Board(class.Code, m.ID, boardVersion(m, c)), nil)
	req.Host = a.http.Listener.Addr().String()
	req.AddCookie(&http.Cookie{Name: playerCookie, Value: token})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusNoContent {
		b.Fatalf("the poll answers %d, want 204", w.Code)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}

// BenchmarkDashboardLiveThousand is the dashboard's live part for a class
// of 1,000 in a round against a bot, a few moves each, as the load tool
// plays it: the figures and the drawing, what the class's teacher screens
// share (every() apart), and the size of its gzip form as they get it. It
// runs beside the class's moves, so the time it holds a core is a move's
// wait.
func BenchmarkDashboardLiveThousand(b *testing.B) {
	a, op := classPlaying(b, "BENCH9", 1000, 3)
	ctx := context.Background()
	l := i18n.For("en")
	lctx := i18n.WithLocalizer(ctx, l)
	b.ReportAllocs()
	b.ResetTimer()
	var drawn []byte
	for b.Loop() {
		live, err := a.srv.views.dashLive(lctx, l, op, rosterView{})
		if err != nil {
			b.Fatal(err)
		}
		live.OOB = true
		var buf bytes.Buffer
		if err := templates.DashLiveView(live).Render(lctx, &buf); err != nil {
			b.Fatal(err)
		}
		drawn = buf.Bytes()
	}
	b.ReportMetric(float64(len(drawn)), "bytes/draw")
	b.ReportMetric(float64(len((&liveDrawing{html: drawn}).gzipped())), "gzip-bytes/draw") // as the screens get it
}

// BenchmarkProjectorLiveThousand is the shared screen's poll, drawn (the
// round's progress moved), for the class of BenchmarkDashboardLiveThousand:
// each teacher screen polls it every second.
func BenchmarkProjectorLiveThousand(b *testing.B) {
	a, op := classPlaying(b, "BENCH9", 1000, 3)
	h := a.srv.Handler()
	req := httptest.NewRequest(http.MethodGet, paths.TeacherProjector.Live.For(op.Class().Code), nil)
	req.Host = a.http.Listener.Addr().String()
	req.AddCookie(&http.Cookie{Name: teacherPrefix + op.Class().Code, Value: "secret"})
	b.ReportAllocs()
	b.ResetTimer()
	var size int
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d, want 200", w.Code)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(size), "bytes/draw")
}
