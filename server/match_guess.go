package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/store"
	"pigclass/templates/paths"
)

// guessMystery stores a player's guess of the strength a mystery bot of
// their match played at, and goes back to its review, which now shows
// what the bot's moves ruled out and what it was. A second guess of the
// same bot leaves the first (the review says which).
func (s *Server) guessMystery(c *gin.Context) {
	id, v := matchAsked(c)
	if class := v.Class(); class != nil {
		classLanguage(c, class, false)
	}
	seat, err := strconv.Atoi(c.PostForm("seat"))
	if err != nil {
		seat = -1
	}
	err = s.hall.SaveGuess(c.Request.Context(), v.Seer(), id, seat, c.PostForm("strength"))
	if err != nil && !errors.Is(err, store.ErrGuessed) {
		refuseMatch(c, id, err)
		return
	}
	code := ""
	if class := v.Class(); class != nil {
		code = class.Code
	}
	c.Redirect(http.StatusSeeOther, paths.Match(code, id)+"#mystery-"+strconv.Itoa(seat))
}
