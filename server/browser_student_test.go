package server

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserConnectionLost: when the server stops answering, the page
// says so; the notice is hidden while it answers.
func TestBrowserConnectionLost(t *testing.T) {
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
