package main

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"pigclass/templates/paths"
)

func TestReachableAddresses(t *testing.T) {
	a := netip.MustParseAddr
	ifs := []netInterface{
		{name: "lo", up: true, loop: true, addrs: []netip.Addr{a("127.0.0.1"), a("::1")}},
		{name: "docker0", up: true, addrs: []netip.Addr{a("172.17.0.1")}},
		{name: "br-5f1e2a", up: true, addrs: []netip.Addr{a("172.18.0.1")}},
		{name: "veth12ab", up: true, addrs: []netip.Addr{a("169.254.3.4")}},
		{name: "eth0", up: true, addrs: []netip.Addr{a("203.0.113.7"), a("fe80::1"), a("2001:db8::5")}},
		{name: "wlan0", up: true, addrs: []netip.Addr{a("169.254.10.2"), a("192.168.1.20")}},
		{name: "eth1", up: false, addrs: []netip.Addr{a("10.1.1.1")}},
		{name: "en0", up: true, addrs: []netip.Addr{a("10.0.0.5")}},
	}
	got := reachable(ifs)
	want := []netip.Addr{a("192.168.1.20"), a("10.0.0.5"), a("203.0.113.7")}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(x, y netip.Addr) bool { return x == y })); diff != "" {
		t.Errorf("reachable (-want +got):\n%s", diff)
	}
	if got := reachable(ifs[:4]); len(got) != 0 {
		t.Errorf("loopback and bridges alone: %v, want none", got)
	}
}

func TestReachOfAnAddress(t *testing.T) {
	lan := []netInterface{{name: "wlan0", up: true, addrs: []netip.Addr{netip.MustParseAddr("192.168.1.20"), netip.MustParseAddr("10.0.0.5")}}}
	for _, c := range []struct {
		listen, public string
		ifs            []netInterface
		want           reach
	}{
		{":8081", "", lan, reach{public: "http://192.168.1.20:8081", others: []netip.Addr{netip.MustParseAddr("10.0.0.5")}, local: "http://127.0.0.1:8081", port: 8081}},
		{":8080", "http://pigs.school.example/", lan, reach{public: "http://pigs.school.example", others: reachable(lan), local: "http://127.0.0.1:8080", port: 8080}},
		{":8080", "", nil, reach{public: "http://localhost:8080", local: "http://127.0.0.1:8080", port: 8080, alone: true}},
		{"127.0.0.1:8080", "", lan, reach{public: "http://localhost:8080", local: "http://127.0.0.1:8080", port: 8080, alone: true}},
		{"10.0.0.5:9000", "", lan, reach{public: "http://10.0.0.5:9000", local: "http://10.0.0.5:9000", port: 9000}},
	} {
		tcp, err := net.ResolveTCPAddr("tcp", c.listen)
		if err != nil {
			t.Fatal(err)
		}
		got := reachOf(tcp, c.public, c.ifs)
		if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(reach{}), cmpopts.EquateEmpty(), cmp.Comparer(func(x, y netip.Addr) bool { return x == y })); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", c.listen, c.public, diff)
		}
	}
}

func TestWhereTheDataLives(t *testing.T) {
	beside, work, config := t.TempDir(), t.TempDir(), t.TempDir()
	got, err := chooseData(beside, work, config)
	if err != nil || got.db != filepath.Join(config, "pigclass", "pigclass.db") || got.why != "config" {
		t.Fatalf("nothing there yet: %+v %v", got, err)
	}
	if st, err := os.Stat(filepath.Join(config, "pigclass")); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("the data folder: %v %v, want made, for this user alone", st, err)
	}
	os.WriteFile(filepath.Join(work, "pigclass.db"), nil, 0o600)
	if got, _ := chooseData(beside, work, config); got.db != filepath.Join(work, "pigclass.db") || got.why != "working" {
		t.Errorf("an old file in the working folder: %+v", got)
	}
	os.WriteFile(filepath.Join(beside, "pigclass.db"), nil, 0o600)
	if got, _ := chooseData(beside, work, config); got.db != filepath.Join(beside, "pigclass.db") || got.why != "beside" {
		t.Errorf("an old file beside the program too: %+v, want it", got)
	}
	if _, err := chooseData("", t.TempDir(), ""); err == nil || !strings.Contains(err.Error(), "--db") {
		t.Errorf("no folder for application data: %v, want an error naming --db", err)
	}
}

