package main

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAStopEndsThePagesStreams: SIGTERM while a teacher's screen holds
// its event stream open: the server ends the stream (it would otherwise
// hold the graceful shutdown until its timeout, and the command would
// fail), stops cleanly with status 0, and the stream's reader sees it end.
func TestAStopEndsThePagesStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	p := startProcess(t, bin, "127.0.0.1:0", filepath.Join(t.TempDir(), "class.db"))
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm(p.base+"/classes", url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	code := strings.TrimPrefix(resp.Header.Get("Location"), "/t/")
	events := listen(t, c, p.base+"/t/"+code+"/events")
	if got := events.next(t, 5*time.Second); got != "look" {
		t.Fatalf("the stream opens with %q, want look", got)
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("stopped with a stream open: %v, want status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop on SIGTERM")
	}
	for got := "look"; got != ""; got = events.next(t, time.Second) {
		if got == "end" {
			return
		}
	}
	t.Error("the stream did not end with the server")
}
