package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startServer runs the app in this process on a loopback port and returns
// its address; it stops with the test.
func startServer(t *testing.T, db string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, serveConfig{db: db}, ln, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	base := "http://" + ln.Addr().String()
	waitHealthy(t, base, 30*time.Second)
	return base
}

// waitHealthy polls /healthz until it answers 200.
func waitHealthy(t *testing.T, base string, within time.Duration) {
	t.Helper()
	healthy := func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	if waitFor(within, healthy) != nil {
		t.Fatalf("%s did not become healthy within %s", base, within)
	}
}

// waitFor asks ok every 20 ms until it holds, for at most within.
func waitFor(within time.Duration, ok func() bool) error {
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return nil
		}
	}
	return fmt.Errorf("not within %s", within)
}

// getOK is the body of a GET of u by client, which must answer 200.
func getOK(t *testing.T, client *http.Client, u string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	return doOK(t, client, req)
}

// doOK is the body of client's answer to req, which must be 200.
func doOK(t *testing.T, client *http.Client, req *http.Request) []byte {
	t.Helper()
	u := req.URL
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %.300s", u, resp.StatusCode, b)
	}
	return b
}

// loadReport runs pigclass loadtest --json against base with args and
// returns its report, failing the test unless it says OK.
func loadReport(t *testing.T, base string, args ...string) LoadReport {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"loadtest", "--url", base, "--json"}, args...),
		func(string) string { return "" }, &out, &errb)
	var rep LoadReport
	if jerr := json.Unmarshal(out.Bytes(), &rep); jerr != nil {
		t.Fatalf("loadtest --json: %v\n%s\n%s", jerr, out.String(), errb.String())
	}
	if err != nil || !rep.OK {
		t.Fatalf("loadtest: %v\n%s", err, out.String())
	}
	return rep
}

// TestShortLoad: fifty students play for a few seconds with no think time
// while two teacher screens poll: no 5xx, and every acknowledged action is
// stored exactly once (checked through decisions.csv).
func TestShortLoad(t *testing.T) {
	base := startServer(t, filepath.Join(t.TempDir(), "load.db"))
	rep := loadReport(t, base, "--students", "50", "--duration", "3s", "--teachers", "2")
	if rep.Joined != 50 || rep.Actions < 100 || rep.Stored < rep.Actions || rep.Lost != 0 || rep.Doubled != 0 || len(rep.Errors) != 0 {
		t.Errorf("report: %+v", rep)
	}
	if rep.Action.N != rep.Actions || rep.Page.N == 0 || rep.Dashboard.N == 0 {
		t.Errorf("latencies not measured: %+v", rep)
	}
	t.Logf("%d actions in %.1f s (%.0f/s), action p99 %.1f ms, %d rounds", rep.Actions, rep.Seconds, rep.ActionsPerSecond, rep.Action.P99, rep.Rounds)
}

// TestShortLoadThatListens: thirty students as browsers with JavaScript
// (--poll --push: each page holds its event stream) and a teacher's two
// screens play a few seconds through two rounds: every page's stream is
// held, those waiting for the next round are told of it, nothing is
// lost or doubled, and no 5xx.
func TestShortLoadThatListens(t *testing.T) {
	base := startServer(t, filepath.Join(t.TempDir(), "load.db"))
	rep := loadReport(t, base, "--students", "30", "--duration", "4s", "--teachers", "1",
		"--think", "20ms-60ms", "--poll", "500ms", "--push", "--rounds-every", "2s", "--target", "30")
	if rep.Streams != 32 || rep.Rounds < 2 || rep.Lost != 0 || rep.Doubled != 0 || len(rep.Errors) != 0 || rep.Requests == 0 {
		t.Errorf("report: %d streams (want 30 students' and 2 screens'), %d rounds, %d requests; %+v", rep.Streams, rep.Rounds, rep.Requests, rep)
	}
	if _, _, err := runCmd(t, "loadtest", "--url", base, "--push"); err == nil || !strings.Contains(err.Error(), "--push goes with --poll") {
		t.Errorf("--push without --poll: %v", err)
	}
	t.Logf("%d actions in %.1f s, %d requests (%.0f/s), action p99 %.1f ms, %d rounds", rep.Actions, rep.Seconds, rep.Requests, rep.RequestsPerSecond, rep.Action.P99, rep.Rounds)
}

// TestLoadtestRefusesOtherHosts: the load goes to loopback only.
func TestLoadtestRefusesOtherHosts(t *testing.T) {
	for _, u := range []string{"http://10.0.0.5:8080", "http://example.org", "http://192.168.1.2", "ftp://127.0.0.1", "http://[2001:db8::1]:80"} {
		_, _, err := runCmd(t, "loadtest", "--url", u, "--students", "1")
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "loadtest") {
			t.Errorf("%s: %v, want a usage error", u, err)
		}
	}
	for _, ok := range []string{"http://127.0.0.1:1", "http://localhost:1", "http://[::1]:1", "http://127.3.4.5:1"} {
		if err := checkLoopback(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestCodePrefix: an instance started with --code-prefix draws its classes'
// codes with it, so a proxy can route by the code's first characters; a
// prefix that no code could have is a usage error.
func TestCodePrefix(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, serveConfig{db: filepath.Join(t.TempDir(), "p.db"), codePrefix: "K7"}, ln, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()
	waitHealthy(t, base, 30*time.Second)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for range 5 {
		resp, err := client.PostForm(base+"/classes", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, "/t/K7") || len(loc) != len("/t/K7XXXX") {
			t.Errorf("class at %q, want /t/K7....", loc)
		}
	}
	for _, bad := range []string{"O", "ABC"} {
		_, _, err := runCmd(t, "serve", "--code-prefix", bad, "--addr", "127.0.0.1:0")
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("--code-prefix %s: %v, want a usage error", bad, err)
		}
	}
}

// httpPost posts an empty form without following the redirect and
// returns the status.
func httpPost(u string) (int, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.PostForm(u, nil)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestConnectionsTimeOut: an idle keep-alive connection and a request
// whose body never finishes are closed by the server; a header too large
// is refused. (Short time-outs here; the defaults are checked below.)
func TestConnectionsTimeOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	cfg := serveConfig{db: filepath.Join(t.TempDir(), "t.db"), timeouts: timeouts{readHeader: time.Second, read: 500 * time.Millisecond, write: 5 * time.Second, idle: 300 * time.Millisecond, maxHeader: 8 << 10}}
	go func() { done <- serve(ctx, cfg, ln, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	defer func() { cancel(); <-done }()
	addr := ln.Addr().String()
	waitHealthy(t, "http://"+addr, 30*time.Second)

	closedWithin := func(what, send string, within time.Duration) {
		t.Helper()
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := io.WriteString(conn, send); err != nil {
			t.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(within))
		_, err = io.Copy(io.Discard, conn) // returns at EOF: the server closed
		if err != nil {
			t.Errorf("%s: still open after %s (%v)", what, within, err)
		}
	}
	closedWithin("an idle keep-alive connection", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", 5*time.Second)
	closedWithin("an unfinished body", "POST /join HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncode=", 5*time.Second)

	req, _ := http.NewRequest(http.MethodGet, "http://"+addr+"/healthz", nil)
	req.Header.Set("X-Big", strings.Repeat("x", 64<<10))
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("a 64 KB header: %d, want 431", resp.StatusCode)
		}
	}
	d := defaultTimeouts
	if d.readHeader == 0 || d.read == 0 || d.write == 0 || d.idle == 0 || d.maxHeader == 0 || d.maxHeader > 1<<20 {
		t.Errorf("default time-outs: %+v", d)
	}
}
