package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"pigclass/server/charts"
	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestBrowserEveryPhaseOnTheProjector (issue 42): every phase of every
// lesson (read from the lesson registry, so a new lesson is covered
// without touching this test), in English and in German (the longest
// words), with a class of 30 whose nicknames are as long as the join
// form allows, on the read-only projector at 1920x1080, 1366x768 and
// 1024x768: each question's every line inside the screen and not cut by
// any box that clips; each drawn chart inside the screen and at least a
// third of its height; no two of its texts (axis labels, axis names,
// legend items, as ECharts' own renderer drew them) on each other; no
// sideways scroll; the join code on one line. The lesson moves by the
// bar's own posts (asked and confirmed, as the bar does); the projector
// page is opened afresh at each phase (that it follows a lesson live is
// TestBrowserWholeLesson's). Screenshots: phase-LANG-LESSON-N-WIDTH.
func TestBrowserEveryPhaseOnTheProjector(t *testing.T) {
	t.Parallel()
	// A lesson at a time, side by side, each in an app of its own: its
	// chance drawn from a stream of the subtest's (its name's), so its
	// class's dice are the same whichever subtest runs first.
	for _, lang := range []string{"en", "de"} {
		for _, l := range newApp(t).srv.views.lessons {
			t.Run(lang+"-"+l.Slug, func(t *testing.T) {
				t.Parallel()
				// The projector's tab closes when the subtest ends (it polls).
				everyPhase(t, newApp(t), newBrowser(t)(), l.Slug, len(l.Phases), lang)
			})
		}
	}
}

// everyPhase runs lesson slug's phases in a new class of 30 in lang and
// checks the projector at each.
func everyPhase(t *testing.T, a *app, projector context.Context, slug string, phases int, lang string) {
	t.Helper()
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, slug)
	teacher.post(paths.ClassLanguage.For(code), url.Values{"lang": {lang}})
	var kids []*student
	for i := range 30 {
		// 24 characters, the most a nickname may have.
		nick := fmt.Sprintf("Maximiliane-Friederike%02d", i)[:classroom.MaxNickname]
		kids = append(kids, &student{b: join(t, a, code, nick), nick: nick})
	}
	link := teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	for phase := range phases {
		step := paths.LessonNext.For(code)
		if phase == 0 {
			step = paths.LessonStart.For(code)
		}
		teacher.post(step, url.Values{"confirm": {"yes"}})
		for range 6 { // a few moves of any game, so that the charts have data
			for _, k := range kids[:6] {
				firstMove(k.b, code)
			}
		}
		name := fmt.Sprintf("%s %s phase %d", lang, slug, phase+1)
		run(t, projector, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(link))
		eventually(t, projector, fmt.Sprintf(`/(^|\D)%d\D/.test((document.querySelector('[data-testid="projector-phase"]') || {}).textContent || "")`, phase+1), name+": the projector names the phase")
		eventually(t, projector, `Array.from(document.querySelectorAll('#projector-chart .echart')).every(function (e) { return !!echarts.getInstanceByDom(e) })`, name+": the charts drawn")
		for _, size := range projectorSizes {
			run(t, projector, chromedp.EmulateViewport(size[0], size[1]))
			resized(t, projector, name) // the words refit and the charts redraw
			if bad := value(t, projector, chromedp.Evaluate[string](screenWholeJS)); bad != "" {
				t.Errorf("%s at %dx%d: %s", name, size[0], size[1], bad)
			}
			shot(t, projector, fmt.Sprintf("phase-%s-%s-%d-%d", lang, slug, phase+1, size[0]))
		}
	}
}

// firstMove makes the first move a student's class page offers, if any
// (roll, or the fewest dice): whatever the game, the match goes on.
func firstMove(b *browser, code string) {
	form := b.get(paths.Student.For(code)).Find(`#board .actions form`).First()
	if form.Length() == 0 {
		return
	}
	b.post(form.AttrOr("action", ""), url.Values{"seq": {form.Find(`input[name="seq"]`).AttrOr("value", "")}, "action": {form.Find(`input[name="action"]`).AttrOr("value", "")}})
}