func TestTheBrowserOpener(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	u := "http://192.168.1.20:8080/"
	for _, c := range []struct {
		name string
		env  func(string) string
		goos string
		want []string
	}{
		{"windows", env(), "windows", []string{"rundll32", "url.dll,FileProtocolHandler", u}},
		{"mac", env(), "darwin", []string{"open", u}},
		{"linux desktop", env("DISPLAY", ":0"), "linux", []string{"xdg-open", u}},
		{"wayland", env("WAYLAND_DISPLAY", "wayland-0"), "linux", []string{"xdg-open", u}},
		{"linux console", env(), "linux", nil},
		{"ssh", env("DISPLAY", ":0", "SSH_CONNECTION", "10.0.0.9 5 10.0.0.5 22"), "darwin", nil},
		{"turned off", env("DISPLAY", ":0", "PIGCLASS_NO_BROWSER", "1"), "linux", nil},
		{"named", env("PIGCLASS_BROWSER", "/usr/bin/firefox"), "linux", []string{"/usr/bin/firefox", u}},
		{"named but off", env("PIGCLASS_BROWSER", "/usr/bin/firefox", "PIGCLASS_NO_BROWSER", "true"), "linux", nil},
	} {
		if got := browserCommand(c.env, c.goos, u); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// classroomProc is a classroom start running as a process of its own,
// as a double-click starts it.
type classroomProc struct {
	cmd    *exec.Cmd
	base   string // where the test asks it: loopback
	words  string // what it told the teacher, up to "Nothing is lost"
	opened string // the file the browser recorder writes
	stderr *lockedBuffer
	exited chan error
}

// desk is one teacher's computer: a home folder (HOME and
// XDG_CONFIG_HOME inside it) and a folder the program starts in.
type desk struct{ home, work string }

func newDesk(t *testing.T) desk {
	return desk{home: t.TempDir(), work: t.TempDir()}
}

func (d desk) config() string { return filepath.Join(d.home, "config") }

// startClassroom runs bin with args from d's working folder, with the
// browser opener replaced by a recorder (PIGCLASS_BROWSER), and waits
// until it has told the teacher where to go (or has ended, if end).
func startClassroom(t *testing.T, bin string, d desk, end bool, args ...string) *classroomProc {
	t.Helper()
	opened := filepath.Join(t.TempDir(), "opened")
	recorder := filepath.Join(t.TempDir(), "browser")
	if err := os.WriteFile(recorder, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" >> "+opened+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = d.work
	cmd.Env = append(os.Environ(), "HOME="+d.home, "XDG_CONFIG_HOME="+d.config(), "PIGCLASS_BROWSER="+recorder, "PIGCLASS_NO_BROWSER=",
		"PIGCLASS_ADDR=", "PIGCLASS_DB=", "PIGCLASS_KEY=", "PIGCLASS_PUBLIC_URL=", "PIGCLASS_CODE_PREFIX=", "PIGCLASS_TRUSTED_PROXY=")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &classroomProc{cmd: cmd, opened: opened, stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); <-p.exited })
	said := make(chan string, 1)
	go func() {
		var b strings.Builder
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
			if !sent && strings.Contains(sc.Text(), "Nothing is lost") {
				said <- b.String()
				sent = true
			}
		}
		if !sent {
			said <- b.String()
		}
		p.exited <- cmd.Wait()
		close(p.exited)
	}()
	select {
	case p.words = <-said:
	case <-time.After(60 * time.Second):
		t.Fatalf("pigclass %v said nothing within 60 s:\n%s", args, p.stderr)
	}
	if end {
		return p
	}
	var m []string
	waitFor(10*time.Second, func() bool { m = servingAt.FindStringSubmatch(p.stderr.String()); return m != nil }) // the log's pipe may lag the words'
	if m == nil {
		t.Fatalf("pigclass %v does not serve:\n%s\n%s", args, p.words, p.stderr)
	}
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(m[1], "http://"))
	p.base = "http://127.0.0.1:" + port
	return p
}

