package sim

import "math"

// StudentT975 is the 0.975 quantile of Student's t distribution with df
// degrees of freedom (df > 0, fractional for Welch's test): the factor of
// a two-sided 95% interval of a mean from df+1 observations. It is found
// by bisection on the distribution function, itself the regularized
// incomplete beta function (Numerical Recipes' continued fraction), to
// 1e-10.
func StudentT975(df float64) float64 {
	if math.IsInf(df, 1) {
		return Z95
	}
	lo, hi := 0.0, 1.0
	for tCDF(hi, df) < 0.975 {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1e-10 {
		mid := (lo + hi) / 2
		if tCDF(mid, df) < 0.975 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// tCDF is P(T <= t) for t >= 0 with df degrees of freedom.
func tCDF(t, df float64) float64 {
	x := df / (df + t*t)
	return 1 - 0.5*incompleteBeta(df/2, 0.5, x)
}

// incompleteBeta is the regularized incomplete beta function I_x(a, b).
func incompleteBeta(a, b, x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

// betaFraction is the continued fraction of the incomplete beta function
// (modified Lentz's method).
func betaFraction(a, b, x float64) float64 {
	const tiny = 1e-300
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		num := fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm))
		for range 2 {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
			num = -(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1))
		}
		if math.Abs(d*c-1) < 1e-15 {
			break
		}
	}
	return h
}
