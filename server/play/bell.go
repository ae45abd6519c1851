package play

import "sync/atomic"

// A Bell tells whoever listens that something changed: a page's event
// stream (in the web layer) waits on its match's bell and its class's
// instead of asking every second or two. Ringing closes the channel the
// listeners hold and puts a new one in its place, so one ring wakes
// every listener at once, without a lock, however many there are, and
// costs nothing per listener in between: a listener keeps no queue, and
// asks what changed when it wakes. A listener takes the channel before it
// looks, so a ring between its look and its wait is not missed. The zero
// Bell is ready.
type Bell struct {
	ch atomic.Pointer[chan struct{}]
}

// Waiting returns the channel the next ring closes.
func (b *Bell) Waiting() <-chan struct{} {
	for {
		if p := b.ch.Load(); p != nil {
			return *p
		}
		ch := make(chan struct{})
		b.ch.CompareAndSwap(nil, &ch)
	}
}

// Ring wakes every listener.
func (b *Bell) Ring() {
	ch := make(chan struct{})
	if old := b.ch.Swap(&ch); old != nil {
		close(*old)
	}
}

// Changes returns a channel closed at the next change of live match id
// (a move, a bot's, a timeout, its end), or nil when it is not live (a
// nil channel never closes).
func (h *Hall) Changes(id int64) <-chan struct{} {
	if lm := h.live(id); lm != nil {
		return lm.bell.Waiting()
	}
	return nil
}
