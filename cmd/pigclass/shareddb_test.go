package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"pigclass/server/store/pgtest"
	"pigclass/sim"
)

// TestADistrictOnOnePostgres: three instances on one Postgres database
// behind Debian's nginx running `pigclass proxyconf --shared-db`'s output
// as it is. A class of 30 students plays rounds of Pig through nginx (the
// load test's students, each move sent with the board's seq); mid-round
// the instance serving the class is killed with SIGKILL, and the class
// goes on through another instance within 10 s: every move acknowledged
// is stored once and none twice, the round of the kill is played to its
// end and more rounds after it, the class's files read whole, and the
// records of the matches played across the takeover verify, signed with
// the district's key. The killed instance comes back while another holds
// its classes (issue 58, item 3): for 30 s the class's moves and another
// class's joins, lock and open, all posted through nginx (which asks the
// returned instance first), are every one taken.
func TestADistrictOnOnePostgres(t *testing.T) {
	t.Parallel() // it waits on its processes, or fills a core the waiting ones leave
	if testing.Short() {
		t.Skip("runs nginx, Postgres and three servers")
	}
	db := pgtest.URL(t)
	nginx := proxyBinary(t, "nginx")
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	proxy, prefixes, addrs := districtAddrs(t)
	public := "http://" + proxy
	args := []string{"proxyconf", "--shared-db", "--listen", proxy, "--public-url", public}
	for _, p := range prefixes {
		args = append(args, "--instance", p+"="+addrs[p])
	}
	conf, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	confPath := filepath.Join(dir, "pigclass-nginx.conf")
	os.WriteFile(confPath, []byte(conf), 0o644)
	// The instances as the configuration's comment starts them, on this
	// run's database (PIGCLASS_DB: startServe clears it, --db is the
	// same), with the load's pace.
	serve := regexp.MustCompile(`(?m)^#   PIGCLASS_DB=\S+ pigclass (serve .*)$`).FindAllStringSubmatch(conf, -1)
	if len(serve) != len(prefixes) {
		t.Fatalf("the configuration starts %d instances, want %d:\n%s", len(serve), len(prefixes), conf)
	}
	procs, serveArgs := map[string]*exec.Cmd{}, map[string][]string{}
	for i, p := range prefixes {
		a := strings.Fields(serve[i][1])[1:]
		for j := range a {
			if a[j] == "district.key" {
				a[j] = filepath.Join(dir, "district.key")
			}
		}
		if !strings.Contains(serve[i][1], "--code-prefix "+p) {
			t.Fatalf("instance %d: %s", i, serve[i][1])
		}
		serveArgs[p] = a
		procs[p] = startServe(t, bin, append(a, "--db", db, "--moves-per-second", "1000")...).cmd
	}
	ng := exec.Command(nginx, "-c", confPath, "-p", dir, "-g", "daemon off;")
	ng.Dir = dir
	ng.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := ng.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-ng.Process.Pid, syscall.SIGKILL)
		ng.Wait()
		if b, _ := os.ReadFile(filepath.Join(dir, "error.log")); t.Failed() && len(b) > 0 {
			t.Logf("nginx's error.log:\n%.3000s", b)
		}
	})
	waitHealthy(t, public, 30*time.Second)

	pg, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	// Mid-round, the instance serving the class is killed; it comes back
	// once the others have taken its classes over, and then for 30 s its
	// classes' forms (the load's moves, joins, lock and open) are posted
	// through nginx, which asks it first (issue 58, item 3).
	codes := make(chan string, 1)
	progress := writerFunc(func(b []byte) {
		if m := regexp.MustCompile(`loadtest: class (\w+),`).FindSubmatch(b); m != nil {
			codes <- string(m[1])
		}
	})
	type loaded struct {
		rep *LoadReport
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		rep, err := loadtest(context.Background(), loadConfig{url: public, students: 30, duration: 46 * time.Second, teachers: 1, target: 50, holdAt: 20,
			thinkMin: 100 * time.Millisecond, thinkMax: 250 * time.Millisecond, seed: 11}, progress)
		done <- loaded{rep, err}
	}()
	var code string
	select {
	case code = <-codes:
	case l := <-done:
		t.Fatalf("the load ended before its class played: %v", l.err)
	}
	x := code[:1]
	// A second class of that instance, with its teacher.
	forms := districtForms{t: t, public: public}
	extra, teacher := forms.classOn(x)
	forms.post(teacher, "/t/"+extra+"/joins/unlimited", nil)
	time.Sleep(4 * time.Second)
	var killRound int
	pg.QueryRow(`SELECT COALESCE(MAX(r.number), 0) FROM rounds r JOIN classes c ON c.id = r.class_id WHERE c.code = $1`, code).Scan(&killRound)
	procs[x].Process.Signal(syscall.SIGKILL)
	procs[x].Wait()
	// While it is down, the second class is asked for: another instance
	// takes it over once its lease has expired.
	for down := time.Now(); time.Since(down) < 9*time.Second; time.Sleep(500 * time.Millisecond) {
		forms.get(teacher, "/t/"+extra)
	}
	procs[x] = startServe(t, bin, append(serveArgs[x], "--db", db, "--moves-per-second", "1000")...).cmd
	for back, i := time.Now(), 0; time.Since(back) < 30*time.Second; i++ {
		forms.post(forms.browser(), "/join/"+extra, url.Values{"nickname": {fmt.Sprintf("Late %02d", i)}})
		forms.post(teacher, "/t/"+extra+"/lock", nil)
		forms.post(teacher, "/t/"+extra+"/open", nil)
		time.Sleep(time.Second)
	}
	t.Logf("back: %d forms posted through nginx to %s's classes, %d not taken", forms.sent, x, len(forms.refused))
	for _, r := range forms.refused[:min(5, len(forms.refused))] {
		t.Errorf("a form after the instance came back: %s", r)
	}
	l := <-done
	rep, err := l.rep, l.err
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("class %s: %d joined, %d rounds, %d acknowledged, errors %v, longest pause %.2f s (killed in round %d)", rep.Code, rep.Joined, rep.Rounds, rep.Actions, rep.Errors, rep.LongestPause, killRound)
	if rep.Joined != 30 || killRound < 1 {
		t.Fatalf("%d students joined, the kill in round %d", rep.Joined, killRound)
	}
	if rep.Lost != 0 || rep.Doubled != 0 || rep.Stored < rep.Actions {
		t.Errorf("%d acknowledged, %d stored: %d lost, %d doubled", rep.Actions, rep.Stored, rep.Lost, rep.Doubled)
	}
	if rep.LongestPause >= 10 {
		t.Errorf("the class stood still %.1f s after the kill, want less than 10", rep.LongestPause)
	}
	// The round of the kill was played to its end, and rounds after it.
	var over, all, later int
	pg.QueryRow(`SELECT COUNT(*) FILTER (WHERE m.status = 'over'), COUNT(*) FROM matches m JOIN rounds r ON r.id = m.round_id
		JOIN classes c ON c.id = r.class_id WHERE c.code = $1 AND r.number = $2`, rep.Code, killRound).Scan(&over, &all)
	pg.QueryRow(`SELECT COUNT(*) FROM rounds r JOIN classes c ON c.id = r.class_id WHERE c.code = $1 AND r.number > $2`, rep.Code, killRound).Scan(&later)
	if all != 30 || over != all || later == 0 {
		t.Errorf("round %d of the kill: %d of %d matches over, %d rounds after it", killRound, over, all, later)
	}

	teacher = &http.Client{Jar: rep.Teacher}
	for _, f := range []string{"decisions.csv", "matches.csv", "match_players.csv", "students.csv"} {
		rows, err := csv.NewReader(bytes.NewReader(getOK(t, teacher, public+"/t/"+rep.Code+"/"+f))).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Errorf("%s: %d rows, %v", f, len(rows), err)
		}
	}
	// The records of the round of the kill: their moves were stored by
	// two instances.
	ids, err := pg.Query(`SELECT m.id FROM matches m JOIN rounds r ON r.id = m.round_id JOIN classes c ON c.id = r.class_id
		WHERE c.code = $1 AND r.number = $2 ORDER BY m.id`, rep.Code, killRound)
	if err != nil {
		t.Fatal(err)
	}
	defer ids.Close()
	verified := 0
	var fingerprint string
	for ids.Next() {
		var id string
		ids.Scan(&id)
		got, err := sim.VerifyJSON(getOK(t, teacher, public+"/c/"+rep.Code+"/m/"+id+"/record.json"))
		if err != nil || !got.Signature.Valid() {
			t.Errorf("match %s's record: %v, signature %+v", id, err, got.Signature)
			continue
		}
		if fp := sim.Fingerprint(got.Signature.Key); fingerprint != "" && fp != fingerprint {
			t.Errorf("match %s signed with key %s, another with %s: the instances share one key", id, fp, fingerprint)
		} else {
			fingerprint = fp
		}
		verified++
	}
	if verified != 30 {
		t.Errorf("%d records of the round of the kill verify, want 30", verified)
	}
}

