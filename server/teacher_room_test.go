package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestNoticesShowOnce: a notice after an action shows once; a reload shows
// nothing old, and words put in the address are never shown.
func TestNoticesShowOnce(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	doc := teacher.post("/t/"+code+"/pause", nil)
	if got := doc.Find(".notice").Text(); !strings.Contains(got, "All play is paused.") {
		t.Fatalf("after pausing: %q", got)
	}
	if got := teacher.get("/t/" + code).Find(".notice").Text(); got != "" {
		t.Errorf("a reload shows %q", got)
	}
	teacher.post("/t/"+code+"/resume", nil)
	if got := teacher.get("/t/" + code + "?done=" + url.QueryEscape("The school is closed")).Text(); strings.Contains(got, "The school is closed") || strings.Contains(got, "Play resumed.") {
		t.Errorf("?done= or an old notice on the page")
	}
}

// TestEveryGamesDefaultFormPlays: the round form of each game offers only
// the bots that play it, with a default that does; sent as it stands, it
// starts a round that plays (Hog once answered 422: hold:20 has no hold).
func TestEveryGamesDefaultFormPlays(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	for _, g := range []string{"pig", "two-dice", "big-pig", "hog"} {
		doc := teacher.get("/t/" + code + "?game=" + g)
		form := doc.Find(`[data-testid="round-form"]`)
		values := url.Values{}
		form.Find("input, select").Each(func(_ int, s *goquery.Selection) {
			name, _ := s.Attr("name")
			switch {
			case name == "":
			case s.Is("select"):
				values.Set(name, s.Find("option[selected]").AttrOr("value", s.Find("option").First().AttrOr("value", "")))
			case s.AttrOr("type", "") == "checkbox" || s.AttrOr("type", "") == "radio":
				if _, on := s.Attr("checked"); on {
					values.Set(name, s.AttrOr("value", "on"))
				}
			default:
				values.Set(name, s.AttrOr("value", ""))
			}
		})
		form.Find("#round-bot option").Each(func(_ int, o *goquery.Selection) {
			if v := o.AttrOr("value", ""); g == "hog" && strings.HasPrefix(v, "hold:") || g != "hog" && strings.HasPrefix(v, "dice:") {
				t.Errorf("%s offers the bot %s", g, v)
			}
		})
		if values.Get("game") != g || form.Find(`input[type="number"]`).Length() < 2 {
			t.Errorf("%s form: %v", g, values)
		}
		teacher.post("/t/"+code+"/rounds", values)
		if teacher.status() != 200 || teacher.path() != "/t/"+code || len(a.srv.room.Matches(mustClass(t, a, code).ID)) != 1 {
			t.Fatalf("%s with the form's defaults: %d at %s\n%s", g, teacher.status(), teacher.path(), teacher.body)
		}
		m := a.srv.room.Matches(mustClass(t, a, code).ID)[0]
		if m.Variant.Game.String() != g {
			t.Errorf("the round plays %v, want %s", m.Variant.Game, g)
		}
	}
}

// TestActionsThatCannotBeUndoneAsk: removing a student, ending the round
// and deleting the class go through a page that asks, without JavaScript;
// a single click changes nothing.
func TestActionsThatCannotBeUndoneAsk(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	id := studentID(t, a, code, "Ana")
	for _, c := range []struct{ post, page string }{
		{fmt.Sprintf("/t/%s/students/%d/remove", code, id), fmt.Sprintf("/t/%s/confirm/remove/%d", code, id)},
		{"/t/" + code + "/rounds/end", "/t/" + code + "/confirm/end-round"},
		{"/t/" + code + "/delete", "/t/" + code + "/confirm/delete"},
	} {
		doc := teacher.post(c.post, nil)
		if teacher.path() != c.page || doc.Find(`[data-testid="confirm-yes"]`).Length() != 1 {
			t.Errorf("one click on %s: at %s", c.post, teacher.path())
		}
	}
	class, _ := a.srv.room.Class(t.Context(), code)
	if len(class.Students) != 1 || class.Round == nil {
		t.Fatal("a single click changed the class")
	}
	// The page's own form does it.
	doc := teacher.get(fmt.Sprintf("/t/%s/confirm/remove/%d", code, id))
	form := doc.Find(`[data-testid="confirm"] form`)
	teacher.post(form.AttrOr("action", ""), url.Values{"confirm": {form.Find(`input[name="confirm"]`).AttrOr("value", "")}})
	if class, _ := a.srv.room.Class(t.Context(), code); len(class.Students) != 0 {
		t.Error("confirmed, the student was not removed")
	}
}
