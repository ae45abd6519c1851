package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"

	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestBrowserAScreenReaderHearsTheGame (issue 44): what a screen reader
// says of a game of Pass the Pigs, read from Chromium's accessibility tree
// (not the page's markup): the live region says a Pig Out and a Sider as
// they happen, and the end (a win and a loss, with both scores), in
// English and in French, and says what the page shows.
func TestBrowserAScreenReaderHearsTheGame(t *testing.T) {
	t.Parallel() // it waits on the board's poll
	person := newBrowser(t)
	// Tables of its own: in the tests' shared tables, beside tests that
	// solve big kinds, Pass the Pigs to 25 may wait behind them until its
	// round is over and be given up, or be pushed out between two rounds;
	// each round is then a kind solved anew, and the fourth in a minute
	// (of the tests' clock, which stands) is refused: the rounds ran out
	// so once, with no Pig Out heard.
	tables := &solve.Cache{}
	for _, lang := range []string{"en", "fr"} {
		l := i18n.For(lang)
		a := newAppConfig(t, func(c *Config) { c.Tables = tables })
		teacher := a.browser()
		code := teacherStart(t, teacher)
		ana := person()
		navigate(t, ana, a.url+"/healthz")
		value(t, ana, chromedp.Evaluate[bool](fmt.Sprintf(`(document.cookie = "pigclass_lang=%s; path=/", true)`, lang)))
		joinIn(t, ana, a.url, code, "Ana")
		throws := map[string]string{
			"Pig Out": l.T("move.pigout_you", "Faces", "\x00"),
			"Sider":   l.T("move.sider_you", "Faces", "\x00", "Total", "\x00"),
		}
		heardAll := map[string]bool{}
		// Two rounds of Pass the Pigs to 25, on seeds chosen for them, Ana
		// moving first in each: in the first she rolls to 10 against a bot
		// that holds at once, throws a Pig Out and a Sider and wins; in the
		// second she holds at once against a bot that rolls to 23, and
		// loses.
		v := sim.Standard(sim.PassPigs)
		v.Target = 25
		for _, r := range []struct {
			holdAt int
			bot    string
			what   string
			ok     func(*sim.Match) bool
		}{
			{10, "hold:1", "Ana throws a Pig Out and a Sider, and wins", func(m *sim.Match) bool {
				n := thrown(m, 0)
				return n["pigout"] > 0 && n["sider"] > 0 && m.State().Winner == 0
			}},
			{1, "hold:23", "Ana loses", func(m *sim.Match) bool { return m.State().Winner == 1 }},
		} {
			bot, err := sim.ParseStrategy(r.bot, sim.PassPigs)
			if err != nil {
				t.Fatal(err)
			}
			a.deal(t, "Ana moves first; rolling to "+fmt.Sprint(r.holdAt)+" against "+r.bot+", "+r.what, func(s *sim.Seed) bool {
				m := playOut(v, *s, rollTo(r.holdAt), bot)
				return s.FirstSeat(2) == 0 && m != nil && r.ok(m)
			})
			teacherStartsRound(t, teacher, code, url.Values{"game": {"pass-the-pigs"}, "target": {"25"}, "mode": {"bot"}, "bot": {r.bot}})
			navigate(t, ana, a.url+paths.Student.For(code)) // the page may be on its way there by itself
			heardRound(t, ana, l, float64(r.holdAt), throws, heardAll)
		}
		for _, want := range []string{"a win", "a loss", "Pig Out", "Sider"} {
			if !heardAll[want] {
				t.Errorf("%s: in two rounds a screen reader never heard %s as the words say it (heard: %v)", lang, want, heardAll)
			}
		}
	}
}

// heardRound plays Ana's match of the round to its end, rolling until her
// turn total reaches holdAt, and marks in heard what a screen reader
// hears: the throws named in throws after each of her moves, and the end.
func heardRound(t *testing.T, ana context.Context, l *i18n.Localizer, holdAt float64, throws map[string]string, heard map[string]bool) {
	t.Helper()
	for moves := 0; ; moves++ {
		eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]') || !!document.querySelector('[data-testid="result"]') || !!document.querySelector('[data-testid="waiting"]')`, "Ana's turn or the end")
		if value(t, ana, chromedp.Evaluate[bool](`!document.querySelector('[data-testid="act-roll"]')`)) {
			if moves == 0 {
				t.Fatal("Ana had no turn, though she moves first")
			}
			if end := heardEnding(t, ana, l); end != "" {
				heard[end] = true
			}
			return
		}
		before := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="board"]').dataset.seq`))
		total := value(t, ana, chromedp.Evaluate[float64](`Number((document.querySelector('[data-testid="turn-total"]') || {}).textContent || 0)`))
		act := "roll"
		if total >= holdAt {
			act = "hold"
		}
		eventually(t, ana, `!document.querySelector('.htmx-request')`, "the page is still")
		clickJS(t, ana, `[data-testid="act-`+act+`"]`)
		// The move is made: the board moves on, or the round is over and
		// the page has gone back to the class (its next round is the
		// teacher's).
		eventually(t, ana, `!document.querySelector('[data-testid="board"]') || document.querySelector('[data-testid="board"]').dataset.seq !== "`+before+`"`, "the move is made")
		said := screenReaderHears(t, ana)
		for name, form := range throws {
			if saysLike(said, form) {
				heard[name] = true
			}
		}
	}
}

