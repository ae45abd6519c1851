package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"pigclass/server"
	"pigclass/server/store"
)

// A classroom start is what a double-click (or `go run ./cmd/pigclass`)
// does: serve the class on this computer's network, say in words where
// students join, and open the teacher's browser (the guide, doc.go,
// "Running it for a classroom").

// classroomPorts is how many ports a classroom start tries, from its
// --addr's on, when one is taken by another program.
const classroomPorts = 20

// runClassroom serves the classroom until ctx ends.
func runClassroom(e env, args []string) error {
	cfg, noBrowser, err := parseClassroom(e, args)
	if err != nil {
		return err
	}
	place := dataPlace{db: cfg.db, why: "given"}
	if cfg.db == "" {
		if place, err = chooseData(dataFolders()); err != nil {
			return fmt.Errorf("classroom: %w", err)
		}
		cfg.db = place.db
	}
	browse := func(url string, wait time.Duration) bool { return !noBrowser && openBrowser(e.getenv, url, wait) }
	if !store.IsPostgres(cfg.db) {
		if m, ok := readRunning(cfg.db); ok && m.alive() {
			fmt.Fprintf(e.stdout, "pigclass is already running on this computer, with the same classes: %s\n", m.Public+"/")
			if browse(m.Public+"/", 5*time.Second) { // this start ends next: let the opener finish
				fmt.Fprintln(e.stdout, "Your browser opens it. This window can be closed.")
			} else {
				fmt.Fprintln(e.stdout, "Open that address in your browser. This window can be closed.")
			}
			return nil
		}
	}
	ln, err := listenFrom(cfg.addr)
	if err != nil {
		return fmt.Errorf("classroom: %w", err)
	}
	where := reachOf(ln.Addr(), cfg.publicURL, localInterfaces())
	if cfg.publicURL == "" {
		cfg.publicURL = where.public
	}
	log, err := newLog(e.stderr, cfg.logFormat, cfg.logLevel)
	if err != nil {
		ln.Close()
		return err
	}
	log.Info("pigclass starting", "version", server.BuildInfo().Short(), "build", server.BuildInfo().String())
	mark := running{Local: where.local, Public: cfg.publicURL, PID: os.Getpid()}
	cfg.serving = func() {
		mark.write(cfg.db)
		words := classroomWords{reach: where, wanted: cfg.addr, got: ln.Addr().String(), place: place}
		words.print(e.stdout)
		if browse(cfg.publicURL+"/", 0) {
			fmt.Fprintln(e.stdout, "Your browser opens the front page: press Start a class.")
		}
	}
	defer mark.remove(cfg.db)
	return serve(e.ctx, cfg, ln, log)
}

// parseClassroom reads a classroom start's flags: serve's, with the
// network's every address at 8080 and the database found by chooseData,
// and --no-browser.
func parseClassroom(e env, args []string) (serveConfig, bool, error) {
	fs := newFlags(e, "classroom", "[--no-browser] [--public-url URL] [serve's flags]")
	var cfg serveConfig
	fs.StringVar(&cfg.addr, "addr", envOr(e, "PIGCLASS_ADDR", ":8080"), fmt.Sprintf("address to listen on (env PIGCLASS_ADDR): every address of this computer, so that students' devices reach it; if its port is taken, the next free one of the %d after it", classroomPorts-1))
	fs.StringVar(&cfg.db, "db", e.getenv("PIGCLASS_DB"), "SQLite database file or a postgres:// URL (env PIGCLASS_DB; default: a pigclass.db beside this program or in the working folder if one is there, else pigclass.db in this user's folder for application data)")
	noBrowser := fs.Bool("no-browser", false, "do not open the teacher's browser (env PIGCLASS_NO_BROWSER=1; PIGCLASS_BROWSER names the program that opens it instead of the system's)")
	err := parseServeFlags(e, fs, &cfg, args)
	return cfg, *noBrowser, err
}

// listenFrom listens on addr, or, if its port is taken, on the next free
// port of the classroomPorts from it (a port of 0 is any free one).
func listenFrom(addr string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, usagef("classroom: --addr %q: write it as HOST:PORT, or :PORT for every address", addr)
	}
	first, err := strconv.Atoi(port)
	if err != nil || first < 0 || first > 65535 {
		return nil, usagef("classroom: --addr %q: the port is a number from 1 to 65535", addr)
	}
	ln, firstErr := net.Listen("tcp", addr)
	if firstErr == nil || first == 0 {
		return ln, firstErr
	}
	for p := first + 1; p < first+classroomPorts && p <= 65535; p++ {
		if ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p))); err == nil {
			return ln, nil
		}
	}
	return nil, fmt.Errorf("%w (and the %d ports after it): stop the program that holds them, or name another port with --addr", firstErr, classroomPorts-1)
}

