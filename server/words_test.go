package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestEveryPageHasAnIconAndASkipLink (issue 44, in part): every page
// names its icon, which the app serves (no 404 in any browser's log), and
// opens with a link past the language buttons to the page; the board's
// buttons say their keys to a screen reader (aria-keyshortcuts), the key
// drawn beside the word hidden from it.
func TestEveryPageHasAnIconAndASkipLink(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	for who, path := range map[*browser]string{a.browser(): "/", teacher: paths.Teacher.For(code), ana: paths.Student.For(code), a.browser(): paths.Privacy.String()} {
		doc := who.get(path)
		icon := doc.Find(`head link[rel="icon"]`).AttrOr("href", "")
		skip := doc.Find("body > *").First()
		if skip.AttrOr("href", "") != "#main" || doc.Find("#main").Length() != 1 || strings.TrimSpace(skip.Text()) != "Skip to the page" {
			t.Errorf("%s: the body opens with %q", path, skip.Text())
		}
		if icon == "" {
			t.Errorf("%s names no icon", path)
			continue
		}
		if who.get(icon); who.status() != http.StatusOK || !strings.HasPrefix(who.last.Header.Get("Content-Type"), "image/svg+xml") {
			t.Errorf("%s's icon %s: %d %s", path, icon, who.status(), who.last.Header.Get("Content-Type"))
		}
	}
	board := ana.get(paths.Student.For(code))
	buttons := board.Find(`[data-testid^="act-"]`)
	if buttons.Length() == 0 {
		t.Fatal("no buttons on the board")
	}
	for i := range buttons.Length() {
		b := buttons.Eq(i)
		if key := b.AttrOr("data-key", ""); key == "" || b.AttrOr("aria-keyshortcuts", "") != key || b.Find("kbd").AttrOr("aria-hidden", "") != "true" {
			t.Errorf("button %q: key %q, aria-keyshortcuts %q", b.Text(), key, b.AttrOr("aria-keyshortcuts", ""))
		}
	}
}

// TestAStepThatAsksIsNotAskedTwice (issue 44): the question before a
// lesson step named by a question is that question, with one question
// mark ("Which bot did you play?", not "...play??"); another step is
// asked as before.
func TestAStepThatAsksIsNotAskedTwice(t *testing.T) {
	en := i18n.For("en")
	if got := stepQuestion(en, "Which bot did you play?"); got != "Which bot did you play?" {
		t.Errorf("a step that asks: %q", got)
	}
	if got := stepQuestion(en, "Start phase 2"); got != "Start phase 2?" {
		t.Errorf("another step: %q", got)
	}
}