// browsed is what the browser recorder was asked to open.
func (p *classroomProc) browsed(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(p.opened)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// joinAt is the address the words say students join at.
var joinAt = regexp.MustCompile(`Students join at: +(http://\S+)/join`)

// teacherOf starts a class at base as a teacher would and returns the
// class's code and the teacher's browser.
func teacherOf(t *testing.T, base string) (string, *http.Client) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm(base+"/classes", url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/t/") {
		t.Fatalf("starting a class: %d %q", resp.StatusCode, loc)
	}
	return strings.TrimPrefix(loc, "/t/"), c
}

// page is a page's body as c gets it, in lang.
func page(t *testing.T, c *http.Client, u, lang string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Accept-Language", lang)
	return html.UnescapeString(string(doOK(t, c, req)))
}

// machineAddresses are this machine's non-loopback IPv4 addresses, read
// apart from reachable's own way.
func machineAddresses(t *testing.T) []string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() && !ip.IP.IsLinkLocalUnicast() {
			out = append(out, ip.IP.String())
		}
	}
	return out
}

// TestADoubleClickServesTheClassroom (issue 78): pigclass started with no
// command and no flag, as a double-click starts it, listens on every
// address, tells the teacher the address students type (one of this
// machine's own, not loopback, when it has one), shows it on the
// dashboard and the shared screen, opens the teacher's browser at the
// front page, and keeps its database in the user's folder for
// application data. Only loopback is asked: the machine's address is read,
// never sent to.
func TestADoubleClickServesTheClassroom(t *testing.T) {
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	d := newDesk(t)
	p := startClassroom(t, bin, d, false)
	m := joinAt.FindStringSubmatch(p.words)
	if m == nil {
		t.Fatalf("the words name no join address:\n%s", p.words)
	}
	public := m[1]
	u, _ := url.Parse(public)
	if own := machineAddresses(t); len(own) > 0 {
		if !slices.Contains(own, u.Hostname()) {
			t.Errorf("students join at %s, want one of this machine's addresses %v", public, own)
		}
	} else if u.Hostname() != "localhost" {
		t.Errorf("a machine on no network: students join at %s", public)
	}
	if _, port, _ := net.SplitHostPort(u.Host); p.base != "http://127.0.0.1:"+port {
		t.Errorf("the words name port %s, the server serves %s", port, p.base)
	}
	for _, w := range []string{"The teacher opens:    " + public + "/", "Keep this window open", "press Ctrl+C",
		"Classes are kept in " + filepath.Join(d.config(), "pigclass", "pigclass.db") + "."} {
		if !strings.Contains(p.words, w) {
			t.Errorf("the words do not say %q:\n%s", w, p.words)
		}
	}
	for _, f := range []string{"pigclass.db", "pigclass.db.key", "pigclass.db.running"} {
		if _, err := os.Stat(filepath.Join(d.config(), "pigclass", f)); err != nil {
			t.Errorf("the user's data folder: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(d.work, "pigclass.db")); err == nil {
		t.Error("a database was made in the working folder too")
	}
	if err := waitFor(10*time.Second, func() bool { return len(p.browsed(t)) > 0 }); err != nil {
		t.Fatalf("the browser was not opened: %v\n%s", err, p.words)
	}
	if got := p.browsed(t); !slices.Equal(got, []string{public + "/"}) {
		t.Errorf("the browser was opened at %q, want the front page %s/", got, public)
	}
	code, teacher := teacherOf(t, p.base)
	dash := page(t, teacher, p.base+paths.Teacher.For(code), "en")
	if !strings.Contains(dash, public+paths.JoinCode.For(code)) {
		t.Errorf("the dashboard does not show %s", public+paths.JoinCode.For(code))
	}
	if reachable := len(machineAddresses(t)) > 0; strings.Contains(dash, `data-testid="reach-warning"`) == reachable {
		t.Errorf("the dashboard's warning that students cannot join: shown %v on a machine with addresses %v", !reachable, machineAddresses(t))
	}
	screen := page(t, teacher, p.base+paths.TeacherProjector.Page.For(code), "en")
	if !strings.Contains(screen, public+"/join") || !strings.Contains(screen, `data-testid="projector-qr"`) {
		t.Errorf("the shared screen does not show %s/join and its QR code", public)
	}
}

// TestAClassroomNoDeviceReaches: where no student's device can reach the
// server (it listens on loopback alone, as a computer on no network
// does), the words, the dashboard and the shared screen say so, in the
// reader's language, and the shared screen shows no localhost address;
// where --public-url names an address that is not this machine's, the
// dashboard says students may not reach it.
func TestAClassroomNoDeviceReaches(t *testing.T) {
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	d := newDesk(t)
	p := startClassroom(t, bin, d, false, "--addr", "127.0.0.1:0", "--no-browser")
	if !strings.Contains(p.words, "Students' devices cannot join yet") || !strings.Contains(p.words, "Students join at:     http://localhost:") {
		t.Errorf("the words do not say that no device can join:\n%s", p.words)
	}
	code, teacher := teacherOf(t, p.base)
	for lang, want := range map[string]string{"en": "Students' devices cannot join", "es": "Los dispositivos de los alumnos no pueden unirse", "de": "Die Geräte der Schüler können nicht beitreten"} {
		if dash := page(t, teacher, p.base+paths.Teacher.For(code), lang); !strings.Contains(dash, want) {
			t.Errorf("%s: the dashboard does not say %q", lang, want)
		}
		screen := page(t, teacher, p.base+paths.TeacherProjector.Page.For(code), lang)
		if strings.Contains(screen, "localhost") || strings.Contains(screen, "127.0.0.1") || strings.Contains(screen, `data-testid="projector-qr"`) {
			t.Errorf("%s: the shared screen shows a localhost address or its QR code", lang)
		}
		if !strings.Contains(screen, `data-testid="projector-alone"`) || !strings.Contains(screen, code) {
			t.Errorf("%s: the shared screen does not say that no device can join yet, beside the code", lang)
		}
	}
	if len(p.browsed(t)) != 0 {
		t.Errorf("--no-browser opened the browser at %v", p.browsed(t))
	}

	other := startClassroom(t, bin, newDesk(t), false, "--addr", ":0", "--no-browser", "--public-url", "http://198.51.100.7:8080")
	code, teacher = teacherOf(t, other.base)
	if dash := page(t, teacher, other.base+paths.Teacher.For(code), "en"); !strings.Contains(dash, "may not reach http://198.51.100.7:8080: it is not an address of this computer") {
		t.Error("the dashboard does not say that the public address is not this computer's")
	}
}

// TestAPortTakenTakesTheNext: a classroom start whose port another
// program holds takes the next free one, and says so.
func TestAPortTakenTakesTheNext(t *testing.T) {
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	taken, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	p := startClassroom(t, bin, newDesk(t), false, "--addr", fmt.Sprintf(":%d", port), "--no-browser")
	_, got, _ := net.SplitHostPort(strings.TrimPrefix(p.base, "http://"))
	n, _ := strconv.Atoi(got)
	if n <= port || n >= port+classroomPorts {
		t.Errorf("port %d taken: pigclass serves at %d, want one of the next %d", port, n, classroomPorts-1)
	}
	if want := fmt.Sprintf("Port %d is taken by another program on this computer, so pigclass uses port %d.", port, n); !strings.Contains(p.words, want) {
		t.Errorf("the words do not say %q:\n%s", want, p.words)
	}
	waitHealthy(t, p.base, 10*time.Second)
}

// TestASecondStartOpensTheFirst: a second double-click while pigclass
// runs opens the browser at the one that runs and ends; no second server,
// no second database. Once the first is stopped, a start serves again.
func TestASecondStartOpensTheFirst(t *testing.T) {
	t.Parallel()
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	d := newDesk(t)
	first := startClassroom(t, bin, d, false, "--addr", ":0", "--no-browser")
	public := joinAt.FindStringSubmatch(first.words)[1]
	second := startClassroom(t, bin, d, true, "--addr", ":0")
	select {
	case err := <-second.exited:
		if err != nil {
			t.Fatalf("the second start: %v\n%s", err, second.stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the second start still runs after 10 s")
	}
	if !strings.Contains(second.words, "pigclass is already running on this computer, with the same classes: "+public+"/") {
		t.Errorf("the second start said:\n%s", second.words)
	}
	if got := second.browsed(t); !slices.Equal(got, []string{public + "/"}) {
		t.Errorf("the second start opened %q, want the first's front page %s/", got, public)
	}
	if strings.Contains(second.stderr.String(), "pigclass is serving") {
		t.Error("the second start served")
	}
	waitHealthy(t, first.base, 5*time.Second)

	first.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-first.exited; err != nil {
		t.Fatalf("the first, stopped: %v", err)
	}
	if _, err := os.Stat(filepath.Join(d.config(), "pigclass", "pigclass.db.running")); !os.IsNotExist(err) {
		t.Errorf("the running file stays after a clean stop: %v", err)
	}
	third := startClassroom(t, bin, d, false, "--addr", ":0", "--no-browser")
	waitHealthy(t, third.base, 10*time.Second)
}

// TestAnOldDatabaseStaysInUse: a pigclass.db beside the program, made by
// an earlier pigclass, is the one a classroom start uses (and says so),
// with its classes; nothing is made in the user's data folder.
func TestAnOldDatabaseStaysInUse(t *testing.T) {
	t.Parallel()
	built, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "pigclass")
	b, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "pigclass.db")
	before := startServe(t, bin, "--addr", "127.0.0.1:0", "--db", old)
	code, teacher := teacherOf(t, before.base)
	before.cmd.Process.Signal(syscall.SIGTERM)
	before.cmd.Wait()

	d := newDesk(t)
	p := startClassroom(t, bin, d, false, "--addr", ":0", "--no-browser")
	if want := "Classes are kept in " + old + ", beside this program"; !strings.Contains(p.words, want) {
		t.Errorf("the words do not say %q:\n%s", want, p.words)
	}
	// The teacher's browser: a cookie is the computer's, whatever the port.
	if dash := page(t, teacher, p.base+paths.Teacher.For(code), "en"); !strings.Contains(dash, code) {
		t.Errorf("the class %s of the old file is not there", code)
	}
	if _, err := os.Stat(filepath.Join(d.config(), "pigclass", "pigclass.db")); err == nil {
		t.Error("a new database was made in the user's data folder beside the old one")
	}
}

// TestInterruptLosesNothing (issue 78, item 7): Ctrl+C (SIGINT) in the
// middle of a round stops a classroom start cleanly and soon: every move
// it acknowledged is stored, and once started again every student plays
// on (the matches are restored).
func TestInterruptLosesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays a load across a stop")
	}
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	d := newDesk(t)
	addr := freeAddr(t)
	args := []string{"--addr", addr, "--no-browser", "--moves-per-second", "1000"}
	first := startClassroom(t, bin, d, false, args...)
	var stopped struct {
		sync.Mutex
		took time.Duration
		err  error
	}
	restarted := make(chan struct{})
	time.AfterFunc(2500*time.Millisecond, func() {
		defer close(restarted)
		begin := time.Now()
		first.cmd.Process.Signal(os.Interrupt)
		err := <-first.exited
		stopped.Lock()
		stopped.took, stopped.err = time.Since(begin), err
		stopped.Unlock()
		startClassroom(t, bin, d, false, args...)
	})
	rep, err := loadtest(context.Background(), loadConfig{url: "http://" + addr, students: 30, duration: 7 * time.Second, teachers: 1, target: 100, holdAt: 20, seed: 11}, io.Discard)
	<-restarted
	if err != nil {
		t.Fatal(err)
	}
	stopped.Lock()
	defer stopped.Unlock()
	if stopped.err != nil {
		t.Errorf("Ctrl+C: %v, want a clean exit\n%s", stopped.err, first.stderr)
	}
	if stopped.took > 6*time.Second {
		t.Errorf("Ctrl+C took %s to stop", stopped.took)
	}
	if !strings.Contains(first.stderr.String(), "pigclass stopped") {
		t.Errorf("the log does not say it stopped:\n%s", first.stderr)
	}
	t.Logf("stopped in %s; %d actions, %d stored, errors %v", stopped.took.Round(time.Millisecond), rep.Actions, rep.Stored, rep.Errors)
	if rep.Lost != 0 || rep.Doubled != 0 || rep.Stored < rep.Actions || rep.Actions == 0 {
		t.Errorf("%d acknowledged, %d stored: %d lost, %d doubled", rep.Actions, rep.Stored, rep.Lost, rep.Doubled)
	}
	for status, n := range rep.Errors {
		if status != "transport" && status != "503" {
			t.Errorf("%d answers %s", n, status)
		}
	}
	if rep.Stalled != 0 {
		t.Errorf("%d of %d students did not play on after the restart: %v", rep.Stalled, rep.Joined, rep.StalledLast)
	}
}
