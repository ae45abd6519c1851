package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLessonByTheBar: a teacher runs a whole lesson with the sticky
// bar's primary button alone: each press starts the phase it names (the
// first phase like every other), the round form's own button is not in
// the bar, and after the last phase there is no next step. The round
// form's Pig/Hog tabs land below the bar.
func TestBrowserLessonByTheBar(t *testing.T) {
	t.Parallel() // it waits on the dashboard's drawing
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "1-roll-or-hold", -1) // chosen, as the dashboard's plan choice leaves it
	for _, nick := range []string{"Ana", "Bo", "Cy"} {
		join(t, a, code, nick)
	}
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	laptop := person()
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="dash-bar"]`)))
	if n := value(t, laptop, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="bar-start-round"]').length`)); n != 0 {
		t.Error("the round form's button is in the bar during a lesson")
	}
	steps := []struct{ label, phase, notice string }{
		{"Start phase 1: Learn the rules against a beginner", "Phase 1 of 3", "Round 1 started"},
		{"Start phase 2: Play the rule of thumb", "Phase 2 of 3", "Round 2 started"},
		{"Start phase 3: Talk it over", "Phase 3 of 3", "Phase 3"},
	}
	for _, s := range steps {
		if got := textOf(t, laptop, `.dash-bar .primary`); got != s.label {
			t.Fatalf("the bar's primary button reads %q, want %q", got, s.label)
		}
		if b := boxOf(t, laptop, `[data-testid="bar-next-step"]`); !b.inside(1366, 768) {
			t.Errorf("%s: the bar's next step is out of view: %+v", s.label, b)
		}
		clickJS(t, laptop, `[data-testid="bar-next-step"]`)
		if s.phase != "Phase 1 of 3" {
			// The phase before's round is still being played: the step
			// asks first, naming the matches that stop.
			eventually(t, laptop, `!!document.querySelector('[data-testid="confirm-yes"]')`, "the step asks before ending the round")
			if got := textOf(t, laptop, `[data-testid="confirm"]`); !strings.Contains(got, "3 matches still playing stop") {
				t.Errorf("the step's question: %q", got)
			}
			clickJS(t, laptop, `[data-testid="confirm-yes"]`)
		}
		eventually(t, laptop, fmt.Sprintf(`document.querySelector('.notice') && document.querySelector('.notice').textContent.includes(%q) && document.querySelector('[data-testid="lesson-phase"]').textContent.includes(%q)`, s.notice, s.phase),
			"the bar starts "+s.label)
	}
	if n := value(t, laptop, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="bar-next-step"], [data-testid="bar-start-round"]').length`)); n != 0 {
		t.Error("the bar offers a step after the last phase")
	}
	shot(t, laptop, "dashboard-lesson-bar")
	// The Hog tab of the round form: the form's top is below the bar.
	clickJS(t, laptop, `[data-testid="round-game-hog"]`)
	eventually(t, laptop, `location.search.includes("game=hog")`, "the Hog tab")
	// The page lands on the form once it is laid out and scrolled to it
	// (a busy machine takes a moment): polled, with a deadline.
	eventually(t, laptop, `(function () {
		var bar = document.querySelector('[data-testid="dash-bar"]'), form = document.querySelector('#round');
		return !!bar && !!form && document.readyState === 'complete' && form.getBoundingClientRect().top >= bar.getBoundingClientRect().bottom - 1;
	})()`, "the round form lands below the bar")
	if !strings.Contains(textOf(t, laptop, `[data-testid="lesson-phase"]`), "Phase 3 of 3") {
		t.Error("the lesson moved")
	}
}

