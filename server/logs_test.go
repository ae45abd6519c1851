package server

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a log's writer that requests share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestLogsNameRoutesNotCodes: at debug, every request has a JSON log line
// with its method, the route's pattern, its status and its time; no line
// holds a class code, a match's address, a player token or a teacher's
// secret, however they came (a path, a query, a cookie).
func TestLogsNameRoutesNotCodes(t *testing.T) {
	a := newApp(t)
	var buf lockedBuffer
	a.srv.log = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	ana.get("/c/" + code + "?lang=es")
	ana.get("/c/" + code + "/m/999999")
	ana.get("/join/" + code)
	a.browser().get("/t/" + code)
	var secrets []string
	for _, b := range []*browser{teacher, ana} {
		for _, ck := range b.c.Jar.Cookies(mustParse(t, a.url)) {
			secrets = append(secrets, ck.Value)
		}
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	requests := 0
	for _, line := range lines {
		for _, s := range append(secrets, code) {
			if strings.Contains(line, s) {
				t.Errorf("a log line holds %q: %s", s, line)
			}
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not a JSON line: %s", line)
		}
		if rec["msg"] != "request" {
			continue
		}
		requests++
		if r, _ := rec["route"].(string); r == "" || rec["status"] == nil || rec["ms"] == nil || rec["method"] == nil {
			t.Errorf("a request's line lacks its route, status, method or time: %s", line)
		}
	}
	if requests < 8 {
		t.Errorf("%d request lines for some ten requests:\n%s", requests, buf.String())
	}
	if !strings.Contains(buf.String(), `"route":"/c/:code/m/:id"`) {
		t.Errorf("no line names the match page's route:\n%s", buf.String())
	}
}

func mustParse(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
