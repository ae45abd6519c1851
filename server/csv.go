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

// csvWriter writes an RFC 4180 file, UTF-8, header first, every cell safe.
type csvWriter struct{ cw *csv.Writer }

func newCSVWriter(w io.Writer, header []string) *csvWriter {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	cw.Write(header)
	return &csvWriter{cw: cw}
}

// row writes one row, made safe for spreadsheets.
func (w *csvWriter) row(r []string) error {
	for i := range r {
		r[i] = safeCell(r[i])
	}
	w.cw.Write(r)
	return w.cw.Error()
}

func (w *csvWriter) flush() error {
	w.cw.Flush()
	return w.cw.Error()
}

// writeCSV writes a whole file.
func writeCSV(w io.Writer, header []string, rows [][]string) error {
	cw := newCSVWriter(w, header)
	for _, r := range rows {
		if err := cw.row(r); err != nil {
			return err
		}
	}
	return cw.flush()
}

// exports write the CSV files of a class, by name. decisions.csv streams
// from the store one event at a time; the others are small.
var exports = map[string]func(ctx context.Context, st *store.Store, class store.Class, real bool, w io.Writer) error{
	"decisions": writeDecisions,
	"matches": func(ctx context.Context, st *store.Store, class store.Class, real bool, w io.Writer) error {
		d, err := loadClassData(ctx, st, class)
		if err != nil {
			return err
		}
		header, rows := matchRows(d, real)
		return writeCSV(w, header, rows)
	},
	"students": func(ctx context.Context, st *store.Store, class store.Class, real bool, w io.Writer) error {
		d, err := loadStudents(ctx, st, class)
		if err != nil {
			return err
		}
		header, rows := studentRows(d, real)
		return writeCSV(w, header, rows)
	},
}

// ExportNames lists the CSV files Export writes.
const ExportNames = "decisions, matches, students"

// Export writes one CSV file of the class with join code code: decisions,
// matches or students. Names are the real nicknames unless the class is in
// anonymous mode and real is false.
func Export(ctx context.Context, st *store.Store, code, what string, real bool, w io.Writer) error {
	write, ok := exports[what]
	if !ok {
		return fmt.Errorf("export %q: choose one of %s", what, ExportNames)
	}
	class, err := st.ClassByCode(ctx, normalizeCode(code))
	if err != nil {
		return fmt.Errorf("export: class %s: %w", code, err)
	}
	return write(ctx, st, class, real || !class.Anonymous, w)
}

// csvFile serves one export to the teacher.
func (s *Server) csvFile(what string) gin.HandlerFunc {
	return func(c *gin.Context) {
		class := classFrom(c)
		c.Header("Content-Type", "text/csv; charset=utf-8")
		c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.csv"`, class.Code, what))
		c.Status(http.StatusOK)
		if err := exports[what](c.Request.Context(), s.store, class.Class, !class.Anonymous || c.Query("names") == "real", c.Writer); err != nil {
			c.Error(err) // the header is sent: the file ends short, and the log says why
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

// decisionHeader is decisions.csv's first row.
var decisionHeader = []string{"class", "match", "round", "game", "target", "student", "seat", "turn", "roll_in_turn", "score", "opponent_score",
	"turn_total", "action", "dice", "faces", "win_if_roll", "win_if_hold", "win_if_chosen", "best_action", "ev_action", "cost",
	"agrees_with_optimal", "agrees_with_ev", "by", "at"}

// writeDecisions streams decisions.csv: one row per decision, bots' and
// timeouts' included, with the state before it and its analysis, then the
// class's Skunk decisions.
func writeDecisions(ctx context.Context, st *store.Store, class store.Class, real bool, w io.Writer) error {
	ms, err := st.Matches(ctx, store.MatchFilter{ClassID: class.ID})
	if err != nil {
		return err
	}
	matches := make(map[int64]store.Match, len(ms))
	for _, m := range ms {
		matches[m.ID] = m
	}
	cw := newCSVWriter(w, decisionHeader)
	err = st.EachEvent(ctx, store.EventFilter{ClassID: class.ID}, func(e *store.Event) error {
		if !isDecision(*e) {
			return nil
		}
		return cw.row(decisionRow(class.Code, matches[e.MatchID], e, real))
	})
	if err != nil {
		return err
	}
	skunks, err := loadSkunks(ctx, st, class.ID)
	if err != nil {
		return err
	}
	for _, r := range skunkDecisionRows(class.Code, skunks, real) {
		if err := cw.row(r); err != nil {
			return err
		}
	}
	return cw.flush()
}

// decisionRow is one decision of match m in decisions.csv.
func decisionRow(code string, m store.Match, e *store.Event, real bool) []string {
	a := e.Analysis
	var chosen, cost, roll, hold *float64
	best, ev := "", ""
	if a != nil {
		chosen, cost, best, ev = &a.WinIfChosen, &a.Cost, a.Best, a.EV
		roll, hold = a.WinIfRoll, a.WinIfHold
	}
	return []string{
		code, strconv.FormatInt(m.ID, 10), strconv.Itoa(m.RoundIndex), m.Variant.Game.String(), strconv.Itoa(m.Variant.Target),
		exportName(m.Seats[e.Seat], real), strconv.Itoa(e.Seat), strconv.Itoa(e.Turn + 1), strconv.Itoa(e.Roll + 1),
		strconv.Itoa(e.Score), strconv.Itoa(e.OpponentScore), strconv.Itoa(e.TurnTotal), e.Action.String(), strconv.Itoa(e.Dice), e.Faces.String(),
		ftoa(roll), ftoa(hold), ftoa(chosen), best, ev, ftoa(cost),
		btoa(a != nil, a != nil && chosenAction(*e) == best), btoa(a != nil, a != nil && chosenAction(*e) == ev),
		e.By, e.At.UTC().Format(time.RFC3339),
	}
}

// skunkDecisionRows are the stand and sit decisions of the class's Skunk
// games, in the decisions.csv columns: the round total is the turn total,
// the expected-value choice is the Two-Dice Pig rule, and there is no
// solved table (win probabilities are empty).
func skunkDecisionRows(code string, k skunkData, real bool) [][]string {
	var rows [][]string
	for _, g := range k.games {
		names := g.Anon
		if real {
			names = g.Names
		}
		for _, e := range k.log[g.ID] {
			if e.Action == "roll" {
				continue
			}
			rows = append(rows, []string{
				code, fmt.Sprintf("skunk-%d", g.ID), strconv.Itoa(e.Round + 1), "skunk", "", names[e.Participant],
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
