package i18n

import (
	"testing"
	"time"
)

// TestSayIsWhatTSays: a message built as data and said later reads as the
// Localizer's own T and N would have said it, nested messages, whole
// numbers, times of day and plurals each in the reader's language; a
// message the catalog lacks says its Missing words.
func TestSayIsWhatTSays(t *testing.T) {
	at := time.Date(2026, 12, 1, 14, 5, 9, 0, time.UTC)
	for _, lang := range []string{"en", "es", "de"} {
		l := For(lang)
		for _, c := range []struct {
			name string
			got  Msg
			want string
		}{
			{"plain", M("board.roll"), l.T("board.roll")},
			{"nested and numbered", M("bot.seat_n", "N", 2, "Bot", M("bot.holdn", "N", 12345)),
				l.T("bot.seat_n", "N", l.Int(2), "Bot", l.T("bot.holdn", "N", l.Int(12345)))},
			{"plural", Plural("board.dice", 1), l.N("board.dice", 1)},
			{"plural many", Plural("board.dice", 3), l.N("board.dice", 3)},
			{"time of day", M("board.deadline", "N", 30, "At", at), l.T("board.deadline", "N", l.Int(30), "At", l.Clock(at))},
			{"text", Text("Ana <b>"), "Ana <b>"},
			{"join", Join(" ", M("board.roll"), Text("2")), l.T("board.roll") + " 2"},
			{"anon", M("anon.name", "Adjective", M("anon.adj.brave"), "Animal", M("anon.animal.otter")),
				l.T("anon.name", "Adjective", l.T("anon.adj.brave"), "Animal", l.T("anon.animal.otter"))},
		} {
			if s := l.Say(c.got); s != c.want || s == "" {
				t.Errorf("%s, %s: %q, want %q", lang, c.name, s, c.want)
			}
		}
		missing := M("anon.name", "Adjective", M("anon.adj.nosuchword"), "Animal", M("anon.animal.otter"))
		missing.Missing = "Nosuchword Otter"
		if s := l.Say(missing); s != "Nosuchword Otter" {
			t.Errorf("%s: a message with an argument the catalog lacks says %q, want its Missing words", lang, s)
		}
		if s := l.Say(M("no.such.message")); s != "no.such.message" {
			t.Errorf("%s: a missing message without Missing words says %q, want its id as T does", lang, s)
		}
	}
	if got := For("es").Say(Plural("board.dice", 1)); got != "1 dado" {
		t.Errorf("es: one die is %q", got)
	}
	if !(Msg{}).Empty() || Text("x").Empty() || M("board.roll").Empty() || Join(" ").Empty() != true {
		t.Error("Empty is wrong")
	}
}
