package sim

// PassPigs is Pass the Pigs: each roll throws two small plastic pigs, which
// are not fair dice. Both on the same side score 1 (Sider); one with the dot
// up and one with it down lose the turn total (Pig Out); a pig on its feet
// (Trotter) or back (Razorback) scores 5, on its snout (Snouter) 10, on
// snout and ear (Leaning Jowler) 15; beside a pig on its side a special
// scores its points, two different specials their sum, two alike double
// the sum (Double Trotter 20, Double Razorback 20, Double Snouter 40,
// Double Leaning Jowler 60). Pigs that land touching (Makin' Bacon) take
// the whole score to 0. The chances are J. C. Kern's 6,000 throws (Journal
// of Statistics Education, 2006; the Pigs data of the R package fastR): the
// pigs touched 23 times in 6,000, and apart from that each pig lands as one
// pig's column counted: dot up 1,796, dot down 2,063, Trotter 551,
// Razorback 1,354, Snouter 184, Leaning Jowler 29, of 5,977 (rules.md,
// published.md).
const PassPigs Game = 4

var _ = register(PassPigs, GameRules{
	Name: "pass-the-pigs", Title: "Pass the Pigs", Order: 4,
	Turn: ManyRolls, Pieces: 2,
	Piece: Piece{
		Name:    "pig",
		Weights: []int{1796, 2063, 551, 1354, 184, 29},
		Marks:   []string{"dot-up", "dot-down", "trotter", "razorback", "snouter", "jowler"},
		Look:    LookPig,
		Poses:   []string{"side-dot", "side", "feet", "back", "snout", "snout-ear"},
	},
	Mishap: Mishap{Weight: 23, Of: 6000, Mark: pigsTouch, Name: "bacon", Pose: "leaning"},
	Charts: []string{"pig-landings"},
	Points: func(f *Faces) (int, Effect) {
		a, b := f.d[0], f.d[1]
		switch {
		case a == pigsTouch:
			return 0, Wipes // Makin' Bacon
		case a <= 2 && b <= 2 && a != b:
			return 0, Busts // Pig Out
		case a <= 2 && b <= 2:
			return 1, Adds // Sider
		case a == b:
			return 4 * pigPoints[a], Adds // a double: twice the sum
		}
		return pigPoints[a] + pigPoints[b], Adds
	},
	Named: func(f *Faces) string {
		switch a, b := f.d[0], f.d[1]; {
		case a == pigsTouch:
			return "bacon"
		case a <= 2 && b <= 2 && a != b:
			return "pigout"
		case a <= 2 && b <= 2:
			return "sider"
		}
		return ""
	},
	Target: DefaultTarget, HoldAt: 23,
})

// pigsTouch is the mark of both pigs when they land touching.
const pigsTouch = 7

// pigPoints are the points of one pig's landing beside a pig on its side
// (the sides themselves score only as a pair).
var pigPoints = [...]int{3: 5, 4: 5, 5: 10, 6: 15}
