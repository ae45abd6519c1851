package report

import (
	"context"
	"math"

	"pigclass/server/classroom"
	"pigclass/server/store"
)

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// DayProgress is one day of a student's (or the class's) play: the
// chance of winning their choices gave away, per decision on average with
// its 95% interval (the mean's, from the decisions' spread: Lo and Hi are
// equal to it below two decisions), and per game.
type DayProgress struct {
	Day              string
	Homework         bool // the day's homework games, apart from its rounds
	Decisions, Games int
	PerDecision      float64
	Lo, Hi           float64
	PerGame          float64
	sd               float64 // the decisions' standard deviation
}

// Progress is a student's (or the class's) play day by day, and the
// change from the first day to the last.
type Progress struct {
	Days []DayProgress
	// Change is the last class day's cost per decision minus the first's
	// (below zero: fewer chances given away; homework apart), with its 95%
	// interval; Sure says the interval leaves out zero: more than chance
	// would explain. Only with two class days or more (Compared).
	Change, ChangeLo, ChangeHi float64
	Compared, Sure             bool
	// ChangeFrom and ChangeTo are the first and the last class days.
	ChangeFrom, ChangeTo DayProgress
}

// progressOf works the days' means and intervals out from their sums.
func progressOf(days []store.DayCost) Progress {
	var p Progress
	for _, d := range days {
		if d.Decisions == 0 {
			continue
		}
		n := float64(d.Decisions)
		mean := d.Cost / n
		dp := DayProgress{Day: d.Day, Homework: d.Homework, Decisions: d.Decisions, Games: d.Games, PerDecision: mean, Lo: mean, Hi: mean}
		if d.Games > 0 {
			dp.PerGame = d.Cost / float64(d.Games)
		}
		if d.Decisions > 1 {
			variance := max(0, (d.Cost2-n*mean*mean)/(n-1))
			dp.sd = math.Sqrt(variance)
			half := z95 * dp.sd / math.Sqrt(n)
			dp.Lo, dp.Hi = max(0, mean-half), mean+half
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
		p.Change = last.PerDecision - first.PerDecision
		se := math.Sqrt(first.sd*first.sd/float64(first.Decisions) + last.sd*last.sd/float64(last.Decisions))
		p.ChangeLo, p.ChangeHi = p.Change-z95*se, p.Change+z95*se
		p.Sure = first.Decisions > 1 && last.Decisions > 1 && (p.ChangeHi < 0 || p.ChangeLo > 0)
	}
	return p
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
