package sim

// Pig: one die; a 1 loses the turn total, any other face adds to it. The
// rules sheets' game, solved by Neller and Presser (rules.md).
const Pig Game = 0

var _ = register(Pig, GameRules{
	Name: "pig", Title: "Pig", Order: 0,
	Turn: ManyRolls, Pieces: 1, Piece: die,
	Points: func(f *Faces) (int, Effect) {
		if f.d[0] == 1 {
			return 0, Busts
		}
		return int(f.d[0]), Adds
	},
	Target: DefaultTarget, HoldAt: 20, KeepPace: true, EqualTurns: true,
})

// DieName is the name of a fair six-sided die, the piece of every dice
// game (and of Skunk): the kind of piece the dice charts count.
const DieName = "die"

// die is a fair six-sided die: the piece of every dice game.
var die = Piece{Name: DieName, Weights: []int{1, 1, 1, 1, 1, 1}, Marks: []string{"1", "2", "3", "4", "5", "6"}, Numbered: true, Look: LookDie}
