package server

import (
	"fmt"
	"strings"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
)

// seatName is how a seat is shown: the nickname, the generated name on a
// shared screen in anonymous mode, or the bot.
func seatName(seat store.Seat, anonymous bool) string {
	switch {
	case seat.Bot != "":
		return "Bot (" + botLabel(seat.Bot) + ")"
	case anonymous:
		return seat.AnonName
	}
	return seat.Nickname
}

// botLabel names a strategy for people.
func botLabel(name string) string {
	switch name {
	case "hold:10":
		return "beginner, hold at 10"
	case "hold:20":
		return "rule of thumb, hold at 20"
	case "optimal":
		return "perfect play"
	case "ev":
		return "expected-value play"
	case "kper":
		return "keep pace and end race"
	}
	return name
}

// seatNames names every seat of a match as the viewer sees it: generated
// names for the others in anonymous mode, and you for the viewer's own
// seat ("" keeps the viewer's nickname).
func seatNames(row store.Match, viewer int, anonymous bool, you string) []string {
	names := make([]string, row.Variant.Seats)
	for _, seat := range row.Seats {
		names[seat.Seat] = seatName(seat, anonymous && seat.Seat != viewer)
		if seat.Seat == viewer && you != "" {
			names[seat.Seat] = you
		}
	}
	return names
}

// boardView builds the play area of a match for the viewer's seat; class is
// nil for practice.
func (s *Server) boardView(class *classroom.Class, m *classroom.Match, viewer int) templates.Board {
	st := m.State
	v := m.Variant
	code, anonymous, paused := "", false, false
	if class != nil {
		code, anonymous, paused = class.Code, class.Anonymous, class.Paused
	}
	names := seatNames(m.Match, viewer, anonymous, "")
	b := templates.Board{
		MatchID: m.ID, Seq: m.Seq(), Title: gameTitle(v), Commitment: m.Seed.Commitment(), Game: v.Game.String(),
		Over: m.Over(), Paused: paused, TurnTotal: st.TurnTotal, HasTurnTotal: v.Game != sim.Hog,
		ActURL:   actURL(code, m.ID),
		BoardURL: boardURL(code, m.ID, boardVersion(m, class)), ReviewURL: matchURL(code, m.ID),
	}
	for seat := range v.Seats {
		b.Players = append(b.Players, templates.BoardPlayer{
			Name: names[seat], Score: st.Scores[seat], ToMove: seat == st.Seat && !b.Over, You: seat == viewer, Out: st.Out[seat],
		})
	}
	for _, seat := range m.Seats {
		b.Approximate = b.Approximate || v.Seats > 2 && seat.Bot == "optimal"
	}
	b.YourTurn = !b.Over && viewer >= 0 && st.Seat == viewer
	b.Won = st.Over && viewer >= 0 && st.Winner == viewer
	if !b.Over {
		b.ToMove = names[st.Seat]
	}
	if b.YourTurn {
		b.Actions = actionsFor(v)
		if v.Deadline > 0 && !paused {
			at := m.Last.Add(time.Duration(v.Deadline))
			b.DeadlineAt = at.UnixMilli()
			b.Deadline = fmt.Sprintf("%d s per roll: move by %s", int(time.Duration(v.Deadline).Seconds()), at.Format("15:04:05"))
		}
	}
	rows := m.Events
	if n := len(rows); n > 0 {
		lastRow := rows[n-1]
		b.LastFaces = lastRow.Faces.Ints()
		b.Announce = announce(rows, names, viewer, v.Game)
		for i := n - 1; i >= 0 && i >= n-8; i-- {
			b.Recent = append(b.Recent, describeAt(rows, i, names, viewer, v.Game))
		}
	}
	// The viewer's last event a time-out: say so until they move again,
	// however many moves the others made since.
	for i := len(rows) - 1; i >= 0 && viewer >= 0; i-- {
		if rows[i].Seat == viewer {
			if rows[i].Action.Kind == sim.TimeoutKind {
				b.TimedOut = describeAt(rows, i, names, viewer, v.Game)
			}
			break
		}
	}
	if b.YourTurn && !paused {
		b.Announce += " Your turn."
		if v.Deadline > 0 && st.Timeouts[viewer] == sim.TimeoutsResign-1 {
			b.Warning = fmt.Sprintf("Careful: time ran out on your last %d turns. Once more and you forfeit the match.", st.Timeouts[viewer])
		}
	}
	switch {
	case st.Over:
		b.Result = resultText(st, names, viewer)
	case m.Status == store.Ended:
		b.Result = "The teacher ended this match."
	}
	return b
}

