package solve

import (
	"context"
	"testing"

	"pigclass/sim"
)

func BenchmarkTmpFour50(b *testing.B) {
	v := sim.Variant{Game: sim.Pig, Target: 50, Seats: 4}
	for b.Loop() {
		if _, err := solveMultiCores(context.Background(), v, 2); err != nil {
			b.Fatal(err)
		}
	}
}
