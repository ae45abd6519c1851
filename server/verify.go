package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/sim"
	"pigclass/templates"
)

// verifyPage shows the verify form, filled with a finished match's record
// when ?match= names one.
func (s *Server) verifyPage(c *gin.Context) {
	v := templates.Verify{}
	if code := normalizeCode(c.Param("code")); code != "" {
		v.NextURL = nextURL(code, 0)
	}
	if id, err := strconv.ParseInt(c.Query("match"), 10, 64); err == nil {
		if mv, err := s.loadMatch(c.Request.Context(), c, normalizeCode(c.Param("code")), id); err == nil && mv.snap.Over() && mv.mayRead(c) {
			if rec, err := matchRecord(mv.snap); err == nil {
				b, _ := json.MarshalIndent(rec, "", "  ")
				v.Record.Value = string(b)
			}
		}
	}
	render(c, http.StatusOK, templates.VerifyView(v))
}

// verify checks a pasted record, like pigclass verify.
func (s *Server) verify(c *gin.Context) {
	v := templates.Verify{Record: templates.Field{Value: c.PostForm("record")}}
	var r sim.Record
	if strings.TrimSpace(v.Record.Value) == "" {
		v.Record.Error = "Match record: paste the JSON record of a finished match."
		render(c, http.StatusUnprocessableEntity, templates.VerifyView(v))
		return
	}
	if err := json.Unmarshal([]byte(v.Record.Value), &r); err != nil {
		v.Record.Error = "Match record: this is not a match record (" + err.Error() + ")."
		render(c, http.StatusUnprocessableEntity, templates.VerifyView(v))
		return
	}
	got, err := sim.VerifyJSON([]byte(v.Record.Value))
	if err != nil {
		v.Report = []string{"It does not check out: " + err.Error()}
		render(c, http.StatusOK, templates.VerifyView(v))
		return
	}
	v.OK = true
	v.Report = []string{
		fmt.Sprintf("It checks out: %s. The seed's SHA-256 is the commitment %s.", r.Variant, r.Seed.Commitment()),
		fmt.Sprintf("%d events, %d rolls: every die is the one the seed gives.", got.Events, got.Rolls),
	}
	if res := got.State.Result(); res != nil {
		n := got.State.Variant.Seats
		scores := make([]string, n)
		for seat, sc := range res.Scores {
			scores[exportSeat(seat, got.State.First, n)-1] = strconv.Itoa(sc)
		}
		v.Report = append(v.Report, fmt.Sprintf("The player in seat %d won (seats counted from 1, the player who moved first); scores by seat: %s.",
			exportSeat(res.Winner, got.State.First, n), strings.Join(scores, ", ")))
	}
	render(c, http.StatusOK, templates.VerifyView(v))
}
