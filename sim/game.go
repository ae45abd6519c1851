package sim

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
)

// Game names one of the games pigclass plays. What a game is lives in one
// file of its own (game_pig.go, game_hog.go, ...), which registers its
// GameRules: what one throw is and does, the shape of a turn, the game's
// defaults and its bots' parameters. Everything else reads a game through
// Rules and its declared properties; nothing outside those files asks which
// game it is (rules_test.go fails on a branch that does).
type Game uint8

// TurnShape is how a turn of a game goes.
type TurnShape uint8

// The shapes of a turn.
const (
	// ManyRolls: roll as often as you like, each roll adding to the turn
	// total, and hold to bank it (Pig and its kin).
	ManyRolls TurnShape = iota
	// OneThrow: one throw a turn of a number of pieces the player chooses,
	// scoring the sum of the pieces unless one of them busts (Hog).
	OneThrow
)

// Effect is what one throw does.
type Effect uint8

// The effects of a throw.
const (
	Adds  Effect = iota // its points add to the turn total (or, in one throw, to the score)
	Busts               // the turn ends with nothing
	Wipes               // the player's whole score goes to 0 and the turn ends
)

// Piece is what one die or pig can show: its marks, numbered from 1, each
// with a whole-number weight. Mark m shows with probability exactly
// Weights[m-1] over the sum of the weights.
type Piece struct {
	// Name is the piece's key in the words ("die", "pig").
	Name string
	// Weights are the marks' weights, mark 1 first.
	Weights []int
	// Marks are the marks' names as the words key them (piece.<Name>.<mark>).
	Marks []string
	// Numbered says a mark is said and written as its number (a die's
	// face); otherwise by its name.
	Numbered bool
	// Look is how the board draws the piece; Poses, for a pig, how each
	// mark lands (one of PigPoses a mark, mark 1 first).
	Look  Look
	Poses []string
}

// Look is how a piece is drawn: the board draws these looks, and reads no
// game's name nor any mark's.
type Look uint8

// The looks of a piece.
const (
	// LookToken: a plain token with its mark's name on it, for a piece
	// the board has no picture of (the zero value).
	LookToken Look = iota
	// LookDie: a die showing its face's pips (its marks are its faces,
	// 1 to 6, Numbered).
	LookDie
	// LookPig: a pig, turned as it landed (Piece.Poses, Mishap.Pose).
	LookPig
)

// PigPoses are the ways the board can draw a pig landed: on its side
// (with the dot showing, or not), on its feet, its back, its snout, snout
// and ear, and leaning on the other pig.
var PigPoses = []string{"side", "side-dot", "feet", "back", "snout", "snout-ear", "leaning"}

// Pose is the pose a pig with mark shows (Piece.Poses, or the mishap's),
// "" for a piece of another look.
func (r *GameRules) Pose(mark int) string {
	switch {
	case r.Piece.Look != LookPig:
		return ""
	case mark >= 1 && mark <= len(r.Piece.Poses):
		return r.Piece.Poses[mark-1]
	}
	return r.Mishap.Pose
}

// CanShow reports, as an error that says which piece and what it may
// show, whether throw f is one the game's pieces can land: every piece a
// mark of positive weight, or every piece the mishap's mark.
func (r *GameRules) CanShow(f *Faces) error {
	if m := r.Mishap; m.Weight > 0 && f.Len() > 0 {
		all := true
		for i := range f.Len() {
			all = all && f.At(i) == int(m.Mark)
		}
		if all {
			return nil
		}
	}
	for i := range f.Len() {
		if k := f.At(i); k < 1 || k > len(r.Piece.Weights) || r.Piece.Weights[k-1] == 0 {
			return fmt.Errorf("piece %d shows %d, but a %s shows 1 to %d%s", i+1, k, r.Piece.Name, len(r.Piece.Weights), r.mishapSaid())
		}
	}
	return nil
}

// mishapSaid is how CanShow's error names the mishap's mark, if any.
func (r *GameRules) mishapSaid() string {
	if r.Mishap.Weight == 0 {
		return ""
	}
	return fmt.Sprintf(" (or every piece %d: %s)", r.Mishap.Mark, r.Mishap.Name)
}

// total returns the sum of the weights.
func (p *Piece) total() int {
	t := 0
	for _, w := range p.Weights {
		t += w
	}
	return t
}

