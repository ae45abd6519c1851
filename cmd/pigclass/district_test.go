package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// freeAddr returns a loopback address with a port free a moment ago.
//
// The port is drawn below Linux's ephemeral range (32768 and up), where the
// system picks the ports of outgoing connections and of listeners on port
// 0: a port from there, free when asked, can be taken by another test's
// connection before the proxy binds it (a proxy that cannot bind never
// becomes healthy).
func freeAddr(t *testing.T) string {
	t.Helper()
	for range 200 {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", 20000+rand.IntN(12000)))
		if err != nil {
			continue // taken: draw again
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	t.Fatal("no free port from 20000 to 31999")
	return ""
}

// TestDistrictBehindNginx: three pigclass instances (prefixes A, J, R)
// behind Debian's nginx running `pigclass proxyconf`'s output as it is.
// Nine classes started through the proxy, with a browser's Origin (the
// proxy's address), land on all three instances, and so do nine started
// in Debian's chromium; a student joins and
// plays through the proxy; an instance killed with SIGKILL leaves the
// others' classes playing and new classes starting, and once started
// again its class is back with its student.
func TestDistrictBehindNginx(t *testing.T) {
	t.Parallel()
	testDistrict(t, "nginx")
}

// TestDistrictBehindHAProxy: the same district behind Debian's HAProxy
// running `pigclass proxyconf --format haproxy`'s output as it is.
func TestDistrictBehindHAProxy(t *testing.T) {
	t.Parallel()
	testDistrict(t, "haproxy")
}

// testDistrict runs the district test behind the proxy kind (nginx or
// haproxy), configured by proxyconf --format kind.
func testDistrict(t *testing.T, kind string) {
	if testing.Short() {
		t.Skip("runs a proxy and three servers")
	}
	proxyBin := proxyBinary(t, kind)
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	proxy, prefixes, addrs := districtAddrs(t)
	public := "http://" + proxy
	// The guide's commands, with this run's addresses.
	cmds := districtCommands(kind, proxy, prefixes, addrs)
	conf, _, err := runCmd(t, cmds.proxyconf...)
	if err != nil {
		t.Fatal(err)
	}
	confPath := filepath.Join(dir, cmds.confFile)
	os.WriteFile(confPath, []byte(conf), 0o644)
	serveArgs := func(p string) []string {
		args := slices.Clone(cmds.serve[p][1:]) // after "serve"
		args[len(args)-1] = filepath.Join(dir, args[len(args)-1])
		return args
	}
	procs := map[string]*exec.Cmd{}
	metricsAddr := freeAddr(t) // instance A serves its metrics too
	for _, p := range prefixes {
		args := serveArgs(p)
		if p == "A" {
			args = append(args, "--metrics-addr", metricsAddr)
		}
		procs[p] = startServe(t, bin, args...).cmd
	}
	// The proxy in the foreground, in a process group of its own: its
	// workers go with it.
	var proxyArgs []string
	for _, a := range append(slices.Clone(cmds.proxy[1:]), cmds.foreground...) {
		proxyArgs = append(proxyArgs, strings.ReplaceAll(a, "$PWD", dir))
	}
	ng := exec.Command(proxyBin, proxyArgs...)
	ng.Dir = dir
	ng.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	proxyLog := filepath.Join(dir, kind+".out")
	if f, err := os.Create(proxyLog); err == nil {
		ng.Stdout, ng.Stderr = f, f
		t.Cleanup(func() {
			f.Close()
			if b, _ := os.ReadFile(proxyLog); t.Failed() && len(b) > 0 {
				t.Logf("%s said:\n%s", kind, b)
			}
		})
	}
	if err := ng.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-ng.Process.Pid, syscall.SIGKILL); ng.Wait() })
	waitHealthy(t, public, 30*time.Second)

	type browser struct{ c *http.Client }
	newBrowser := func() *browser {
		jar, _ := cookiejar.New(nil)
		return &browser{&http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	}
	send := func(b *browser, method, path string, form url.Values) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), method, public+path, strings.NewReader(form.Encode()))
		if method == http.MethodPost {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", public) // as a browser on the proxy's page sends it
		}
		resp, err := b.c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(body)
	}
	teachers := map[string]*browser{} // by class code
	onInstance := map[string]int{}
	for range 9 {
		b := newBrowser()
		status, loc, body := send(b, http.MethodPost, "/classes", url.Values{})
		if status != http.StatusSeeOther || !strings.HasPrefix(loc, "/t/") {
			t.Fatalf("start a class through the proxy: %d %q %.300s", status, loc, body)
		}
		code := strings.TrimPrefix(loc, "/t/")
		teachers[code] = b
		onInstance[code[:1]]++
	}
	for _, p := range prefixes {
		if onInstance[p] == 0 {
			// What follows plays in a class of each instance.
			t.Fatalf("no class on instance %s: %v", p, onInstance)
		}
	}
	// And nine from a real browser, whose Origin is the proxy's own: they
	// land on all three instances too.
	if chromium := chromiumPath(); chromium != "" {
		fromBrowser := map[string]int{}
		for i, code := range startClassesInChromium(t, chromium, public, 9) {
			if len(code) != 6 || !slices.Contains(prefixes, code[:1]) {
				t.Errorf("class %d started in chromium: code %q, want 6 letters from one of %v", i+1, code, prefixes)
				continue
			}
			fromBrowser[code[:1]]++
		}
		for _, p := range prefixes {
			if fromBrowser[p] == 0 {
				t.Errorf("no class started in chromium landed on instance %s: %v", p, fromBrowser)
			}
		}
	} else if os.Getenv("CI") != "" {
		t.Error("CI has no chromium: .ci/run should have installed it")
	}
	// A student of each instance's first class joins and plays a move.
	students := map[string]*browser{}
	codeOf := map[string]string{}
	for code, teacher := range teachers {
		if _, ok := codeOf[code[:1]]; ok {
			continue
		}
		codeOf[code[:1]] = code
		s := newBrowser()
		if status, loc, body := send(s, http.MethodPost, "/join/"+strings.ToLower(code), url.Values{"nickname": {"Ana"}}); status != http.StatusSeeOther || loc != "/c/"+code {
			t.Fatalf("join %s through the proxy: %d %q %.300s", code, status, loc, body)
		}
		students[code] = s
		if status, loc, body := send(teacher, http.MethodPost, "/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"hold:20"}}); status != http.StatusSeeOther || loc != "/t/"+code {
			t.Fatalf("a round in %s: %d %.300s", code, status, body)
		}
	}
	played := func(code string) bool {
		t.Helper()
		_, _, page := send(students[code], http.MethodGet, "/c/"+code, nil)
		act := boardAct.FindStringSubmatch(page)
		seq := boardSeq.FindStringSubmatch(page)
		if act == nil || seq == nil {
			return false
		}
		status, _, _ := send(students[code], http.MethodPost, act[1], url.Values{"seq": {seq[1]}, "action": {"roll"}})
		return status == http.StatusSeeOther
	}
	// The teacher's screen of A's class hears of its student's move by
	// its event stream, through the proxy as it comes (a proxy that
	// buffered would hold it back).
	events := listen(t, teachers[codeOf["A"]].c, public+"/t/"+codeOf["A"]+"/events")
	if got := events.next(t, 5*time.Second); got != "look" {
		t.Errorf("through %s, the stream's first event is %q, want look (the page catches up)", kind, got)
	}
	for _, code := range codeOf {
		if !played(code) {
			t.Errorf("a move in %s through the proxy", code)
		}
	}
	if got := events.next(t, 5*time.Second); got != "look" {
		t.Errorf("through %s, after the student's move the stream said %q, want look", kind, got)
	}

	// A's metrics, for the district's monitoring: its one acknowledged
	// move, and latency by route.
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"pigclass_actions_total 1", `route="/c/:code/m/:id/act"`, "pigclass_classes "} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("instance A's metrics lack %q", want)
		}
	}

	// Instance J dies, with its student's move acknowledged.
	seqOf := func(code string) int {
		_, _, page := send(students[code], http.MethodGet, "/c/"+code, nil)
		if m := boardSeq.FindStringSubmatch(page); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
		return -1
	}
	acknowledged := seqOf(codeOf["J"])
	if acknowledged < 1 {
		t.Fatalf("J's board before the kill: seq %d", acknowledged)
	}
	procs["J"].Process.Signal(syscall.SIGKILL)
	procs["J"].Wait()
	for _, p := range []string{"A", "R"} {
		if !played(codeOf[p]) {
			t.Errorf("with J down, a move in %s", codeOf[p])
		}
	}
	for i := range 6 {
		b := newBrowser()
		if status, loc, body := send(b, http.MethodPost, "/classes", url.Values{}); status != http.StatusSeeOther || strings.HasPrefix(loc, "/t/J") {
			t.Errorf("class %d with J down: %d %q %.200s", i+1, status, loc, body)
		}
	}
	// J again: its class and its student are back, with every move
	// acknowledged before the kill.
	startServe(t, bin, serveArgs("J")...)
	deadline := time.Now().Add(20 * time.Second)
	for seqOf(codeOf["J"]) < 0 {
		if time.Now().After(deadline) {
			t.Fatalf("J's class did not come back")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := seqOf(codeOf["J"]); got < acknowledged {
		t.Errorf("J's match after the restart has %d events; %d were acknowledged before the kill", got, acknowledged)
	}
	for !played(codeOf["J"]) {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("J's class did not come back: %s says\n%s", kind, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("classes per instance %v", fmt.Sprint(onInstance))
}

// proxyBinary is Debian's nginx or haproxy (kind), or skips the test.
func proxyBinary(t *testing.T, kind string) string {
	t.Helper()
	if p, err := exec.LookPath(kind); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/" + kind); err == nil {
		return "/usr/sbin/" + kind
	}
	t.Skipf("%s is not installed (Debian's; .ci/run installs it)", kind)
	return ""
}

// chromiumPath is Debian's chromium-headless-shell (lighter: see the
// server's browser tests), or its chromium, or "".
func chromiumPath() string {
	for _, p := range []string{os.Getenv("PIGCLASS_CHROMIUM"), "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"} {
		if p != "" {
			if _, err := exec.LookPath(p); err == nil {
				return p
			}
		}
	}
	return ""
}

// startClassesInChromium starts n classes from the front page at base, each
// in a browser context of its own, and returns their join codes.
func startClassesInChromium(t *testing.T, chromium, base string, n int) []string {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.UserDataDir(t.TempDir()))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	root, cancelRoot := chromedp.NewContext(alloc)
	defer cancelRoot()
	if err := chromedp.Do(root); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	var codes []string
	for range n {
		ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
		ctx, cancelT := context.WithTimeout(ctx, 60*time.Second) // a bound on a hang
		err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.Click(chromedp.CSS(`[data-testid="start-class"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="join-code"]`)))
		var code string
		if err == nil {
			code, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="join-code"]').textContent`))
		}
		cancelT()
		cancel()
		if err != nil {
			t.Fatalf("start a class in chromium through the proxy: %v", err)
		}
		codes = append(codes, code)
	}
	return codes
}

