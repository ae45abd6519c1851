package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
)

// teacherOnly lets a request through only with the class's teacher secret,
// from the cookie or from the secret link's ?key=. Anything else is a 404:
// the page does not exist for whoever lacks the secret.
func (s *Server) teacherOnly(c *gin.Context) {
	ctx := c.Request.Context()
	code := normalizeCode(c.Param("code"))
	class, err := s.store.ClassByCode(ctx, code)
	if err != nil {
		refuse(c, http.StatusNotFound, "There is no such page.")
		return
	}
	secret, _ := c.Cookie(teacherPrefix + class.Code)
	if key := c.Query("key"); key != "" && sameHash(key, class.TeacherHash) {
		setCookie(c, teacherPrefix+class.Code, key, 365*24*3600)
		c.Redirect(http.StatusSeeOther, "/t/"+class.Code)
		c.Abort()
		return
	}
	if !sameHash(secret, class.TeacherHash) {
		refuse(c, http.StatusNotFound, "There is no such page.")
		return
	}
	c.Set("class", class)
	c.Set("secret", secret)
	c.Next()
}

func classFrom(c *gin.Context) store.Class { return c.MustGet("class").(store.Class) }

func (s *Server) dashboard(c *gin.Context) {
	v, err := s.dashboardView(c, defaultRoundForm())
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.DashboardView(v))
}

func defaultRoundForm() templates.RoundForm {
	return templates.RoundForm{
		Game: templates.Field{Value: "pig"}, Target: templates.Field{Value: "100"}, MaxDice: templates.Field{Value: "10"},
		Mode: templates.Field{Value: "bot"}, Bot: templates.Field{Value: "hold:20"}, Seats: templates.Field{Value: "2"},
	}
}

func (s *Server) dashboardView(c *gin.Context, form templates.RoundForm) (templates.Dashboard, error) {
	class := classFrom(c)
	live, err := s.dashLive(c.Request.Context(), class)
	if err != nil {
		return templates.Dashboard{}, err
	}
	secret := c.GetString("secret")
	cs, err := s.classCharts(c.Request.Context(), class, charts.ClassKeys, 0)
	if err != nil {
		return templates.Dashboard{}, err
	}
	lesson, err := s.lessonView(class)
	if err != nil {
		return templates.Dashboard{}, err
	}
	var sk *templates.SkunkBoard
	if b, ok := s.skunkBoard(class, 0, true); ok {
		sk = &b
	}
	return templates.Dashboard{
		Charts: cs, Projector: class.Projector, Lesson: lesson, Skunk: sk,
		Code: class.Code, JoinURL: s.publicURL(c.Request) + "/join/" + class.Code,
		TeacherURL: s.publicURL(c.Request) + "/t/" + class.Code + "?key=" + secret,
		Locked:     class.Locked, Paused: class.Paused, Anonymous: class.Anonymous,
		Live: live, Games: gameChoices(form.Game.Value), Bots: botChoices(form.Bot.Value), Round: form,
		RoundActive: live.Round != "", Notice: c.Query("done"),
	}, nil
}

func (s *Server) dashboardLive(c *gin.Context) {
	live, err := s.dashLive(c.Request.Context(), classFrom(c))
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.DashLiveView(live))
}

// dashLive is the roster and the matches in progress: totals from two
// aggregate queries, scores from the matches in memory. It is polled every
// second, so it replays nothing.
func (s *Server) dashLive(ctx context.Context, class store.Class) (templates.DashLive, error) {
	students, err := s.store.Students(ctx, class.ID)
	if err != nil {
		return templates.DashLive{}, err
	}
	rounds, err := s.store.Rounds(ctx, class.ID)
	if err != nil {
		return templates.DashLive{}, err
	}
	stats, total, err := s.store.ClassStats(ctx, class.ID)
	if err != nil {
		return templates.DashLive{}, err
	}
	v := templates.DashLive{Code: class.Code, Paused: class.Paused, Locked: class.Locked, Round: roundLabel(rounds), Decisions: total}
	playing := map[int64]string{}
	lms := s.liveWhere(func(lm *liveMatch) bool { return lm.row.ClassID == class.ID })
	sort.Slice(lms, func(i, j int) bool { return lms[i].row.ID < lms[j].row.ID })
	for _, lm := range lms {
		lm.mu.Lock()
		st := lm.m.State()
		var names []string
		decisions := 0
		for _, e := range lm.rows {
			if isDecision(e) {
				decisions++
			}
		}
		for _, seat := range lm.row.Seats {
			names = append(names, fmt.Sprintf("%s %d", seatName(seat, false), st.Scores[seat.Seat]))
			if seat.StudentID != 0 {
				playing[seat.StudentID] = fmt.Sprintf("playing, %d to %d", st.Scores[seat.Seat], st.Leader(seat.Seat))
			}
		}
		lm.mu.Unlock()
		v.Matches = append(v.Matches, templates.MatchRow{ID: lm.row.ID, Players: strings.Join(names, " vs "), Status: "playing", Decisions: decisions})
	}
	for _, st := range students {
		stat := stats[st.ID]
		row := templates.StudentRow{ID: st.ID, Name: st.Nickname, Anon: st.AnonName, Status: "waiting", Games: stat.Games, Wins: stat.Wins, Decisions: stat.Decisions}
		if p, ok := playing[st.ID]; ok {
			row.Status = p
		}
		if stat.Analysed > 0 {
			row.AgreeOptimal = percent(float64(stat.AgreeOptimal) / float64(stat.Analysed))
			row.Cost = fmt.Sprintf("%.2f", 100*stat.Cost)
		}
		v.Students = append(v.Students, row)
	}
	return v, nil
}

