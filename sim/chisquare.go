package sim

import (
	"cmp"
	"math"
	"slices"
)

// ChiSquareTail is P(X >= x) for X chi-square distributed with df degrees
// of freedom: the regularized upper incomplete gamma function
// Q(df/2, x/2), by its series below a+1 and its continued fraction above
// (Numerical Recipes' gammp and gammq), to about 1e-14.
func ChiSquareTail(x float64, df int) float64 {
	if x <= 0 {
		return 1
	}
	a, z := float64(df)/2, x/2
	lg, _ := math.Lgamma(a)
	front := math.Exp(-z + a*math.Log(z) - lg)
	if z < a+1 {
		sum, term := 1/a, 1/a
		for n := 1.0; n < 1000 && math.Abs(term) > math.Abs(sum)*1e-16; n++ {
			term *= z / (a + n)
			sum += term
		}
		return 1 - front*sum
	}
	// Lentz's continued fraction for Q.
	const tiny = 1e-300
	b := z + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1.0; i < 1000; i++ {
		an := -i * (i - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return front * h
}

// ChiSquareFair is the chi-square test of counts against equal chances
// (a fair die's faces): the statistic, the sum over the faces of
// (count - expected)^2 / expected, and its tail with len(counts)-1 degrees
// of freedom: how often fair dice differ from equal counts this much or
// more. A test a class can read asks every face to be expected 5 times or
// more (sum(counts) >= 5*len(counts)).
func ChiSquareFair(counts []int) (stat, tail float64) {
	n := 0
	for _, c := range counts {
		n += c
	}
	e := float64(n) / float64(len(counts))
	for _, c := range counts {
		stat += pearson(float64(c), e)
	}
	return stat, ChiSquareTail(stat, len(counts)-1)
}

// pearson is one category's term of the chi-square statistic.
func pearson(count, expect float64) float64 { return (count - expect) * (count - expect) / expect }

// ChiSquareFit is the chi-square test of counts against chances probs
// (summing to 1): the statistic and its tail. Categories expected fewer
// than 5 times are pooled, the rarest first, until every pool is expected
// 5 times or more (Cochran's rule); bins is how many are left, and the
// test has bins-1 degrees of freedom. ok is false when fewer than two
// bins are left: too few counted to test.
func ChiSquareFit(counts []int, probs []float64) (stat, tail float64, bins int, ok bool) {
	n := 0
	for _, c := range counts {
		n += c
	}
	type bin struct{ count, expect float64 }
	var all []bin
	for i, c := range counts {
		all = append(all, bin{float64(c), probs[i] * float64(n)})
	}
	slices.SortFunc(all, func(a, b bin) int { return cmp.Compare(a.expect, b.expect) })
	for len(all) > 1 && all[0].expect < 5 {
		all[1] = bin{all[0].count + all[1].count, all[0].expect + all[1].expect}
		all = all[1:]
		slices.SortFunc(all, func(a, b bin) int { return cmp.Compare(a.expect, b.expect) })
	}
	if len(all) < 2 || all[0].expect < 5 {
		return 0, 1, len(all), false
	}
	for _, b := range all {
		stat += pearson(b.count, b.expect)
	}
	return stat, ChiSquareTail(stat, len(all)-1), len(all), true
}
