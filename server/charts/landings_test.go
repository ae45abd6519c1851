package charts

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"pigclass/server/store"
	"pigclass/sim"
)

// TestPigLandings: the class's pigs counted landing by landing, each share
// with its Wilson interval, beside Kern's share; a touch counts once a
// throw; dice thrown in the same class are not pigs.
func TestPigLandings(t *testing.T) {
	// 50 throws: 100 pigs minus the two of one touch.
	var marks []int
	landings := []int{30, 34, 10, 20, 3, 1} // 98 pigs
	for m, n := range landings {
		for range n {
			marks = append(marks, m+1)
		}
	}
	marks = append(marks, 7, 7)
	c := PigLandings(en, sim.PassPigs, store.Thrown{All: marks})
	golden(t, c)
	if len(c.Table.Rows) != 7 || !strings.HasPrefix(c.Caption, "98 pigs in 50 throws.") {
		t.Fatalf("%d rows, caption %q", len(c.Table.Rows), c.Caption)
	}
	for m, n := range landings {
		lo, hi := sim.Wilson(n, 98, 1.959963984540054)
		want := []string{pct(en, float64(n)/98), pct(en, lo) + " to " + pct(en, hi), pct(en, float64([]int{1796, 2063, 551, 1354, 184, 29}[m])/5977)}
		got := []string{cell(t, c, m, 2), cell(t, c, m, 3), cell(t, c, m, 4)}
		if strings.Join(got, "|") != strings.Join(want, "|") || cell(t, c, m, 1) != num(en, n) {
			t.Errorf("landing %d: %v, want %d pigs, %v", m+1, got, n, want)
		}
	}
	// The chi-square test against Kern's chances, worked out here: the
	// two rarest landings (expected 0.5 and 3.0 times) pool with the next
	// (9.0), four bins, 3 degrees of freedom, whose tail has a closed form.
	kern := []float64{1796, 2063, 551, 1354, 184, 29}
	exp := func(m int) float64 { return 98 * kern[m] / 5977 }
	stat := 0.0
	for _, b := range [][2]float64{{30, exp(0)}, {34, exp(1)}, {10 + 3 + 1, exp(2) + exp(4) + exp(5)}, {20, exp(3)}} {
		stat += (b[0] - b[1]) * (b[0] - b[1]) / b[1]
	}
	tail := math.Erfc(math.Sqrt(stat/2)) + math.Sqrt(2*stat/math.Pi)*math.Exp(-stat/2)
	if want := "Chi-square test against Kern's chances: " + en.Dec(stat, 2) + " with 3 degrees of freedom"; !strings.Contains(c.Caption, want) || !strings.Contains(c.Caption, pct(en, tail)+" of the time: nothing unusual.") {
		t.Errorf("the test: %q, want %q and %s", c.Caption, want, pct(en, tail))
	}
	if got := cell(t, c, 6, 0) + " " + cell(t, c, 6, 1) + " " + cell(t, c, 6, 2) + " " + cell(t, c, 6, 4); got != "touching (a throw) 1 2.0% 0.4%" {
		t.Errorf("touches: %q", got)
	}
	// Each landing's share is written above its box (a rare landing's box
	// is a sliver): the same words as the table's.
	var option struct {
		Series []struct {
			Type string
			Data []struct{ Name string }
		}
	}
	if err := json.Unmarshal([]byte(c.Option), &option); err != nil {
		t.Fatal(err)
	}
	var written []string
	for _, s := range option.Series {
		if s.Type == "scatter" {
			for _, d := range s.Data {
				written = append(written, d.Name)
			}
		}
	}
	for i := range 7 {
		if i >= len(written) || written[i] != cell(t, c, i, 2) {
			t.Errorf("the shares written on the chart %v, the table's %d: %q", written, i, cell(t, c, i, 2))
			break
		}
	}
	if e := PigLandings(en, sim.PassPigs, store.Thrown{}); e.Empty == "" {
		t.Error("no pigs, yet a chart")
	}
}

// TestEnteredThrowsTestedApart (issue 45): when some of the class's dice
// (or pigs) were real ones entered at tables, the fairness charts test
// those apart too: the caption's last sentence is the chi-square verdict
// on the entered throws alone, its statistic worked out here by hand.
func TestEnteredThrowsTestedApart(t *testing.T) {
	expand := func(counts []int) []int {
		var out []int
		for f, k := range counts {
			for range k {
				out = append(out, f+1)
			}
		}
		return out
	}
	seeded, loaded := expand([]int{30, 30, 30, 30, 30, 30}), expand([]int{40, 20, 20, 20, 10, 10})
	c := ClassDice(en, store.Thrown{All: append(seeded, loaded...), Entered: loaded})
	stat := 0.0
	for _, k := range []int{40, 20, 20, 20, 10, 10} {
		stat += (float64(k) - 20) * (float64(k) - 20) / 20
	}
	want := fmt.Sprintf("Thrown for real at tables and entered by hand: 120 of these dice. On their own: Chi-square test: %.2f with 5 degrees of freedom.", stat)
	if !strings.Contains(c.Finding, want) || !strings.HasSuffix(c.Finding, "these dice look loaded.") || strings.Count(c.Finding, "Chi-square test:") != 2 {
		t.Errorf("120 fair dice and 120 loaded entered: %q, want %q and the loaded verdict last", c.Finding, want)
	}
	if c := ClassDice(en, store.Thrown{All: loaded, Entered: loaded}); strings.Contains(c.Finding, "On their own") {
		t.Errorf("every die entered: the caption tests them twice: %q", c.Caption)
	}
	// Real pigs: Kern's landings, 600 throws of them, entered, beside as
	// many thrown by the seed.
	var kern []int
	for m, w := range sim.PassPigs.Rules().Piece.Weights {
		for range w / 5 {
			kern = append(kern, m+1)
		}
	}
	p := PigLandings(en, sim.PassPigs, store.Thrown{All: append(append([]int(nil), kern...), kern...), Entered: kern})
	if !strings.Contains(p.Caption, fmt.Sprintf("entered by hand: %s of these pigs. On their own: Chi-square test against Kern's chances", en.Int(len(kern)))) || !strings.HasSuffix(p.Caption, "nothing unusual.") {
		t.Errorf("Kern's pigs entered: %q", p.Caption)
	}
}
