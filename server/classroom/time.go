package classroom

import (
	"context"
	"slices"
	"time"

	"pigclass/server/store"
)

// Time a teacher gives (issue 59, item 14): a student's extra time on
// each per-roll deadline, an accommodation (WCAG 2.2.1, "Timing
// Adjustable"); and a countdown for the lesson's phase, on the shared
// screen and the phones.

// MaxExtraTime is the most extra time a student may be given on each
// roll: as long as the longest deadline a round may set.
const MaxExtraTime = 600 * time.Second

// MaxCountdown is the longest countdown a teacher may set for a phase.
const MaxCountdown = 60 * time.Minute

// ExtraTime is the time student id is given on each of their per-roll
// deadlines beyond the round's (0 for none): the hall asks it (play.Host)
// whenever it looks at a deadline, so a change holds at once.
func (c *class) ExtraTime(studentID int64) time.Duration {
	return c.snap.Load().ExtraTime(studentID)
}

// ExtraTime is the extra time of student id on each per-roll deadline;
// none in no class (nil: practice) or for a bot.
func (c *Class) ExtraTime(studentID int64) time.Duration {
	if c == nil || studentID == 0 {
		return 0
	}
	i := slices.IndexFunc(c.Students, isStudent(studentID))
	if i < 0 {
		return 0
	}
	return time.Duration(c.Students[i].ExtraSeconds) * time.Second
}

// SetExtraTime gives a student of the class extra time on each per-roll
// deadline, from their next deadline on (0 takes it away); d is at most
// MaxExtraTime, in whole seconds.
func (r *Room) SetExtraTime(ctx context.Context, v Viewer, studentID int64, d time.Duration) error {
	c, err := v.teaching()
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(c.snap.Load().Students, isStudent(studentID)) {
		return store.ErrNotFound
	}
	secs := int(min(max(d, 0), MaxExtraTime) / time.Second)
	return c.save(func() error {
		if err := r.st.SetExtraTime(ctx, studentID, secs); err != nil {
			return err
		}
		c.publishLocked(true, func(next *Class) {
			next.Students = changeStudents(next.Students, isStudent(studentID), func(st *store.Student) { st.ExtraSeconds = secs })
		})
		return nil
	})
}

// SetCountdown starts a countdown of d for the class's phase, from now
// (d at most MaxCountdown); d of 0 stops it. A new phase stops it too.
func (r *Room) SetCountdown(ctx context.Context, v Viewer, d time.Duration) error {
	var ends time.Time
	if d > 0 {
		ends = r.now().Add(min(d, MaxCountdown))
	}
	return r.setClass(v, func(classID int64) error { return r.st.SetCountdown(ctx, classID, ends) },
		func(next *Class) { next.Countdown = ends })
}
