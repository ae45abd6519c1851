package server

import (
	"encoding/csv"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fuzz tests of the handlers a stranger or a student can reach: whatever
// the form, no panic, no 5xx, and nothing stored from a refused request.
// `go test` runs their seeds; `go test -fuzz FuzzJoin ./server/` searches.

// fuzzPost posts a form with the client's cookies and returns the status
// and the body.
func fuzzPost(t *testing.T, c *http.Client, u string, form url.Values, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "" // not a URL a browser could send
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.Do(req)
	if err != nil && strings.Contains(err.Error(), "invalid header field") {
		t.Skip("a header no HTTP client sends")
	}
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func fuzzClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func countRows(a *app, table string) int {
	var n int
	a.store.DB().QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n)
	return n
}

func FuzzJoin(f *testing.F) {
	a := newAppConfig(f, func(c *Config) { c.JoinAttempts = 1 << 30; c.ClassJoins = 1 << 30 })
	code := teacherStart(f, a.browser())
	for _, s := range []struct{ code, nick, origin string }{
		{code, "Ana", ""}, {code, "Ana\u200b", ""}, {code, "=HYPERLINK(\"x\")", ""}, {code, "\u202eanA", ""},
		{"AAAAAA", "Bo", ""}, {code, "Cy", "null"}, {code, "", ""}, {strings.ToLower(code), " Zoë ", ""},
		{code, strings.Repeat("x", 25), ""}, {code, "\xff\xfe", ""}, {code, "a\x00b", ""}, {"", "x", ""},
	} {
		f.Add(s.code, s.nick, s.origin)
	}
	f.Fuzz(func(t *testing.T, c, nick, origin string) {
		before := countRows(a, "students")
		var headers []string
		if origin != "" && utf8.ValidString(origin) && !strings.ContainsAny(origin, "\r\n\x00") {
			headers = []string{"Origin", origin}
		}
		status, _ := fuzzPost(t, fuzzClient(), a.url+"/join/"+url.PathEscape(c), url.Values{"nickname": {nick}}, headers...)
		if status >= 500 {
			t.Fatalf("join %q %q: %d", c, nick, status)
		}
		if after := countRows(a, "students"); status != http.StatusSeeOther && after != before {
			t.Fatalf("join %q %q refused with %d, yet a student was stored", c, nick, status)
		}
	})
}

func FuzzAct(f *testing.F) {
	a := newApp(f)
	teacher := a.browser()
	code := teacherStart(f, teacher)
	ana := join(f, a, code, "Ana")
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}})
	st, _ := readBoard(ana.get("/c/" + code))
	for _, s := range []struct{ seq, action string }{
		{"0", "roll"}, {"-1", "roll"}, {"999999999999999999999", "hold"}, {"0", "timeout"}, {"0", "dice:3"},
		{"0", "resign"}, {"x", "roll"}, {"0", "dice:99"}, {"0", ""}, {"1", "hold"},
	} {
		f.Add(s.seq, s.action)
	}
	f.Fuzz(func(t *testing.T, seq, action string) {
		before := countRows(a, "events")
		status, _ := fuzzPost(t, ana.c, a.url+st.act, url.Values{"seq": {seq}, "action": {action}})
		if status >= 500 {
			t.Fatalf("act %q %q: %d", seq, action, status)
		}
		if status >= 400 && countRows(a, "events") != before {
			t.Fatalf("act %q %q refused with %d, yet events were stored", seq, action, status)
		}
	})
}

func FuzzRound(f *testing.F) {
	a := newApp(f)
	teacher := a.browser()
	code := teacherStart(f, teacher)
	join(f, a, code, "Ana")
	for _, s := range [][7]string{
		{"pig", "100", "10", "", "bot", "hold:20", "2"}, {"hog", "100", "10", "", "bot", "hold:20", "2"},
		{"hog", "100", "0", "", "bot", "dice:5", "2"}, {"pig", "9", "", "", "pairs", "kper", "5"},
		{"chess", "x", "", "2", "bot", "optimal", "1"}, {"big-pig", "201", "", "601", "pairs", "ev", "4"},
		{"two-dice", "50", "", "8", "bot", "hold:-1", "3"},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
	}
	f.Fuzz(func(t *testing.T, game, target, maxDice, deadline, mode, bot, seats string) {
		before := countRows(a, "rounds")
		status, _ := fuzzPost(t, teacher.c, a.url+"/t/"+code+"/rounds", url.Values{"game": {game}, "target": {target}, "max_dice": {maxDice},
			"deadline": {deadline}, "mode": {mode}, "bot": {bot}, "seats": {seats}})
		if status >= 500 {
			t.Fatalf("round %q %q %q %q %q %q %q: %d", game, target, maxDice, deadline, mode, bot, seats, status)
		}
		if status != http.StatusOK && status != http.StatusSeeOther && countRows(a, "rounds") != before {
			t.Fatalf("a refused round (%d) was stored", status)
		}
	})
}

func FuzzVerify(f *testing.F) {
	a := newApp(f)
	for _, s := range []string{"", "{}", `{"variant":{"game":"pig"},"seed":"00","events":[]}`, "[1,2", `{"events":[{"action":"roll","faces":[7]}]}`, "null"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, record string) {
		status, _ := fuzzPost(t, fuzzClient(), a.url+"/verify", url.Values{"record": {record}})
		if status >= 500 {
			t.Fatalf("verify %q: %d", record, status)
		}
	})
}

// FuzzExport: a hostile nickname, once accepted and played, comes out of
// every CSV file as a well-formed row whose cells no spreadsheet runs.
func FuzzExport(f *testing.F) {
	a := newAppConfig(f, func(c *Config) { c.ClassJoins = 1 << 30 })
	teacher := a.browser()
	code := teacherStart(f, teacher)
	for _, s := range []string{"=1+1", "+SUM(A1)", "-2", "@x", "a,b", "a\"b", "line\nbreak", "Zoë", "x__f__y", "\t=cmd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, nick string) {
		c := fuzzClient()
		if status, _ := fuzzPost(t, c, a.url+"/join/"+code, url.Values{"nickname": {nick}}); status >= 500 {
			t.Fatalf("join %q: %d", nick, status)
		}
		for _, file := range []string{"decisions", "matches", "students"} {
			req, _ := http.NewRequest(http.MethodGet, a.url+"/t/"+code+"/"+file+".csv?names=real", nil)
			resp, err := teacher.c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s.csv: %d", file, resp.StatusCode)
			}
			rows, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
			if err != nil {
				t.Fatalf("%s.csv with %q: %v", file, nick, err)
			}
			for _, r := range rows[1:] {
				for _, cell := range r {
					if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && !isNumber(cell) {
						t.Fatalf("%s.csv: a cell a spreadsheet would run: %q", file, cell)
					}
				}
			}
		}
	})
}

// isNumber reports whether a cell is a plain (possibly negative) number.
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s != "" && strings.Trim(s, "0123456789.") == ""
}