// screenWholeJS lists what the shared screen gets wrong: a question's line
// off the screen or cut by a box that clips it, a chart off the screen or
// under a third of its height, two of a chart's texts on each other,
// sideways scroll, the join code on more than one line, words asking to
// reload, a language switcher.
const screenWholeJS = `(function () {
	var out = [], h = window.innerHeight, w = window.innerWidth;
	function clippedBy(el, r) {
		for (var p = el.parentElement; p; p = p.parentElement) {
			var s = getComputedStyle(p);
			if (s.overflow === "visible" && s.overflowX === "visible" && s.overflowY === "visible") continue;
			var b = p.getBoundingClientRect();
			if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5 || r.right > b.right + 0.5) return p.className || p.tagName;
		}
		return "";
	}
	document.querySelectorAll('[data-testid="projector-prompts"] li').forEach(function (li) {
		var range = document.createRange();
		range.selectNodeContents(li);
		Array.from(range.getClientRects()).forEach(function (r) {
			if (r.width < 1) return;
			if (r.top < -0.5 || r.bottom > h + 0.5 || r.left < -0.5 || r.right > w + 0.5) out.push("a line of '" + li.textContent.slice(0, 30) + "' is off the screen at y " + Math.round(r.top));
			var by = clippedBy(li, r);
			if (by) out.push("a line of '" + li.textContent.slice(0, 30) + "' is cut by " + by);
		});
	});
	document.querySelectorAll('#projector-chart .echart').forEach(function (el) {
		var c = el.getBoundingClientRect();
		if (c.height < h / 3 - 0.5) out.push("the chart is " + Math.round(c.height) + " px high, under a third of " + h);
		if (c.top < -0.5 || c.bottom > h + 0.5 || c.left < -0.5 || c.right > w + 0.5) out.push("the chart is off the screen: " + JSON.stringify(c));
		var inst = echarts.getInstanceByDom(el);
		if (!inst) { out.push("a chart not drawn"); return; }
		var texts = [];
		inst.getZr().storage.getDisplayList(true).forEach(function (e) {
			// A text is drawn as one tspan a line (zrender's ZRText).
			if ((e.type !== "tspan" && e.type !== "text") || e.ignore || e.invisible || !e.style || !e.style.text) return;
			var r = e.getBoundingRect().clone();
			r.applyTransform(e.getComputedTransform());
			texts.push({ text: String(e.style.text), r: r });
			if (r.x < -1 || r.y < -1 || r.x + r.width > c.width + 1 || r.y + r.height > c.height + 1) out.push("'" + String(e.style.text).slice(0, 20) + "' drawn past the chart's edge");
		});
		if (texts.length < 3) out.push("a chart of " + texts.length + " texts: its texts are not read");
		for (var i = 0; i < texts.length; i++) {
			for (var j = i + 1; j < texts.length; j++) {
				var p = texts[i].r, q = texts[j].r;
				var dx = Math.min(p.x + p.width, q.x + q.width) - Math.max(p.x, q.x);
				var dy = Math.min(p.y + p.height, q.y + q.height) - Math.max(p.y, q.y);
				if (dx > 0.5 && dy > 0.5 && out.length < 8) out.push("'" + texts[i].text.slice(0, 20) + "' on '" + texts[j].text.slice(0, 20) + "'");
			}
		}
	});
	if (document.documentElement.scrollWidth > w + 1) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
	if (/reload|neu laden|lade .* neu/i.test(document.body.innerText)) out.push("the screen asks to reload");
	if (document.querySelector('.lang-switch')) out.push("a language switcher on the shared screen");
	var code = document.querySelector('[data-testid="projector-code"]');
	if (code) {
		var lh = parseFloat(getComputedStyle(code).fontSize) * 1.6;
		if (code.getBoundingClientRect().height > lh) out.push("the join code takes more than one line");
	}
	return out.join("; ");
})()`

// TestBrowserAShareAtTheTopClearsTheAxisName: the pigs' landings write
// each landing's share above its box; when the first landing's interval
// ends just under a round number (so the axis ends there too), its share
// stands above the plot, where the projector sets the y axis's name. The
// name stands a label's height higher then: at each of the projector's
// sizes, for intervals ending just under 40% and 50% (found here from
// Wilson's formula, not by chance), no two of the chart's texts overlap.
// And ECharts lays a line of text out as tall as its font, here where
// chromium has no CJK font, so labels that would overlap are left out.
func TestBrowserAShareAtTheTopClearsTheAxisName(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	projector := newBrowser(t)()
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "7-are-pigs-fair-dice")
	link := teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")
	run(t, projector, chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(link))
	eventually(t, projector, `!!document.getElementById("projector-chart")`, "the projector's chart place")
	// A line of 24 px text is laid out 24 px tall, with or without a
	// CJK font on the system (ECharts measures a line by the glyph 国).
	if h := value(t, projector, chromedp.Evaluate[float64](`new echarts.graphic.Text({ style: { text: "Ag", font: "24px sans-serif" } }).getBoundingRect().height`)); h < 24 {
		t.Errorf("a line of 24 px text is laid out %v px tall", h)
	}
	for _, top := range []float64{0.4, 0.5} {
		marks := landingsUnder(t, top)
		de := i18n.For("de")
		c := charts.PigLandings(de, sim.PassPigs, store.Thrown{All: marks})
		var html strings.Builder
		if err := templates.ChartView(c).Render(i18n.WithLocalizer(context.Background(), de), &html); err != nil {
			t.Fatal(err)
		}
		// The chart drawn in the projector's place as a swap would draw
		// it, the place no longer polling (it would bring the class's own).
		value(t, projector, chromedp.Evaluate[bool](fmt.Sprintf(`(function () {
			var old = document.getElementById("projector-chart"), place = document.createElement("div");
			place.id = "projector-chart";
			place.innerHTML = %s;
			old.replaceWith(place);
			document.body.dispatchEvent(new CustomEvent("htmx:afterSwap", { detail: { elt: place } }));
			return true;
		})()`, jsString(html.String()))))
		for _, size := range projectorSizes {
			run(t, projector, chromedp.EmulateViewport(size[0], size[1]))
			resized(t, projector, "resized")
			if bad := value(t, projector, chromedp.Evaluate[string](screenWholeJS)); bad != "" {
				t.Errorf("the first landing's interval under %.0f%% at %dx%d: %s", 100*top, size[0], size[1], bad)
			}
			shot(t, projector, fmt.Sprintf("share-top-%.0f-%d", 100*top, size[0]))
		}
	}
}

// landingsUnder is a class's landings whose first landing (the one under
// the y axis's name) has the highest interval, ending within a point
// under top; the others share the rest evenly.
func landingsUnder(t *testing.T, top float64) []int {
	t.Helper()
	for n := 40; n <= 400; n++ {
		for k := 1; k < n; k++ {
			share := float64(k) / float64(n)
			if _, hi := sim.Wilson(k, n, 1.959963984540054); hi < top-0.01 || hi >= top || share > top {
				continue
			}
			rest := n - k
			if float64(rest/5+1)/float64(n) > share*0.8 {
				continue // another landing's box would stand as high
			}
			var marks []int
			for range k {
				marks = append(marks, 1)
			}
			for i := range rest {
				marks = append(marks, 2+i%5)
			}
			return marks
		}
	}
	t.Fatalf("no class of up to 400 pigs whose first landing's interval ends within a point under %v", top)
	return nil
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