// reach is where a classroom start can be reached: the address students
// type, the others they might, and the loopback address pigclass itself
// is asked at (a second start's question, running.alive).
type reach struct {
	public string       // the address students type (--public-url's, else the first reachable)
	others []netip.Addr // this computer's other reachable addresses
	local  string       // http://127.0.0.1:PORT, or the address listened on if not every one
	port   int
	// alone: no student's device can reach it (it listens on loopback
	// only, or this computer is on no network).
	alone bool
}

// reachOf works out where a server listening on addr is reached, given
// --public-url (if any) and this computer's interfaces.
func reachOf(addr net.Addr, publicURL string, ifs []netInterface) reach {
	tcp, _ := addr.(*net.TCPAddr)
	r := reach{port: tcp.Port}
	ip, _ := netip.AddrFromSlice(tcp.IP)
	ip = ip.Unmap()
	hostport := func(a string) string { return net.JoinHostPort(a, strconv.Itoa(r.port)) }
	var addrs []netip.Addr
	switch {
	case !ip.IsValid() || ip.IsUnspecified():
		addrs = reachable(ifs)
		r.local = "http://" + hostport("127.0.0.1")
	case ip.IsLoopback():
		r.local = "http://" + hostport(ip.String())
	default:
		addrs = []netip.Addr{ip}
		r.local = "http://" + hostport(ip.String())
	}
	switch {
	case publicURL != "":
		r.public = strings.TrimSuffix(publicURL, "/")
		r.others = addrs
	case len(addrs) > 0:
		r.public = "http://" + hostport(addrs[0].String())
		r.others = addrs[1:]
	default:
		r.public = "http://" + hostport("localhost")
	}
	r.alone = len(addrs) == 0
	return r
}

// classroomWords is what a classroom start tells the teacher, in the
// window it runs in.
type classroomWords struct {
	reach
	wanted, got string // the address asked for and the one listened on
	place       dataPlace
}

func (w classroomWords) print(out io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	p("")
	p("pigclass is running.")
	p("")
	if _, wantPort, _ := net.SplitHostPort(w.wanted); wantPort != "0" && wantPort != strconv.Itoa(w.port) {
		p("Port %s is taken by another program on this computer, so pigclass uses port %d.", wantPort, w.port)
		p("")
	}
	p("  Students join at:     %s/join", w.public)
	p("  The teacher opens:    %s/", w.public)
	if !strings.HasPrefix(w.public, "http://localhost:") {
		p("  (on this computer also http://localhost:%d/)", w.port)
	}
	p("")
	if w.alone {
		p("Students' devices cannot join yet: this computer is not on a network, or pigclass")
		p("listens on this computer alone. Connect it to the school's network (Wi-Fi or a")
		p("cable), then stop pigclass and start it again: it then shows the address to type.")
		p("")
	} else if len(w.others) > 0 {
		var o []string
		for _, a := range w.others {
			o = append(o, "http://"+net.JoinHostPort(a.String(), strconv.Itoa(w.port)))
		}
		p("This computer has other addresses too: %s.", strings.Join(o, ", "))
		p("If the students' devices are on that network, start pigclass with --public-url and that address.")
		p("")
	}
	switch w.place.why {
	case "beside":
		p("Classes are kept in %s, beside this program (an earlier pigclass made it there; it stays in use).", w.place.db)
	case "working":
		p("Classes are kept in %s, in the folder pigclass was started in (an earlier pigclass made it there; it stays in use).", w.place.db)
	default:
		p("Classes are kept in %s.", store.Redacted(w.place.db))
	}
	p("")
	p("Keep this window open while the class plays: closing it stops pigclass.")
	p("To stop pigclass, close this window or press Ctrl+C. Nothing is lost: the next start carries on.")
	p("")
}

// running is what a classroom start writes beside its database while it
// serves (the file DB.running), so that a second start opens the
// browser at this one and ends, instead of a second server.
type running struct {
	Local  string `json:"local"`  // where it is asked whether it still runs
	Public string `json:"public"` // where the browser is opened
	PID    int    `json:"pid"`
}

func runningFile(db string) string { return db + ".running" }

func readRunning(db string) (running, bool) {
	var m running
	b, err := os.ReadFile(runningFile(db))
	if err != nil || json.Unmarshal(b, &m) != nil || m.Local == "" || m.Public == "" {
		return m, false
	}
	return m, true
}

// alive reports whether a pigclass answers at m.Local: a file left by a
// start that was killed names a server that is gone.
func (m running) alive() bool {
	if !strings.HasPrefix(m.Local, "http://") {
		return false
	}
	c := &http.Client{Timeout: 3 * time.Second}
	resp, err := c.Get(m.Local + "/healthz")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var h struct {
		Status, Version string
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&h) == nil && h.Version != ""
}

func (m running) write(db string) {
	b, _ := json.Marshal(m)
	os.WriteFile(runningFile(db), b, 0o600)
}

// remove takes the file away if it is still this process's.
func (m running) remove(db string) {
	if now, ok := readRunning(db); ok && now.PID == m.PID {
		os.Remove(runningFile(db))
	}
}
