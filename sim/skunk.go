package sim

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// DefaultSkunkRounds is the number of rounds of Skunk, one per letter of
// S-K-U-N-K.
const DefaultSkunkRounds = 5

// SkunkLetters names the rounds of a standard game.
const SkunkLetters = "SKUNK"

// Skunk is the whole-class game: any number of participants, one shared roll
// of two dice for the room. Everyone stands at the start of a round; each roll
// adds to the round total of everyone still standing; a participant sits to
// bank the round total so far. A single 1 ends the round and the standing get
// nothing; double 1s also wipe the standing participants' whole score. The
// round also ends when everyone has sat down.
type Skunk struct {
	seed       Seed
	rounds     int
	round      int // current round, from 0
	rolls      int // rolls in this round
	roundTotal int
	standing   []bool
	left       []bool // participants who left the game (removed from the class)
	scores     []int
	over       bool
	events     []SkunkEvent
}

// SkunkEvent is one entry of a Skunk log: a roll of the shared dice, one
// participant sitting down, or one leaving the game.
type SkunkEvent struct {
	Action      Action `json:"action"` // roll, hold for sitting down, resign for leaving
	Participant int    `json:"participant,omitempty"`
	Round       int    `json:"round"`
	Roll        int    `json:"roll"`
	Faces       Faces  `json:"faces,omitzero"`
	Banked      int    `json:"banked,omitempty"` // points banked by a sit
	// At is when the server stored the event (in records); the engine
	// leaves it zero.
	At time.Time `json:"at,omitzero"`
}

// Errors of Skunk.
var (
	ErrSkunkOver       = errors.New("skunk: the game is over")
	ErrSkunkSitting    = errors.New("skunk: that participant is already sitting")
	ErrSkunkNobody     = errors.New("skunk: there is no such participant")
	ErrSkunkNeedPeople = errors.New("skunk: a game needs at least one participant")
	ErrSkunkLeft       = errors.New("skunk: that participant has left the game")
)

// NewSkunk starts a game of the given number of participants and rounds.
func NewSkunk(seed Seed, participants, rounds int) (*Skunk, error) {
	if participants < 1 {
		return nil, ErrSkunkNeedPeople
	}
	if participants > MaxSkunkParticipants {
		return nil, fmt.Errorf("skunk: %d participants: a game has at most %d", participants, MaxSkunkParticipants)
	}
	if rounds < 1 || rounds > 26 {
		return nil, fmt.Errorf("skunk: rounds %d: must be from 1 to 26", rounds)
	}
	g := &Skunk{seed: seed, rounds: rounds, standing: make([]bool, participants), left: make([]bool, participants), scores: make([]int, participants)}
	g.standAll()
	return g, nil
}

func (g *Skunk) standAll() {
	for i := range g.standing {
		g.standing[i] = !g.left[i]
	}
}

// MaxSkunkParticipants is the most participants a game of Skunk has: a
// class of 1,000 plays with room to spare, and a record claiming more is
// refused before anything is made for them.
const MaxSkunkParticipants = 5000

// SkunkPiece is the kind of piece Skunk throws (GameRules' Piece.Name):
// two dice, scored as Two-Dice Pig scores them.
const SkunkPiece = DieName

// Roll throws the shared dice: two dice from the seed, the faces of roll r of
// round u being RollFaces(seat 0, turn u, roll r).
func (g *Skunk) Roll() (SkunkEvent, error) {
	if g.over {
		return SkunkEvent{}, ErrSkunkOver
	}
	e := SkunkEvent{Action: Roll, Round: g.round, Roll: g.rolls}
	e.Faces = g.seed.RollFaces(0, g.round, g.rolls, 2)
	g.rolls++
	g.events = append(g.events, e)
	points, bust, wipe := RollPoints(TwoDice, &e.Faces)
	if !bust {
		g.roundTotal += points
		return e, nil
	}
	for i, up := range g.standing {
		if up && wipe {
			g.scores[i] = 0
		}
	}
	g.endRound()
	return e, nil
}

// Sit banks the round total for participant p, who stops rolling this round.
func (g *Skunk) Sit(p int) (SkunkEvent, error) {
	switch {
	case g.over:
		return SkunkEvent{}, ErrSkunkOver
	case p < 0 || p >= len(g.standing):
		return SkunkEvent{}, fmt.Errorf("%w: %d (participants are 0 to %d)", ErrSkunkNobody, p, len(g.standing)-1)
	case !g.standing[p]:
		return SkunkEvent{}, fmt.Errorf("%w: %d", ErrSkunkSitting, p)
	}
	e := SkunkEvent{Action: Hold, Participant: p, Round: g.round, Roll: g.rolls, Banked: g.roundTotal}
	g.standing[p] = false
	g.scores[p] += g.roundTotal
	g.events = append(g.events, e)
	if !slices.Contains(g.standing, true) {
		g.endRound()
	}
	return e, nil
}

