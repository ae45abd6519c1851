package report

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/i18n"
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

// exportSource is what the files are written from: the store, and the
// solved tables the lab's exact answers read (never solved for a file:
// a table not ready leaves its cells empty).
type exportSource struct {
	st          *store.Store
	tables      *solve.Cache
	platformIDs bool // students.csv names each student's user id at their learning platform
}

// exportFunc writes one CSV file of a class.
type exportFunc func(ctx context.Context, src exportSource, class store.Class, real bool, day string, w io.Writer) error

// exports write the CSV files of a class, by name (the glossary's
// files). decisions.csv streams from the store one event at a time.
var exports = map[string]exportFunc{
	"decisions": writeDecisions,
	"matches": func(ctx context.Context, src exportSource, class store.Class, real bool, day string, w io.Writer) error {
		st := src.st
		d, err := loadClassData(ctx, st, class)
		if err != nil {
			return err
		}
		return writeCSV(w, MatchesFile.Header(), matchRows(d.on(day), real))
	},
	"match_players": func(ctx context.Context, src exportSource, class store.Class, real bool, day string, w io.Writer) error {
		st := src.st
		d, err := loadClassData(ctx, st, class)
		if err != nil {
			return err
		}
		return writeCSV(w, PlayersFile.Header(), playerRows(d.on(day), real))
	},
	"strategies":  writeStrategies,
	"tournament":  writeTournaments,
	"experiments": writeExperiments,
	"students": func(ctx context.Context, src exportSource, class store.Class, real bool, day string, w io.Writer) error {
		st := src.st
		d, err := loadStudents(ctx, st, class, day)
		if err != nil {
			return err
		}
		// Who came from a platform is said always (came); their user ids
		// only when the teacher asks (platform_user).
		if d.members, err = src.st.Members(ctx, class.ID); err != nil {
			return err
		}
		if src.platformIDs {
			d.platform = d.members
		}
		return writeCSV(w, StudentsFile.Header(), studentRows(d, real))
	},
}

// ExportNames lists the CSV files Export writes.
const ExportNames = "decisions, matches, match_players, students, strategies, tournament, experiments"

// exporter is the writer of the file named what.
func exporter(what string) (exportFunc, error) {
	write, ok := exports[what]
	if !ok {
		return nil, fmt.Errorf("export %q: choose one of %s", what, ExportNames)
	}
	return write, nil
}

// ExportClass writes one CSV file of the class with join code code, for
// the machine's own operator (pigclass export): decisions, matches,
// match_players or students. Names are the real nicknames unless the
// class is in anonymous mode and real is false.
func ExportClass(ctx context.Context, st *store.Store, code, what string, real bool, w io.Writer) error {
	write, err := exporter(what)
	if err != nil {
		return err
	}
	class, err := st.ClassByCode(ctx, code)
	if err != nil {
		return fmt.Errorf("export: class %s: %w", code, err)
	}
	return write(ctx, exportSource{st: st, tables: &solve.Cache{}}, class, real || !class.Anonymous, "", w)
}

// ByteOrderMark starts the files for spreadsheets: Excel on Windows reads
// UTF-8 without it as Windows-1252 ("Zoë" would become "ZoÃ«").
const ByteOrderMark = "\uFEFF"

func ftoa(p *float64) string {
	if p == nil {
		return ""
	}
	return PctCell(*p)
}

func btoa(ok bool, b bool) string {
	if !ok {
		return ""
	}
	return strconv.FormatBool(b)
}

// ExportSeat numbers a seat for the files and pages: 1 moved first.
func ExportSeat(seat, first, seats int) int { return (seat-first+seats)%seats + 1 }

// facesCell is a roll's dice as text, "none" when nothing was thrown.
func facesCell(f sim.Faces) string {
	if f.Len() == 0 {
		return "none"
	}
	return f.String()
}

