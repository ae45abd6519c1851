package server

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
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

// writeCSV writes an RFC 4180 file, UTF-8, header first, every cell safe.
func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	cw.Write(header)
	for _, r := range rows {
		for i := range r {
			r[i] = safeCell(r[i])
		}
		cw.Write(r)
	}
	cw.Flush()
	return cw.Error()
}

// exports are the CSV files of a class, by name.
var exports = map[string]func(d *classData, real bool) ([]string, [][]string){
	"decisions": decisionRows,
	"matches":   matchRows,
	"students":  studentRows,
}

// ExportNames lists the CSV files Export writes.
const ExportNames = "decisions, matches, students"

// Export writes one CSV file of the class with join code code: decisions,
// matches or students. Names are the real nicknames unless the class is in
// anonymous mode and real is false.
func Export(ctx context.Context, st *store.Store, code, what string, real bool, w io.Writer) error {
	rows, ok := exports[what]
	if !ok {
		return fmt.Errorf("export %q: choose one of %s", what, ExportNames)
	}
	class, err := st.ClassByCode(ctx, normalizeCode(code))
	if err != nil {
		return fmt.Errorf("export: class %s: %w", code, err)
	}
	d, err := loadClassData(ctx, st, class)
	if err != nil {
		return err
	}
	header, body := rows(d, real || !class.Anonymous)
	return writeCSV(w, header, body)
}

// csvFile serves one export to the teacher.
func (s *Server) csvFile(what string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		d, err := s.classData(c.Request.Context(), class.Class)
		if err != nil {
			fail(c, err)
			return
		}
		header, rows := exports[what](d, !class.Anonymous || c.Query("names") == "real")
		c.Header("Content-Type", "text/csv; charset=utf-8")
		c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.csv"`, class.Code, what))
		c.Status(http.StatusOK)
		if err := writeCSV(c.Writer, header, rows); err != nil {
			c.Error(err)
		}
	}
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
func decisionRows(d *classData, real bool) ([]string, [][]string) {
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
			strconv.Itoa(e.Score), strconv.Itoa(e.OpponentScore), strconv.Itoa(e.TurnTotal), e.Action.String(), strconv.Itoa(e.Dice), e.Faces.String(),
			ftoa(roll), ftoa(hold), ftoa(chosen), best, ev, ftoa(cost),
			btoa(a != nil, a != nil && chosenAction(e) == best), btoa(a != nil, a != nil && chosenAction(e) == ev),
			e.By, e.At.UTC().Format(time.RFC3339),
		})
	}
	return header, append(rows, skunkDecisionRows(d, real)...)
}

// skunkDecisionRows are the stand and sit decisions of the class's Skunk
// games, in the decisions.csv columns: the round total is the turn total,
// the expected-value choice is the Two-Dice Pig rule, and there is no
// solved table (win probabilities are empty).
func skunkDecisionRows(d *classData, real bool) [][]string {
	var rows [][]string
	for _, g := range d.skunks {
		names := g.Anon
		if real {
			names = g.Names
		}
		for _, e := range d.skunkLog[g.ID] {
			if e.Action == "roll" {
				continue
			}
			rows = append(rows, []string{
				d.class.Code, fmt.Sprintf("skunk-%d", g.ID), strconv.Itoa(e.Round + 1), "skunk", "", names[e.Participant],
				strconv.Itoa(e.Participant), strconv.Itoa(e.Round + 1), strconv.Itoa(e.Roll + 1), strconv.Itoa(e.Score), "",
				strconv.Itoa(e.RoundTotal), e.Action, "2", e.Faces.String(), "", "", "", "", e.EV, "", "", strconv.FormatBool(e.Action == e.EV),
				"student", e.At.UTC().Format(time.RFC3339),
			})
		}
	}
	return rows
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
func matchRows(d *classData, real bool) ([]string, [][]string) {
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
	return header, rows
}

// studentsCSV is one row per student with their totals.
func studentRows(d *classData, real bool) ([]string, [][]string) {
	header := []string{"class", "student", "games", "wins", "decisions", "agreement_with_optimal", "agreement_with_hold20", "total_cost"}
	var rows [][]string
	for _, st := range d.students {
		x := d.stats[st.ID]
		name := st.AnonName
		if real {
			name = st.Nickname
		}
		agreeOpt, agreeEV, cost := "", "", ""
		if x.Analysed > 0 {
			agreeOpt = strconv.FormatFloat(float64(x.AgreeOptimal)/float64(x.Analysed), 'f', 4, 64)
			agreeEV = strconv.FormatFloat(float64(x.AgreeEV)/float64(x.Analysed), 'f', 4, 64)
			cost = strconv.FormatFloat(x.Cost, 'f', -1, 64)
		}
		rows = append(rows, []string{d.class.Code, name, strconv.Itoa(x.Games), strconv.Itoa(x.Wins), strconv.Itoa(x.Decisions), agreeOpt, agreeEV, cost})
	}
	return header, rows
}