// Leave takes participant p out of the game (the student was removed from
// the class): they stop standing, keep what they banked, and stand in no
// later round. The round ends if no one is standing any more.
func (g *Skunk) Leave(p int) (SkunkEvent, error) {
	switch {
	case g.over:
		return SkunkEvent{}, ErrSkunkOver
	case p < 0 || p >= len(g.standing):
		return SkunkEvent{}, fmt.Errorf("%w: %d (participants are 0 to %d)", ErrSkunkNobody, p, len(g.standing)-1)
	case g.left[p]:
		return SkunkEvent{}, fmt.Errorf("%w: %d", ErrSkunkLeft, p)
	}
	e := SkunkEvent{Action: Resign, Participant: p, Round: g.round, Roll: g.rolls}
	wasUp := g.standing[p]
	g.standing[p], g.left[p] = false, true
	g.events = append(g.events, e)
	if wasUp && !slices.Contains(g.standing, true) {
		g.endRound()
	}
	return e, nil
}

// Left reports whether participant p has left the game.
func (g *Skunk) Left(p int) bool { return g.left[p] }

func (g *Skunk) endRound() {
	g.round++
	g.rolls = 0
	g.roundTotal = 0
	if g.round >= g.rounds {
		g.over = true
		clear(g.standing)
		return
	}
	g.standAll()
}

// Round returns the current round, from 0 (equal to Rounds when over).
func (g *Skunk) Round() int { return g.round }

// Rolls returns the number of rolls so far in the current round.
func (g *Skunk) Rolls() int { return g.rolls }

// Participants returns the number of participants.
func (g *Skunk) Participants() int { return len(g.scores) }

// Rounds returns the number of rounds.
func (g *Skunk) Rounds() int { return g.rounds }

// RoundTotal returns what the standing participants would bank now.
func (g *Skunk) RoundTotal() int { return g.roundTotal }

// Standing reports whether participant p is standing.
func (g *Skunk) Standing(p int) bool { return g.standing[p] }

// Score returns participant p's banked score.
func (g *Skunk) Score(p int) int { return g.scores[p] }

// Scores returns a copy of every participant's score.
func (g *Skunk) Scores() []int { return slices.Clone(g.scores) }

// Over reports whether every round has been played.
func (g *Skunk) Over() bool { return g.over }

// Events returns a copy of the log.
func (g *Skunk) Events() []SkunkEvent { return slices.Clone(g.events) }

// Winners returns the participants with the highest score (several if tied),
// once the game is over.
func (g *Skunk) Winners() []int {
	if !g.over {
		return nil
	}
	return g.Leaders()
}

// Leaders returns the participants still in the game (not left: a
// student removed from the class is out, whatever they banked) with the
// highest score so far, several if tied: the winners of a game ended
// before its last round. None if every participant left.
func (g *Skunk) Leaders() []int {
	best, w := -1, []int(nil)
	for i, s := range g.scores {
		switch {
		case g.Left(i) || s < best:
		case s > best:
			best, w = s, []int{i}
		default:
			w = append(w, i)
		}
	}
	return w
}

// Play carries out one action of the log: a roll (the participant is not
// read), participant p sitting (a hold) or leaving (resign).
func (g *Skunk) Play(a Action, p int) (SkunkEvent, error) {
	switch a {
	case Roll:
		return g.Roll()
	case Hold:
		return g.Sit(p)
	case Resign:
		return g.Leave(p)
	}
	return SkunkEvent{}, fmt.Errorf("skunk: action %q: use roll, hold or resign", a)
}

// ReplaySkunk rebuilds a game from its seed and log; the error names the
// first event that is refused or whose dice differ from the seed's.
func ReplaySkunk(seed Seed, participants, rounds int, events []SkunkEvent) (*Skunk, error) {
	g, err := NewSkunk(seed, participants, rounds)
	if err != nil {
		return nil, err
	}
	for i, e := range events {
		got, err := g.Play(e.Action, e.Participant)
		if err == nil && e.Faces.Len() > 0 && got.Faces != e.Faces {
			err = fmt.Errorf("skunk: recorded dice [%s], the seed gives [%s]", e.Faces, got.Faces)
		}
		if err != nil {
			return g, fmt.Errorf("event %d: %w", i+1, err)
		}
	}
	return g, nil
}
