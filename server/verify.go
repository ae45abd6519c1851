package server

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// verifyPage shows the verify form, filled with a finished match's record
// when ?match= names one that the reader may have (as record does), or
// saying why not yet.
func (s *Server) verifyPage(c *gin.Context) {
	v := s.verifyView()
	if code := classroom.NormalizeCode(c.Param("code")); code != "" {
		v.NextURL = paths.Next(code, 0) // the page may be in the reader's language, not the class's: no lang
	}
	if id, err := strconv.ParseInt(c.Query("match"), 10, 64); err == nil {
		rec, m, err := s.hall.Record(c.Request.Context(), viewerFrom(c).Seer(), id)
		if m != nil {
			classLanguage(c, seen(viewerFrom(c), m).Class, false)
		}
		var later *play.SeedLaterError
		switch {
		case err == nil:
			b, _ := json.MarshalIndent(rec, "", "  ")
			v.Record.Value = string(b)
		case errors.As(err, &later) && later.Playing > 0:
			v.Record.Error = loc(c).N("review.seedlater", later.Playing)
		}
	}
	render(c, http.StatusOK, templates.VerifyView(v))
}

// verify checks a pasted record, like pigclass verify: the dice against
// the commitment, the moves against the rules, and the record against
// this server's signature, each said apart.
func (s *Server) verify(c *gin.Context) {
	l := loc(c)
	v := s.verifyView()
	v.Record.Value = c.PostForm("record")
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
	if sim.IsSkunkRecord([]byte(v.Record.Value)) {
		s.verifySkunk(c, v)
		return
	}
	got, err := sim.VerifyJSON([]byte(v.Record.Value))
	ve, dice := readFailure(l, &v, err)
	// The dice.
	switch {
	case err == nil && got.Entered > 0:
		// A table's: the players' throws by hand, a bot's by the seed.
		if got.Rolls > 0 {
			v.Checks = append(v.Checks, templates.Check{OK: true, Name: "dice",
				Text: l.T("verify.dice.ok", "Rolls", l.Int(got.Rolls), "Commitment", r.Seed.Commitment())})
		}
		v.Checks = append(v.Checks, templates.Check{OK: true, Name: "entered", Text: l.N("verify.dice.entered", got.Entered)})
	case err == nil:
		v.Checks = append(v.Checks, templates.Check{OK: true, Name: "dice",
			Text: l.T("verify.dice.ok", "Rolls", l.Int(got.Rolls), "Commitment", r.Seed.Commitment())})
	case !dice:
		v.Checks = append(v.Checks, templates.Check{OK: false, Name: "dice", Text: l.T("verify.dice.bad")})
	case ve != nil && ve.Event > 1:
		v.Checks = append(v.Checks, templates.Check{OK: true, Name: "dice",
			Text: l.T("verify.dice.before", "Rolls", l.Int(got.Rolls), "N", l.Int(ve.Event))})
	}
	// The moves.
	switch {
	case err == nil:
		text := l.T("verify.moves.ok", "Game", variantText(l, r.Variant), "Events", l.Int(got.Events))
		if res := got.State.Result(); res != nil {
			n := got.State.Variant.Seats
			scores := make([]string, n)
			for seat, sc := range res.Scores {
				scores[report.ExportSeat(seat, got.State.First, n)-1] = l.Int(sc)
			}
			text += " " + l.T("verify.winner", "Seat", l.Int(report.ExportSeat(res.Winner, got.State.First, n)), "Scores", strings.Join(scores, "; "))
		} else {
			text += " " + l.T("verify.notover")
		}
		v.Checks = append(v.Checks, templates.Check{OK: true, Name: "moves", Text: text})
	case dice:
		v.Checks = append(v.Checks, templates.Check{OK: false, Name: "moves", Text: l.T("verify.moves.bad")})
	}
	s.finishVerify(c, &v, err, got.Signature)
}

// readFailure reads a verification's error (nil: none) into the page's
// detail, and reports it as a VerifyError (if it is one) and whether the
// dice still check out (the error is not about them).
func readFailure(l *i18n.Localizer, v *templates.Verify, err error) (ve *sim.VerifyError, dice bool) {
	if err == nil {
		return nil, true
	}
	v.Detail, v.Technical = verifyDetail(l, err)
	if !errors.As(err, &ve) {
		return nil, true
	}
	return ve, !ve.Dice()
}

// finishVerify adds the third finding, the record as this server wrote it
// (its signature), and the summary, and draws the page.
func (s *Server) finishVerify(c *gin.Context, v *templates.Verify, err error, sig sim.SignatureCheck) {
	l := loc(c)
	ours := sim.Fingerprint(s.hall.RecordKey())
	signature := templates.Check{Name: "signature"}
	switch {
	case !sig.Signed:
		signature.Text = l.T("verify.signature.none")
	case errors.Is(sig.Err, sim.ErrSignatureMismatch):
		signature.Text = l.T("verify.signature.changed")
	case sig.Err != nil:
		signature.Text = l.T("verify.signature.unreadable")
	case sim.SameFingerprint(sim.Fingerprint(sig.Key), ours):
		signature.OK, signature.Text = true, l.T("verify.signature.ours", "Fingerprint", ours)
	default:
		signature.Text = l.T("verify.signature.foreign", "Fingerprint", sim.Fingerprint(sig.Key), "Ours", ours)
	}
	v.Checks = append(v.Checks, signature)
	v.OK = err == nil && signature.OK
	switch {
	case v.OK:
		v.Summary = l.T("verify.ok")
	case err == nil && !sig.Signed:
		v.Summary = l.T("verify.unproven")
	default:
		v.Summary = l.T("verify.bad")
	}
	render(c, http.StatusOK, templates.VerifyView(*v))
}

// verifySkunk checks a game of whole-class Skunk's record: the dice, the
// rolls and sits with the scores, and the signature, said apart.
func (s *Server) verifySkunk(c *gin.Context, v templates.Verify) {
	l := loc(c)
	got, err := sim.VerifySkunkJSON([]byte(v.Record.Value))
	_, dice := readFailure(l, &v, err)
	switch {
	case err == nil:
		v.Checks = append(v.Checks, templates.Check{OK: true, Name: "dice", Text: l.T("verify.dice.ok", "Rolls", l.Int(got.Rolls), "Commitment", got.Commitment)})
		scores := make([]string, len(got.Scores))
		for i, sc := range got.Scores {
			scores[i] = l.Int(sc)
		}
		v.Checks = append(v.Checks, templates.Check{OK: true, Name: "moves",
			Text: l.T("verify.skunk.ok", "Rolls", l.Int(got.Rolls), "Sits", l.Int(got.Sits), "Scores", strings.Join(scores, "; "))})
	case !dice:
		v.Checks = append(v.Checks, templates.Check{Name: "dice", Text: l.T("verify.dice.bad")})
	default:
		v.Checks = append(v.Checks, templates.Check{Name: "moves", Text: l.T("verify.moves.bad")})
	}
	s.finishVerify(c, &v, err, got.Signature)
}

// verifyView is the verify page with this server's record key.
func (s *Server) verifyView() templates.Verify {
	key := s.hall.RecordKey()
	return templates.Verify{Fingerprint: sim.Fingerprint(key), PublicKey: base64.StdEncoding.EncodeToString(key)}
}

// variantText names a match's rules in the reader's words: the game and
// target, the seats, and the options it was played with.
func variantText(l *i18n.Localizer, v sim.Variant) string {
	parts := []string{gameTitle(l, v), l.T("variant.seats", "N", l.Int(v.Seats))}
	if v.Game.ChoosesDice() {
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
