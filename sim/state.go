package sim

// State is the position of a match between actions. It is a plain value:
// copying it copies the position. Check validates an action and Do carries
// it out; neither allocates.
type State struct {
	Variant   Variant
	First     int           // the seat that moved first
	Seat      int           // the seat to move
	TurnTotal int           // points rolled this turn and not yet banked
	Rolls     int           // rolls made so far this turn
	Scores    [MaxSeats]int // banked points
	Turns     [MaxSeats]int // turns each seat has finished
	Timeouts  [MaxSeats]int // timeouts in a row, per seat
	Out       [MaxSeats]bool
	TieBreak  bool           // equal turns: only the tied leaders play on
	Contender [MaxSeats]bool // equal turns: who plays in the tie-break
	Over      bool
	Winner    int

	resignOrder [MaxSeats]int8
	resigned    int
}

// NewState returns the position before the first action, first to move.
func NewState(v Variant, first int) State {
	return State{Variant: v, First: first, Seat: first, Winner: -1}
}

// RollPoints scores one throw f of game g, as the game's rules say: the
// points added to the turn total, whether the turn ends with nothing (bust),
// and whether the player's whole score is wiped too (a wipe is a bust). In
// a game of one throw, points is the turn's score and bust means it scored
// nothing.
func RollPoints(g Game, f *Faces) (points int, bust, wipe bool) {
	points, e := g.Rules().Points(f)
	return points, e != Adds, e == Wipes
}

// ThrowName returns the words' key of throw f if it has a name of its own
// in game g, or "".
func (g Game) ThrowName(f *Faces) string {
	if r := g.Rules(); r.Named != nil {
		return r.Named(f)
	}
	return ""
}

// Do carries out action a by seat, with f the dice it throws (for roll and
// dice:N). The action must have passed Check.
func (s *State) Do(seat int, a Action, f *Faces) {
	switch a.Kind {
	case RollKind:
		s.Timeouts[seat] = 0
		s.roll(f)
	case DiceKind:
		s.Timeouts[seat] = 0
		s.throw(f)
	case HoldKind:
		s.Timeouts[seat] = 0
		s.hold()
	case ResignKind:
		s.resign(seat)
	case TimeoutKind:
		s.Timeouts[seat]++
		if s.Variant.Game.ChoosesDice() {
			s.endTurn() // no dice thrown: the turn scores nothing
		} else {
			s.hold()
		}
		if s.Timeouts[seat] >= TimeoutsResign && !s.Over {
			s.resign(seat)
		}
	}
}

func (s *State) roll(f *Faces) {
	s.Rolls++
	points, bust, wipe := RollPoints(s.Variant.Game, f)
	if wipe {
		s.Scores[s.Seat] = 0
	}
	if bust {
		s.TurnTotal = 0
		s.endTurn()
		return
	}
	s.TurnTotal += points
	if !s.Variant.EqualTurns && s.Scores[s.Seat]+s.TurnTotal >= s.Variant.Target {
		s.Scores[s.Seat] += s.TurnTotal
		s.TurnTotal = 0
		s.Turns[s.Seat]++
		s.finish(s.Seat)
	}
}

func (s *State) throw(f *Faces) {
	s.Rolls++
	points, _, _ := RollPoints(s.Variant.Game, f)
	s.Scores[s.Seat] += points
	if !s.Variant.EqualTurns && s.Scores[s.Seat] >= s.Variant.Target {
		s.Turns[s.Seat]++
		s.finish(s.Seat)
		return
	}
	s.endTurn()
}

func (s *State) hold() {
	s.Scores[s.Seat] += s.TurnTotal
	s.TurnTotal = 0
	s.endTurn()
}

func (s *State) endTurn() {
	s.Turns[s.Seat]++
	s.TurnTotal = 0
	s.Rolls = 0
	s.passFrom(s.Seat)
}

// plays reports whether seat takes turns now.
func (s *State) plays(seat int) bool {
	return !s.Out[seat] && (!s.TieBreak || s.Contender[seat])
}

// order returns seat's place in the order of play, 0 for the first player.
func (s *State) order(seat int) int {
	n := s.Variant.Seats
	return (seat - s.First + n) % n
}

// passFrom gives the turn to the next seat that plays after seat, closing the
// round first under equal turns when the order wraps around.
func (s *State) passFrom(seat int) {
	n := s.Variant.Seats
	next := seat
	for i := 0; i < n; i++ {
		if next++; next == n {
			next = 0
		}
		if s.plays(next) {
			break
		}
	}
	if s.Variant.EqualTurns && s.order(next) <= s.order(seat) {
		if s.endRound() {
			return
		}
		for o := 0; o < n; o++ {
			if next = (s.First + o) % n; s.plays(next) {
				break
			}
		}
	}
	s.Seat = next
}

