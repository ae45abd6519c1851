package server

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"pigclass/sim"
	"pigclass/templates/paths"
)

// TestBrowserWholeLesson (issue 32, "Done when"): lesson 3, "Playing to
// win", run from the dashboard's bar alone on a 1366x768 laptop, with a
// projector open all along. A student who joined and then practised from
// the front page is brought to the class's first round; the bar moves on
// while that round is played, asking first; a game of Skunk in the same
// class, from the dashboard, takes the projector and gives it back; the
// bar brings the class back to the lesson for its last phase, "Which bot
// did you play?", against the mystery bot. The students guess on their
// reviews; the projector shows the question whole and the class's
// guesses against the truth at a readable size at 1920x1080, 1366x768
// and 1024x768 (screenshots projector-whole-*), and the chart counts
// every bot and guess.
func TestBrowserWholeLesson(t *testing.T) {
	t.Parallel() // it waits on the pages' polls
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "3-playing-to-win")
	var kids []*student
	for i := range 6 {
		nick := fmt.Sprintf("Kid %d", i+1)
		kids = append(kids, &student{b: join(t, a, code, nick), nick: nick, holdAt: 14 + 2*i})
	}
	pia := person()
	joinIn(t, pia, a.url, code, "Pia")
	navigate(t, pia, a.url+"/")
	value(t, pia, chromedp.Evaluate[bool](`(document.querySelector('form[action="/practice"]').submit(), true)`))
	eventually(t, pia, `location.pathname.indexOf("/m/") === 0`, "Pia practises from the front page")

	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	laptop := person()
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="dash-bar"]`)))
	projector := person()
	run(t, projector, chromedp.EmulateViewport(1920, 1080),
		chromedp.Navigate(teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")), chromedp.WaitVisible(q(`[data-testid="projector"]`)))

	// step presses the bar's primary button, which must read label, and
	// says yes where it asks (a round is still being played).
	step := func(label string, asks bool) {
		t.Helper()
		eventually(t, laptop, fmt.Sprintf(`(document.querySelector('[data-testid="bar-next-step"]') || {}).textContent === %q`, label), "the bar reads "+label)
		clickJS(t, laptop, `[data-testid="bar-next-step"]`)
		if asks {
			eventually(t, laptop, `!!document.querySelector('[data-testid="confirm-yes"]')`, label+": the bar asks before the round being played ends")
			clickJS(t, laptop, `[data-testid="confirm-yes"]`)
		}
		eventually(t, laptop, `!!document.querySelector('[data-testid="dash-bar"]') && !document.querySelector('[data-testid="confirm-yes"]')`, label+": back on the dashboard")
	}
	// fitsEverySize checks the projector at each size: the question
	// whole, the chart a third of the screen or more, nothing cut or wider
	// than the screen (screenshots projector-whole-NAME-WIDTH).
	fitsEverySize := func(name string) {
		t.Helper()
		for _, size := range projectorSizes {
			run(t, projector, chromedp.EmulateViewport(size[0], size[1]))
			resized(t, projector, "resized")
			if bad := value(t, projector, chromedp.Evaluate[string](discussFitsJS)); bad != "" {
				t.Errorf("%s at %dx%d: %s", name, size[0], size[1], bad)
			}
			if bad := value(t, projector, chromedp.Evaluate[string](overflowJS)); bad != "" {
				t.Errorf("%s at %dx%d overflows: %s", name, size[0], size[1], bad)
			}
			shot(t, projector, fmt.Sprintf("projector-whole-%s-%d", name, size[0]))
		}
	}
	phase := func(want string) {
		t.Helper()
		eventually(t, projector, fmt.Sprintf(`((document.querySelector('[data-testid="projector-phase"]') || {}).textContent || "").includes(%q)`, want), "the projector follows the lesson to "+want)
	}

	// The join code in the bar is whole at each laptop's width, with the
	// lesson's buttons beside it.
	for _, w := range []int64{1366, 1024, 768} {
		run(t, laptop, chromedp.EmulateViewport(w, 768))
		if bad := value(t, laptop, chromedp.Evaluate[string](`(function () {
			var c = document.querySelector('[data-testid="dash-bar"] .code'), r = c.getBoundingClientRect();
			if (c.textContent.trim() !== `+fmt.Sprintf("%q", code)+`) return "the bar's code reads " + c.textContent;
			if (c.scrollWidth > c.clientWidth + 1 || r.right > window.innerWidth + 0.5 || r.width < 20) return "the bar's code is clipped: " + JSON.stringify(r);
			return "";
		})()`)); bad != "" {
			t.Errorf("at %d px: %s", w, bad)
		}
	}
	run(t, laptop, chromedp.EmulateViewport(1366, 768))
	step("Start phase 1: Against perfect play", false)
	eventually(t, pia, fmt.Sprintf(`location.pathname === "/c/%s" && !!document.querySelector('#board')`, code), "Pia is brought from her front-page practice to the class's round")
	phase("Phase 1 of 5")
	kids[0].step(t, code) // the round is under way
	step("Start phase 2: The cost of a rule of thumb", true)
	phase("Phase 2 of 5")
	eventually(t, projector, `(document.querySelector('[data-testid="projector"]') || {}).dataset.state === "discuss"`, "the discussion on the projector")
	eventually(t, projector, `!!document.querySelector('#projector-chart .echart')`, "the ladder on the projector, once computed")
	fitsEverySize("cost-of-a-rule")
	run(t, projector, chromedp.EmulateViewport(1920, 1080))
	step("Start phase 3: Play each other", false)
	phase("Phase 3 of 5")

	// Skunk in the same class, from the dashboard, while phase 3's round
	// is played: it asks, then takes the projector.
	clickJS(t, laptop, `[data-testid="skunk-start-button"]`)
	eventually(t, laptop, `!!document.querySelector('[data-testid="confirm-yes"]')`, "Skunk asks before the round being played ends")
	clickJS(t, laptop, `[data-testid="confirm-yes"]`)
	eventually(t, projector, `(document.querySelector('[data-testid="projector"]') || {}).dataset.state === "skunk"`, "Skunk on the projector")
	rollSkunkOut(t, a, teacher, code)
	shot(t, projector, "projector-whole-skunk")
	run(t, laptop, chromedp.Reload())

	// Back to the lesson, by the bar, at its last phase.
	step("Start phase 4: Three at a table", false)
	phase("Phase 4 of 5")
	step("Start phase 5: Which bot did you play?", true)
	phase("Phase 5 of 5")
	eventually(t, pia, `!!document.querySelector('#board') && document.querySelector('.players').textContent.includes("Mystery bot")`, "Pia plays the mystery bot")
	playRound(t, code, kids)
	for _, k := range kids {
		guessMysteries(t, k, code)
	}
	// Pia is still playing: the bar's "End the round" asks, then ends her
	// match, and the class's round is over.
	eventually(t, laptop, `!!document.querySelector('[data-testid="end-round"]')`, "the bar offers to end the round")
	clickJS(t, laptop, `[data-testid="end-round"]`)
	eventually(t, laptop, `!!document.querySelector('[data-testid="confirm-yes"]')`, "ending the round asks")
	clickJS(t, laptop, `[data-testid="confirm-yes"]`)

	// The projector: the phase's question whole, the class's guesses
	// against the truth at a third of the screen or more, at each size.
	navigate(t, projector, teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", ""))
	eventually(t, laptop, `!document.querySelector('[data-testid="end-round"]')`, "the round ended")
	eventually(t, projector, `(document.querySelector('[data-testid="projector"]') || {}).dataset.state === "results"`, "the round's end on the projector")
	eventually(t, projector, `!!document.querySelector('[data-testid="chart-mystery-guesses"] .echart') && Array.from(document.querySelectorAll('[data-testid="chart-mystery-guesses"] tbody tr td:nth-child(2)')).reduce(function (n, td) { return n + Number(td.textContent) }, 0) === 7`,
		"the class's guesses on the projector, Pia's bot among them")
	// A projector that loaded before the round ended saw it end: the
	// podium takes the screen first, for 12 s, the chart hidden (a busy
	// run once measured it 0 px high then).
	eventually(t, projector, `!document.documentElement.classList.contains("podium-first")`, "the podium moves aside for the chart")
	fitsEverySize("mystery")
	// The chart's table: every bot of the phase (six and Pia's), each
	// kid's guess.
	cells := value(t, projector, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll('[data-testid="chart-mystery-guesses"] tbody td')).map(function (td) { return td.textContent })`))
	played, guessed := 0, 0
	for i := 0; i+3 < len(cells); i += 4 {
		p, _ := strconv.Atoi(cells[i+1])
		g, _ := strconv.Atoi(cells[i+2])
		played, guessed = played+p, guessed+g
	}
	if played != len(kids)+1 || guessed != len(kids) {
		t.Errorf("the chart counts %d bots and %d guesses, want %d and %d: %v", played, guessed, len(kids)+1, len(kids), cells)
	}
}