// writeDecisions streams decisions.csv: one row per decision, bots' and
// timeouts' included, with the state before it and its analysis, then the
// class's Skunk decisions.
func writeDecisions(ctx context.Context, src exportSource, class store.Class, real bool, day string, w io.Writer) error {
	st := src.st
	ms, err := st.Matches(ctx, store.MatchFilter{ClassID: class.ID})
	if err != nil {
		return err
	}
	matches := make(map[int64]play.Match, len(ms))
	for _, m := range ms {
		matches[m.ID] = m
	}
	cw := newCSVWriter(w, DecisionsFile.Header())
	err = st.EachEvent(ctx, store.EventFilter{ClassID: class.ID}, func(e *play.Event) error {
		if !IsDecision(*e) || day != "" && matches[e.MatchID].Day != day {
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
	for _, r := range skunkDecisionRows(class.Code, skunks.on(day), real) {
		if err := cw.row(r); err != nil {
			return err
		}
	}
	return cw.flush()
}

// decisionRow is one decision of match m in decisions.csv.
func decisionRow(code string, m play.Match, e *play.Event, real bool) []string {
	a := e.Analysis
	var chosen, cost, roll, hold *float64
	best, ev, analysis := "", "", "none"
	if a != nil {
		chosen, cost, best, ev = &a.WinIfChosen, &a.Cost, a.Best.String(), a.EV.String()
		roll, hold = a.WinIfRoll, a.WinIfHold
		analysis = "exact"
		if a.Approximate {
			analysis = "approximate"
		}
	}
	if e.Pending {
		analysis = "pending"
	}
	at, local := timeCells(e.At)
	return DecisionsFile.row().
		set("class", code).set("match", strconv.FormatInt(m.ID, 10)).set("round", roundCell(m)).set("kind", MatchKind(m)).set("day", m.Day).
		set("game", m.Variant.Game.String()).set("target", strconv.Itoa(m.Variant.Target)).set("seats", strconv.Itoa(m.Variant.Seats)).
		set("student", exportName(m.Seats[e.Seat], real, m.Variant.Game)).set("bot_id", m.Seats[e.Seat].Bot).set("seat", strconv.Itoa(ExportSeat(e.Seat, m.FirstSeat, m.Variant.Seats))).
		set("turn", strconv.Itoa(e.Turn+1)).set("roll_in_turn", strconv.Itoa(e.Roll+1)).
		set("score", strconv.Itoa(e.Score)).set("leader_score", strconv.Itoa(e.OpponentScore)).set("turn_total", strconv.Itoa(e.TurnTotal)).
		set("action", e.Action.String()).set("dice", strconv.Itoa(e.Dice)).set("faces", facesCell(e.Faces)).set("source", sourceCell(e.Faces, e.Entered)).set("analysis", analysis).
		set("win_if_roll_pct", ftoa(roll)).set("win_if_hold_pct", ftoa(hold)).set("win_if_chosen_pct", ftoa(chosen)).
		set("best_action", best).set("ev_action", ev).set("cost_pct_points", ftoa(cost)).
		set("agrees_with_optimal", btoa(a != nil, a != nil && ChosenAction(*e) == a.Best)).
		set("agrees_with_ev", btoa(a != nil, a != nil && ChosenAction(*e) == a.EV)).
		set("mystery_agrees", agreesCell(a)).
		set("by", string(e.By)).set("arm", string(m.Seats[e.Seat].Arm)).set("plan", planCell(e.Plan)).set("at", at).set("local_time", local).cells
}

// planCell is a committed player's plan for the turn ("Decide before
// you roll"), empty for any other decision.
func planCell(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// sourceCell says where a decision's throw f came from: the seed, or
// entered by hand at a table (issue 45); empty when nothing was thrown.
// Skunk's rolls are the game's seed's.
func sourceCell(f sim.Faces, entered bool) string {
	switch {
	case f.Len() == 0:
		return ""
	case entered:
		return "entered"
	}
	return "seed"
}

// agreesCell is the mystery_agrees cell of an analysis: the strengths
// that would have made a mystery bot's decision, separated by spaces.
func agreesCell(a *play.Analysis) string {
	if a == nil {
		return ""
	}
	return strings.Join(a.Agrees, " ")
}

// skunkDecisionRows are the stand and sit decisions of the class's Skunk
// games, in the decisions.csv columns: the round total is the turn total,
// the expected-value choice is the Two-Dice Pig rule, and the analysis is
// in expected final points (sim.SkunkPlan: perfect play for the most
// points, exact), not in chances of winning (those columns are empty).
func skunkDecisionRows(code string, k skunkData, real bool) [][]string {
	var rows [][]string
	for _, g := range k.games {
		names := skunkNames(g, real)
		plan := sim.PlanSkunk(g.Rounds)
		for _, e := range k.log[g.ID] {
			if e.Action != store.SkunkStand && e.Action != store.SkunkSit {
				continue // a roll, or a removed student leaving: not a decision
			}
			at, local := timeCells(e.At)
			analysis, best, standPts, sitPts, cost, agrees := "none", "", "", "", "", ""
			if stand, sit, ok := plan.Values(e.Round, e.Score, e.RoundTotal); ok {
				chosen, top := sit, max(stand, sit)
				// Values equal but for the float's last digits are a tie
				// (the plan sums the same chances in another order).
				tie := math.Abs(stand-sit) <= 1e-9*max(1, top)
				best = string(store.SkunkSit) // ties: sit, as perfect play holds
				if stand > sit && !tie {
					best = string(store.SkunkStand)
				}
				if e.Action == store.SkunkStand {
					chosen = stand
				}
				analysis, standPts, sitPts, cost = "expected-points", num(stand), num(sit), num(top-chosen)
				agrees = strconv.FormatBool(chosen >= top || tie) // a tie: either choice is perfect play's
			}
			rows = append(rows, DecisionsFile.row().
				set("class", code).set("match", fmt.Sprintf("skunk-%d", g.ID)).set("round", strconv.Itoa(e.Round+1)).set("kind", "skunk").set("day", g.Day).set("game", "skunk").
				set("seats", strconv.Itoa(len(g.Students))).set("student", names[e.Participant]).set("seat", strconv.Itoa(e.Participant+1)).
				set("turn", strconv.Itoa(e.Round+1)).set("roll_in_turn", strconv.Itoa(e.Roll+1)).set("score", strconv.Itoa(e.Score)).
				set("turn_total", strconv.Itoa(e.RoundTotal)).set("action", string(e.Action)).set("dice", "2").set("faces", facesCell(e.Faces)).set("source", sourceCell(e.Faces, false)).
				set("analysis", analysis).set("best_action", best).set("points_if_stand", standPts).set("points_if_sit", sitPts).set("cost_points", cost).
				set("agrees_with_optimal", agrees).
				set("ev_action", string(e.EV)).set("agrees_with_ev", strconv.FormatBool(e.Action == e.EV)).
				set("by", "student").set("at", at).set("local_time", local).cells)
		}
	}
	return rows
}

// exportName names a seat in an export: a bot by the name the pages give
// it, in English ("Hold-20 bot"); its machine id is a column of its own
// (bot_id).
func exportName(seat play.Seat, real bool, g sim.Game) string {
	switch {
	case seat.Bot != "":
		return BotPlayer(seat.Bot, g.Rules().HoldAt)
	case real:
		return seat.Nickname
	}
	return seat.AnonName
}

// BotWords names a strategy for people: what it plays (the catalog's
// bot.*, "rule of thumb, hold at 20").
func BotWords(name string, ruleOfThumb int) i18n.Msg { return botMsg(name, ruleOfThumb, "bot.") }

// BotName is a bot as a player, in a few words, on every page and file
// (issue 79: one name a person reads): the catalog's bot.name.* for its
// family (sim.BotWords), "Hold-20 bot".
func BotName(name string, ruleOfThumb int) i18n.Msg { return botMsg(name, ruleOfThumb, "bot.name.") }

// BotPlayer is BotName in English, as the files write it.
func BotPlayer(name string, ruleOfThumb int) string {
	return i18n.For("en").Say(BotName(name, ruleOfThumb))
}

// botMsg is a bot's words by the catalog's prefix: bot.* say what it
// plays, bot.name.* name it as a player; a bot of no known family is its
// strategy's own name.
func botMsg(name string, ruleOfThumb int, prefix string) i18n.Msg {
	key, n, plural := sim.BotWords(name, ruleOfThumb)
	key = prefix + strings.TrimPrefix(key, "bot.")
	switch {
	case key == prefix:
		return i18n.Text(name)
	case plural:
		return i18n.Plural(key, n)
	}
	return i18n.M(key, "N", n)
}

// matchRows are matches.csv: one row per match, its players in seat order
// (1 moved first). The seed is published only once the match is no longer
// being played.
func matchRows(d *classData, real bool) [][]string {
	var rows [][]string
	for _, m := range d.matches {
		st := d.states[m.ID]
		places := st.Places()
		var players, placeCells, scores []string
		turns := 0
		for _, seat := range bySeat(m) {
			players = append(players, exportName(seat, real, m.Variant.Game))
			placeCells = append(placeCells, strconv.Itoa(places[seat.Seat]))
			scores = append(scores, strconv.Itoa(st.Scores[seat.Seat]))
			turns += st.Turns[seat.Seat]
		}
		seed, winner := "", ""
		if m.Status != play.Playing {
			seed = m.Seed.String()
		}
		if st.Over {
			winner = exportName(m.Seats[st.Winner], real, m.Variant.Game)
		} else {
			placeCells = nil
		}
		rows = append(rows, MatchesFile.row().
			set("class", d.class.Code).set("match", strconv.FormatInt(m.ID, 10)).set("round", roundCell(m)).set("kind", MatchKind(m)).set("day", m.Day).
			set("game", m.Variant.Game.String()).set("target", strconv.Itoa(m.Variant.Target)).set("equal_turns", strconv.FormatBool(m.Variant.EqualTurns)).
			set("seats", strconv.Itoa(m.Variant.Seats)).set("status", string(m.Status)).set("seed", seed).set("commitment", m.Seed.Commitment()).
			set("players", strings.Join(players, "; ")).set("places", strings.Join(placeCells, "; ")).set("scores", strings.Join(scores, "; ")).
			set("turns", strconv.Itoa(turns)).set("winner", winner).cells)
	}
	return append(rows, skunkRows(d.class.Code, d.skunks, real)...)
}

// skunkPlaces places a game of Skunk's participants by score: ties share
// a place.
func skunkPlaces(scores []int) []int {
	places := make([]int, len(scores))
	for i, s := range scores {
		places[i] = 1
		for _, o := range scores {
			if o > s {
				places[i]++
			}
		}
	}
	return places
}

// skunkRows are the class's games of whole-class Skunk in matches.csv:
// "skunk-ID", round 0 (not a round of the class), no target, each
// participant a seat in the order they joined, its turns the rounds
// played, its winners all those tied on the highest score (none if no
// one scored).
func skunkRows(code string, k skunkData, real bool) [][]string {
	var rows [][]string
	for _, game := range k.games {
		g := k.played[game.ID]
		names := skunkNames(game, real)
		scores := g.Scores()
		var scoreCells, placeCells []string
		for _, s := range scores {
			scoreCells = append(scoreCells, strconv.Itoa(s))
		}
		seed, winner := "", ""
		if game.Status != play.Playing {
			seed = game.Seed.String()
		}
		if g.Over() {
			for _, p := range skunkPlaces(scores) {
				placeCells = append(placeCells, strconv.Itoa(p))
			}
			var ws []string
			for _, w := range store.SkunkWinners(g) {
				ws = append(ws, names[w])
			}
			winner = strings.Join(ws, "; ")
		}
		rows = append(rows, MatchesFile.row().
			set("class", code).set("match", fmt.Sprintf("skunk-%d", game.ID)).set("round", "0").set("kind", "skunk").set("day", game.Day).
			set("game", "skunk").set("target", "").set("equal_turns", "false").
			set("seats", strconv.Itoa(len(game.Students))).set("status", string(game.Status)).set("seed", seed).set("commitment", game.Seed.Commitment()).
			set("players", strings.Join(names, "; ")).set("places", strings.Join(placeCells, "; ")).set("scores", strings.Join(scoreCells, "; ")).
			set("turns", strconv.Itoa(skunkRoundsPlayed(g))).set("winner", winner).cells)
	}
	return rows
}

// skunkPlayerRows are the class's games of Skunk in match_players.csv.
func skunkPlayerRows(code string, k skunkData, real bool) [][]string {
	var rows [][]string
	for _, game := range k.games {
		g := k.played[game.ID]
		names := skunkNames(game, real)
		places := skunkPlaces(g.Scores())
		won := map[int]bool{}
		for _, w := range store.SkunkWinners(g) {
			won[w] = true
		}
		for p, name := range names {
			place := ""
			if g.Over() {
				place = strconv.Itoa(places[p])
			}
			rows = append(rows, PlayersFile.row().
				set("class", code).set("match", fmt.Sprintf("skunk-%d", game.ID)).set("round", "0").set("kind", "skunk").set("day", game.Day).
				set("game", "skunk").set("seat", strconv.Itoa(p+1)).set("player", name).
				set("place", place).set("final_score", strconv.Itoa(g.Score(p))).
				set("won", strconv.FormatBool(won[p])).cells)
		}
	}
	return rows
}

// skunkNames are a game's participants as the files name them.
func skunkNames(game store.SkunkGame, real bool) []string {
	if real {
		return game.Names
	}
	return game.Anon
}

// skunkRoundsPlayed counts the rounds of a game of Skunk begun so far.
func skunkRoundsPlayed(g *sim.Skunk) int {
	if g.Over() {
		return g.Rounds()
	}
	if g.Rolls() > 0 {
		return g.Round() + 1
	}
	return g.Round()
}

// MatchKind is what a match was, for the files (issue 81): a class's
// round, a homework game, a game at a table, or practice.
func MatchKind(m play.Match) string {
	switch {
	case m.AssignmentID != 0:
		return "homework"
	case m.AtTable:
		return "table"
	case m.RoundID != 0:
		return "round"
	}
	return "practice"
}

// roundCell is a match's round in the files: its number in the class, and
// empty for a game of no round (homework, a table, practice), which was
// written 0 as if it were one.
func roundCell(m play.Match) string {
	if m.RoundID == 0 {
		return ""
	}
	return strconv.Itoa(m.RoundIndex)
}

// bySeat lists a match's seats in the files' order: the first mover first.
func bySeat(m play.Match) []play.Seat {
	out := make([]play.Seat, len(m.Seats))
	for _, s := range m.Seats {
		out[ExportSeat(s.Seat, m.FirstSeat, m.Variant.Seats)-1] = s
	}
	return out
}

// playerRows are match_players.csv: one row per player of each match.
func playerRows(d *classData, real bool) [][]string {
	var rows [][]string
	for _, m := range d.matches {
		st := d.states[m.ID]
		places := st.Places()
		for i, seat := range bySeat(m) {
			place := ""
			if st.Over {
				place = strconv.Itoa(places[seat.Seat])
			}
			rows = append(rows, PlayersFile.row().
				set("class", d.class.Code).set("match", strconv.FormatInt(m.ID, 10)).set("round", roundCell(m)).set("kind", MatchKind(m)).set("day", m.Day).
				set("game", m.Variant.Game.String()).set("seat", strconv.Itoa(i+1)).set("player", exportName(seat, real, m.Variant.Game)).set("bot_id", seat.Bot).
				set("place", place).set("final_score", strconv.Itoa(st.Scores[seat.Seat])).
				set("won", strconv.FormatBool(st.Over && st.Winner == seat.Seat)).cells)
		}
	}
	return append(rows, skunkPlayerRows(d.class.Code, d.skunks, real)...)
}

// studentRows are students.csv: one row per student, removed ones too.
func studentRows(d *classData, real bool) [][]string {
	var rows [][]string
	for _, st := range d.students {
		x := d.stats[st.ID] // Skunk's games included (store.AddSkunkGame)
		name := st.AnonName
		if real {
			name = st.Nickname
		}
		agreeOpt, agreeEV, cost, perGame, perDecision := "", "", "", "", ""
		if x.Analysed > 0 {
			agreeOpt = num(100 * float64(x.AgreeOptimal) / float64(x.Analysed))
			agreeEV = num(100 * float64(x.AgreeEV) / float64(x.Analysed))
			cost = num(100 * x.Cost)
			perDecision = num(100 * x.Cost / float64(x.Analysed))
			if x.Games > 0 {
				perGame = num(100 * x.Cost / float64(x.Games))
			}
		}
		came := "nickname"
		switch _, platform := d.members[st.ID]; {
		case platform:
			came = "platform"
		case st.Roster:
			came = "list"
		}
		rows = append(rows, StudentsFile.row().
			set("class", d.class.Code).set("day", d.day).set("student", name).set("came", came).
			set("started", strconv.FormatBool(!strings.HasPrefix(st.TokenHash, classroom.UnclaimedPrefix))).set("removed", strconv.FormatBool(st.Removed)).
			set("extra_seconds", strconv.Itoa(st.ExtraSeconds)).set("games", strconv.Itoa(x.Games)).set("wins", strconv.Itoa(x.Wins)).set("decisions", strconv.Itoa(x.Decisions)).
			set("analysed", strconv.Itoa(x.Analysed)).set("approximate", strconv.Itoa(x.Approximate)).set("agreement_with_optimal_pct", agreeOpt).set("agreement_with_ev_pct", agreeEV).
			set("cost_per_game_pct", perGame).set("cost_per_decision_pct_points", perDecision).set("sum_of_costs_pct_points", cost).
			set("platform_user", d.platform[st.ID]).cells)
	}
	return rows
}