// fair6 reports whether the piece is a fair six-sided die.
func (p *Piece) fair6() bool {
	if len(p.Weights) != 6 {
		return false
	}
	for _, w := range p.Weights {
		if w != p.Weights[0] {
			return false
		}
	}
	return true
}

// Mishap is an outcome of a whole throw, drawn before its pieces: with
// probability Weight/Of every piece shows Mark (pigs that land touching).
// The zero value is no mishap.
type Mishap struct {
	Weight, Of int
	Mark       uint8
	Name       string // the mishap's key in the words
	Pose       string // how a pig in it lands (PigPoses), for LookPig
}

// GameRules is everything particular to one game.
type GameRules struct {
	// Name is the game as commands, forms and URLs spell it, and the key of
	// its words (game.<Name>, rules.<Name>).
	Name string
	// Title is the game's name in English, for logs and the command line.
	Title string
	// Turn says whether a turn is many rolls or one throw of chosen pieces.
	Turn TurnShape
	// Pieces is how many pieces one roll throws (ManyRolls).
	Pieces int
	// Piece is what one piece can show.
	Piece Piece
	// Mishap is a throw-level outcome, if the game has one.
	Mishap Mishap
	// Points scores one throw: the points it adds and its effect. In a
	// OneThrow game it must score the sum of the pieces' own points unless
	// one piece busts (the solver builds the sums from single pieces).
	Points func(f *Faces) (points int, e Effect)
	// Named returns the words' key of a throw that has a name of its own
	// (the board says move.<key>: "double 1s: 25 points"), or "". Nil when
	// no throw has.
	Named func(f *Faces) string
	// Target is the default target.
	Target int
	// MaxPieces is the default most pieces a throw may have (OneThrow).
	MaxPieces int
	// HoldAt is the rule of thumb's hold point (ManyRolls): the bot "hold
	// at N" the lessons and menus offer first.
	HoldAt int
	// KeepPace says the bot "keep pace and end race" plays it (its rule
	// was fitted to Pig).
	KeepPace bool
	// EqualTurns says the exact equal-turns solver covers it (no throw may
	// wipe a score there).
	EqualTurns bool
	// Order places the game in menus and lists, from 0.
	Order int
	// Charts are the class charts (by key) made of this game's throws
	// alone, beside those every game of its piece feeds: the one game
	// whose throws each reads.
	Charts []string

	fairDie bool // its pieces are fair dice and it has no mishap
}

// registry holds the rules of every game, by Game. It and Games are filled
// while the package initialises, by the game files' register calls, and
// only read after.
var registry [16]*GameRules

// Games lists every game in menu order (GameRules.Order). Read it; never
// change it.
var Games []Game

// AddGame registers a game after the package initialised, in the first
// free place, and returns it with a function that takes it out again:
// for a test that plays a game of its own through the whole program
// (a game of the product is a file of this package, registered as it
// initialises). Nothing may read the games while it runs.
func AddGame(r GameRules) (Game, func()) {
	g := Game(slices.Index(registry[:], nil))
	if g < 0 {
		panic("sim: no free place for a game")
	}
	register(g, r)
	return g, func() {
		registry[g] = nil
		Games = slices.DeleteFunc(Games, func(x Game) bool { return x == g })
	}
}

// register adds a game's rules under g, checking that they describe a game
// pigclass can play, and returns g.
func register(g Game, r GameRules) Game {
	if registry[g] != nil {
		panic(fmt.Sprintf("sim: game %d registered twice", g))
	}
	if err := r.check(); err != nil {
		panic("sim: game " + r.Name + ": " + err.Error())
	}
	r.fairDie = r.Mishap.Weight == 0 && r.Piece.fair6()
	registry[g] = &r
	Games = append(Games, g)
	slices.SortFunc(Games, func(a, b Game) int { return registry[a].Order - registry[b].Order })
	return g
}

