package i18n

import (
	"strings"
	"time"
)

// Msg is words not yet put in a language: a catalog message with its
// arguments, a text as it is (a nickname), or messages said one after the
// other. A view builds its words as Msg values, without a Localizer, and
// puts them all in the reader's language in one place with Say.
type Msg struct {
	// ID is the catalog's message; "" for a Text or a join of Parts.
	ID string
	// Args are pairs of name and value, as Localizer.T takes them; an int
	// value is a whole number, a time.Time a time of day and a Msg words,
	// each put in the reader's language with the message.
	Args []any
	// Count, with Plural, chooses the plural form (Localizer.N).
	Count  int
	Plural bool
	// Text is said as it is, when there is no ID and no Parts.
	Text string
	// Parts are said one after the other with Sep between.
	Parts []Msg
	Sep   string
	// Missing is said instead when the catalog lacks the message or a
	// message among its arguments ("" says the id, as T does).
	Missing string
}

// M is the catalog's message id with its arguments.
func M(id string, args ...any) Msg { return Msg{ID: id, Args: args} }

// Plural is the catalog's message id in the plural form n takes; its
// {{.Count}} is n.
func Plural(id string, n int, args ...any) Msg {
	return Msg{ID: id, Args: args, Count: n, Plural: true}
}

// Text is words said as they are.
func Text(s string) Msg { return Msg{Text: s} }

// Join is parts said one after the other with sep between.
func Join(sep string, parts ...Msg) Msg { return Msg{Parts: parts, Sep: sep} }

// Empty reports whether m says nothing at all.
func (m Msg) Empty() bool { return m.ID == "" && m.Text == "" && len(m.Parts) == 0 }

// Say puts m in the reader's language.
func (l *Localizer) Say(m Msg) string {
	s, _ := l.say(m)
	return s
}

// SayAll puts each of ms in the reader's language.
func (l *Localizer) SayAll(ms []Msg) []string {
	if ms == nil {
		return nil
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = l.Say(m)
	}
	return out
}

// say is Say, and whether the catalog had every message it needed.
func (l *Localizer) say(m Msg) (string, bool) {
	if m.ID == "" && len(m.Parts) == 0 {
		return m.Text, true
	}
	if m.ID == "" {
		words, found := make([]string, len(m.Parts)), true
		for i, p := range m.Parts {
			var ok bool
			words[i], ok = l.say(p)
			found = found && ok
		}
		return strings.Join(words, m.Sep), found
	}
	args, found := make([]any, len(m.Args)), true
	for i, a := range m.Args {
		switch v := a.(type) {
		case Msg:
			var ok bool
			args[i], ok = l.say(v)
			found = found && ok
		case int:
			args[i] = l.Int(v)
		case time.Time:
			args[i] = l.Clock(v)
		default:
			args[i] = a
		}
	}
	var s string
	if m.Plural {
		s = l.N(m.ID, m.Count, args...)
	} else {
		s = l.T(m.ID, args...)
	}
	if found = found && s != m.ID; !found && m.Missing != "" {
		return m.Missing, false
	}
	return s, found
}