// TestBrowserChartTabsSwap: the dashboard's chart tabs swap the chart
// without loading the page; the address follows, so Back and a reload
// show the same chart. No y axis's name lies over its tick labels.
func TestBrowserChartTabsSwap(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 12}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"pairs"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, students)
	a.srv.views.ladder.wait()
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	laptop := person()
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="tab-class-dice"]`)))
	eventually(t, laptop, `document.readyState === "complete" && !!window.htmx`, "the page is ready")
	markPage(t, laptop)
	for _, key := range []string{"class-dice", "share-of-ones", "first-player", "ladder", "hold-points"} {
		// htmx binds a swapped-in link when it settles: click it then.
		eventually(t, laptop, `!!document.querySelector('[data-testid="tab-`+key+`"]')['htmx-internal-data']`, "the tabs are bound")
		clickJS(t, laptop, `[data-testid="tab-`+key+`"]`)
		eventually(t, laptop, fmt.Sprintf(`!!document.querySelector('#charts [data-testid="chart-%s"] canvas') && document.querySelector('[data-testid="tab-%s"]').getAttribute('aria-current') === 'page' && location.search.includes('chart=%s')`, key, key, key),
			"the "+key+" tab shows its chart")
		if bad := value(t, laptop, chromedp.Evaluate[string](fmt.Sprintf(yNameOverlapJS, `[data-testid="chart-`+key+`"] .echart`))); bad != "" {
			t.Errorf("%s: the y axis name overlaps its labels: %s", key, bad)
		}
		shotOf(t, laptop, `[data-testid="chart-`+key+`"]`, "dash-chart-"+key)
	}
	if reloaded(t, laptop) {
		t.Error("a chart tab loaded the whole page")
	}
	// On the projector, with its 24 px labels, the same.
	for _, key := range []string{"share-of-ones", "first-player", "class-dice"} {
		teacher.post("/t/"+code+"/projector-chart", url.Values{"chart": {key}})
		run(t, laptop, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(a.url+"/t/"+code+"/projector"))
		eventually(t, laptop, `!!document.querySelector('#projector-chart canvas')`, "the projector draws "+key)
		if bad := value(t, laptop, chromedp.Evaluate[string](fmt.Sprintf(yNameOverlapJS, `#projector-chart .echart`))); bad != "" {
			t.Errorf("%s on the projector: the y axis name overlaps its labels: %s", key, bad)
		}
		shot(t, laptop, "projector-axis-"+key)
	}
}

// yNameOverlapJS lists the y axes of the chart at %q whose name's gap is
// narrower than the widest tick label ECharts drew.
const yNameOverlapJS = `(function () {
	var c = echarts.getInstanceByDom(document.querySelector(%q));
	var out = [];
	[0, 1].forEach(function (i) {
		var m = c.getModel().getComponent('yAxis', i);
		if (!m || !m.get('name')) return;
		if (m.get('nameLocation') === 'end') {
			// The name stands level above the axis (the projector's): its
			// drawn box must touch no other text drawn.
			var boxes = [];
			c.getZr().storage.getDisplayList(true).forEach(function (e) {
				if ((e.type !== 'tspan' && e.type !== 'text') || e.ignore || e.invisible || !e.style || !e.style.text) return;
				var r = e.getBoundingRect().clone();
				r.applyTransform(e.getComputedTransform());
				boxes.push({ text: String(e.style.text), r: r });
			});
			var own = boxes.filter(function (b) { return b.text === m.get('name'); })[0];
			if (!own) { out.push(m.get('name') + ": not drawn"); return; }
			boxes.forEach(function (b) {
				if (b === own) return;
				var dx = Math.min(own.r.x + own.r.width, b.r.x + b.r.width) - Math.max(own.r.x, b.r.x);
				var dy = Math.min(own.r.y + own.r.height, b.r.y + b.r.height) - Math.max(own.r.y, b.r.y);
				if (dx > 0.5 && dy > 0.5) out.push(m.get('name') + " on " + b.text);
			});
			return;
		}
		var ctx = document.createElement('canvas').getContext('2d');
		ctx.font = (m.get('axisLabel.fontSize') || 12) + 'px sans-serif';
		var w = 0;
		m.axis.getViewLabels().forEach(function (l) { w = Math.max(w, ctx.measureText(l.formattedLabel).width); });
		// The turned name is centred on its gap: half its height must
		// clear the labels too.
		var half = (m.get('nameTextStyle.fontSize') || 12) / 2;
		var gap = m.get('nameGap') - (m.get('axisLabel.margin') || 8) - half;
		if (gap < w + 2) out.push(m.get('name') + ": gap " + gap + " for labels " + Math.round(w) + " px wide");
	});
	return out.join("; ");
})()`