// check reports what makes r unplayable.
func (r *GameRules) check() error {
	switch {
	case r.Name == "" || r.Title == "" || r.Points == nil:
		return fmt.Errorf("a name, a title and a scoring function are needed")
	case len(r.Piece.Weights) == 0 || len(r.Piece.Weights) != len(r.Piece.Marks) || len(r.Piece.Weights) > maxMark:
		return fmt.Errorf("a piece has 1 to %d marks, each with a weight and a name", maxMark)
	case r.Piece.total() > 1<<16 || r.Mishap.Of > 1<<16:
		return fmt.Errorf("weights add up to at most 65536")
	case r.Turn == ManyRolls && (r.Pieces < 1 || r.Pieces > MaxDiceLimit):
		return fmt.Errorf("a roll throws 1 to %d pieces", MaxDiceLimit)
	case r.Turn == OneThrow && (r.MaxPieces < 1 || r.MaxPieces > MaxDiceLimit || r.Mishap.Weight > 0):
		return fmt.Errorf("one throw allows 1 to %d pieces by default, and no mishap", MaxDiceLimit)
	case r.Target < MinTarget || r.Target > MaxTarget:
		return fmt.Errorf("default target from %d to %d", MinTarget, MaxTarget)
	case r.Piece.Look == LookDie && (!r.Piece.Numbered || len(r.Piece.Weights) > 6):
		return fmt.Errorf("a die is numbered, with 1 to 6 faces")
	case r.Piece.Look == LookPig && (len(r.Piece.Poses) != len(r.Piece.Marks) || r.Mishap.Weight > 0 && r.Mishap.Pose == ""):
		return fmt.Errorf("a pig lands in a pose for each mark, and for its mishap")
	}
	for _, p := range append(slices.Clone(r.Piece.Poses), r.Mishap.Pose) {
		if p != "" && !slices.Contains(PigPoses, p) {
			return fmt.Errorf("a pig's pose is one of %v, not %q", PigPoses, p)
		}
	}
	return nil
}

// Rules returns the game's rules. A Game that names no game (only a
// Variant that failed Validate holds one) panics.
func (g Game) Rules() *GameRules {
	if int(g) < len(registry) && registry[g] != nil {
		return registry[g]
	}
	panic(fmt.Sprintf("sim: no game %d", g))
}

// known reports whether g names a registered game.
func (g Game) known() bool { return int(g) < len(registry) && registry[g] != nil }

// String returns the game's name as commands and URLs spell it.
func (g Game) String() string {
	if g.known() {
		return registry[g].Name
	}
	return fmt.Sprintf("game(%d)", uint8(g))
}

// Title returns the game's name in English.
func (g Game) Title() string {
	if g.known() {
		return registry[g].Title
	}
	return g.String()
}

// Dice returns how many pieces one roll throws (0 where the player chooses
// each turn).
func (g Game) Dice() int {
	if g.Rules().Turn == OneThrow {
		return 0
	}
	return g.Rules().Pieces
}

// ChoosesDice reports whether a turn is one throw of a chosen number of
// pieces (Hog's shape) rather than many rolls.
func (g Game) ChoosesDice() bool { return g.Rules().Turn == OneThrow }

// MarkName returns the name of a mark of the game's pieces as the words
// key it (a piece's mark, or its mishap's: "razorback", "bacon"); a die's
// marks are named by their faces.
func (r *GameRules) MarkName(mark int) string {
	if mark >= 1 && mark <= len(r.Piece.Marks) {
		return r.Piece.Marks[mark-1]
	}
	return r.Mishap.Name
}

// MarkKey is the words' key of a mark: piece.<piece>.<mark name>.
func (r *GameRules) MarkKey(mark int) string { return "piece." + r.Piece.Name + "." + r.MarkName(mark) }

// GameNames lists every game's name in menu order, "pig, two-dice, ...".
func GameNames() string {
	names := make([]string, len(Games))
	for i, g := range Games {
		names[i] = g.String()
	}
	return strings.Join(names, ", ")
}