// heardEnding checks what a screen reader hears when a match ends: the
// winner and both scores, as the page shows them; it returns "a win" or
// "a loss" ("" when the page shows no end: Ana had no turn).
func heardEnding(t *testing.T, ctx context.Context, l *i18n.Localizer) string {
	t.Helper()
	if !value(t, ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="board"] [data-testid="result"]')`)) {
		return ""
	}
	type row struct {
		Name  string
		Score float64
		You   bool
	}
	rows := value(t, ctx, chromedp.Evaluate[[]row](`Array.from(document.querySelectorAll('.players li')).map(function (li) {
		return {Name: li.querySelector('.name').title, Score: Number(li.querySelector('[data-testid="score"]').textContent), You: li.classList.contains('you')};
	})`))
	if len(rows) != 2 {
		t.Fatalf("the board shows %d players", len(rows))
	}
	win, other := rows[0], rows[1]
	if other.Score > win.Score {
		win, other = other, win
	}
	want, end := l.T("result.won", "Name", win.Name, "Points", l.Int(int(win.Score)), "Other", l.Int(int(other.Score))), "a loss"
	if win.You {
		want, end = l.T("result.won_you", "Points", l.Int(int(win.Score)), "Other", l.Int(int(other.Score))), "a win"
	}
	if said := screenReaderHears(t, ctx); !strings.HasSuffix(said, want) {
		t.Errorf("after %s a screen reader hears %q, want it to end %q", end, said, want)
	}
	return end
}

// screenReaderHears is what the page's live regions say, as Chromium's
// accessibility tree gives it to a screen reader: the text of every live
// region's visible descendants. It must be what the page's live region
// holds.
//
// The tree and the region are read one after the other: a page that moves
// between the two (a poll's swap) is read again, a few times, before they
// are called different. A page that has left the game (its match over,
// back to the class's waiting page, whose status is a live region of its
// own) says nothing of the game: "".
func screenReaderHears(t *testing.T, ctx context.Context) string {
	t.Helper()
	var said, dom string
	for try := 0; try < 20; try++ {
		if try > 0 {
			time.Sleep(100 * time.Millisecond)
		}
		said = liveTreeText(t, ctx)
		region := value(t, ctx, chromedp.Evaluate[string](`(function () { var l = document.getElementById('live'); return l ? l.textContent : "\u0000" })()`))
		if region == "\x00" {
			return ""
		}
		dom = strings.Join(strings.Fields(region), " ")
		if said == dom && said == liveTreeText(t, ctx) {
			return said
		}
	}
	t.Errorf("a screen reader hears %q; the live region holds %q", said, dom)
	return said
}

// liveTreeText is the text of every live region's visible descendants in
// Chromium's accessibility tree.
func liveTreeText(t *testing.T, ctx context.Context) string {
	t.Helper()
	tree, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatalf("the accessibility tree: %v", err)
	}
	byID := map[accessibility.NodeID]*accessibility.Node{}
	for _, n := range tree.Nodes {
		byID[n.NodeID] = n
	}
	live := func(n *accessibility.Node) bool {
		for _, p := range n.Properties {
			if p.Name == accessibility.PropertyNameLive && p.Value != nil && strings.Trim(string(p.Value.Value), `"`) != "off" {
				return true
			}
		}
		return false
	}
	var text []string
	var walk func(n *accessibility.Node)
	walk = func(n *accessibility.Node) {
		if n.Ignored {
			return
		}
		if n.Role != nil && strings.Trim(string(n.Role.Value), `"`) == "StaticText" && n.Name != nil {
			var s string
			if json.Unmarshal(n.Name.Value, &s) == nil {
				text = append(text, s)
			}
		}
		for _, c := range n.ChildIDs {
			if k := byID[c]; k != nil {
				walk(k)
			}
		}
	}
	for _, n := range tree.Nodes {
		if p := byID[n.ParentID]; live(n) && (p == nil || !live(p)) {
			walk(n)
		}
	}
	return strings.Join(strings.Fields(strings.Join(text, " ")), " ")
}

// saysLike reports whether said holds a message whose arguments were each
// given as "\x00": its fixed words, in order.
func saysLike(said, form string) bool {
	at := 0
	for _, part := range strings.Split(form, "\x00") {
		i := strings.Index(said[at:], strings.TrimSpace(part))
		if i < 0 {
			return false
		}
		at += i + len(strings.TrimSpace(part))
	}
	return true
}

// teacherStartsRound starts a round from the dashboard's form: it must
// start (a round refused leaves the student's page waiting, and a test
// that reads that as a match already over learns nothing), or the test
// says why not.
func teacherStartsRound(t *testing.T, teacher *browser, code string, form url.Values) {
	t.Helper()
	doc := teacher.post(paths.Rounds.For(code), form)
	if teacher.status() != http.StatusOK || teacher.path() != paths.Teacher.For(code) {
		t.Fatalf("the round was not started: %d at %s, %q", teacher.status(), teacher.path(), doc.Find(`[role="alert"]`).Text())
	}
}
