package sim

// BigPig: two dice, their sum adds and a double counts twice; double 1s add
// 25, a single 1 loses the turn total (rules.md).
const BigPig Game = 2

var _ = register(BigPig, GameRules{
	Name: "big-pig", Title: "Big Pig", Order: 2,
	Turn: ManyRolls, Pieces: 2, Piece: die,
	Points: func(f *Faces) (int, Effect) {
		a, b := f.d[0], f.d[1]
		switch {
		case a == 1 && b == 1:
			return 25, Adds
		case a == 1 || b == 1:
			return 0, Busts
		case a == b:
			return 2 * int(a+b), Adds
		}
		return int(a + b), Adds
	},
	Named: func(f *Faces) string {
		if f.d[0] == 1 && f.d[1] == 1 {
			return "double25"
		}
		return ""
	},
	Target: DefaultTarget, HoldAt: 27, KeepPace: true, EqualTurns: true,
})
