package server

import (
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"pigclass/lessons"
	"pigclass/lessons/figures"
	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// views builds the view models the handlers share (the board, the charts,
// the lesson, the podium, the review, Skunk's table, a student's history,
// the dashboard's live part) from what the classroom, the reports and the
// solved tables answer: it reads, as the viewer it is given, and handles
// no request.
type views struct {
	room    *classroom.Room
	reports *report.Reports
	tables  *solve.Cache
	log     *slog.Logger
	lessons []lessons.Lesson
	ladder  *ladder // the strategy ladder, computed when first asked
	// figureValues are the lessons' figures, computed once for this
	// server (figureOnce) from its tables.
	figureOnce   sync.Once
	figureValues map[string]figures.Value
	figureErr    error
}

// seatName is how a seat is shown: the nickname, the generated name on a
// shared screen in anonymous mode, or the bot.
func seatName(l *i18n.Localizer, seat store.Seat, anonymous bool, g sim.Game) string {
	switch {
	case seat.Bot != "":
		return l.T("bot.seat", "Bot", botLabel(l, seat.Bot, g.Rules().HoldAt))
	case anonymous:
		return anonIn(l, seat.AnonName)
	}
	return seat.Nickname
}

// anonIn is a generated name ("Brave Otter", "Brave Otter 2", as stored
// and exported) in the reader's words: its adjective and animal are the
// catalog's anon.adj.WORD and anon.animal.WORD, put in the language's
// order by anon.name. A name whose words the catalog lacks stays as it is.
func anonIn(l *i18n.Localizer, stored string) string {
	parts := strings.SplitN(stored, " ", 3)
	if len(parts) < 2 {
		return stored
	}
	adj, animal := "anon.adj."+strings.ToLower(parts[0]), "anon.animal."+strings.ToLower(parts[1])
	a, b := l.T(adj), l.T(animal)
	if a == adj || b == animal {
		return stored
	}
	name := l.T("anon.name", "Adjective", a, "Animal", b)
	if len(parts) == 3 {
		name += " " + parts[2]
	}
	return name
}

// botLabel names a strategy for people (sim.BotWords).
func botLabel(l *i18n.Localizer, name string, ruleOfThumb int) string {
	key, n, plural := sim.BotWords(name, ruleOfThumb)
	switch {
	case key == "":
		return name
	case plural:
		return l.N(key, n)
	}
	return l.T(key, "N", l.Int(n))
}

// seatNames names every seat of a match as the viewer sees it: generated
// names for the others in anonymous mode, and you for the viewer's own
// seat ("" keeps the viewer's nickname).
// Several bots in a match are numbered in seat order ("Bot 2 (...)"), so
// that each can be told apart.
func seatNames(l *i18n.Localizer, row store.Match, viewer int, anonymous bool, you string) []string {
	names := make([]string, row.Variant.Seats)
	bots := 0
	for _, seat := range row.Seats {
		if seat.Bot != "" {
			bots++
		}
	}
	n := 0
	for _, seat := range row.Seats {
		names[seat.Seat] = seatName(l, seat, anonymous && seat.Seat != viewer, row.Variant.Game)
		if seat.Bot != "" && bots > 1 {
			n++
			names[seat.Seat] = l.T("bot.seat_n", "N", l.Int(n), "Bot", botLabel(l, seat.Bot, row.Variant.Game.Rules().HoldAt))
		}
		if seat.Seat == viewer && you != "" {
			names[seat.Seat] = you
		}
	}
	return names
}

// boardView builds the play area of a match for the viewer's seat; class is
// nil for practice.
func (w *views) boardView(l *i18n.Localizer, class *classroom.Class, m *classroom.Match, viewer int) templates.Board {
	st := m.State
	v := m.Variant
	code, anonymous, paused := "", false, false
	if class != nil {
		code, anonymous, paused = class.Code, class.Anonymous, class.Paused
	}
	you := ""
	if class == nil {
		you = l.T("board.you_name") // practice: the player has no nickname
	}
	names := seatNames(l, m.Match, viewer, anonymous, you)
	b := templates.Board{
		MatchID: m.ID, Seq: m.Seq(), Title: gameTitle(l, v), Commitment: m.Seed.Commitment(), Game: v.Game.String(), InClass: code != "", ClassCode: code,
		Over: m.Over(), Paused: paused, TurnTotal: st.TurnTotal, HasTurnTotal: !v.Game.ChoosesDice(),
		ActURL:   paths.Act(code, m.ID),
		BoardURL: paths.Board(code, m.ID, boardVersion(m, class)) + "&lang=" + l.Lang(), ReviewURL: paths.Match(code, m.ID),
	}
	for seat := range v.Seats {
		b.Players = append(b.Players, templates.BoardPlayer{
			Name: names[seat], Score: st.Scores[seat], ToMove: seat == st.Seat && !b.Over, You: seat == viewer, Out: st.Out[seat],
		})
		if seat == viewer && class != nil {
			b.Players[seat].Mark = l.T("board.you_mark")
		}
	}
	for _, seat := range m.Seats {
		b.Approximate = b.Approximate || seat.Bot == sim.PerfectBot && !w.room.ExactBots(v)
	}
	// A bot to move is waiting: bots move as soon as they can, and the
	// perfect-play bot cannot until its table is solved.
	b.Preparing = !b.Over && m.Seats[st.Seat].Bot != ""
	b.YourTurn = !b.Over && viewer >= 0 && st.Seat == viewer
	b.Won = st.Over && viewer >= 0 && st.Winner == viewer
	b.Forfeited = viewer >= 0 && st.Out[viewer] && st.Timeouts[viewer] >= sim.TimeoutsResign
	if !b.Over {
		b.ToMove = names[st.Seat]
	}
	if b.YourTurn {
		b.Actions = actionsFor(l, v)
	}
	if viewer >= 0 && !b.Over {
		howTo(l, &b, m, viewer)
	}
	if v.Deadline > 0 && !paused && !b.Over && m.Seats[st.Seat].StudentID != 0 {
		deadlineWords(l, &b, m, names[st.Seat])
	}
	movesInWords(l, &b, m, names, viewer)
	if b.YourTurn && !paused {
		b.Announce += " " + l.T("board.yourturn_said")
		if v.Deadline > 0 && st.Timeouts[viewer] == sim.TimeoutsResign-1 {
			b.Warning = l.T("board.warning", "N", l.Int(st.Timeouts[viewer]))
		}
	}
	switch {
	case st.Over:
		b.Result = resultText(l, st, names, viewer)
	case m.Status == store.Ended:
		b.Result, b.Ended = l.T("board.ended"), true
	}
	return b
}

// announceFrom is where the screen reader's announcement of a board
// starts: the viewer's own last move, at most six events back, so that a
// screen reader hears each move and consecutive announcements differ.
func announceFrom(rows []store.Event, viewer int) int {
	from := len(rows) - 1
	for i := len(rows) - 1; i >= 0 && i >= len(rows)-6; i-- {
		from = i
		if rows[i].Seat == viewer {
			break
		}
	}
	return from
}

// describeAt tells event i of a log, counting a timeout among the ones in
// a row of its seat.
func describeAt(l *i18n.Localizer, rows []store.Event, i int, names []string, viewer int, g sim.Game) string {
	e := rows[i]
	if e.Action.Kind != sim.TimeoutKind {
		return describe(l, e, names, viewer, g)
	}
	n := 0
	for j := i; j >= 0; j-- {
		if rows[j].Seat != e.Seat {
			continue
		}
		if rows[j].Action.Kind != sim.TimeoutKind {
			break
		}
		n++
	}
	id := "timeout"
	if e.Seat == viewer {
		id += "_you"
	}
	if e.TurnTotal > 0 {
		id += "_banked"
	}
	if n >= sim.TimeoutsResign {
		id += "_forfeit"
	}
	return l.T("move."+id, "Name", names[e.Seat], "Points", l.Int(e.TurnTotal), "N", l.Int(n), "Of", l.Int(sim.TimeoutsResign))
}

// thrownPieces is a throw as the board draws it.
func thrownPieces(l *i18n.Localizer, g sim.Game, f sim.Faces) []templates.ThrownPiece {
	r := g.Rules()
	out := make([]templates.ThrownPiece, f.Len())
	for i := range out {
		m := f.At(i)
		out[i] = templates.ThrownPiece{Numbered: r.Piece.Numbered, Mark: m, Key: r.MarkName(m), Name: l.T(r.MarkKey(m))}
	}
	return out
}

// howTo is the rules in a few words, open until the viewer's first move.
func howTo(l *i18n.Localizer, b *templates.Board, m *classroom.Match, viewer int) {
	v := m.Variant
	b.HowTo = append(b.HowTo, l.T("howto."+v.Game.String(), "Target", l.Int(v.Target), "Max", l.Int(v.MaxDice)))
	if v.Deadline > 0 {
		b.HowTo = append(b.HowTo, l.T("howto.deadline", "N", l.Int(int(time.Duration(v.Deadline).Seconds()))))
	}
	b.HowToOpen = true
	for _, e := range m.Events {
		if e.Seat == viewer && e.By == store.ByStudent {
			b.HowToOpen = false
			break
		}
	}
}

// deadlineWords is the deadline of a student to move: theirs on their
// board, and counting down on their partners' boards too.
func deadlineWords(l *i18n.Localizer, b *templates.Board, m *classroom.Match, toMove string) {
	v := m.Variant
	at := m.Last.Add(time.Duration(v.Deadline))
	b.DeadlineAt = at.UnixMilli()
	secs := l.Int(int(time.Duration(v.Deadline).Seconds()))
	if b.YourTurn {
		b.Deadline = l.T("board.deadline", "N", secs, "At", l.Clock(at))
		b.DeadlineLeft, b.DeadlineHurry = l.T("board.left", "N", "{n}"), l.T("board.hurry", "N", "{n}")
		return
	}
	b.Deadline = l.T("board.deadline_other", "Name", toMove, "N", secs, "At", l.Clock(at))
	b.DeadlineLeft = l.T("board.left_other", "Name", toMove, "N", "{n}")
	b.DeadlineHurry = b.DeadlineLeft
}

// movesInWords puts each of the last moves in words once: the move list
// shows the last eight, the screen reader hears those since the viewer's
// own last move (at most six), and a time-out of the viewer's is said
// until they move again. The last throw is drawn.
func movesInWords(l *i18n.Localizer, b *templates.Board, m *classroom.Match, names []string, viewer int) {
	v, rows := m.Variant, m.Events
	n := len(rows)
	first := max(0, n-8)
	said := make([]string, n-first)
	for i := first; i < n; i++ {
		said[i-first] = describeAt(l, rows, i, names, viewer, v.Game)
	}
	if n > 0 {
		b.LastThrow = thrownPieces(l, v.Game, rows[n-1].Faces)
		b.Announce = strings.Join(said[announceFrom(rows, viewer)-first:], " ")
		for i := n - 1; i >= first; i-- {
			b.Recent = append(b.Recent, said[i-first])
		}
	}
	for i := n - 1; i >= 0 && viewer >= 0; i-- {
		if rows[i].Seat == viewer {
			switch {
			case rows[i].Action.Kind != sim.TimeoutKind:
			case i >= first:
				b.TimedOut = said[i-first]
			default:
				b.TimedOut = describeAt(l, rows, i, names, viewer, v.Game)
			}
			break
		}
	}
}

// gameTitle is the heading of a match.
func gameTitle(l *i18n.Localizer, v sim.Variant) string {
	id := "game.title"
	if v.EqualTurns {
		id = "game.title_equal"
	}
	return l.T(id, "Game", gameName(l, v.Game), "N", l.Int(v.Target))
}

// gameName is a game's name in the reader's language.
func gameName(l *i18n.Localizer, g sim.Game) string { return l.T("game." + g.String()) }

// actionsFor lists the buttons of the variant, with their keys.
func actionsFor(l *i18n.Localizer, v sim.Variant) []templates.ActionButton {
	if v.Game.ChoosesDice() {
		out := make([]templates.ActionButton, 0, v.MaxDice)
		for n := 1; n <= v.MaxDice; n++ {
			key := ""
			if n <= 10 {
				key = fmt.Sprint(n)
			}
			label := l.N("board.dice", n)
			out = append(out, templates.ActionButton{Action: sim.Dice(n).String(), Label: label, Key: key})
		}
		return out
	}
	// No button is drawn as the recommended one: the class's choices are
	// what the lesson measures.
	return []templates.ActionButton{
		{Action: "roll", Label: l.T("board.roll"), Key: "R"},
		{Action: "hold", Label: l.T("board.hold"), Key: "H"},
	}
}

// describe tells one event in words, for the move list and screen readers.
// The viewer's own moves have their own messages ("You rolled"), since
// many languages conjugate the verb for "you".
func describe(l *i18n.Localizer, e store.Event, names []string, viewer int, g sim.Game) string {
	suffix := ""
	if e.Seat == viewer {
		suffix = "_you"
	}
	f := e.Faces
	said := charts.ThrowWords(l, g, &f)
	say := func(id string, args ...any) string {
		return l.T("move."+id+suffix, append(args, "Name", names[e.Seat], "Faces", said)...)
	}
	switch e.Action.Kind {
	case sim.RollKind:
		points, bust, _ := sim.RollPoints(g, &f)
		switch name := g.ThrowName(&f); {
		case name != "":
			return say(name, "Total", l.Int(e.TurnTotal+points))
		case bust:
			return say("bust")
		}
		return say("rolled_total", "Total", l.Int(e.TurnTotal+points))
	case sim.DiceKind:
		// Every throw says what it scored: a 1 scores nothing.
		points, _, _ := sim.RollPoints(g, &f)
		return l.N("move.threw"+suffix, points, "Name", names[e.Seat], "Faces", said)
	case sim.HoldKind:
		return say("held", "Points", l.Int(e.TurnTotal))
	case sim.TimeoutKind:
		return say("timeout_plain", "Points", l.Int(e.TurnTotal))
	case sim.ResignKind:
		return say("resigned")
	}
	return names[e.Seat] + " " + e.Action.String()
}

// resultText says who won, and who forfeited after three time-outs.
func resultText(l *i18n.Localizer, st sim.State, names []string, viewer int) string {
	forfeit := ""
	for seat := range st.Variant.Seats {
		if st.Out[seat] && st.Timeouts[seat] >= sim.TimeoutsResign {
			if seat == viewer {
				forfeit = l.T("result.forfeit_you") + " "
			} else {
				forfeit += l.T("result.forfeit", "Name", names[seat]) + " "
			}
		}
	}
	if st.Winner == viewer {
		return forfeit + l.T("result.won_you", "Points", l.Int(st.Scores[st.Winner]))
	}
	return forfeit + l.T("result.won", "Name", names[st.Winner], "Points", l.Int(st.Scores[st.Winner]))
}

// percent formats a probability in the reader's format (one decimal).
func percent(l *i18n.Localizer, p float64) string { return l.Pct(p, 1) }

// roundLabel describes the open round of a class, or "" when none is.
func roundLabel(l *i18n.Localizer, r *store.Round) string {
	if r != nil {
		return l.T("round.label", "N", l.Int(r.Number), "Game", gameTitle(l, r.Variant), "Against", against(l, r.Mode, r.Bot, r.Variant))
	}
	return ""
}

// against says whom a round's students play.
func against(l *i18n.Localizer, mode store.Mode, bot string, v sim.Variant) string {
	seats := v.Seats
	id := "against.bot"
	if mode == store.InPairs {
		id = "against.pairs"
	}
	if seats > 2 {
		id += "_seats"
	}
	return l.T(id, "Bot", botLabel(l, bot, v.Game.Rules().HoldAt), "N", l.Int(seats))
}

// boardVersion names what a board shows: the match's version and its
// class's (pause and names).
func boardVersion(m *classroom.Match, class *classroom.Class) string {
	if class == nil {
		return strconv.FormatInt(m.Version, 10)
	}
	return fmt.Sprintf("%d.%d", m.Version, class.Version)
}

// nextIn is the address a student's page polls for their next match or
// game, with the page's language, so that the page is drawn again when the
// class's language changes.
func nextIn(l *i18n.Localizer, code string, after int64) string {
	u := paths.Next(code, after)
	if strings.Contains(u, "?") {
		return u + "&lang=" + l.Lang()
	}
	return u + "?lang=" + l.Lang()
}

// gameChoices are the games offered in forms.
func gameChoices(l *i18n.Localizer, selected string) []templates.Choice {
	var out []templates.Choice
	for _, g := range sim.Games {
		out = append(out, templates.Choice{Value: g.String(), Label: gameName(l, g), Selected: g.String() == selected})
	}
	return out
}

// botChoices are the bots offered in forms.
func botChoices(l *i18n.Localizer, selected string) []templates.Choice {
	return botChoicesHolding(l, selected, 20)
}

// botChoicesHolding is botChoices with the rule of thumb "hold at
// ruleOfThumb" (a game's own) in place of hold at 20.
func botChoicesHolding(l *i18n.Localizer, selected string, ruleOfThumb int) []templates.Choice {
	var out []templates.Choice
	for _, b := range sim.BotMenu(ruleOfThumb) {
		label := botLabel(l, b, ruleOfThumb)
		if strings.HasPrefix(b, "dice:") {
			label = l.T("bot.hog", "Bot", label)
		}
		out = append(out, templates.Choice{Value: b, Label: label, Selected: b == selected})
	}
	return out
}

// gameNamesIn lists the games by name in the reader's language.
func gameNamesIn(l *i18n.Localizer) []string {
	var out []string
	for _, g := range sim.Games {
		out = append(out, gameName(l, g))
	}
	return out
}

// historyResult says how a past match went for a student.
func historyResult(l *i18n.Localizer, m store.Match, studentID int64) string {
	if m.Status == store.Ended {
		return l.T("history.ended")
	}
	for _, s := range m.Seats {
		if s.StudentID == studentID && m.Result != nil {
			if m.Winner == s.Seat {
				return l.T("history.won", "Score", l.Int(m.Result.Scores[s.Seat]), "Other", l.Int(bestOther(m.Result.Scores, s.Seat)))
			}
			return l.T("history.lost", "Score", l.Int(m.Result.Scores[s.Seat]), "Other", l.Int(m.Result.Scores[m.Winner]))
		}
	}
	return ""
}

func bestOther(scores []int, seat int) int {
	best := 0
	for i, sc := range scores {
		if i != seat && sc > best {
			best = sc
		}
	}
	return best
}

// matchView is a match as the room let the viewer see it, and its board.
type matchView struct {
	*classroom.MatchView
	board templates.Board
}

// code is the join code of the match's class, "" for practice.
func (mv *matchView) code() string {
	if mv.Class == nil {
		return ""
	}
	return mv.Class.Code
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
