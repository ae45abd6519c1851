package server

import (
	"net/url"
	"strings"
	"testing"
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
