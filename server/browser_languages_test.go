package server

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"

	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestBrowserNewLanguages: in French, Brazilian Portuguese and German, a
// student's page during a round (the board, its buttons and how to play)
// and the teacher's dashboard read in the language (lang set, its own
// words), fit a 320 px phone without scrolling sideways, and no button or
// label runs out of its box: German's long words included.
func TestBrowserNewLanguages(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	for _, lang := range []string{"fr", "pt-BR", "de"} {
		a := newApp(t)
		teacher := a.browser()
		code := teacherStart(t, teacher)
		l := i18n.For(lang)
		speaks := func(ctx context.Context) context.Context {
			run(t, ctx, chromedp.Navigate(a.url+"/healthz"))
			value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.cookie = "pigclass_lang=%s; path=/", true)`, lang)))
			return ctx
		}
		ana := speaks(person())
		joinIn(t, ana, a.url, code, "Ana")
		teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"60"}})
		check := func(ctx context.Context, path, name, want string) {
			noSidewaysScroll(t, ctx, a.url, path, lang+"-"+name, []int64{320}, func(name string) {
				if got := value(t, ctx, chromedp.Evaluate[string](`document.documentElement.lang`)); got != lang {
					t.Errorf("%s: lang %q", name, got)
				}
				if !value(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.body.innerText.includes(%q)`, want))) {
					t.Errorf("%s: the page does not say %q", name, want)
				}
				noOverflow(t, ctx, name)
			})
		}
		eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]') || !!document.querySelector('[data-testid="board"]')`, "Ana's board")
		check(ana, paths.Student.For(code), "play", l.T("howto.title"))
		tc := speaks(person())
		link := teacher.get(paths.Teacher.For(code)).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
		u, _ := url.Parse(link)
		run(t, tc, chromedp.Navigate(a.url+u.RequestURI()), chromedp.WaitVisible(q(`[data-testid="join-code"]`)))
		check(tc, paths.Teacher.For(code), "dashboard", l.T("dash.endround"))
	}
}