// writerFunc is an io.Writer that hands each write to a function.
type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }

// districtForms posts forms through a district's proxy as browsers do
// (the proxy's Origin, redirects not followed), and keeps those not taken
// (anything but a redirect).
type districtForms struct {
	t       *testing.T
	public  string
	sent    int
	refused []string
}

// browser is a new browser, with cookies of its own.
func (f *districtForms) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (f *districtForms) do(c *http.Client, method, path string, form url.Values) (int, string) {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.public+path, strings.NewReader(form.Encode()))
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", f.public)
	}
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location") + string(body)
}

func (f *districtForms) get(c *http.Client, path string) { f.do(c, http.MethodGet, path, nil) }

// post posts form to path; a form not taken is kept with its answer.
func (f *districtForms) post(c *http.Client, path string, form url.Values) string {
	f.t.Helper()
	status, said := f.do(c, http.MethodPost, path, form)
	f.sent++
	if status != http.StatusSeeOther {
		f.refused = append(f.refused, fmt.Sprintf("POST %s: %d %.200s", path, status, said))
	}
	return said
}

// classOn starts classes until one is on the instance of prefix (the
// proxy spreads them round), and returns its code and its teacher.
func (f *districtForms) classOn(prefix string) (string, *http.Client) {
	f.t.Helper()
	for range 12 {
		teacher := f.browser()
		status, loc := f.do(teacher, http.MethodPost, "/classes", url.Values{})
		code, ok := strings.CutPrefix(loc, "/t/")
		if status != http.StatusSeeOther || !ok {
			f.t.Fatalf("start a class: %d %.200s", status, loc)
		}
		if code = code[:6]; strings.HasPrefix(code, prefix) {
			return code, teacher
		}
	}
	f.t.Fatalf("no class on instance %s in 12", prefix)
	return "", nil
}
