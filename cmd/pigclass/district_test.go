package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startInstance runs `pigclass serve` with args and waits until it serves.
func startInstance(t *testing.T, bin string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), "PIGCLASS_ADDR=", "PIGCLASS_DB=", "PIGCLASS_PUBLIC_URL=", "PIGCLASS_CODE_PREFIX=", "PIGCLASS_TRUSTED_PROXY=")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	up := make(chan struct{}, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if servingAt.MatchString(sc.Text()) {
				up <- struct{}{}
			}
		}
	}()
	select {
	case <-up:
	case <-time.After(60 * time.Second):
		t.Fatal("an instance did not start")
	}
	return cmd
}

// TestDistrictBehindNginx: three pigclass instances (prefixes A, J, R)
// behind Debian's nginx running `pigclass proxyconf`'s output as it is.
// Nine classes started through the proxy, with a browser's Origin (the
// proxy's address), land on all three instances; a student joins and
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
	proxyBin, err := exec.LookPath(kind)
	if err != nil {
		if _, e := os.Stat("/usr/sbin/" + kind); e == nil {
			proxyBin, err = "/usr/sbin/"+kind, nil
		}
	}
	if err != nil {
		t.Skipf("%s is not installed (Debian's; .ci/run installs it)", kind)
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	proxy := freeAddr(t)
	public := "http://" + proxy
	prefixes := []string{"A", "J", "R"}
	addrs := map[string]string{}
	args := []string{"proxyconf", "--format", kind, "--listen", proxy, "--public-url", public}
	for _, p := range prefixes {
		addrs[p] = freeAddr(t)
		args = append(args, "--instance", p+"="+addrs[p])
	}
	conf, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	confPath := filepath.Join(dir, "pigclass-"+kind+".conf")
	os.WriteFile(confPath, []byte(conf), 0o644)
	serveArgs := func(p string) []string {
		return []string{"--addr", addrs[p], "--code-prefix", p, "--public-url", public, "--trusted-proxy", "127.0.0.1", "--db", filepath.Join(dir, "pigclass-"+p+".db")}
	}
	procs := map[string]*exec.Cmd{}
	metricsAddr := freeAddr(t) // instance A serves its metrics too
	for _, p := range prefixes {
		args := serveArgs(p)
		if p == "A" {
			args = append(args, "--metrics-addr", metricsAddr)
		}
		procs[p] = startInstance(t, bin, args...)
	}
	// The proxy in the foreground, in a process group of its own: its
	// workers go with it.
	ng := exec.Command(proxyBin, "-c", confPath, "-p", dir, "-g", "daemon off;")
	if kind == "haproxy" {
		ng = exec.Command(proxyBin, "-f", confPath, "-db")
		ng.Dir = dir
	}
	ng.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
			t.Errorf("no class on instance %s: %v", p, onInstance)
		}
	}
	// And from a real browser, whose Origin is the proxy's own.
	if chromium := chromiumPath(); chromium != "" {
		for i, code := range startClassesInChromium(t, chromium, public, 3) {
			if len(code) != 6 || !slices.Contains(prefixes, code[:1]) {
				t.Errorf("class %d started in chromium: code %q, want 6 letters from one of %v", i+1, code, prefixes)
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
	for _, code := range codeOf {
		if !played(code) {
			t.Errorf("a move in %s through the proxy", code)
		}
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

	// Instance J dies.
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
	// J again: its class and its student are back.
	startInstance(t, bin, serveArgs("J")...)
	deadline := time.Now().Add(20 * time.Second)
	for !played(codeOf["J"]) {
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("J's class did not come back: %s says\n%s", kind, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("classes per instance %v", fmt.Sprint(onInstance))
}

// chromiumPath is Debian's chromium, or "".
func chromiumPath() string {
	for _, p := range []string{os.Getenv("PIGCLASS_CHROMIUM"), "/usr/bin/chromium"} {
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
