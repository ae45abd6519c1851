package server

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/contest"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// tournament is the teacher's strategy tournament (issue 46), drawn by
// view: the whole page (a form to open one, the open one's entries, the
// duels being played, the standings: templates.TournamentView), or its
// state and standings for the page's poll while the duels are played
// (templates.TournamentLive).
func (s *Server) tournament(view func(templates.TournamentPage) templ.Component) gin.HandlerFunc {
	return func(c *gin.Context) {
		pg, err := s.tournamentPage(c, nil)
		if err != nil {
			fail(c, err)
			return
		}
		render(c, http.StatusOK, view(pg))
	}
}

// openTournament opens a tournament of the game posted, with the bots
// ticked; a refusal comes back on the form.
func (s *Server) openTournament(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	form := tournamentForm{game: c.PostForm("game"), target: c.PostForm("target"), bots: c.PostFormArray("bot"), minutes: c.PostForm("minutes")}
	v, problem := form.variant(l)
	closes, when := form.closes(l, s.cfg.Now())
	if problem == "" {
		problem = when
	}
	if problem == "" {
		_, err := s.contest.Open(c.Request.Context(), class.ID, v, form.botsFor(v.Game), closes)
		switch {
		case errors.Is(err, contest.ErrOpen):
			problem = l.T("contest.error.open")
		case err != nil && !errors.Is(err, store.ErrNotFound):
			problem = l.T("contest.error.game", "Error", err.Error())
		default:
			doneAt(c, paths.Tournament.For(class.Code), "")
			return
		}
	}
	pg, err := s.tournamentPage(c, &form)
	if err != nil {
		fail(c, err)
		return
	}
	pg.Error = problem
	render(c, http.StatusUnprocessableEntity, templates.TournamentView(pg))
}

// closeTournament closes the open tournament's entries and starts its
// duels.
func (s *Server) closeTournament(c *gin.Context) {
	class := classFrom(c)
	id, _ := strconv.ParseInt(c.PostForm("id"), 10, 64)
	err := s.contest.Close(c.Request.Context(), class.ID, id)
	var many *contest.TooManyError
	if errors.Is(err, contest.ErrFew) || errors.As(err, &many) {
		pg, perr := s.tournamentPage(c, nil)
		if perr != nil {
			fail(c, perr)
			return
		}
		pg.Error = loc(c).T("contest.error.fewer")
		if many != nil {
			pg.Error = loc(c).T("contest.error.too_many_entries", "N", loc(c).Int(many.Entries), "Max", loc(c).Int(contest.MaxEntries))
		}
		render(c, http.StatusConflict, templates.TournamentView(pg))
		return
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		fail(c, err)
		return
	}
	c.Redirect(http.StatusSeeOther, paths.Tournament.For(class.Code))
}

