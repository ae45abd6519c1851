package server

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/store"
)

// safeCell keeps a spreadsheet from reading a cell as a formula: a cell
// that starts with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe.
func safeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// writeCSV sends an RFC 4180 file, UTF-8, header first.
func writeCSV(c *gin.Context, name string, header []string, rows [][]string) {
	c.Header("Content-Type", "text/csv; charset=utf-8")
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, name))
	c.Status(http.StatusOK)
	w := csv.NewWriter(c.Writer)
	w.UseCRLF = true
	w.Write(header)
	for _, r := range rows {
		for i := range r {
			r[i] = safeCell(r[i])
		}
		w.Write(r)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		c.Error(err)
	}
}

// exportNames says whether exports use real nicknames: always, unless the
// class is anonymous and the teacher did not ask for them (?names=real).
func exportNames(c *gin.Context, d *classData) bool {
	return !d.class.Anonymous || c.Query("names") == "real"
}

func (s *Server) exportData(c *gin.Context) (*classData, bool) {
	d, err := s.classData(c.Request.Context(), classFrom(c))
	if err != nil {
		fail(c, err)
		return nil, false
	}
	return d, true
}

func ftoa(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', -1, 64)
}

func btoa(ok bool, b bool) string {
	if !ok {
		return ""
	}
	return strconv.FormatBool(b)
}

// decisionsCSV is one row per decision, bots' and timeouts' included, with
// the state before it and its analysis.
func (s *Server) decisionsCSV(c *gin.Context) {
	d, ok := s.exportData(c)
	if !ok {
		return
	}
	real := exportNames(c, d)
	matches := map[int64]store.Match{}
	for _, m := range d.matches {
		matches[m.ID] = m
	}
	header := []string{"class", "match", "round", "game", "target", "student", "seat", "turn", "roll_in_turn", "score", "opponent_score",
		"turn_total", "action", "dice", "faces", "win_if_roll", "win_if_hold", "win_if_chosen", "best_action", "ev_action", "cost",
		"agrees_with_optimal", "agrees_with_ev", "by", "at"}
	var rows [][]string
	for _, e := range d.events {
		if !isDecision(e) {
			continue
		}
		m := matches[e.MatchID]
		a := e.Analysis
		var chosen, cost *float64
		best, ev := "", ""
		if a != nil {
			chosen, cost, best, ev = &a.WinIfChosen, &a.Cost, a.Best, a.EV
		}
		var roll, hold *float64
		if a != nil {
			roll, hold = a.WinIfRoll, a.WinIfHold
		}
		rows = append(rows, []string{
			d.class.Code, strconv.FormatInt(m.ID, 10), strconv.Itoa(m.RoundIndex), m.Variant.Game.String(), strconv.Itoa(m.Variant.Target),
			exportName(m.Seats[e.Seat], real), strconv.Itoa(e.Seat), strconv.Itoa(e.Turn + 1), strconv.Itoa(e.Roll + 1),
			strconv.Itoa(e.Score), strconv.Itoa(e.OpponentScore), strconv.Itoa(e.TurnTotal), e.Action, strconv.Itoa(e.Dice), e.Faces,
			ftoa(roll), ftoa(hold), ftoa(chosen), best, ev, ftoa(cost),
			btoa(a != nil, a != nil && chosenAction(e) == best), btoa(a != nil, a != nil && chosenAction(e) == ev),
			e.By, e.At.UTC().Format(time.RFC3339),
		})
	}
	writeCSV(c, d.class.Code+"-decisions.csv", header, rows)
}

// exportName names a seat in an export.
func exportName(seat store.Seat, real bool) string {
	switch {
	case seat.Bot != "":
		return "bot " + seat.Bot
	case real:
		return seat.Nickname
	}
	return seat.AnonName
}

// matchesCSV is one row per match. The seed is published only once the
// match is no longer being played.
func (s *Server) matchesCSV(c *gin.Context) {
	d, ok := s.exportData(c)
	if !ok {
		return
	}
	real := exportNames(c, d)
	header := []string{"class", "match", "round", "game", "target", "equal_turns", "status", "seed", "commitment", "players", "places", "scores", "turns", "winner"}
	var rows [][]string
	for _, m := range d.matches {
		st := d.states[m.ID]
		places := st.Places()
		var players, placeCells, scores []string
		turns := 0
		for _, seat := range m.Seats {
			players = append(players, exportName(seat, real))
			placeCells = append(placeCells, strconv.Itoa(places[seat.Seat]))
			scores = append(scores, strconv.Itoa(st.Scores[seat.Seat]))
			turns += st.Turns[seat.Seat]
		}
		seed, winner := "", ""
		if m.Status != store.Playing {
			seed = m.Seed.String()
		}
		if st.Over {
			winner = exportName(m.Seats[st.Winner], real)
		} else {
			placeCells = nil
		}
		rows = append(rows, []string{
			d.class.Code, strconv.FormatInt(m.ID, 10), strconv.Itoa(m.RoundIndex), m.Variant.Game.String(), strconv.Itoa(m.Variant.Target),
			strconv.FormatBool(m.Variant.EqualTurns), m.Status, seed, m.Seed.Commitment(), strings.Join(players, "; "),
			strings.Join(placeCells, "; "), strings.Join(scores, "; "), strconv.Itoa(turns), winner,
		})
	}
	writeCSV(c, d.class.Code+"-matches.csv", header, rows)
}

// studentsCSV is one row per student with their totals.
func (s *Server) studentsCSV(c *gin.Context) {
	d, ok := s.exportData(c)
	if !ok {
		return
	}
	real := exportNames(c, d)
	header := []string{"class", "student", "games", "wins", "decisions", "agreement_with_optimal", "agreement_with_hold20", "total_cost"}
	var rows [][]string
	for _, st := range d.students {
		x := d.stats[st.ID]
		name := st.AnonName
		if real {
			name = st.Nickname
		}
		agreeOpt, agreeEV, cost := "", "", ""
		if x.analysed > 0 {
			agreeOpt = strconv.FormatFloat(float64(x.agreeOptimal)/float64(x.analysed), 'f', 4, 64)
			agreeEV = strconv.FormatFloat(float64(x.agreeEV)/float64(x.analysed), 'f', 4, 64)
			cost = strconv.FormatFloat(x.cost, 'f', -1, 64)
		}
		rows = append(rows, []string{d.class.Code, name, strconv.Itoa(x.games), strconv.Itoa(x.wins), strconv.Itoa(x.decisions), agreeOpt, agreeEV, cost})
	}
	writeCSV(c, d.class.Code+"-students.csv", header, rows)
}
