package i18n

import "testing"

// BenchmarkT is a message with fields, as a board says each move.
func BenchmarkT(b *testing.B) {
	l := For("es")
	for b.Loop() {
		l.T("move.die.rolled_total", "Name", "Ana", "Faces", "3", "Total", "12")
	}
}

// BenchmarkTPlain is a message without fields (a button).
func BenchmarkTPlain(b *testing.B) {
	l := For("es")
	for b.Loop() {
		l.T("board.roll")
	}
}

// BenchmarkInt is a whole number in the reader's format.
func BenchmarkInt(b *testing.B) {
	l := For("es")
	for b.Loop() {
		l.Int(42)
	}
}

// BenchmarkN is a counted message, as the projector says how many play.
func BenchmarkN(b *testing.B) {
	l := For("fr")
	for b.Loop() {
		l.N("projector.playing", 12)
	}
}
