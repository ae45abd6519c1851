package server

import (
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"time"

	"pigclass/lessons"
	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// A long drawing (a class of a thousand's live part: about 5 ms) pauses
// (runtime.Gosched) every yieldRows rows it builds and every yieldBytes
// bytes it writes, so that the requests waiting for a core meanwhile (a
// move, and the writer committing it) run between its pieces instead of
// after the whole: it runs as a background task should.
const (
	yieldRows  = 100
	yieldBytes = 32 << 10
)

// yieldAt pauses the drawing at every yieldRows-th row i.
func yieldAt(i int) {
	if i > 0 && i%yieldRows == 0 {
		runtime.Gosched()
	}
}

// yielding is w, the drawing writing to it pausing every yieldBytes (a
// long write written in pieces).
func yielding(w io.Writer) io.Writer { return &yieldingWriter{w: w} }

type yieldingWriter struct {
	w io.Writer
	n int
}

func (y *yieldingWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		piece := p[:min(len(p), yieldBytes-y.n)]
		n, err := y.w.Write(piece)
		written += n
		if err != nil {
			return written, err
		}
		p = p[len(piece):]
		if y.n += len(piece); y.n >= yieldBytes {
			y.n = 0
			runtime.Gosched()
		}
	}
	return written, nil
}

// views builds the view models the handlers share (the board, the charts,
// the lesson, the podium, the review, Skunk's table, a student's history,
// the dashboard's live part) from what the classroom, the reports and the
// solved tables answer: it reads, as the viewer it is given, and handles
// no request.
type views struct {
	now     func() time.Time
	room    *classroom.Room
	reports *report.Reports
	tables  *solve.Cache
	log     *slog.Logger
	lessons []lessons.Lesson
	ladder  *ladder // the strategy ladder, computed when first asked
	// figures are the lessons' figures, computed once for every server
	// that shares its tables (as the ladder is).
	figs *lessonFigures
}

// seatWords is how a seat is shown: the nickname, the generated name on a
// shared screen in anonymous mode, or the bot.
func seatWords(seat play.Seat, anonymous bool, g sim.Game) i18n.Msg {
	switch {
	case seat.Bot != "":
		// One name a person reads, on every page (issue 79): the board's
		// short one ("Hold-20 bot"); what it plays is said apart.
		return botName(seat.Bot, g.Rules().HoldAt)
	case anonymous:
		return anonWords(seat.AnonName)
	}
	return i18n.Text(seat.Nickname)
}

// anonWords is a generated name ("Brave Otter", "Brave Otter 2", as stored
// and exported) in the reader's words: its adjective and animal are the
// catalog's anon.adj.WORD and anon.animal.WORD, put in the language's
// order by anon.name. A name whose words the catalog lacks stays as it is.
func anonWords(stored string) i18n.Msg {
	parts := strings.SplitN(stored, " ", 3)
	if len(parts) < 2 {
		return i18n.Text(stored)
	}
	name := i18n.M("anon.name", "Adjective", i18n.M("anon.adj."+strings.ToLower(parts[0])), "Animal", i18n.M("anon.animal."+strings.ToLower(parts[1])))
	name.Missing = parts[0] + " " + parts[1]
	if len(parts) == 3 {
		return i18n.Join(" ", name, i18n.Text(parts[2]))
	}
	return name
}

// anonIn is anonWords in the reader's language.
func anonIn(l *i18n.Localizer, stored string) string { return l.Say(anonWords(stored)) }

// botWords names a strategy for people, and botName a bot as a player
// (report.BotWords, report.BotName: the files name bots the same way).
var botWords, botName = report.BotWords, report.BotName

// botLabel is botWords in the reader's language.
func botLabel(l *i18n.Localizer, name string, ruleOfThumb int) string {
	return l.Say(botWords(name, ruleOfThumb))
}

