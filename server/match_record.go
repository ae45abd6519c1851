package server

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"
)

// record serves a finished match's record (with its seed) for verify, to
// the match's players and its class's teacher (who may share the file),
// once no other match plays with its dice.
func (s *Server) record(c *gin.Context) {
	id, v, ok := s.matchAsked(c)
	if !ok {
		return
	}
	rec, m, err := s.room.Record(c.Request.Context(), v, id)
	if m == nil {
		refuseMatch(c, id, err)
		return
	}
	classLanguage(c, m.Class, false)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="match-%d.json"`, id))
	b, _ := json.MarshalIndent(rec, "", "  ")
	c.Data(http.StatusOK, "application/json", b)
}