// TestBrowserReviewOnAPhone: the teacher's look at a student's match on a
// 320 px phone, said of the student (issue 43, item 5): the game's cost in
// words and a card for each choice that was not perfect
// play's (the situation, the choice, perfect play's, the rule of thumb's,
// what it did to the chance of winning), each card whole on the screen;
// the full table is one tap away.
func TestBrowserReviewOnAPhone(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 30}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, students)
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	phone := person()
	run(t, phone, chromedp.EmulateViewport(320, 640), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="dash-bar"]`)),
		chromedp.Navigate(a.url+fmt.Sprintf("/t/%s/students/%d", code, studentID(t, a, code, "Ana"))), chromedp.WaitVisible(q(`[data-testid="result"]`)))
	// The review lists the decisions once their analyses are in (they may
	// fill in a moment after the match); a game played as perfect play
	// would is rare, and leaves no card to lay out.
	eventually(t, phone, `(function () {
		if (document.querySelector('[data-testid="differs"], [data-testid="all-perfect"]')) return true;
		var at = +sessionStorage.getItem("reloaded") || 0;
		if (Date.now() - at > 2000) { sessionStorage.setItem("reloaded", Date.now()); location.reload(); }
		return false;
	})()`, "the review's decisions")
	if !value(t, phone, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="differs"]')`)) {
		t.Skipf("every decision was perfect play's: no card to lay out")
	}
	bad := value(t, phone, chromedp.Evaluate[string](`(function () {
		var out = [], cards = document.querySelectorAll('[data-testid="differ"]');
		if (!cards.length) out.push("no cards");
		cards.forEach(function (c, i) {
			var r = c.getBoundingClientRect();
			if (r.left < 0 || r.right > window.innerWidth) out.push("card " + i + " spans " + Math.round(r.left) + "-" + Math.round(r.right));
			if (!/perfect play: /.test(c.textContent) || !/the rule of thumb: /.test(c.textContent) || !/lowered Ana's chance of winning from [0-9.]+% to [0-9.]+%/.test(c.textContent)) out.push("card " + i + ": " + c.textContent);
		});
		if (document.scrollingElement.scrollWidth > window.innerWidth) out.push("the page scrolls sideways");
		return out.join("; ");
	})()`))
	if bad != "" {
		t.Errorf("the review at 320 px: %s", bad)
	}
	if got := textOf(t, phone, `[data-testid="game-cost"]`); !strings.Contains(got, "Ana's choices in this game gave away about") {
		t.Errorf("the game's cost: %q", got)
	}
	shot(t, phone, "review-320")
}

// TestBrowserLessonNamesShowWhole: on the front page at 1366 and 1024 px,
// in English and Spanish, the lesson select is as wide as its longest
// lesson's name: no name is cut.
func TestBrowserLessonNamesShowWhole(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	ctx := person()
	for _, lang := range []string{"en", "es"} {
		for _, w := range []int64{1366, 1024} {
			run(t, ctx, chromedp.EmulateViewport(w, 768), chromedp.Navigate(a.url+"/?lang="+lang))
			run(t, ctx, chromedp.Evaluate[chromedp.Void](`document.cookie = "pigclass_lang=`+lang+`; path=/"`), chromedp.Reload(), chromedp.WaitVisible(q(`#lesson`)))
			short := value(t, ctx, chromedp.Evaluate[string](`(function () {
				var s = document.querySelector('#lesson'), st = getComputedStyle(s);
				var ctx = document.createElement('canvas').getContext('2d');
				ctx.font = st.fontSize + " " + st.fontFamily;
				var room = s.clientWidth - 40, out = [];
				Array.prototype.forEach.call(s.options, function (o) {
					var w = ctx.measureText(o.textContent).width;
					if (w > room) out.push(o.textContent + " (" + Math.round(w - room) + " px short)");
				});
				return out.join("; ");
			})()`))
			if short != "" {
				t.Errorf("%s at %d px: lesson names cut: %s", lang, w, short)
			}
		}
	}
}

