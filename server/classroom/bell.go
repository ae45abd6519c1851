package classroom

import "sync/atomic"

// A bell tells whoever listens that something changed: a class's pages
// kept open (their event streams, in the web layer) wait on it instead of
// asking every second or two. Ringing closes the channel the listeners
// hold and puts a new one in its place, so one ring wakes every listener
// at once, without a lock, however many there are, and costs nothing per
// listener in between: a listener keeps no queue, and asks what changed
// when it wakes. A listener takes the channel before it looks, so a ring
// between its look and its wait is not missed.
type bell struct {
	ch atomic.Pointer[chan struct{}]
}

// waiting returns the channel the next ring closes.
func (b *bell) waiting() <-chan struct{} {
	for {
		if p := b.ch.Load(); p != nil {
			return *p
		}
		ch := make(chan struct{})
		b.ch.CompareAndSwap(nil, &ch)
	}
}

// ring wakes every listener.
func (b *bell) ring() {
	ch := make(chan struct{})
	if old := b.ch.Swap(&ch); old != nil {
		close(*old)
	}
}

// Changed moves the class's activity counter and rings its bell: a
// change of the class, of one of its matches or of its game of Skunk.
func (c *class) Changed() {
	c.activity.Add(1)
	c.bell.ring()
}

// Changes returns a channel closed at the next change of the viewer's
// class (Changed), and whether the class is still there to change: a
// class deleted or erased is gone from memory, and its pages are told
// once, then never again.
func (v Viewer) Changes() (<-chan struct{}, bool) {
	if v.cls == nil {
		return nil, false
	}
	return v.cls.bell.waiting(), !v.cls.dropped.Load()
}

// Touch tells the pages of class id, if it is in memory, that something
// of it changed outside the room (its tournament moved on): as Changed.
func (r *Room) Touch(id int64) {
	if c := r.classes.loaded(id); c != nil {
		c.Changed()
	}
}
