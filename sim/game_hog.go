package sim

// Hog: one throw a turn of 1 to MaxDice dice, chosen by the player; the sum
// scores unless any die shows a 1, which scores nothing (rules.md).
const Hog Game = 3

var _ = register(Hog, GameRules{
	Name: "hog", Title: "Hog", Order: 3,
	Turn: OneThrow, Piece: die, Charts: []string{"hog-dice", "hog-curve"},
	Points: func(f *Faces) (int, Effect) {
		if f.Ones() > 0 {
			return 0, Busts
		}
		return f.Sum(), Adds
	},
	Target: DefaultTarget, MaxPieces: DefaultMaxDice,
})
