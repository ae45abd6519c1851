package server

import (
	"math"
	"slices"
	"strings"

	"pigclass/server/charts"
	"pigclass/server/play"
	"pigclass/server/report"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// mysteries are the review's mystery bots, once the seed that drew their
// strengths is published (sim.MysteryStrength). A player who has not
// guessed a bot is asked first, and told nothing else of it; then, and
// on the teacher's look, the guesses, what each of the bot's moves ruled
// out and the strength it played at.
func mysteries(l *i18n.Localizer, mv *matchView) []templates.MysteryReview {
	var out []templates.MysteryReview
	var names []i18n.Msg
	rule := mv.Variant.Game.Rules().HoldAt
	for _, seat := range mv.Seats {
		if seat.Bot != sim.MysteryBot {
			continue
		}
		if names == nil {
			names = seatWordsAll(*mv.Match, -1, false, i18n.Msg{})
		}
		bot := l.Say(names[seat.Seat])
		strength := sim.MysteryStrength(mv.Variant.Game, &mv.Seed, seat.Seat)
		m := templates.MysteryReview{Seat: seat.Seat, Reveal: l.T("review.mystery", "Bot", bot, "Strength", botLabel(l, strength, rule))}
		guessed := false
		for _, g := range mv.Guesses {
			if g.Seat != seat.Seat || mv.SeatOf(g.StudentID) != mv.Seat {
				continue
			}
			guessed, m.Right = true, g.Guess == strength
			words := botLabel(l, g.Guess, rule)
			switch {
			case mv.teacher:
				m.Verdict = []string{l.T("review.mystery_guessed", "Name", l.Say(names[mv.Seat]), "Guess", words)}
			default:
				m.Verdict = []string{l.T(pick(m.Right, "review.mystery_right", "review.mystery_wrong"), "Guess", words)}
			}
		}
		switch {
		case mv.Seat >= 0 && !guessed && !mv.teacher:
			m.Ask, m.GuessURL = l.T("review.mystery_ask", "Bot", bot), paths.Guess(mv.code(), mv.ID)
			for _, s := range sim.MysteryStrengths(mv.Variant.Game) {
				m.Choices = append(m.Choices, templates.Choice{Value: s, Label: botLabel(l, s, rule)})
			}
		case mv.Seat >= 0 && !guessed:
			m.Verdict = []string{l.T("review.mystery_unguessed", "Name", l.Say(names[mv.Seat]))}
			fallthrough
		default:
			m.Trail = mysteryTrail(l, mv, seat.Seat)
		}
		out = append(out, m)
	}
	return out
}

// mysteryTrail is what the moves of the mystery bot at seat ruled out,
// each decision that ruled out a strength in a line (one in three each at
// the start; those that agree with every move so far share the chance).
// It reads the strengths stored with each decision (play.Analysis's
// Agrees), and works them out for a decision stored without them.
func mysteryTrail(l *i18n.Localizer, mv *matchView, seat int) []string {
	g := mv.Variant.Game
	strengths := sim.MysteryStrengths(g)
	possible := make([]bool, len(strengths))
	for i := range possible {
		possible[i] = true
	}
	var out []string
	n := 0
	for _, e := range mv.Events {
		if e.Seat != seat || e.By != play.ByBot || e.Analysis == nil {
			continue
		}
		n++
		var out1, left []string
		for i, agrees := range agreesWith(mv.Variant, e, strengths) {
			name := botLabel(l, strengths[i], g.Rules().HoldAt)
			switch {
			case possible[i] && !agrees:
				possible[i] = false
				out1 = append(out1, name)
			case possible[i]:
				left = append(left, name)
			}
		}
		if len(out1) > 0 && len(left) > 0 {
			out = append(out, l.T("review.mystery_step", "N", l.Int(n), "Move", charts.ActionWord(l, e.Action), "Total", l.Int(e.TurnTotal), "Out", strings.Join(out1, "; "))+" "+
				l.N("review.mystery_left", len(left), "List", strings.Join(left, "; ")))
		}
	}
	return out
}

// agreesWith says, for each of strengths, whether it would have made the
// bot's decision e: as stored with it, or (a decision stored before the
// strengths were) worked out again from its position.
func agreesWith(v sim.Variant, e play.Event, strengths []string) []bool {
	if stored := e.Analysis.Agrees; stored != nil {
		out := make([]bool, len(strengths))
		for i, s := range strengths {
			out[i] = slices.Contains(stored, s)
		}
		return out
	}
	p := sim.Position{Variant: v, Score: e.Score, Opponent: e.OpponentScore, TurnTotal: e.TurnTotal}
	return sim.MysteryAgrees(p, e.Action, e.Analysis.Best)
}

// reviewView lists the viewer's decisions beside the rule of thumb and
// perfect play, in words a student reads: chances in percent, the same
// mistake made again and again said once.
func (w *views) reviewView(l *i18n.Localizer, mv *matchView) templates.Review {
	code := mv.code()
	v := templates.Review{
		Title: gameTitle(l, mv.Variant), Result: mv.board.Result, Commitment: mv.Seed.Commitment(),
		RecordURL: paths.Record(code, mv.ID), VerifyURL: paths.VerifyMatch(code, mv.ID), BackURL: "/",
		InClass: code != "", Hog: mv.Variant.Game.ChoosesDice(),
		Pieces: charts.PiecesWord(l, mv.Variant.Game),
	}
	if mv.board.NextURL != "" {
		// The review follows the student's next game; a lesson's move
		// leaves it as it is (a board says what the phase asks).
		v.NextURL = nextIn(l, code, mv.ID)
	}
	if mv.teacher && mv.Seat >= 0 && mv.Seat < len(mv.Seats) {
		v.Student = mv.Seats[mv.Seat].Nickname // the review speaks of them
	}
	switch {
	case !mv.Over():
		v.SeedLater = l.T("review.seedplaying") // the teacher's look at a match in play
	case mv.SharingDice > 0:
		v.SeedLater = l.N("review.seedlater", mv.SharingDice)
	default:
		v.Seed = mv.Seed.String()
		v.Mysteries = mysteries(l, mv)
	}
	if code != "" {
		v.BackURL = paths.Student.For(code)
	}
	total := 0.0
	var costs []decisionCost
	for _, e := range mv.Events {
		v.Pending = v.Pending || e.Pending
		if e.Seat != mv.Seat || e.Action.Kind == sim.ResignKind {
			continue
		}
		r := templates.ReviewRow{N: len(v.Rows) + 1, Turn: e.Turn, Score: e.Score, Opponent: e.OpponentScore, TurnTotal: e.TurnTotal, Action: charts.ActionWord(l, e.Action), Faces: charts.ThrowWords(l, mv.Variant.Game, &e.Faces)}
		if a := e.Analysis; a != nil {
			v.Analysed = true
			v.Approximate = v.Approximate || a.Approximate
			best := a.Options[a.Best]
			r.EV, r.Best, r.Before, r.After, r.Cost = charts.ActionWord(l, a.EV), charts.ActionWord(l, a.Best), percent(l, best), percent(l, a.WinIfChosen), percent(l, a.Cost)
			r.AgreesOptimal, r.AgreesEV = report.ChosenAction(e) == a.Best, report.ChosenAction(e) == a.EV
			total += a.Cost
			costs = append(costs, decisionCost{kind: report.ChosenAction(e).Kind, dice: int(report.ChosenAction(e).Dice), turnTotal: e.TurnTotal, cost: a.Cost})
			v.Decisions++
			if !r.AgreesOptimal {
				v.Differs = append(v.Differs, r)
			}
		}
		v.Rows = append(v.Rows, r)
	}
	v.TotalCost, v.Plain = percent(l, total), plainCost(l, v.Student, mv.board.Won, costs, total)
	if v.Decisions > 0 {
		v.PerDecision = percent(l, total/float64(v.Decisions))
	}
	v.TwoPlayers = mv.Variant.Seats == 2
	v.Differs, v.Patterns = reviewPatterns(l, v.Student, v.Differs, v.Hog)
	v.Timeline = timeline(l, mv)
	return v
}

// decisionCost is one analysed decision of the reviewed player: what was
// chosen, with what turn total, and what it cost.
type decisionCost struct {
	kind      sim.ActionKind
	dice      int
	turnTotal int
	cost      float64
}

// plainCost says a match's cost in one plain sentence (issue 44): about
// one game in N, and the kind of decision most of it came from (a hold or
// a roll with a turn total within one ten, or a number of dice), "most of
// it" when that kind gave away half of it or more, "above all" when less;
// of names the student on the teacher's look.
func plainCost(l *i18n.Localizer, of string, won bool, costs []decisionCost, total float64) string {
	lost := chanceLost(l, total)
	// A won game's cost is what its choices risked, not games lost
	// (issue 81: a student who won 50-38 was told his choices "cost you
	// about 1 game in 2").
	said := pick(won, "plain_won", "plain")
	if total < 0.005 {
		return templates.ReviewSaid(l, of, said+"_only", "Lost", lost)
	}
	sums := map[decisionCost]float64{}
	var top decisionCost
	for _, c := range costs {
		k := decisionCost{kind: c.kind, dice: c.dice, turnTotal: c.turnTotal / 10 * 10}
		if c.kind == sim.DiceKind {
			k.turnTotal = 0
		}
		if sums[k] += c.cost; sums[k] > sums[top] {
			top = k
		}
	}
	var when string
	switch {
	case top.kind == sim.DiceKind && of != "":
		when = l.N("review_of.band.dice", top.dice, "Name", of)
	case top.kind == sim.DiceKind:
		when = l.N("review.band.dice", top.dice)
	default:
		when = templates.ReviewSaid(l, of, "band."+pick(top.kind == sim.HoldKind, "hold", "roll"), "Lo", l.Int(top.turnTotal), "Hi", l.Int(top.turnTotal+9))
	}
	return templates.ReviewSaid(l, of, said+pick(sums[top] >= total/2, "", "_spread"), "Lost", lost, "When", when)
}

// chanceLost is a game's cost (its decisions' losses of the chance to
// win, added up) in words a 12-year-old reads: "about 14 in 100 of the
// chance to win", "hardly any", or past a whole chance, "more than a
// whole game's chance".
func chanceLost(l *i18n.Localizer, total float64) string {
	switch {
	case total < 0.005:
		return l.T("review.lost.none")
	case total >= 1:
		return l.T("review.lost.more")
	}
	return l.T("review.lost.in100", "N", l.Int(int(math.Round(100*total))))
}

// minPattern is how many times the same choice against perfect play's
// makes a pattern, said once with its count.
const minPattern = 3

// reviewPatterns takes the choices a student made against perfect play's
// the same way minPattern times or more (holding where it rolls, say) out
// of differs, as one line each with their count and the turn totals they
// were made at; the rest stay cards of their own.
func reviewPatterns(l *i18n.Localizer, of string, differs []templates.ReviewRow, hog bool) ([]templates.ReviewRow, []templates.ReviewPattern) {
	type choice struct{ chose, best string }
	groups := map[choice][]templates.ReviewRow{}
	var order []choice
	for _, r := range differs {
		k := choice{r.Action, r.Best}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	var single []templates.ReviewRow
	var patterns []templates.ReviewPattern
	for _, k := range order {
		rows := groups[k]
		if len(rows) < minPattern {
			single = append(single, rows...)
			continue
		}
		lo, hi := rows[0].TurnTotal, rows[0].TurnTotal
		for _, r := range rows {
			lo, hi = min(lo, r.TurnTotal), max(hi, r.TurnTotal)
		}
		id := "pattern"
		switch {
		case hog:
			id = "pattern_hog"
		case lo == hi:
			id = "pattern_at" // "with a turn total of 20", not "from 20 to 20"
		}
		text := templates.ReviewSaid(l, of, id, "Chose", k.chose, "Best", k.best, "N", l.Int(len(rows)), "Lo", l.Int(lo), "Hi", l.Int(hi))
		patterns = append(patterns, templates.ReviewPattern{Text: text, Cards: rows})
	}
	slices.SortStableFunc(single, func(a, b templates.ReviewRow) int { return a.N - b.N })
	return single, patterns
}