// announce tells what happened since the viewer's last move, their move
// included (at most six events), for the live region: a screen reader
// hears each move, and consecutive announcements differ.
func announce(rows []store.Event, names []string, viewer int, g sim.Game) string {
	from := len(rows) - 1
	for i := len(rows) - 1; i >= 0 && i >= len(rows)-6; i-- {
		from = i
		if rows[i].Seat == viewer {
			break
		}
	}
	var parts []string
	for i := from; i < len(rows); i++ {
		parts = append(parts, describeAt(rows, i, names, viewer, g))
	}
	return strings.Join(parts, " ")
}

// describeAt tells event i of a log, counting a timeout among the ones in
// a row of its seat.
func describeAt(rows []store.Event, i int, names []string, viewer int, g sim.Game) string {
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
	who, passed := names[e.Seat], "the turn passed"
	if e.Seat == viewer {
		who, passed = "you", "your turn passed"
	}
	msg := fmt.Sprintf("Time ran out for %s: %s", who, passed)
	if e.TurnTotal > 0 {
		msg += fmt.Sprintf(" with %d points banked", e.TurnTotal)
	}
	if n >= sim.TimeoutsResign {
		return msg + fmt.Sprintf(" (%d of %d): forfeited after three time-outs.", n, sim.TimeoutsResign)
	}
	return msg + fmt.Sprintf(" (%d of %d).", n, sim.TimeoutsResign)
}

// gameTitle is the heading of a match.
func gameTitle(v sim.Variant) string {
	t := fmt.Sprintf("%s to %d", v.Game.Title(), v.Target)
	if v.EqualTurns {
		t += ", equal turns"
	}
	return t
}

// actionsFor lists the buttons of the variant, with their keys.
func actionsFor(v sim.Variant) []templates.ActionButton {
	if v.Game == sim.Hog {
		out := make([]templates.ActionButton, 0, v.MaxDice)
		for n := 1; n <= v.MaxDice; n++ {
			key := ""
			if n <= 10 {
				key = fmt.Sprint(n)
			}
			label := fmt.Sprintf("%d dice", n)
			if n == 1 {
				label = "1 die"
			}
			out = append(out, templates.ActionButton{Action: sim.Dice(n).String(), Label: label, Key: key})
		}
		return out
	}
	// No button is drawn as the recommended one: the class's choices are
	// what the lesson measures.
	return []templates.ActionButton{
		{Action: "roll", Label: "Roll", Key: "R"},
		{Action: "hold", Label: "Hold", Key: "H"},
	}
}

// describe tells one event in words, for the move list and screen readers.
func describe(e store.Event, names []string, viewer int, g sim.Game) string {
	who := names[e.Seat]
	if e.Seat == viewer {
		who = "You"
	}
	faces := e.Faces.String()
	switch e.Action.Kind {
	case sim.RollKind:
		switch {
		case faces == "1 1" && g == sim.BigPig:
			return fmt.Sprintf("%s rolled double 1s: 25 points.", who)
		case faces == "1 1" && g == sim.TwoDice:
			return fmt.Sprintf("%s rolled double 1s: the whole score is gone.", who)
		case e.Faces.Ones() > 0:
			return fmt.Sprintf("%s rolled %s: the turn is over.", who, faces)
		}
		f := e.Faces
		if points, bust, _ := sim.RollPoints(g, &f); !bust {
			return fmt.Sprintf("%s rolled %s: turn total %d.", who, faces, e.TurnTotal+points)
		}
		return fmt.Sprintf("%s rolled %s.", who, faces)
	case sim.DiceKind:
		return fmt.Sprintf("%s threw %s.", who, faces)
	case sim.HoldKind:
		return fmt.Sprintf("%s held %d points.", who, e.TurnTotal)
	case sim.TimeoutKind:
		return fmt.Sprintf("Time ran out for %s: %d points banked.", who, e.TurnTotal)
	case sim.ResignKind:
		return fmt.Sprintf("%s resigned.", who)
	}
	return who + " " + e.Action.String()
}

// resultText says who won, and who forfeited after three time-outs.
func resultText(st sim.State, names []string, viewer int) string {
	forfeit := ""
	for seat := range st.Variant.Seats {
		if st.Out[seat] && st.Timeouts[seat] >= sim.TimeoutsResign {
			if seat == viewer {
				forfeit = "You forfeited after three time-outs. "
			} else {
				forfeit += names[seat] + " forfeited after three time-outs. "
			}
		}
	}
	if st.Winner == viewer {
		return forfeit + fmt.Sprintf("You won with %d points!", st.Scores[st.Winner])
	}
	return forfeit + fmt.Sprintf("%s won with %d points.", names[st.Winner], st.Scores[st.Winner])
}

// percent formats a probability.
func percent(p float64) string { return fmt.Sprintf("%.1f%%", 100*p) }