// seatWordsAll names every seat of a match as the viewer sees it:
// generated names for the others in anonymous mode, and you for the
// viewer's own seat (an empty you keeps the viewer's nickname).
// A bot goes by its short name ("Hold-20 bot", botName), the same on the
// board, the review and the teacher's pages; several bots in a match are
// numbered in seat order ("Hold-20 bot 2"), so that each can be told
// apart.
func seatWordsAll(row play.Match, viewer int, anonymous bool, you i18n.Msg) []i18n.Msg {
	names := make([]i18n.Msg, row.Variant.Seats)
	for _, seat := range row.Seats {
		names[seat.Seat] = seatWords(seat, anonymous && seat.Seat != viewer, row.Variant.Game)
		if seat.Seat == viewer && !you.Empty() {
			names[seat.Seat] = you
		}
	}
	numberBots(row, names, func(bot string, n int) i18n.Msg {
		if n == 0 {
			return i18n.Msg{} // a lone bot: seatWords's name
		}
		return i18n.M("bot.name.numbered", "Bot", botName(bot, row.Variant.Game.Rules().HoldAt), "N", n)
	})
	return names
}

// numberBots names each bot seat of row in names by named: its bot and
// its number in seat order among the match's bots, or 0 when it is the
// only bot (a lone bot stays as seatWords names it unless named says
// otherwise).
func numberBots(row play.Match, names []i18n.Msg, named func(bot string, n int) i18n.Msg) {
	bots := 0
	for _, seat := range row.Seats {
		if seat.Bot != "" {
			bots++
		}
	}
	n := 0
	for _, seat := range row.Seats {
		if seat.Bot == "" {
			continue
		}
		if bots > 1 {
			n++
		}
		if m := named(seat.Bot, n); !m.Empty() {
			names[seat.Seat] = m
		}
	}
}

// seatNames is seatWordsAll in the reader's language ("" for you keeps
// the viewer's nickname).
func seatNames(l *i18n.Localizer, row play.Match, viewer int, anonymous bool, you string) []string {
	var y i18n.Msg
	if you != "" {
		y = i18n.Text(you)
	}
	return l.SayAll(seatWordsAll(row, viewer, anonymous, y))
}

// boardWords are a board's words before they are put in the reader's
// language, all at once, by boardView.
type boardWords struct {
	title, toMove, result, warning, timedOut i18n.Msg
	deadline, left, hurry                    i18n.Msg
	names, actions, howTo, pieces            []i18n.Msg // a seat's, a button's, a line's, a thrown piece's
	said                                     []i18n.Msg // the last moves, oldest first
	announceFrom                             int        // where in said the screen reader starts
	yourTurn                                 i18n.Msg   // the screen reader hears whose turn it is
	youMark                                  i18n.Msg   // beside the viewer's own name in a class
}

// armFacts puts on b the viewer's arm of "Decide before you roll" in
// match m ("" outside the experiment), and whether it is a committed
// player's turn to set how far to roll (Plan, in place of the buttons):
// the turn is theirs (b.YourTurn) and not begun.
func armFacts(b *templates.Board, m *play.Match, viewer int) {
	if viewer < 0 || viewer >= len(m.Seats) {
		return
	}
	a := m.Seats[viewer].Arm
	b.Arm, b.Plan = string(a), b.YourTurn && a == play.Committed && m.State.TurnTotal == 0
	b.PlanMin, b.PlanMax = play.MinPlan, play.MaxPlan
	for i := len(m.Events) - 1; i >= 0 && b.Plan; i-- {
		if e := m.Events[i]; e.Seat == viewer && e.Plan > 0 {
			b.PlanLast = e.Plan // the stepper starts where the last turn's plan was
			break
		}
	}
}

// boardView builds the play area of a match for the viewer's seat; class is
// nil for practice. Its words are put in the reader's language here, in
// one place; the rest is boardFacts'. A table's board is tableBoardView's.
func (w *views) boardView(l *i18n.Localizer, class *classroom.Class, m *play.Match, viewer int) templates.Board {
	b, _ := w.boardSaid(l, class, m, viewer)
	return b
}

