package templates

import (
	"context"

	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// Chrome is what every page's frame needs from the request: the page
// the language switcher comes back to.
type Chrome struct {
	Here string // this page's address
	// Stream is the page's event stream, where its live parts hear that
	// something changed (server/push.go); "" for a page with none.
	Stream string
	// Follow, on a student's page that stands while the class moves on
	// (the lab, the strategy editor, the privacy page), asks whether the
	// student's next game has begun: the page then goes to its board
	// (issue 81).
	Follow string
	// Student is the class code of a student's page: its footer's
	// privacy page is the class's, which follows the class too.
	Student string
}

type chromeKey struct{}

// WithChrome is ctx carrying the page's frame.
func WithChrome(ctx context.Context, c Chrome) context.Context {
	return context.WithValue(ctx, chromeKey{}, c)
}

// ChromeOf is the frame ctx carries.
func ChromeOf(ctx context.Context) Chrome {
	c, _ := ctx.Value(chromeKey{}).(Chrome)
	if c.Here == "" {
		c.Here = "/"
	}
	return c
}

// T is the message id in the request's language (see package i18n).
func T(ctx context.Context, id string, args ...any) string { return i18n.T(ctx, id, args...) }

// N is the plural message id for count in the request's language.
func N(ctx context.Context, id string, count int, args ...any) string {
	return i18n.From(ctx).N(id, count, args...)
}

// Int is a whole number in the reader's format.
func Int(ctx context.Context, n int) string { return i18n.From(ctx).Int(n) }

func langName(code string) string {
	for _, l := range i18n.Langs {
		if l.Code == code {
			return l.Name
		}
	}
	return code
}

func langs() []i18n.Lang { return i18n.Langs }

// sentence ends a title with a full stop where it has no stop of its own
// (i18n.Sentence).
func sentence(s string) string { return i18n.Sentence(s) }

// shownChart is the key of the chart a dashboard shows.
func shownChart(v Dashboard) string {
	for _, t := range v.ChartTabs {
		if t.Selected {
			return t.Value
		}
	}
	return ""
}

// pick is a when c, b otherwise.
func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// privacyPage is the privacy page a page's footer links: a student's, the
// class's own (it follows the class, as their other pages do).
func privacyPage(student string) string {
	if student != "" {
		return paths.ClassPrivacy.For(student)
	}
	return paths.Privacy.String()
}