// dashTournament is the class's strategy tournament in a sentence for
// the dashboard, beside the link to its page ("" for none): open for
// entries, being played, or played.
func (s *Server) dashTournament(c *gin.Context) (string, error) {
	st, err := s.contest.Status(c.Request.Context(), classFrom(c).ID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var pg templates.TournamentPage
	err = s.tournamentState(c, loc(c), classFrom(c), st, &pg)
	return pg.Status, err
}

// tournamentForm is the open form as posted.
type tournamentForm struct {
	game, target, minutes string
	bots                  []string
}

// closes is when the form's entries close by themselves: in minutes from
// now, or on the button (empty: zero); else what to fix.
func (f tournamentForm) closes(l *i18n.Localizer, now time.Time) (time.Time, string) {
	if strings.TrimSpace(f.minutes) == "" {
		return time.Time{}, ""
	}
	n, err := strconv.Atoi(strings.TrimSpace(f.minutes))
	if err != nil || n < 1 || n > maxEntryMinutes {
		return time.Time{}, l.T("contest.error.minutes", "Max", l.Int(maxEntryMinutes))
	}
	return now.Add(time.Duration(n) * time.Minute), ""
}

// maxEntryMinutes is the longest a tournament's entries stay open by the
// clock: a lesson.
const maxEntryMinutes = 180

// botsFor are the bots ticked that play game g: "rule" is its rule of
// thumb; keep pace and end race plays the games that have it.
func (f tournamentForm) botsFor(g sim.Game) []string {
	var out []string
	for _, b := range f.bots {
		if b == "rule" {
			b = sim.HoldAt(g.Rules().HoldAt).String()
		}
		if slices.Contains(contest.Bots(g), b) && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// variant reads the form's game and target, or says what to fix.
func (f tournamentForm) variant(l *i18n.Localizer) (sim.Variant, string) {
	g, err := sim.ParseGame(f.game)
	if err != nil || g.ChoosesDice() || g.Rules().Turn == sim.OneThrow {
		return sim.Variant{}, l.T("contest.error.holds")
	}
	v := sim.Standard(g)
	n, err := strconv.Atoi(f.target)
	if err != nil || n < sim.MinTarget || n > tournamentMaxTarget {
		return v, l.T("contest.error.target", "Min", l.Int(sim.MinTarget), "Max", l.Int(tournamentMaxTarget))
	}
	v.Target = n
	return v, ""
}

// tournamentMaxTarget is the largest target a tournament plays: a game to
// 100 of 33 entries plays its 1,056 duels in about 15 s on two cores
// (BenchmarkTournament) and about half a minute on the one core the
// contest takes; larger targets grow as their cube.
const tournamentMaxTarget = 100

// tournamentPage is the teacher's page: the form (as posted, or the
// defaults), and the latest tournament's state.
func (s *Server) tournamentPage(c *gin.Context, posted *tournamentForm) (templates.TournamentPage, error) {
	ctx, class, l := c.Request.Context(), classFrom(c), loc(c)
	code := class.Code
	pg := templates.TournamentPage{Code: code, BackURL: paths.Teacher.For(code), PostURL: paths.Tournament.For(code), CloseURL: paths.TournamentClose.For(code),
		MinTarget: sim.MinTarget, MaxTarget: tournamentMaxTarget}
	form := tournamentForm{game: sim.Pig.String(), target: strconv.Itoa(sim.DefaultTarget), bots: []string{"rule", sim.KeepPaceBot, sim.PerfectBot}}
	if posted != nil {
		form = *posted
	}
	pg.Game, pg.Target, pg.Minutes = templates.Field{Value: form.game}, templates.Field{Value: form.target}, templates.Field{Value: form.minutes}
	for _, g := range sim.Games {
		if g.Rules().Turn != sim.OneThrow && !g.ChoosesDice() {
			pg.Games = append(pg.Games, templates.Choice{Value: g.String(), Label: gameName(l, g)})
		}
	}
	// Each bot is named as the standings will name it: the rule of thumb
	// by its number in the form's game ("Hold-20 bot" in Pig).
	g, err := sim.ParseGame(form.game)
	if err != nil {
		g = sim.Pig
	}
	rule := g.Rules().HoldAt
	for _, b := range []string{"rule", sim.KeepPaceBot, sim.PerfectBot} {
		label := l.Say(botName(b, rule))
		if b == "rule" {
			label = l.Say(botName(sim.HoldAt(rule).String(), rule))
		}
		pg.Bots = append(pg.Bots, templates.Choice{Value: b, Label: label, Selected: slices.Contains(form.bots, b)})
	}
	st, err := s.contest.Status(ctx, class.ID)
	if errors.Is(err, store.ErrNotFound) {
		return pg, nil
	}
	if err != nil {
		return pg, err
	}
	return pg, s.tournamentState(c, l, class, st, &pg)
}

// tournamentState puts the tournament's state and standings on the page.
func (s *Server) tournamentState(c *gin.Context, l *i18n.Localizer, class *classroom.Class, st contest.Status, pg *templates.TournamentPage) error {
	game := gameTitle(l, st.Variant)
	pg.ID = st.ID
	switch {
	case st.ClosedAt.IsZero():
		n, err := s.contest.Entered(c.Request.Context(), class.ID, st.Variant)
		if err != nil {
			return err
		}
		pg.Open, pg.Status = true, l.N("contest.status.open", n, "Game", game)
		if !st.ClosesAt.IsZero() {
			pg.Status += " " + l.T("contest.closes", "Time", st.ClosesAt.Local().Format("15:04"))
		}
	case st.Err != nil:
		pg.Status = l.T("contest.status.failed", "Error", st.Err.Error())
	case st.Result == nil:
		pg.Playing, pg.LiveURL = true, paths.TournamentLive.For(class.Code)
		pg.Status = tournamentLine(l, st)
		standingsTable(l, class, st.Variant, st.Partial, pg)
	default:
		pg.Status = tournamentLine(l, st)
		standingsTable(l, class, st.Variant, st.Result, pg)
	}
	return nil
}

// tournamentLine says where a closed tournament is: its duels being
// played, or played (the teacher's page and the projector).
func tournamentLine(l *i18n.Localizer, st contest.Status) string {
	game := gameTitle(l, st.Variant)
	if st.Result == nil && st.Of == 0 {
		// Closed, its duels not counted yet: it waits for the server's
		// duel slot (another class's duel), or gathers its entries.
		return l.T("contest.status.waiting", "Game", game)
	}
	if st.Result == nil {
		return l.T("contest.status.playing", "Game", game, "Done", l.Int(st.Done), "Of", l.Int(st.Of))
	}
	n := len(st.Result.Entries)
	return l.T("contest.status.over", "Game", game, "N", l.Int(n), "Duels", l.Int(n*(n-1)))
}

// standingsTable puts a tournament's standings (so far, while played) on
// the teacher's page: rank, entry, average, easiest and hardest opponent.
func standingsTable(l *i18n.Localizer, class *classroom.Class, v sim.Variant, res *contest.Result, pg *templates.TournamentPage) {
	if res == nil {
		return
	}
	pg.Headers = []string{l.T("contest.col.rank"), l.T("contest.col.entry"), l.T("contest.col.average"), l.T("contest.col.best"), l.T("contest.col.worst")}
	name := func(i int) string { return entrantName(l, class, res.Entries[i], v, false) }
	against := func(i int, p float64) string {
		if i < 0 {
			return ""
		}
		return l.T("contest.against", "Name", name(i), "Chance", l.Pct(p, 1))
	}
	for _, row := range res.Standings {
		rank, average := standingWords(l, row, len(res.Entries))
		pg.Standings = append(pg.Standings, []string{rank, name(row.Entry), average, against(row.Best, row.BestChance), against(row.Worst, row.WorstChance)})
	}
}

// unplayed is what the standings show of an entry that has played no
// duel yet, while the tournament is played: no rank, no chance.
const unplayed = "-"

// standingWords are a standing's rank and average in the reader's format,
// or unplayed for both while the entry has met no opponent (its average
// would read 0.0%, as if it had lost every duel).
func standingWords(l *i18n.Localizer, row solve.Standing, entries int) (rank, average string) {
	if row.Best < 0 && entries > 1 {
		return unplayed, unplayed
	}
	return l.Int(row.Rank), l.Pct(row.Average, 1)
}