// boardSaid is boardView, with the players' names in words (a table's
// board names them again).
func (w *views) boardSaid(l *i18n.Localizer, class *classroom.Class, m *play.Match, viewer int) (templates.Board, []i18n.Msg) {
	b, words := w.boardFacts(class, m, viewer)
	b.BoardURL += "&lang=" + l.Lang()
	if class != nil && m.AssignmentID == 0 {
		b.Clock = w.phaseClock(l, class.Class) // a class's board (a round's, a table's), not homework's
	}
	b.Title, b.ToMove, b.Result, b.Warning = l.Say(words.title), l.Say(words.toMove), l.Say(words.result), l.Say(words.warning)
	b.TimedOut = l.Say(words.timedOut)
	b.Deadline, b.DeadlineLeft, b.DeadlineHurry = l.Say(words.deadline), l.Say(words.left), l.Say(words.hurry)
	b.HowTo = l.SayAll(words.howTo)
	for i := range b.Players {
		b.Players[i].Name = l.Say(words.names[i])
		if b.Players[i].You && class != nil {
			b.Players[i].Mark = l.Say(words.youMark)
		}
	}
	for i := range b.Actions {
		b.Actions[i].Label = l.Say(words.actions[i])
	}
	for i := range b.LastThrow {
		b.LastThrow[i].Name = l.Say(words.pieces[i])
	}
	said := l.SayAll(words.said)
	for i := len(said) - 1; i >= 0; i-- {
		b.Recent = append(b.Recent, said[i])
	}
	if len(said) > 0 {
		b.Announce = strings.Join(said[words.announceFrom:], " ")
	}
	if !words.yourTurn.Empty() {
		b.Announce += " " + l.Say(words.yourTurn)
	}
	b.Heard = strings.TrimSpace(b.Announce + " " + b.Result)
	b.Fingerprint = b.Commitment[:min(8, len(b.Commitment))] + "…"
	return b, words.names
}

// boardFacts is the board of boardView with its words still to be said.
func (w *views) boardFacts(class *classroom.Class, m *play.Match, viewer int) (templates.Board, boardWords) {
	st, v := m.State, m.Variant
	code, anonymous, paused := "", false, false
	if class != nil {
		code, anonymous, paused = class.Code, class.Anonymous, class.Paused
	}
	var you i18n.Msg
	if class == nil {
		you = i18n.M("board.you_name") // practice: the player has no nickname
	}
	seated, viewer := viewer >= 0, wordsViewer(m, viewer)
	words := boardWords{title: titleWords(v), names: seatWordsAll(*m, viewer, anonymous, you), youMark: i18n.M("board.you_mark")}
	b := templates.Board{
		MatchID: m.ID, Seq: m.Seq(), Commitment: m.Seed.Commitment(), Game: v.Game.String(), InClass: code != "", ClassCode: code,
		CheckDiceURL: paths.VerifyMatch(code, m.ID),
		Over:         m.Over(), Paused: paused, TurnTotal: st.TurnTotal, HasTurnTotal: !v.Game.ChoosesDice(),
		ActURL:   paths.Act(code, m.ID),
		BoardURL: paths.Board(code, m.ID, boardVersion(m, class)), ReviewURL: paths.Match(code, m.ID),
	}
	for seat := range v.Seats {
		b.Players = append(b.Players, templates.BoardPlayer{
			Seat: seat, Score: st.Scores[seat], ToMove: seat == st.Seat && !b.Over, You: seat == viewer, Out: st.Out[seat],
		})
	}
	for _, seat := range m.Seats {
		b.Approximate = b.Approximate || seat.Bot == sim.PerfectBot && !play.ExactBots(v)
	}
	// A bot to move is waiting: bots move as soon as they can, and the
	// perfect-play bot cannot until its table is solved.
	b.Preparing = !b.Over && m.Seats[st.Seat].Bot != ""
	// At a table any of its players' devices enters for the player to
	// move, a bot excepted.
	atTable := !b.Over && m.AtTable && m.Seats[st.Seat].StudentID != 0
	b.YourTurn = !b.Over && seated && (st.Seat == viewer || atTable)
	b.Won = st.Over && viewer >= 0 && st.Winner == viewer
	b.Forfeited = viewer >= 0 && st.Out[viewer] && st.Timeouts[viewer] >= sim.TimeoutsResign
	if !b.Over {
		words.toMove = words.names[st.Seat]
	}
	armFacts(&b, m, viewer)
	if b.YourTurn && !b.Plan {
		b.Actions, words.actions = boardActions(m)
	}
	if viewer >= 0 && !b.Over {
		words.howTo, b.HowToOpen = howTo(m, viewer, m.Limit(viewer, class))
	}
	if v.Deadline > 0 && !paused && !b.Over && m.Seats[st.Seat].StudentID != 0 {
		limit := m.Limit(st.Seat, class) // with the student's extra time
		b.DeadlineAt = m.Last.Add(limit).UnixMilli()
		words.deadline, words.left, words.hurry = deadlineWords(m, limit, words.toMove, b.YourTurn)
	}
	b.LastThrow, words.pieces = movesInWords(&words, m, viewer)
	if b.YourTurn && !paused && !m.AtTable {
		words.yourTurn = i18n.M("board.yourturn_said")
		if v.Deadline > 0 && st.Timeouts[viewer] == sim.TimeoutsResign-1 {
			words.warning = i18n.M("board.warning", "N", st.Timeouts[viewer])
		}
	}
	switch {
	case st.Over:
		words.result = resultWords(st, words.names, viewer)
	case m.Status == play.Ended:
		words.result, b.Ended = i18n.M("board.ended"), true
	}
	return b, words
}

