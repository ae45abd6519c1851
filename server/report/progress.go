package report

import (
	"context"
	"math"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
)

// The rule progress is judged by (sim/published.md, "How progress is
// judged"): the unit of evidence is the game (a student's seat in one
// match: the chance of winning their choices in it gave away, the sum of
// its decisions' costs), never the decision, since one game's decisions
// are not independent. A day's figure is its mean cost per game, with a
// 95% interval from the games' spread and Student's t quantile (n-1
// degrees of freedom), cut at 0 (a cost is never below it) and said to
// be. A day tells something only with MinGames games or more whose costs
// are not all the same; the change from the first class day to the last
// is Welch's: the difference of the two means, its interval from both
// days' spreads with Welch-Satterthwaite's degrees of freedom, more than
// luck when that interval leaves out 0, and only between two days that
// tell something. The class chart says the same rule.

// MinGames is how many games a day needs before anything is claimed of
// it: with fewer, one lucky or unlucky game is the whole figure.
const MinGames = 3

// DayProgress is one day of a student's (or the class's) play: the
// chance of winning their choices gave away per game on average, with
// its 95% interval (Told) or without (too few games, or games all alike).
type DayProgress struct {
	Day      string
	Homework bool // the day's homework games, apart from its rounds
	Games    int
	PerGame  float64
	Lo, Hi   float64
	// Told: MinGames games or more, not all of the same cost: the
	// interval means something. Cut: its low end was below 0, shown as 0.
	Told, Cut bool
	sd        float64 // the games' standard deviation
}

// Progress is a student's (or the class's) play day by day, and the
// change from the first class day to the last.
type Progress struct {
	Days []DayProgress
	// Change is the last class day's cost per game minus the first's
	// (below zero: fewer chances given away; homework apart), with its 95%
	// interval (Welch's); Compared says there are two class days, Judged
	// that both tell something (else no interval: Told days are too few),
	// Sure that the interval leaves out zero: more than luck explains.
	Change, ChangeLo, ChangeHi float64
	Compared, Judged, Sure     bool
	// ChangeFrom and ChangeTo are the first and the last class days.
	ChangeFrom, ChangeTo DayProgress
}

// progressOf works the days' means and intervals out from their sums.
func progressOf(days []store.DayCost) Progress {
	var p Progress
	for _, d := range days {
		if d.Games == 0 {
			continue
		}
		n := float64(d.Games)
		mean := d.Cost / n
		dp := DayProgress{Day: d.Day, Homework: d.Homework, Games: d.Games, PerGame: mean, Lo: mean, Hi: mean}
		if d.Games > 1 {
			dp.sd = math.Sqrt(max(0, (d.GameCost2-n*mean*mean)/(n-1)))
		}
		if d.Games >= MinGames && d.Distinct > 1 && dp.sd > 0 {
			half := sim.StudentT975(n-1) * dp.sd / math.Sqrt(n)
			dp.Told, dp.Lo, dp.Hi, dp.Cut = true, max(0, mean-half), mean+half, mean-half < 0
		}
		p.Days = append(p.Days, dp)
	}
	var class []DayProgress // the days in class: the change compares them
	for _, d := range p.Days {
		if !d.Homework {
			class = append(class, d)
		}
	}
	if len(class) >= 2 {
		first, last := class[0], class[len(class)-1]
		p.Compared, p.ChangeFrom, p.ChangeTo = true, first, last
		p.Change = last.PerGame - first.PerGame
		p.ChangeLo, p.ChangeHi, p.Judged = welch(first, last)
		p.Sure = p.Judged && (p.ChangeHi < 0 || p.ChangeLo > 0)
	}
	return p
}

// welch is the 95% interval of the difference of two days' means per
// game (b's less a's), by Welch's t: false unless both days tell
// something.
func welch(a, b DayProgress) (lo, hi float64, ok bool) {
	if !a.Told || !b.Told {
		return 0, 0, false
	}
	va, vb := a.sd*a.sd/float64(a.Games), b.sd*b.sd/float64(b.Games)
	se := math.Sqrt(va + vb)
	df := (va + vb) * (va + vb) / (va*va/float64(a.Games-1) + vb*vb/float64(b.Games-1))
	half := sim.StudentT975(df) * se
	d := b.PerGame - a.PerGame
	return d - half, d + half, true
}

// StudentProgress is one student's play in the class day by day: for the
// class's teacher, or for that student alone.
func (r *Reports) StudentProgress(ctx context.Context, v classroom.Viewer, studentID int64) (Progress, error) {
	c, err := member(v)
	if err != nil {
		return Progress{}, classroom.ErrNotTeacher
	}
	if me, ok := v.Student(); !v.Teacher() && (!ok || me.ID != studentID) {
		return Progress{}, classroom.ErrNotTeacher
	}
	days, err := r.st.DayCosts(ctx, c.ID, studentID)
	return progressOf(days), err
}

// ClassProgress is the class's play day by day (every student's
// decisions), for its members: where the class started and where it is.
func (r *Reports) ClassProgress(ctx context.Context, v classroom.Viewer) (Progress, error) {
	c, err := member(v)
	if err != nil {
		return Progress{}, err
	}
	days, err := r.st.DayCosts(ctx, c.ID, 0)
	return progressOf(days), err
}
