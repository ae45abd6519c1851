package server

import (
	"testing"

	"pigclass/server/i18n"
	"pigclass/server/store"
	"pigclass/sim"
)

// TestEveryThrowSaysWhatItScored: a Hog throw is told with its points, 0
// when a 1 shows, in both languages and for the viewer's own throws.
func TestEveryThrowSaysWhatItScored(t *testing.T) {
	names := []string{"Bot", "Ana"}
	for _, tc := range []struct {
		lang   string
		dice   []int
		seat   int
		viewer int
		want   string
	}{
		{"en", []int{1, 5, 3, 3, 4}, 0, 1, "Bot threw 1 5 3 3 4: 0 points."},
		{"en", []int{6, 5, 3, 3, 4}, 0, 1, "Bot threw 6 5 3 3 4: 21 points."},
		{"en", []int{2}, 1, 1, "You threw 2: 2 points."},
		{"es", []int{4, 1}, 1, 1, "Lanzaste y sacaste 4 1: 0 puntos."},
		{"es", []int{4, 6}, 0, 1, "Bot lanzó y sacó 4 6: 10 puntos."},
	} {
		faces, err := sim.FacesOf(tc.dice...)
		if err != nil {
			t.Fatal(err)
		}
		e := store.Event{Seat: tc.seat, Action: sim.Dice(len(tc.dice)), Faces: faces}
		if got := describe(i18n.For(tc.lang), e, names, tc.viewer, sim.Hog); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.lang, tc.dice, got, tc.want)
		}
	}
}
