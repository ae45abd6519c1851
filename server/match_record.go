package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/play"
)

// record serves a finished match's record (with its seed) for verify, to
// the match's players and its class's teacher (who may share the file),
// once no other match plays with its dice.
func (s *Server) record(c *gin.Context) {
	id, v := matchAsked(c)
	rec, m, err := s.hall.Record(c.Request.Context(), v.Seer(), id)
	if m == nil {
		refuseMatch(c, id, err)
		return
	}
	classLanguage(c, seen(v, m).Class, false)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="match-%d.json"`, id))
	b, _ := json.MarshalIndent(rec, "", "  ")
	c.Data(http.StatusOK, "application/json", b)
}

// skunkRecord serves a game of whole-class Skunk's record (with its seed)
// for verify, to the class's members, once the game is no longer played.
func (s *Server) skunkRecord(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		refuse(c, http.StatusNotFound, loc(c).T("error.nopage"))
		return
	}
	v := viewerFrom(c)
	if class := v.Class(); class != nil {
		classLanguage(c, class, false)
	}
	rec, err := s.room.SkunkRecord(c.Request.Context(), v, id)
	var later *play.SeedLaterError
	switch {
	case errors.As(err, &later):
		refuse(c, http.StatusConflict, loc(c).T("skunk.record_later"))
		return
	case errors.Is(err, play.ErrNotSeated):
		refuse(c, http.StatusNotFound, loc(c).T("error.nopage"))
		return
	case err != nil:
		fail(c, err)
		return
	}
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="skunk-%d.json"`, id))
	b, _ := json.MarshalIndent(rec, "", "  ")
	c.Data(http.StatusOK, "application/json", b)
}
