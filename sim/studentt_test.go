package sim

import (
	"math"
	"testing"
)

// TestStudentT975: the quantile against published tables (NIST/SEMATECH
// e-Handbook, table of the t distribution's upper critical values, 0.025),
// and the normal quantile as df grows.
func TestStudentT975(t *testing.T) {
	for _, c := range []struct{ df, want float64 }{
		{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {10, 2.228}, {20, 2.086}, {30, 2.042}, {100, 1.984},
	} {
		if got := StudentT975(c.df); math.Abs(got-c.want) > 0.0006 {
			t.Errorf("t(0.975, %v) = %.4f, want %.3f", c.df, got, c.want)
		}
	}
	if got := StudentT975(1e7); math.Abs(got-1.959963984540054) > 1e-5 {
		t.Errorf("t(0.975, 1e7) = %v, want the normal quantile", got)
	}
	if a, b := StudentT975(2.5), StudentT975(3); !(a > b && a < StudentT975(2)) {
		t.Errorf("a fractional df out of order: t(2.5) = %v, t(3) = %v", a, b)
	}
}
