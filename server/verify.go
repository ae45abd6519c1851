package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/i18n"
	"pigclass/server/paths"
	"pigclass/server/report"
	"pigclass/sim"
	"pigclass/templates"
)

// verifyPage shows the verify form, filled with a finished match's record
// when ?match= names one that the reader may have (as record does), or
// saying why not yet.
func (s *Server) verifyPage(c *gin.Context) {
	v := templates.Verify{}
	if code := normalizeCode(c.Param("code")); code != "" {
		v.NextURL = paths.Next(code, 0)
	}
	if id, err := strconv.ParseInt(c.Query("match"), 10, 64); err == nil {
		if viewer, err := s.viewer(c); err == nil {
			rec, m, err := s.room.Record(c.Request.Context(), viewer, id)
			if m != nil {
				classLanguage(c, m.Class, false)
			}
			var later *classroom.SeedLaterError
			switch {
			case err == nil:
				b, _ := json.MarshalIndent(rec, "", "  ")
				v.Record.Value = string(b)
			case errors.As(err, &later) && later.Playing > 0:
				v.Record.Error = loc(c).N("review.seedlater", later.Playing)
			}
		}
	}
	render(c, http.StatusOK, templates.VerifyView(v))
}

// verify checks a pasted record, like pigclass verify.
func (s *Server) verify(c *gin.Context) {
	l := loc(c)
	v := templates.Verify{Record: templates.Field{Value: c.PostForm("record")}}
	var r sim.Record
	if strings.TrimSpace(v.Record.Value) == "" {
		v.Record.Error = l.T("verify.empty")
		render(c, http.StatusUnprocessableEntity, templates.VerifyView(v))
		return
	}
	if err := json.Unmarshal([]byte(v.Record.Value), &r); err != nil {
		v.Record.Error, v.Technical = l.T("verify.notrecord"), err.Error()
		render(c, http.StatusUnprocessableEntity, templates.VerifyView(v))
		return
	}
	got, err := sim.VerifyJSON([]byte(v.Record.Value))
	if err != nil {
		v.Report = []string{l.T("verify.bad")}
		v.Detail, v.Technical = verifyDetail(l, err)
		render(c, http.StatusOK, templates.VerifyView(v))
		return
	}
	v.OK = true
	v.Report = []string{
		l.T("verify.ok", "Game", variantText(l, r.Variant), "Commitment", r.Seed.Commitment()),
		l.T("verify.counts", "Events", l.Int(got.Events), "Rolls", l.Int(got.Rolls)),
	}
	if res := got.State.Result(); res != nil {
		n := got.State.Variant.Seats
		scores := make([]string, n)
		for seat, sc := range res.Scores {
			scores[report.ExportSeat(seat, got.State.First, n)-1] = l.Int(sc)
		}
		v.Report = append(v.Report, l.T("verify.winner", "Seat", l.Int(report.ExportSeat(res.Winner, got.State.First, n)), "Scores", strings.Join(scores, "; ")))
	}
	render(c, http.StatusOK, templates.VerifyView(v))
}

// variantText names a match's rules in the reader's words: the game and
// target, the seats, and the options it was played with.
func variantText(l *i18n.Localizer, v sim.Variant) string {
	parts := []string{gameTitle(l, v), l.T("variant.seats", "N", l.Int(v.Seats))}
	if v.Game == sim.Hog {
		parts = append(parts, l.T("variant.dice", "N", l.Int(v.MaxDice)))
	}
	if v.Deadline > 0 {
		parts = append(parts, l.T("variant.deadline", "N", l.Int(int(time.Duration(v.Deadline).Seconds()))))
	}
	return strings.Join(parts, ", ")
}

// verifyDetail says what a record does not check out on, in the reader's
// language: the event and field, and the problem with its values. What
// only the JSON parser or the rules engine can say (a syntax error, rules
// pigclass does not play) comes back as technical, in its own English.
func verifyDetail(l *i18n.Localizer, err error) (detail, technical string) {
	var ve *sim.VerifyError
	if !errors.As(err, &ve) {
		return "", err.Error()
	}
	args := []any{}
	for k, v := range ve.Args {
		switch k {
		case "Action":
			if a, err := sim.ParseAction(v); err == nil {
				v = charts.ActionWord(l, a)
			}
		case "Code":
			args = append(args, "Why", l.T("verify.why."+v))
			continue
		case "Detail":
			technical = v
			continue
		}
		args = append(args, k, v)
	}
	problem := l.T("verify.problem."+ve.Problem, args...)
	switch {
	case ve.Event > 0:
		return l.T("verify.at_event", "N", l.Int(ve.Event), "Field", ve.Field) + " " + problem, technical
	case ve.Field != "":
		return l.T("verify.at_field", "Field", ve.Field) + " " + problem, technical
	}
	return problem, technical
}
