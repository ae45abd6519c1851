package server

import (
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"pigclass/templates/paths"
)

// TestBrowserALoginCardFillsTheJoinPage (issue 61, item 6): the address a
// login card's QR code holds opens the join page with the student's name
// and their rejoin code filled in (from the address's fragment, which is
// then taken out of the address); one tap takes their seat.
func TestBrowserALoginCardFillsTheJoinPage(t *testing.T) {
	t.Parallel()
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	teacher.addGroup(teacher.upload(code, nil, "Ana López\nBruno\n"), 0)
	var rejoin string
	teacher.get(paths.LoginCards.For(code)).Find(`[data-testid="login-card"]`).Each(func(_ int, c *goquery.Selection) {
		if c.Find(`[data-testid="card-name"]`).Text() == "Ana López" {
			rejoin = c.Find(`[data-testid="card-rejoin"]`).Text()
		}
	})
	phone := person()
	run(t, phone, chromedp.EmulateViewport(360, 640))
	navigate(t, phone, a.url+paths.JoinCode.For(code)+"#"+url.Values{"name": {"Ana López"}, "rejoin": {rejoin}}.Encode())
	eventually(t, phone, `document.getElementById("nickname").value === "Ana López" && document.getElementById("rejoin").value !== ""`, "the card's name and code filled in")
	if got := value(t, phone, chromedp.Evaluate[string](`location.hash + "|" + (document.activeElement.closest('[data-testid="join-form"]') ? document.activeElement.type : "elsewhere")`)); got != "|submit" {
		t.Errorf("after the card's address: hash and focus %q, want none and the join button", got)
	}
	clickJS(t, phone, `[data-testid="join-form"] button[type="submit"]`)
	eventually(t, phone, `(document.querySelector('[data-testid="nickname"]') || {}).textContent === "Ana López"`, "Ana in her seat")
}