// TestBrowserEndRoundGoesWhenDone: the bar's "End the round" is there while
// a match plays and goes, without a reload, when the last one finishes.
func TestBrowserEndRoundGoesWhenDone(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	link := teacher.get("/t/"+code).Find(`[data-testid="teacher-link"]`).AttrOr("href", "")
	laptop := person()
	run(t, laptop, chromedp.EmulateViewport(1366, 768), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="end-round"]`)))
	markPage(t, laptop)
	playRound(t, code, students)
	eventually(t, laptop, `!document.querySelector('[data-testid="end-round"]') && document.querySelector('[data-testid="round-progress"]').textContent.includes("0 matches being played, 1 finished")`, "End the round goes when the round is done")
	if reloaded(t, laptop) {
		t.Error("the dashboard reloaded")
	}
}

// TestBrowserMyClasses (issue 33, item 1): a teacher who started a class
// finds it on the front page another day, under "My classes on this
// device", kept in that browser alone; its link opens the dashboard, and
// "Forget this list" empties it. Another browser sees no list.
func TestBrowserMyClasses(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	laptop := person()
	navigate(t, laptop, a.url+"/")
	run(t, laptop, chromedp.WaitVisible(q(`[data-testid="start-class"]`)))
	if shown := value(t, laptop, chromedp.Evaluate[bool](`!document.querySelector('[data-testid="my-classes"]').hidden`)); shown {
		t.Error("a browser that started no class lists some")
	}
	clickJS(t, laptop, `[data-testid="start-class"]`)
	eventually(t, laptop, `!!document.querySelector('[data-testid="dash-bar"]')`, "the dashboard")
	code := textOf(t, laptop, `[data-testid="dash-bar"] [data-testid="join-code"]`)
	// The dashboard's script keeps the class once it has run: a page left
	// before (a busy machine's) keeps nothing.
	eventually(t, laptop, fmt.Sprintf(`(localStorage.getItem("pigclass-classes") || "").includes(%q)`, code), "the dashboard keeps its class in this browser")
	navigate(t, laptop, a.url+"/")
	eventually(t, laptop, `!document.querySelector('[data-testid="my-classes"]').hidden`, "My classes on the front page")
	if got := textOf(t, laptop, `[data-testid="my-class"]`); got != code {
		t.Errorf("My classes lists %q, want %q", got, code)
	}
	clickJS(t, laptop, `[data-testid="my-class"]`)
	eventually(t, laptop, fmt.Sprintf(`location.pathname === "/t/%s" && !!document.querySelector('[data-testid="dash-bar"]')`, code), "the class's dashboard from My classes")
	navigate(t, laptop, a.url+"/")
	eventually(t, laptop, `!document.querySelector('[data-testid="my-classes"]').hidden`, "My classes again")
	clickJS(t, laptop, `[data-testid="forget-classes"]`)
	run(t, laptop, chromedp.Reload())
	eventually(t, laptop, `document.readyState === "complete" && document.querySelector('[data-testid="my-classes"]').hidden`, "the list forgotten")
	other := person()
	navigate(t, other, a.url+"/")
	run(t, other, chromedp.WaitVisible(q(`[data-testid="start-class"]`)))
	if shown := value(t, other, chromedp.Evaluate[bool](`!document.querySelector('[data-testid="my-classes"]').hidden`)); shown {
		t.Error("another browser lists the class")
	}
}