// district is a district's commands: proxyconf's arguments and the file
// it writes, each instance's serve arguments (the database last), and the
// proxy's command (run in the directory of the files) with what keeps it
// in the foreground.
type district struct {
	proxyconf  []string
	confFile   string
	serve      map[string][]string
	proxy      []string
	foreground []string
}

// districtAddrs are a district's free addresses on loopback: the proxy's,
// and an instance's for each of the three code prefixes.
func districtAddrs(t *testing.T) (proxy string, prefixes []string, addrs map[string]string) {
	prefixes, addrs = []string{"A", "J", "R"}, map[string]string{}
	for _, p := range prefixes {
		addrs[p] = freeAddr(t)
	}
	return freeAddr(t), prefixes, addrs
}

// districtCommands are the commands of a district of instances (prefix ->
// HOST:PORT) behind a proxy of kind listening on proxy: what the district
// test runs, and what the administrator's guide gives
// (TestGuideDistrictCommands).
func districtCommands(kind, proxy string, prefixes []string, addrs map[string]string) district {
	public := "http://" + proxy
	d := district{confFile: "pigclass-" + kind + ".conf", serve: map[string][]string{}}
	d.proxyconf = []string{"proxyconf"}
	if kind != "nginx" {
		d.proxyconf = append(d.proxyconf, "--format", kind)
	}
	d.proxyconf = append(d.proxyconf, "--listen", proxy, "--public-url", public)
	for _, p := range prefixes {
		d.proxyconf = append(d.proxyconf, "--instance", p+"="+addrs[p])
		d.serve[p] = []string{"serve", "--addr", addrs[p], "--code-prefix", p, "--public-url", public, "--trusted-proxy", "127.0.0.1", "--db", "pigclass-" + strings.ToLower(p) + ".db"}
	}
	switch kind {
	case "haproxy":
		d.proxy, d.foreground = []string{"haproxy", "-f", d.confFile}, []string{"-db"}
	default:
		d.proxy, d.foreground = []string{"nginx", "-c", "$PWD/" + d.confFile, "-p", "$PWD"}, []string{"-g", "daemon off;"}
	}
	return d
}

