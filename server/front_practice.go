package server

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/paths"
)

// startPractice starts a match against a bot for anyone, without a class.
func (s *Server) startPractice(c *gin.Context) {
	ctx := c.Request.Context()
	g, err := sim.ParseGame(c.PostForm("game"))
	if err != nil {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.game", "Games", strings.Join(gameNamesIn(loc(c)), ", ")))
		return
	}
	v := sim.Standard(g)
	// The front page offers one list of bots for every game: a Pig bot
	// chosen for Hog, or a Hog bot for Pig, plays perfectly instead.
	bot := c.PostForm("bot")
	if sim.OtherGamesBot(g, bot) {
		bot = sim.PerfectBot
	}
	if err := solve.CheckStrategy(bot, v); err != nil {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.bot"))
		return
	}
	m, err := s.room.Practice(ctx, classroom.HashToken(playerToken(c)), clientKey(c), v, bot)
	var limited *play.LimitError
	if errors.As(err, &limited) && limited.Limit == play.LimitDeviceStarts {
		refuse(c, http.StatusTooManyRequests, loc(c).T("error.practice_rate"))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	// Practice keeps an eye on the student's class: its page moves to the
	// student's next match there by itself. From a class's page the page
	// says which; from the front page, the class this browser is a
	// student of (the one playing a round), whose match now is not next.
	to := paths.Match("", m.ID)
	code, after := classroom.NormalizeCode(c.PostForm("class")), int64(0)
	if validCode(code) {
		after, _ = strconv.ParseInt(c.PostForm("after"), 10, 64)
	} else if class, ok := s.room.ClassOf(classroom.HashToken(playerToken(c))); ok {
		code = class.Code
		if v, err := s.room.Identify(ctx, classroom.Credentials{Code: code, TokenHash: classroom.HashToken(playerToken(c))}); err == nil {
			if now := v.Playing(); now != nil {
				after = now.ID
			}
		}
	}
	if validCode(code) {
		to += "?" + url.Values{"class": {code}, "after": {strconv.FormatInt(max(after, 0), 10)}}.Encode()
	}
	c.Redirect(http.StatusSeeOther, to)
}
