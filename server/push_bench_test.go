package server

import (
	"runtime"
	"testing"
	"time"

	"pigclass/templates/paths"
)

// BenchmarkStreams holds 2,000 pages' event streams open (30 of them a
// class's screens, the rest another class's students) and measures a
// change of the class reaching its 30 pages: from the change (the
// room's Touch, as a tournament's duel makes it) to the thirtieth look
// read by its page. bytes/stream is the memory the 2,000 streams add to
// the process, both ends of each connection counted (the pages are in
// the same process): what the server holds for one is less.
//
//	go test ./server -run X -bench Streams -benchtime 20x
func BenchmarkStreams(b *testing.B) {
	const pages, others = 30, 1970
	a := newApp(b)
	teacher := a.browser()
	code := teacherStart(b, teacher)
	class, err := a.srv.room.Class(b.Context(), code)
	if err != nil {
		b.Fatal(err)
	}
	classID := class.ID
	other := a.browser()
	otherCode := teacherStart(b, other)
	student := join(b, a, otherCode, "Ana")

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	screens := make([]*heard, pages)
	for i := range screens {
		screens[i] = hear(b, teacher, paths.TeacherEvents.For(code))
	}
	for range others {
		hear(b, student, paths.StudentEvents.For(otherCode))
	}
	for _, s := range screens {
		if s.next(5*time.Second) != "look" {
			b.Fatal("a screen's stream did not open with a look")
		}
	}
	for a.srv.streams.open.Load() < pages+others {
		time.Sleep(10 * time.Millisecond)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := float64(after.HeapInuse+after.StackInuse) - float64(before.HeapInuse+before.StackInuse)

	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		time.Sleep(teacherBusy + 20*time.Millisecond) // each look the first of a burst: teacherGap apart at most
		b.StartTimer()
		a.srv.room.Touch(classID)
		for _, s := range screens {
			got := s.next(5 * time.Second)
			for got == "alive" {
				got = s.next(5 * time.Second)
			}
			if got != "look" {
				b.Fatalf("a screen's stream said %q, want look", got)
			}
		}
	}
	b.ReportMetric(held/(pages+others), "bytes/stream") // after the loop: ResetTimer drops what is reported before
}
