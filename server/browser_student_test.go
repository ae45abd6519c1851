package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"pigclass/templates/i18n"
)

// TestBrowserConnectionLost: when the server stops answering, the page
// says so; the notice is hidden while it answers.
func TestBrowserConnectionLost(t *testing.T) {
	t.Parallel() // it waits on the page
	person := newBrowser(t)
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	joinIn(t, ana, a.url, code, "Ana")
	if value(t, ana, chromedp.Evaluate[bool](`document.getElementById('offline').checkVisibility()`)) {
		t.Fatal("the connection notice shows while the server answers")
	}
	a.http.CloseClientConnections()
	a.http.Listener.Close()
	eventually(t, ana, `document.getElementById('offline').checkVisibility()`, "the page says the connection is lost")
}

// TestBrowserAMoveNotTakenSaysSo: a move the server does not take says so
// beside the buttons, in words a student can act on, and the board stays
// as it was: too fast (429, the server's words), the class moving to
// another of the district's servers (503, the server's words), and the
// district's proxy's own 502 page while an instance stops (the page's
// words: "not saved"); one notice, its words the latest. Once the server
// answers again the next tap plays, and the board drawn again has no
// notice.
func TestBrowserAMoveNotTakenSaysSo(t *testing.T) {
	t.Parallel() // it waits on the page
	person := newBrowser(t)
	a := newApp(t)
	var down atomic.Pointer[refusal]
	front := refusing(t, a, &down)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := person()
	joinIn(t, ana, front, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	run(t, ana, chromedp.EmulateViewport(390, 844))
	navigate(t, ana, front+"/c/"+code)
	eventually(t, ana, `!!document.querySelector('[data-testid="act-roll"]')`, "Ana's turn")
	en := i18n.For("en")
	const nginx502 = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	for _, r := range []refusal{
		{http.StatusTooManyRequests, "text/plain; charset=utf-8", en.T("error.toofast"), en.T("error.toofast")},
		{http.StatusServiceUnavailable, "text/plain; charset=utf-8", en.T("error.served_elsewhere"), en.T("error.served_elsewhere")},
		{http.StatusBadGateway, "text/html", nginx502, en.T("error.notsaved")},
	} {
		seq := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="board"]').dataset.seq`))
		down.Store(&r)
		clickJS(t, ana, `[data-testid="act-roll"]`)
		eventually(t, ana, fmt.Sprintf(`(function () {
			var p = document.querySelector('[data-testid="not-taken"]');
			return !!p && p.textContent === %q && p.getAttribute("role") === "alert" && p.checkVisibility() &&
				p.nextElementSibling === document.querySelector('[data-testid="board"] .actions');
		})()`, r.want), fmt.Sprintf("a %d says %q above the buttons", r.status, r.want))
		if got := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="board"]').dataset.seq`)); got != seq {
			t.Errorf("after a %d the board moved from seq %s to %s", r.status, seq, got)
		}
		if n := value(t, ana, chromedp.Evaluate[int](`document.querySelectorAll('[data-testid="not-taken"]').length`)); n != 1 {
			t.Errorf("after a %d, %d notices, want 1", r.status, n)
		}
		shot(t, ana, fmt.Sprintf("not-taken-%d", r.status))
	}
	down.Store(nil)
	seq := value(t, ana, chromedp.Evaluate[string](`document.querySelector('[data-testid="board"]').dataset.seq`))
	clickJS(t, ana, `[data-testid="act-roll"]`)
	eventually(t, ana, `document.querySelector('[data-testid="board"]').dataset.seq !== "`+seq+`" && !document.querySelector('[data-testid="not-taken"]')`,
		"the next tap plays, and the board drawn again has no notice")
}

// refusal is what refusing's server answers every request with while it
// is set: a status, its body and (for the test) the words the page should
// show.
type refusal struct {
	status            int
	contentType, body string
	want              string
}

// refusing is a server in front of a's that passes every request on, or,
// while down holds a refusal, answers every request with it (as a
// district's proxy does while the instance serving a class stops: the
// board's polls are refused too).
func refusing(t *testing.T, a *app, down *atomic.Pointer[refusal]) string {
	inner, host := a.http.Config.Handler, a.http.Listener.Addr().String()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := down.Load(); f != nil {
			w.Header().Set("Content-Type", f.contentType)
			w.WriteHeader(f.status)
			io.WriteString(w, f.body)
			return
		}
		r.Host = host
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { a.srv.EndStreams(); front.Close() })
	return front.URL
}