func (s *Server) projector(c *gin.Context) {
	class := classFrom(c)
	live, err := s.projectorData(c.Request.Context(), class)
	if err != nil {
		fail(c, err)
		return
	}
	pc, err := s.projectorChart(c.Request.Context(), class)
	if err != nil {
		fail(c, err)
		return
	}
	var sk *templates.SkunkBoard
	if b, ok := s.skunkBoard(class, 0, false); ok {
		sk = &b
	}
	render(c, http.StatusOK, templates.ProjectorView(templates.Projector{Code: class.Code, JoinURL: s.publicURL(c.Request) + "/join", Live: live, Chart: pc, Skunk: sk}))
}

// projectorChart is the chart the teacher picked for the projector.
func (s *Server) projectorChart(ctx context.Context, class store.Class) (templates.ProjectorChart, error) {
	v := templates.ProjectorChart{Code: class.Code}
	if class.Projector == "" {
		return v, nil
	}
	ch, err := s.classChart(ctx, class, class.Projector, 0)
	if err != nil {
		return v, err
	}
	v.Chart = &ch
	return v, nil
}

func (s *Server) projectorChartFragment(c *gin.Context) {
	pc, err := s.projectorChart(c.Request.Context(), classFrom(c))
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.ProjectorChartView(pc))
}

// pickProjectorChart chooses the chart on the projector ("" for none).
func (s *Server) pickProjectorChart(c *gin.Context) {
	class := classFrom(c)
	key := c.PostForm("chart")
	if _, ok := charts.Titles[key]; !ok && key != "" {
		refuse(c, http.StatusUnprocessableEntity, "Chart: choose one of the charts on the class page.")
		return
	}
	if err := s.store.SetProjector(c.Request.Context(), class.ID, key); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/t/"+class.Code+"#charts")
}

func (s *Server) projectorLive(c *gin.Context) {
	live, err := s.projectorData(c.Request.Context(), classFrom(c))
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.ProjectorLiveView(live))
}

// projectorData is a shared screen: generated names in anonymous mode.
func (s *Server) projectorData(ctx context.Context, class store.Class) (templates.ProjectorLive, error) {
	students, err := s.store.Students(ctx, class.ID)
	if err != nil {
		return templates.ProjectorLive{}, err
	}
	rounds, err := s.store.Rounds(ctx, class.ID)
	if err != nil {
		return templates.ProjectorLive{}, err
	}
	v := templates.ProjectorLive{Code: class.Code, Count: len(students), Locked: class.Locked, Round: roundLabel(rounds)}
	for _, st := range students {
		v.Names = append(v.Names, pick(class.Anonymous, st.AnonName, st.Nickname))
	}
	return v, nil
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// classFlags is what setFlag changes.
type classFlags = store.ClassFlags

// setFlag turns one of the class's switches.
func (s *Server) setFlag(change func(*classFlags), done string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		f := classFlags{Locked: class.Locked, Paused: class.Paused, Anonymous: class.Anonymous}
		change(&f)
		if err := s.store.SetClassFlags(c.Request.Context(), class.ID, f); err != nil {
			fail(c, err)
			return
		}
		if class.Paused && !f.Paused {
			s.restartClocks(class.ID)
		}
		c.Redirect(http.StatusSeeOther, "/t/"+class.Code+"?done="+urlQuery(done))
	}
}

// urlQuery escapes a notice for the dashboard's ?done= parameter.
func urlQuery(s string) string { return url.QueryEscape(s) }