// announceFrom is where the screen reader's announcement of a board
// starts: the viewer's own last move, at most six events back, so that a
// screen reader hears each move and consecutive announcements differ.
func announceFrom(rows []play.Event, viewer int) int {
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
func describeAt(rows []play.Event, i int, names []i18n.Msg, viewer int, g sim.Game) i18n.Msg {
	e := rows[i]
	if e.Action.Kind != sim.TimeoutKind {
		return describe(e, names, viewer, g)
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
	if e.TurnTotal > 0 { // "1 point banked", "2 points banked"
		return i18n.Plural("move."+id, e.TurnTotal, "Name", names[e.Seat], "Points", e.TurnTotal, "N", n, "Of", sim.TimeoutsResign)
	}
	return i18n.M("move."+id, "Name", names[e.Seat], "Points", e.TurnTotal, "N", n, "Of", sim.TimeoutsResign)
}

// rulesWords are a variant's rules in a few lines: the board's "How to
// play", a score sheet's head.
func rulesWords(v sim.Variant) i18n.Msg {
	return i18n.M("howto."+v.Game.String(), "Target", v.Target, "Max", v.MaxDice)
}

// howTo is the rules in a few words, open until the viewer's first move;
// limit is the viewer's time for a move (0: none).
func howTo(m *play.Match, viewer int, limit time.Duration) ([]i18n.Msg, bool) {
	v := m.Variant
	lines := []i18n.Msg{rulesWords(v)}
	if limit > 0 {
		lines = append(lines, i18n.M("howto.deadline", "N", int(limit.Seconds())))
	}
	for _, e := range m.Events {
		if e.Seat == viewer && e.By == play.ByStudent {
			return lines, false
		}
	}
	return lines, true
}

// phaseClock is the countdown the teacher set for the class's lesson
// phase, as it stands now; nil when none runs (or the class is off its
// lesson, or the plan's first phase is not started). Once over it says
// so until the teacher stops it or the phase moves on.
func (w *views) phaseClock(l *i18n.Localizer, class store.Class) *templates.PhaseClock {
	if class.Countdown.IsZero() || !class.InPhase() {
		return nil
	}
	left := max(class.Countdown.Sub(w.now()), 0)
	c := &templates.PhaseClock{LeftMS: left.Milliseconds(), Left: l.T("lesson.countdown.left", "Time", "{t}"), Over: l.T("lesson.countdown.over")}
	c.Text = c.Over
	if left > 0 {
		c.Text = l.T("lesson.countdown.left", "Time", clockText(left))
	}
	return c
}

// clockText is a time left as minutes and seconds, rounded up (4:05), as
// app.js writes it.
func clockText(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// deadlineWords is the deadline of a student to move, limit a move: theirs
// on their board, and counting down on their partners' boards too; left
// and hurry are the countdown's words, {n} the seconds left.
func deadlineWords(m *play.Match, limit time.Duration, toMove i18n.Msg, yourTurn bool) (deadline, left, hurry i18n.Msg) {
	at := m.Last.Add(limit)
	secs := int(limit.Seconds())
	if yourTurn {
		return i18n.M("board.deadline", "N", secs, "At", at), i18n.M("board.left", "N", "{n}"), i18n.M("board.hurry", "N", "{n}")
	}
	left = i18n.M("board.left_other", "Name", toMove, "N", "{n}")
	return i18n.M("board.deadline_other", "Name", toMove, "N", secs, "At", at), left, left
}

// movesInWords puts each of the last moves in words once: the move list
// shows the last eight, the screen reader hears those since the viewer's
// own last move (at most six), and a time-out of the viewer's is said
// until they move again. The last throw is drawn: it is returned with its
// pieces' names.
func movesInWords(words *boardWords, m *play.Match, viewer int) ([]templates.ThrownPiece, []i18n.Msg) {
	v, rows := m.Variant, m.Events
	n := len(rows)
	first := max(0, n-8)
	for i := first; i < n; i++ {
		words.said = append(words.said, describeAt(rows, i, words.names, viewer, v.Game))
	}
	for i := n - 1; i >= 0 && viewer >= 0; i-- {
		if rows[i].Seat == viewer {
			if rows[i].Action.Kind == sim.TimeoutKind {
				words.timedOut = describeAt(rows, i, words.names, viewer, v.Game)
			}
			break
		}
	}
	if n == 0 {
		return nil, nil
	}
	words.announceFrom = announceFrom(rows, viewer) - first
	return thrownPieces(v.Game, rows[n-1].Faces)
}

// titleWords is the heading of a match.
func titleWords(v sim.Variant) i18n.Msg {
	id := "game.title"
	if v.EqualTurns {
		id = "game.title_equal"
	}
	return i18n.M(id, "Game", gameWords(v.Game), "N", v.Target)
}

// gameTitle is titleWords in the reader's language.
func gameTitle(l *i18n.Localizer, v sim.Variant) string { return l.Say(titleWords(v)) }

// gameWords is a game's name.
func gameWords(g sim.Game) i18n.Msg { return i18n.M("game." + g.String()) }

// gameName is a game's name in the reader's language.
func gameName(l *i18n.Localizer, g sim.Game) string { return l.Say(gameWords(g)) }

// actionsFor lists the buttons of the variant, with their keys, and
// their labels' words.
func actionsFor(v sim.Variant) ([]templates.ActionButton, []i18n.Msg) {
	if v.Game.ChoosesDice() {
		out, labels := make([]templates.ActionButton, 0, v.MaxDice), make([]i18n.Msg, 0, v.MaxDice)
		for n := 1; n <= v.MaxDice; n++ {
			key := ""
			if n <= 10 {
				key = fmt.Sprint(n)
			}
			out = append(out, templates.ActionButton{Action: sim.Dice(n).String(), Key: key})
			labels = append(labels, i18n.Plural("board.dice", n))
		}
		return out, labels
	}
	// No button is drawn as the recommended one: the class's choices are
	// what the lesson measures.
	return []templates.ActionButton{{Action: "roll", Key: "R"}, {Action: "hold", Key: "H"}},
		[]i18n.Msg{i18n.M("board.roll"), i18n.M("board.hold")}
}

// wordsViewer is the seat a board's words call "you": a table's device
// is shared, so it names every player and "you" none (-1).
func wordsViewer(m *play.Match, viewer int) int {
	if m.AtTable {
		return -1
	}
	return viewer
}

// boardActions are the board's buttons: at a table, whose throws are
// entered as their pieces (tableEntry), the decisions without a throw.
func boardActions(m *play.Match) ([]templates.ActionButton, []i18n.Msg) {
	buttons, labels := actionsFor(m.Variant)
	if m.AtTable {
		return holdOnly(buttons, labels)
	}
	return buttons, labels
}

// holdOnly keeps the hold of a board's buttons (none in a game of one
// throw), with its label.
func holdOnly(buttons []templates.ActionButton, labels []i18n.Msg) ([]templates.ActionButton, []i18n.Msg) {
	for i, b := range buttons {
		if b.Action == sim.Hold.String() {
			return buttons[i : i+1], labels[i : i+1]
		}
	}
	return nil, nil
}

// describe tells one event in words, for the move list and screen readers.
// The viewer's own moves have their own messages ("You rolled"), since
// many languages conjugate the verb for "you".
func describe(e play.Event, names []i18n.Msg, viewer int, g sim.Game) i18n.Msg {
	suffix := ""
	if e.Seat == viewer {
		suffix = "_you"
	}
	f := e.Faces
	said := charts.ThrowMsg(g, &f)
	say := func(id string, args ...any) i18n.Msg {
		return i18n.M("move."+id+suffix, append(args, "Name", names[e.Seat], "Faces", said)...)
	}
	switch e.Action.Kind {
	case sim.RollKind:
		points, bust, _ := sim.RollPoints(g, &f)
		// A throw's verb is its pieces' (a die rolls, a pig is thrown).
		piece := g.Rules().Piece.Name + "."
		switch name := g.ThrowName(&f); {
		case name != "":
			return say(name, "Total", e.TurnTotal+points)
		case bust:
			return say(piece + "bust")
		}
		return say(piece+"rolled_total", "Total", e.TurnTotal+points)
	case sim.DiceKind:
		// Every throw says what it scored: a 1 scores nothing.
		points, _, _ := sim.RollPoints(g, &f)
		return i18n.Plural("move.threw"+suffix, points, "Name", names[e.Seat], "Faces", said)
	case sim.HoldKind:
		return i18n.Plural("move.held"+suffix, e.TurnTotal, "Name", names[e.Seat], "Points", e.TurnTotal)
	case sim.TimeoutKind:
		return i18n.Plural("move.timeout_plain"+suffix, e.TurnTotal, "Name", names[e.Seat], "Points", e.TurnTotal)
	case sim.ResignKind:
		return say("resigned")
	}
	return i18n.Join(" ", names[e.Seat], i18n.Text(e.Action.String()))
}

// resultWords says who won, and who forfeited after three time-outs.
func resultWords(st sim.State, names []i18n.Msg, viewer int) i18n.Msg {
	var said []i18n.Msg
	for seat := range st.Variant.Seats {
		if st.Out[seat] && st.Timeouts[seat] >= sim.TimeoutsResign {
			if seat == viewer {
				said = []i18n.Msg{i18n.M("result.forfeit_you")}
			} else {
				said = append(said, i18n.M("result.forfeit", "Name", names[seat]))
			}
		}
	}
	points, other := st.Scores[st.Winner], bestOther(st.Scores[:st.Variant.Seats], st.Winner)
	if st.Winner == viewer {
		return i18n.Join(" ", append(said, i18n.M("result.won_you", "Points", points, "Other", other))...)
	}
	return i18n.Join(" ", append(said, i18n.M("result.won", "Name", names[st.Winner], "Points", points, "Other", other))...)
}

// percent formats a probability in the reader's format (one decimal).
func percent(l *i18n.Localizer, p float64) string { return l.Pct(p, 1) }

// roundLabel describes the open round of a class, or "" when none is.
func roundLabel(l *i18n.Localizer, r *play.Round) string {
	if r != nil {
		return l.T("round.label", "N", l.Int(r.Number), "Game", gameTitle(l, r.Variant), "Against", against(l, r.Mode, r.Bot, r.Variant))
	}
	return ""
}

// against says whom a round's students play.
func against(l *i18n.Localizer, mode play.Mode, bot string, v sim.Variant) string {
	seats := v.Seats
	id := "against.bot"
	if mode == play.InPairs {
		id = "against.pairs"
	}
	if seats > 2 {
		id += "_seats"
	}
	return l.T(id, "Bot", botLabel(l, bot, v.Game.Rules().HoldAt), "N", l.Int(seats))
}

// boardVersion names what a board shows: the match's version and its
// class's (pause and names).
func boardVersion(m *play.Match, class *classroom.Class) string {
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
func historyResult(l *i18n.Localizer, m play.Match, studentID int64) string {
	if m.Status == play.Ended {
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

// seenMatch is a match as the hall let a viewer see it, with its class
// (nil for practice) as the viewer knows it.
type seenMatch struct {
	*play.View
	Class *classroom.Class
}

// seen is the match pv as v sees it, with its class.
func seen(v classroom.Viewer, pv *play.View) *seenMatch {
	m := &seenMatch{View: pv}
	if class := v.Class(); class != nil && pv.ClassID == class.ID {
		m.Class = class
	}
	return m
}

// matchView is a match as the room let the viewer see it, and its board.
type matchView struct {
	*seenMatch
	board templates.Board
	// teacher: the teacher's look at the match from a student's seat
	// (Seat): it reads the student's guesses, and guesses nothing.
	teacher bool
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