// guideBlock is the district's commands as the guide shows them (a code
// block: each line after a tab).
func (d district) guideBlock(prefixes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tpigclass %s > %s\n", strings.Join(d.proxyconf, " "), d.confFile)
	for _, p := range prefixes {
		fmt.Fprintf(&b, "\tpigclass %s &\n", strings.Join(d.serve[p], " "))
	}
	fmt.Fprintf(&b, "\t%s\n", strings.Join(d.proxy, " "))
	return b.String()
}

// TestGuideDistrictCommands: the administrator's guide's district
// commands are the ones the district tests run (districtCommands), with
// the guide's addresses.
func TestGuideDistrictCommands(t *testing.T) {
	guide := guideText(t)
	prefixes := []string{"A", "J", "R"}
	addrs := map[string]string{"A": "127.0.0.1:8081", "J": "127.0.0.1:8082", "R": "127.0.0.1:8083"}
	for _, kind := range []string{"nginx", "haproxy"} {
		block := districtCommands(kind, "127.0.0.1:8000", prefixes, addrs).guideBlock(prefixes)
		if !strings.Contains(guide, block) {
			t.Errorf("the guide does not give the %s district's commands as the test runs them:\n%s", kind, block)
		}
	}
}

// stream is a page's event stream as the test reads it: the names of its
// events, as they come, and "end" when the server ends it.
type stream struct{ names chan string }

// listen opens the event stream at url with c's cookies, read until the
// test ends.
func listen(t *testing.T, c *http.Client, url string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		resp.Body.Close()
		t.Fatalf("open %s: %d %q", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &stream{names: make(chan string, 65)}
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				select {
				case s.names <- name:
				default:
				}
			}
		}
		s.names <- "end"
	}()
	return s
}

// next is the stream's next event's name, or "" if none came within d.
func (s *stream) next(t *testing.T, d time.Duration) string {
	t.Helper()
	select {
	case name := <-s.names:
		return name
	case <-time.After(d):
		return ""
	}
}