// GameTitles lists, in English, the titles of the games whose rules have
// the property: "Pig, Two-Dice Pig and Big Pig".
func GameTitles(has func(*GameRules) bool) string {
	var names []string
	for _, g := range Games {
		if has(registry[g]) {
			names = append(names, registry[g].Title)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// ParseGame reads a game name; the error names the valid ones.
func ParseGame(s string) (Game, error) {
	for _, g := range Games {
		if strings.EqualFold(s, registry[g].Name) {
			return g, nil
		}
	}
	return 0, fmt.Errorf("unknown game %q: use one of %s", s, GameNames())
}

// MarshalText writes the game's name.
func (g Game) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a game's name.
func (g *Game) UnmarshalText(b []byte) error {
	v, err := ParseGame(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// Outcome is one throw with its exact weight among all the throws of that
// many pieces, and what it does.
type Outcome struct {
	Faces  Faces
	Weight int64
	Points int
	Effect Effect
}

// Outcomes lists every throw of n pieces (at most 8) with whole-number
// weights adding up to total: the exact chances of the game's throw.
func (r *GameRules) Outcomes(n int) (out []Outcome, total int64) {
	W := int64(r.Piece.total())
	total = 1
	for range n {
		total *= W
	}
	mishapShare, pieceShare := int64(0), int64(1)
	if m := r.Mishap; m.Weight > 0 {
		mishapShare, pieceShare = int64(m.Weight), int64(m.Of-m.Weight)
		total *= int64(m.Of)
		var f Faces
		for range n {
			f.push(int(m.Mark))
		}
		out = append(out, r.outcome(f, mishapShare*(total/int64(m.Of))))
	}
	marks := len(r.Piece.Weights)
	count := 1
	for range n {
		count *= marks
	}
	for code := range count {
		var f Faces
		w := pieceShare
		for c, i := code, 0; i < n; i++ {
			m := c % marks
			f.push(m + 1)
			w *= int64(r.Piece.Weights[m])
			c /= marks
		}
		if w > 0 {
			out = append(out, r.outcome(f, w))
		}
	}
	return out, total
}

func (r *GameRules) outcome(f Faces, w int64) Outcome {
	pts, e := r.Points(&f)
	return Outcome{Faces: f, Weight: w, Points: pts, Effect: e}
}

// outcomes lists the throws of one roll of a ManyRolls game.
func (g Game) outcomes() []Outcome {
	out, _ := g.Rules().Outcomes(g.Rules().Pieces)
	return out
}

// PieceSums returns, for a OneThrow game, the chance that n pieces score
// sum without a bust: sums[n][sum], for n up to maxPieces. Pieces are
// independent, so the sums are the convolution of one piece's points.
func (r *GameRules) PieceSums(maxPieces int) [][]float64 {
	one, total := r.Outcomes(1)
	sums := make([][]float64, maxPieces+1)
	sums[0] = []float64{1}
	most := 0
	for _, o := range one {
		most = max(most, o.Points)
	}
	for n := 1; n <= maxPieces; n++ {
		sums[n] = make([]float64, most*n+1)
		for s, p := range sums[n-1] {
			for _, o := range one {
				if o.Effect == Adds {
					sums[n][s+o.Points] += p * float64(o.Weight) / float64(total)
				}
			}
		}
	}
	return sums
}

// pieceStats returns, for a OneThrow game, one piece's points and weight
// over the pieces that do not bust, and the weight of all.
func (r *GameRules) pieceStats() (sum, keep, total int64) {
	one, total := r.Outcomes(1)
	for _, o := range one {
		if o.Effect == Adds {
			sum += o.Weight * int64(o.Points)
			keep += o.Weight
		}
	}
	return sum, keep, total
}

// NoBust returns, for a OneThrow game, the chance that n pieces show no
// piece that busts.
func (r *GameRules) NoBust(n int) float64 {
	_, keep, total := r.pieceStats()
	return math.Pow(float64(keep)/float64(total), float64(n))
}

// MeanPoints returns, for a OneThrow game, the points n pieces score on
// average: n times one kept piece's mean, times the chance none busts.
func (r *GameRules) MeanPoints(n int) float64 {
	sum, keep, total := r.pieceStats()
	p := 1.0
	for range n {
		p *= float64(keep) / float64(total)
	}
	return float64(sum) / float64(keep) * float64(n) * p
}

// EVPieces returns, for a OneThrow game, the number of pieces up to
// maxPieces with the most expected points, compared exactly (ties take
// fewer pieces): n·sum·keep^(n-1)/total^n.
func (r *GameRules) EVPieces(maxPieces int) int {
	sum, keep, total := r.pieceStats()
	best, bestEV := 1, new(big.Rat)
	for n := 1; n <= maxPieces; n++ {
		num := new(big.Int).Mul(big.NewInt(int64(n)*sum), new(big.Int).Exp(big.NewInt(keep), big.NewInt(int64(n-1)), nil))
		ev := new(big.Rat).SetFrac(num, new(big.Int).Exp(big.NewInt(total), big.NewInt(int64(n)), nil))
		if ev.Cmp(bestEV) > 0 {
			best, bestEV = n, ev
		}
	}
	return best
}
