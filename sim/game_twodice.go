package sim

// TwoDice is Two-Dice Pig: two dice, their sum adds; a single 1 loses the
// turn total, two 1s the whole score (rules.md).
const TwoDice Game = 1

var _ = register(TwoDice, GameRules{
	Name: "two-dice", Title: "Two-Dice Pig", Order: 1,
	Turn: ManyRolls, Pieces: 2, Piece: die,
	Points: func(f *Faces) (int, Effect) {
		a, b := f.d[0], f.d[1]
		switch {
		case a == 1 && b == 1:
			return 0, Wipes
		case a == 1 || b == 1:
			return 0, Busts
		}
		return int(a + b), Adds
	},
	Named: func(f *Faces) string {
		if f.d[0] == 1 && f.d[1] == 1 {
			return "doublewipe"
		}
		return ""
	},
	Target: DefaultTarget, HoldAt: 19, KeepPace: true,
})
