package server

import (
	"errors"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
)

// playAgain starts a round like the last one: same game, rules,
// opponents and bot.
func (s *Server) playAgain(c *gin.Context) {
	class := classFrom(c)
	rounds, err := s.reports.Rounds(c.Request.Context(), viewerFrom(c))
	if err != nil {
		fail(c, err)
		return
	}
	if len(rounds) == 0 {
		done(c, class.Code, loc(c).T("notice.noround_yet"))
		return
	}
	last := rounds[len(rounds)-1]
	round, n, err := s.room.StartRoundAgain(c.Request.Context(), viewerFrom(c), classroom.RoundSpec{Variant: last.Variant, Mode: last.Mode, Bot: last.Bot, SameSeed: last.SameSeed, Arms: last.Arms})
	if errors.Is(err, classroom.ErrNoStudents) {
		done(c, class.Code, loc(c).T("notice.nostudents"))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).N("notice.round_again", n, "Round", loc(c).Int(round.Number)))
}