// startRound starts a round: every student in a match, against the chosen
// bot or paired (an odd student plays the bot), one seed for all on request.
func (s *Server) startRound(c *gin.Context) {
	ctx := c.Request.Context()
	class := classFrom(c)
	form, v, ok := s.parseRound(c)
	if !ok {
		d, err := s.dashboardView(c, form)
		if err != nil {
			fail(c, err)
			return
		}
		render(c, http.StatusUnprocessableEntity, templates.DashboardView(d))
		return
	}
	round, n, err := s.beginRound(ctx, class, roundSpec{variant: v, mode: form.Mode.Value, bot: form.Bot.Value, sameSeed: form.SameSeed})
	if errors.Is(err, errNoStudents) {
		form.Error = "No students have joined yet: share the join code first."
		d, err := s.dashboardView(c, form)
		if err != nil {
			fail(c, err)
			return
		}
		render(c, http.StatusConflict, templates.DashboardView(d))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/t/"+class.Code+"?done="+urlQuery(fmt.Sprintf("Round %d started: %d matches.", round.Number, n)))
}

// roundSpec is what a round plays: from the form or from a lesson phase.
type roundSpec struct {
	variant  sim.Variant
	mode     string // "bot" or "pairs"
	bot      string
	sameSeed bool
}

var errNoStudents = errors.New("no students have joined yet")

// beginRound ends the open round and starts a new one: every student in a
// match, against the bot or paired (an odd student plays the bot), one seed
// for all on request. It returns the round and its number of matches.
func (s *Server) beginRound(ctx context.Context, class store.Class, spec roundSpec) (store.Round, int, error) {
	students, err := s.store.Students(ctx, class.ID)
	if err != nil {
		return store.Round{}, 0, err
	}
	if len(students) == 0 {
		return store.Round{}, 0, errNoStudents
	}
	if err := s.endCurrentRound(ctx, class.ID); err != nil {
		return store.Round{}, 0, err
	}
	shuffle(students)
	seed := sim.NewSeed()
	var rows []store.Match
	seatOf := func(st store.Student, n int) store.Seat {
		return store.Seat{Seat: n, StudentID: st.ID, Nickname: st.Nickname, AnonName: st.AnonName, TokenHash: st.TokenHash}
	}
	n := spec.variant.Seats
	for i := 0; i < len(students); {
		if !spec.sameSeed {
			seed = sim.NewSeed()
		}
		// Each student sits with n-1 bots, or with up to n-1 classmates and
		// bots in the seats left over.
		seats := []store.Seat{seatOf(students[i], 0)}
		i++
		for len(seats) < n {
			if spec.mode == "pairs" && i < len(students) {
				seats = append(seats, seatOf(students[i], len(seats)))
				i++
			} else {
				seats = append(seats, store.Seat{Seat: len(seats), Bot: spec.bot})
			}
		}
		row := newMatchRow(spec.variant, seed, seats)
		row.ClassID = class.ID
		rows = append(rows, row)
	}
	round := store.Round{ClassID: class.ID, Variant: spec.variant, Mode: spec.mode, Bot: spec.bot, SameSeed: spec.sameSeed}
	round, ids, err := s.store.CreateRound(ctx, round, rows)
	if err != nil {
		return round, 0, err
	}
	for i := range rows {
		rows[i].ID, rows[i].RoundID, rows[i].RoundIndex = ids[i], round.ID, round.Number
	}
	return round, len(rows), s.start(ctx, rows)
}

// parseRound reads the round form; every bad field gets its message.
func (s *Server) parseRound(c *gin.Context) (templates.RoundForm, sim.Variant, bool) {
	f := templates.RoundForm{
		Game: templates.Field{Value: c.PostForm("game")}, Target: templates.Field{Value: strings.TrimSpace(c.PostForm("target"))},
		MaxDice: templates.Field{Value: strings.TrimSpace(c.PostForm("max_dice"))}, Deadline: templates.Field{Value: strings.TrimSpace(c.PostForm("deadline"))},
		Mode: templates.Field{Value: c.PostForm("mode")}, Bot: templates.Field{Value: c.PostForm("bot")},
		Seats:      templates.Field{Value: strings.TrimSpace(c.PostForm("seats"))},
		EqualTurns: c.PostForm("equal_turns") == "on", SameSeed: c.PostForm("same_seed") == "on",
	}
	ok := true
	bad := func(field *templates.Field, msg string) { field.Error, ok = msg, false }
	g, err := sim.ParseGame(f.Game.Value)
	if err != nil {
		bad(&f.Game, "Game: "+err.Error()+".")
	}
	v := sim.Standard(g)
	v.EqualTurns = f.EqualTurns
	if n, err := strconv.Atoi(f.Target.Value); err != nil || n < sim.MinTarget || n > solve.MaxTarget {
		bad(&f.Target, fmt.Sprintf("Target: a whole number from %d to %d.", sim.MinTarget, solve.MaxTarget))
	} else {
		v.Target = n
	}
	if g == sim.Hog {
		if n, err := strconv.Atoi(f.MaxDice.Value); err != nil || n < 1 || n > sim.MaxDiceLimit {
			bad(&f.MaxDice, fmt.Sprintf("Most dice: a whole number from 1 to %d.", sim.MaxDiceLimit))
		} else {
			v.MaxDice = n
		}
	}
	if f.Deadline.Value != "" {
		if n, err := strconv.Atoi(f.Deadline.Value); err != nil || n < 3 || n > 600 {
			bad(&f.Deadline, "Seconds per roll: leave it empty for no deadline, or a whole number from 3 to 600.")
		} else {
			v.Deadline = sim.Duration(time.Duration(n) * time.Second)
		}
	}
	if f.Mode.Value != "bot" && f.Mode.Value != "pairs" {
		bad(&f.Mode, "Opponents: choose bots or students together.")
	}
	if f.Seats.Value == "" {
		f.Seats.Value = "2" // an older form, or none sent: two players
	}
	if n, err := strconv.Atoi(f.Seats.Value); err != nil || n < sim.MinSeats || n > sim.MaxSeats {
		bad(&f.Seats, fmt.Sprintf("Players per match: a whole number from %d to %d.", sim.MinSeats, sim.MaxSeats))
	} else {
		v.Seats = n
	}
	if ok {
		if _, err := solve.ParseStrategy(f.Bot.Value, v, s.tables); err != nil {
			bad(&f.Bot, "Bot: "+err.Error()+".")
		}
	}
	return f, v, ok
}

// shuffle puts the students in a random order for pairing.
func shuffle(xs []store.Student) {
	for i := len(xs) - 1; i > 0; i-- {
		j, _ := rand.Int(rand.Reader, big.NewInt(int64(i+1)))
		xs[i], xs[j.Int64()] = xs[j.Int64()], xs[i]
	}
}

func (s *Server) endRound(c *gin.Context) {
	class := classFrom(c)
	if err := s.endCurrentRound(c.Request.Context(), class.ID); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/t/"+class.Code+"?done="+urlQuery("Round ended."))
}

// endCurrentRound ends the class's open round and its matches.
func (s *Server) endCurrentRound(ctx context.Context, classID int64) error {
	rounds, err := s.store.Rounds(ctx, classID)
	if err != nil {
		return err
	}
	for _, r := range rounds {
		if r.Ended {
			continue
		}
		if err := s.endMatches(ctx, s.liveWhere(func(lm *liveMatch) bool { return lm.row.RoundID == r.ID })); err != nil {
			return err
		}
		if err := s.store.EndRound(ctx, r.ID); err != nil {
			return err
		}
	}
	return nil
}

func (s *Server) removeStudent(c *gin.Context) {
	ctx := c.Request.Context()
	class := classFrom(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		refuse(c, http.StatusNotFound, "There is no such student.")
		return
	}
	if err := s.endMatches(ctx, s.liveWhere(func(lm *liveMatch) bool { return lm.row.ClassID == class.ID && lm.seatOf(id) >= 0 })); err != nil {
		fail(c, err)
		return
	}
	if err := s.store.RemoveStudent(ctx, class.ID, id); err != nil {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, "/t/"+class.Code+"?done="+urlQuery("Student removed."))
}

// deleteClass deletes the class and every row that belongs to it.
func (s *Server) deleteClass(c *gin.Context) {
	ctx := c.Request.Context()
	class := classFrom(c)
	if c.PostForm("confirm") != "yes" {
		refuse(c, http.StatusUnprocessableEntity, "Confirm: tick the box to delete the class and all its data.")
		return
	}
	if err := s.endMatches(ctx, s.liveWhere(func(lm *liveMatch) bool { return lm.row.ClassID == class.ID })); err != nil {
		fail(c, err)
		return
	}
	if err := s.store.DeleteClass(ctx, class.ID); err != nil {
		fail(c, err)
		return
	}
	s.mu.Lock()
	delete(s.skunks, class.ID)
	s.mu.Unlock()
	setCookie(c, teacherPrefix+class.Code, "", -1)
	c.Redirect(http.StatusSeeOther, "/")
}
