package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// startRound starts a round: every student in a match, against the chosen
// bot or paired (an odd student plays the bot), one seed for all on request.
func (s *Server) startRound(c *gin.Context) {
	ctx := c.Request.Context()
	class := classFrom(c)
	form, v, ok := s.parseRound(c)
	if !ok {
		render(c, http.StatusUnprocessableEntity, templates.RoundFormView(s.formView(c, form)))
		return
	}
	round, n, err := s.room.StartRound(ctx, viewerFrom(c), classroom.RoundSpec{Variant: v, Mode: play.Mode(form.Mode.Value), Bot: form.Bot.Value, SameSeed: form.SameSeed, Arms: form.Arms})
	if refusedOnForm(err) {
		// The door's refusal (a limit, the tables' room, the mystery
		// bot's table) or no students: the form again, saying why.
		status, msg := explain(loc(c), err)
		switch {
		case errors.Is(err, classroom.ErrNoStudents):
			status, msg = http.StatusConflict, loc(c).T("notice.nostudents")
		case status == http.StatusTooManyRequests, status == http.StatusConflict && !errors.Is(err, play.ErrMysteryWaits):
			status = http.StatusUnprocessableEntity // a limit, or the tables' room: the form's answer
		}
		form.Error = msg
		render(c, status, templates.RoundFormView(s.formView(c, form)))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).N("notice.round_started", n, "Round", loc(c).Int(round.Number)))
}

// parseRound reads the round form; every bad field gets its message.
func (s *Server) parseRound(c *gin.Context) (templates.RoundForm, sim.Variant, bool) {
	f := templates.RoundForm{
		Game: templates.Field{Value: c.PostForm("game")}, Target: templates.Field{Value: strings.TrimSpace(c.PostForm("target"))},
		MaxDice: templates.Field{Value: strings.TrimSpace(c.PostForm("max_dice"))}, Deadline: templates.Field{Value: strings.TrimSpace(c.PostForm("deadline"))},
		Mode: templates.Field{Value: c.PostForm("mode")}, Bot: templates.Field{Value: c.PostForm("bot")},
		Seats:      templates.Field{Value: strings.TrimSpace(c.PostForm("seats"))},
		EqualTurns: c.PostForm("equal_turns") == "on", SameSeed: c.PostForm("same_seed") == "on", Arms: c.PostForm("arms") == "on",
	}
	ok, l := true, loc(c)
	bad := func(field *templates.Field, msg string) { field.Error, ok = msg, false }
	g, err := sim.ParseGame(f.Game.Value)
	if err != nil {
		bad(&f.Game, l.T("error.game", "Games", strings.Join(gameNamesIn(l), ", ")))
	}
	v := sim.Standard(g)
	v.EqualTurns = f.EqualTurns
	f.ChoosesDice = g.ChoosesDice()
	if n, err := strconv.Atoi(f.Target.Value); err != nil || n < sim.MinTarget || n > solve.MaxTarget {
		bad(&f.Target, l.T("roundform.target", "Min", l.Int(sim.MinTarget), "Max", l.Int(solve.MaxTarget)))
	} else {
		v.Target = n
	}
	if g.ChoosesDice() {
		if n, err := strconv.Atoi(f.MaxDice.Value); err != nil || n < 1 || n > maxRoundDice {
			bad(&f.MaxDice, l.T("roundform.maxdice", "Max", l.Int(maxRoundDice)))
		} else {
			v.MaxDice = n
		}
	}
	if f.Deadline.Value != "" {
		if n, err := strconv.Atoi(f.Deadline.Value); err != nil || n < 3 || n > 600 {
			bad(&f.Deadline, l.T("roundform.deadline"))
		} else {
			v.Deadline = sim.Duration(time.Duration(n) * time.Second)
		}
	}
	if m := play.Mode(f.Mode.Value); m != play.AgainstBots && m != play.InPairs {
		bad(&f.Mode, l.T("roundform.mode"))
	}
	if f.Seats.Value == "" {
		f.Seats.Value = "2" // an older form, or none sent: two players
	}
	if n, err := strconv.Atoi(f.Seats.Value); err != nil || n < sim.MinSeats || n > sim.MaxSeats {
		bad(&f.Seats, l.T("roundform.seats", "Min", l.Int(sim.MinSeats), "Max", l.Int(sim.MaxSeats)))
	} else {
		v.Seats = n
	}
	if ok {
		if problem := botProblem(l, v, f.Bot.Value); problem != "" {
			bad(&f.Bot, problem)
		}
	}
	return f, v, ok
}

// botProblem says why bot cannot play a round of v, or "".
func botProblem(l *i18n.Localizer, v sim.Variant, bot string) string {
	if solve.CheckStrategy(bot, v) == nil {
		return ""
	}
	g, id := v.Game, "roundform.bot"
	switch {
	case g.ChoosesDice() && sim.OtherGamesBot(g, bot):
		return l.T(id+"_hog", "Game", gameName(l, g))
	case sim.OtherGamesBot(g, bot):
		return l.T(id+"_dice", "Game", gameName(l, g))
	}
	return l.T(id, "Game", gameName(l, g))
}

// maxRoundDice is the most dice a Hog round may allow.
const maxRoundDice = 20

// refusedOnForm reports whether a round's start was refused for a
// reason the form can say: no students yet, or the door every match
// starts through (play.Hall.Start) refused it, or the experiment "Decide
// before you roll" asked of a game with no rolling and holding.
func refusedOnForm(err error) bool {
	var limited *play.LimitError
	var room *solve.RoomError
	return errors.Is(err, classroom.ErrNoStudents) || errors.Is(err, play.ErrMysteryWaits) || errors.Is(err, classroom.ErrArmsRollHold) ||
		errors.As(err, &limited) || errors.As(err, &room)
}
