package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"pigclass/templates/paths"
)

// noFollow is the browser's client without following redirects.
func (b *browser) noFollow() *http.Client {
	return &http.Client{Jar: b.c.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// TestClassURLsCarryTheCode: every address of a class match begins with
// /c/{code}; the old /m/{id} addresses move there (308, method kept), and a
// match is not found under another class's code.
func TestClassURLsCarryTheCode(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	st, ok := readBoard(ana.get("/c/" + code))
	if !ok {
		t.Fatal("no board")
	}
	id := anaMatch(t, a, code)
	want := fmt.Sprintf("/c/%s/m/%d/act", code, id)
	if st.act != want {
		t.Errorf("act URL %q, want %q", st.act, want)
	}
	client := ana.noFollow()
	for _, c := range []struct{ method, old, new string }{
		{"GET", fmt.Sprintf("/m/%d", id), fmt.Sprintf("/c/%s/m/%d", code, id)},
		{"GET", fmt.Sprintf("/m/%d/board?v=1", id), fmt.Sprintf("/c/%s/m/%d/board?v=1", code, id)},
		{"POST", fmt.Sprintf("/m/%d/act", id), fmt.Sprintf("/c/%s/m/%d/act", code, id)},
	} {
		req, _ := http.NewRequest(c.method, a.url+c.old, strings.NewReader(url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != c.new {
			t.Errorf("%s %s: %d to %q, want 308 to %q", c.method, c.old, resp.StatusCode, resp.Header.Get("Location"), c.new)
		}
	}
	// Followed, the old act address plays the move once.
	ana.post(fmt.Sprintf("/m/%d/act", id), url.Values{"seq": {strconv.Itoa(st.seq)}, "action": {"roll"}})
	if ana.status() != http.StatusOK || ana.path() != paths.ClassMatch.With(code, id) {
		t.Errorf("old act address: %d at %s, want its board's page", ana.status(), ana.path())
	}
	if m := a.srv.room.Hall().Match(id); m == nil || m.Seq() <= st.seq {
		t.Error("the move through the old address was not made")
	}
	// Another class's code does not reach the match.
	other := teacherStart(t, a.browser())
	ana.get(fmt.Sprintf("/c/%s/m/%d", other, id))
	if ana.status() != http.StatusForbidden {
		t.Errorf("the match under another class's code: %d", ana.status())
	}
}

// TestJoinGoesToTheClassAddress: the join form posts to /join, which sends
// the post on (307) to /join/{code}, the address a proxy routes by code.
func TestJoinGoesToTheClassAddress(t *testing.T) {
	a := newApp(t)
	code := teacherStart(t, a.browser())
	b := a.browser()
	req, _ := http.NewRequest(http.MethodPost, a.url+"/join", strings.NewReader(url.Values{"code": {strings.ToLower(code)}, "nickname": {"Zoë"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := b.noFollow().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != "/join/"+code {
		t.Errorf("POST /join: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	join(t, a, code, "Zoë")
}