// guessMysteries has a student guess the strength of each mystery bot of
// their last match on its review (the first strength offered).
func guessMysteries(t *testing.T, s *student, code string) {
	t.Helper()
	doc := s.b.get(paths.Student.For(code))
	href, last := "", int64(0) // the latest match: the highest number
	doc.Find(`a[href*="/m/"]`).Each(func(_ int, l *goquery.Selection) {
		h := l.AttrOr("href", "")
		if id, err := strconv.ParseInt(h[strings.LastIndex(h, "/")+1:], 10, 64); err == nil && id > last {
			href, last = h, id
		}
	})
	if href == "" {
		t.Fatalf("%s has no review", s.nick)
	}
	review := s.b.get(href)
	ask := review.Find(`[data-testid="mystery-ask"]`)
	if ask.Length() == 0 {
		t.Fatalf("%s's review asks no guess", s.nick)
	}
	s.b.post(ask.AttrOr("action", ""), url.Values{"seat": {ask.Find(`input[name="seat"]`).AttrOr("value", "")}, "strength": {sim.BeginnerBot}})
	if !strings.Contains(s.b.path(), "/m/") {
		t.Errorf("%s's guess went to %s", s.nick, s.b.path())
	}
}

// overflowJS lists elements of the projector wider than the screen or cut
// by their own box.
const overflowJS = `(function () {
	var out = [], w = window.innerWidth;
	if (document.documentElement.scrollWidth > w + 1) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
	document.querySelectorAll('[data-testid="projector"] h1, [data-testid="projector"] p, [data-testid="projector"] li').forEach(function (e) {
		if (out.length < 5 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow !== "visible") out.push("cut: " + e.textContent.slice(0, 40));
	});
	return out.join("; ");
})()`