// endRound closes a round under equal turns and reports whether the match is
// over. Once someone has reached the target the highest score wins; leaders
// tied play one more turn each until the tie breaks.
func (s *State) endRound() bool {
	best, leaders := -1, 0
	var lead [MaxSeats]bool
	for seat := 0; seat < s.Variant.Seats; seat++ {
		if !s.plays(seat) {
			continue
		}
		switch sc := s.Scores[seat]; {
		case sc > best:
			best, leaders = sc, 1
			lead = [MaxSeats]bool{}
			lead[seat] = true
		case sc == best:
			leaders++
			lead[seat] = true
		}
	}
	if !s.TieBreak && best < s.Variant.Target {
		return false
	}
	if leaders == 1 {
		for seat, l := range lead {
			if l {
				s.finish(seat)
			}
		}
		return true
	}
	s.TieBreak = true
	s.Contender = lead
	return false
}

func (s *State) resign(seat int) {
	s.Out[seat] = true
	s.resignOrder[s.resigned] = int8(seat)
	s.resigned++
	left, last := 0, -1
	for x := 0; x < s.Variant.Seats; x++ {
		if s.plays(x) {
			left++
			last = x
		}
	}
	if left == 1 {
		s.finish(last)
		return
	}
	if seat == s.Seat {
		s.TurnTotal = 0
		s.endTurn()
	}
}

func (s *State) finish(winner int) {
	s.Over = true
	s.Winner = winner
	s.Seat = -1
}

// Playing reports whether seat is still in the match (has not resigned).
func (s *State) Playing(seat int) bool { return !s.Out[seat] }

// Places returns each seat's final place, 1 for the winner. The others are
// placed by score (equal scores share a place); players who resigned come
// last, the first to resign placed lowest. Before the end it returns zeros.
func (s *State) Places() [MaxSeats]int {
	var p [MaxSeats]int
	if !s.Over {
		return p
	}
	p[s.Winner] = 1
	next := 2
	var ranked [MaxSeats]bool
	ranked[s.Winner] = true
	for {
		best := -1
		for seat := 0; seat < s.Variant.Seats; seat++ {
			if !ranked[seat] && !s.Out[seat] && s.Scores[seat] > best {
				best = s.Scores[seat]
			}
		}
		if best < 0 {
			break
		}
		tied := 0
		for seat := 0; seat < s.Variant.Seats; seat++ {
			if !ranked[seat] && !s.Out[seat] && s.Scores[seat] == best {
				p[seat], ranked[seat] = next, true
				tied++
			}
		}
		next += tied
	}
	for i := s.resigned - 1; i >= 0; i-- {
		if seat := int(s.resignOrder[i]); !ranked[seat] {
			p[seat], ranked[seat] = next, true
			next++
		}
	}
	return p
}

// Leader returns the highest score among the seats other than seat that are
// still playing: the opponent a two-player analysis reads the position
// against.
func (s *State) Leader(seat int) int {
	best := 0
	for x := 0; x < s.Variant.Seats; x++ {
		if x != seat && !s.Out[x] && s.Scores[x] > best {
			best = s.Scores[x]
		}
	}
	return best
}

// Position returns the position as the player to move sees it.
func (s *State) Position() Position {
	var p Position
	s.positionInto(&p)
	return p
}

// positionInto writes Position into p, all of it: the simulator keeps one.
func (s *State) positionInto(p *Position) {
	p.Variant, p.Score, p.Opponent = s.Variant, s.Scores[s.Seat], s.Leader(s.Seat)
	p.TurnTotal, p.Rolls, p.Order, p.TieBreak = s.TurnTotal, s.Rolls, s.order(s.Seat), s.TieBreak
	p.Players = 0
	n := s.Variant.Seats
	for r, seat := 0, s.Seat; r < n; r++ {
		if r == 0 || s.Playing(seat) {
			p.InPlay[p.Players] = s.Scores[seat]
			p.Players++
		}
		if seat++; seat == n {
			seat = 0
		}
	}
	// Past the seats nothing is ever written: a fresh Position is zero
	// there, and the simulator's keeps one variant.
	for i := p.Players; i < n; i++ {
		p.InPlay[i] = 0
	}
}

// Position is what a strategy decides from: the player's score, the leading
// opponent's score and the turn total, under a variant. Under equal turns
// Order says where the player moves in the round (0: first) and TieBreak
// whether the round is a tie-break. InPlay holds the scores of the Players
// still in (not out), the mover's first, then in their order of play: what
// a table of more than two players reads.
type Position struct {
	Variant   Variant
	Score     int
	Opponent  int
	TurnTotal int
	Rolls     int
	Order     int
	TieBreak  bool
	Players   int
	InPlay    [MaxSeats]int
}

// Scores returns the scores of the players still in, the mover's first.
func (p *Position) Scores() []int { return p.InPlay[:p.Players] }
