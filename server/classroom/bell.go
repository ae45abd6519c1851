package classroom

// A class has two bells (play.Bell): bell rings at every change of the
// class or of any of its matches (its activity: what the teacher's
// screens show), news only at a change of the class itself (its roster,
// rounds, lesson, homework, Skunk: what every student's page shows). A
// student's page waits on news and on its own match's bell, so that a
// move in one match of a class of a thousand does not wake the other
// 999 pages.

// Changed moves the class's activity counter and rings its bell: one of
// its matches changed (play.Host).
func (c *class) Changed() {
	c.activity.Add(1)
	c.bell.Ring()
}

// changedClass is Changed for a change of the class itself: its news
// rings too.
func (c *class) changedClass() {
	c.Changed()
	c.news.Ring()
}

// Changes returns a channel closed at the next change of the viewer's
// class or of any of its matches (Changed), and whether the class is
// still there to change: a class deleted or erased is gone from memory,
// and its pages are told once, then never again.
func (v Viewer) Changes() (<-chan struct{}, bool) {
	if v.cls == nil {
		return nil, false
	}
	return v.cls.bell.Waiting(), !v.cls.dropped.Load()
}

// ClassChanges is Changes for a change of the class itself only
// (changedClass): what a student's pages wait for, beside their match.
func (v Viewer) ClassChanges() (<-chan struct{}, bool) {
	if v.cls == nil {
		return nil, false
	}
	return v.cls.news.Waiting(), !v.cls.dropped.Load()
}

// Touch tells the pages of class id, if it is in memory, that something
// of it changed outside the room (its tournament moved on): as Changed.
func (r *Room) Touch(id int64) {
	if c := r.classes.loaded(id); c != nil {
		c.Changed()
	}
}
