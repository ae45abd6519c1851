package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// loadConfig is what pigclass loadtest runs.
type loadConfig struct {
	url      string        // a running server, on loopback only
	students int           // simulated students
	duration time.Duration // how long they play (joins and the check come on top)
	thinkMin time.Duration // think time between moves, drawn from [thinkMin, thinkMax]
	thinkMax time.Duration
	teachers int           // teacher screens polling the dashboard's live part
	every    time.Duration // a new round this often, as a lesson moves on (0: when all matches are over)
	target   int           // Pig's target
	holdAt   int           // every student holds at this turn total
	json     bool          // one JSON object instead of text
	seed     uint64        // for the think times
	// poll, for a load shaped as browsers make it: every student joins at
	// once (as fast as the server takes them), polls the class page this
	// often while waiting for a match (from their join on), and loads the
	// page a move's form leads to; teacher screens poll the projector's
	// live part too. 0: the students wait on /next, 32 join at a time.
	poll time.Duration
	// push, with poll: the pages hold their event streams, as browsers
	// with JavaScript do, and fetch when told to look: a student waiting
	// for the next round, a teacher screen's live parts. A page that
	// hears nothing polls every pushFallback.
	push bool
}

// pushFallback is how often a page that holds its stream asks anyway.
const pushFallback = 10 * time.Second

func runLoadtest(e env, args []string) error {
	fs := newFlags(e, "loadtest", "--url http://127.0.0.1:8080 [--students N] [--duration D] [--think MIN-MAX] [--teachers N] [--rounds-every D] [--poll D [--push]] [--json]")
	var cfg loadConfig
	var think string
	fs.StringVar(&cfg.url, "url", "http://127.0.0.1:8080", "a running pigclass server, on loopback (127.0.0.0/8 or ::1) only")
	fs.IntVar(&cfg.students, "students", 100, "simulated students, each with their own cookies (1 to 5000)")
	fs.DurationVar(&cfg.duration, "duration", 30*time.Second, "how long the students play (10ms to 1h)")
	fs.StringVar(&think, "think", "0", "think time between moves: 0, a duration, or MIN-MAX such as 1s-3s")
	fs.IntVar(&cfg.teachers, "teachers", 1, "teacher screens polling the dashboard's live part every second (0 to 20)")
	fs.DurationVar(&cfg.every, "rounds-every", 0, "start a new round this often, ending the matches still played, as a lesson moves on (0: once every match is over; else 1s to 10m)")
	fs.IntVar(&cfg.target, "target", 100, "Pig's target (10 to 200)")
	fs.IntVar(&cfg.holdAt, "hold-at", 20, "the turn total at which every student holds (1 to 100)")
	fs.BoolVar(&cfg.json, "json", false, "print one JSON object")
	fs.Uint64Var(&cfg.seed, "seed", 1, "seed of the think times")
	fs.DurationVar(&cfg.poll, "poll", 0, "a load shaped as browsers left open make it: every student joins at once, polls the class page this often while waiting (e.g. 500ms), and loads the page each move leads to; teacher screens poll the projector too (0: off; else 100ms to 10s)")
	fs.BoolVar(&cfg.push, "push", false, "with --poll: every page holds its event stream and fetches when told to, as browsers with JavaScript do, instead of polling")
	if err := parse(fs, args); err != nil {
		return err
	}
	var err error
	if cfg.push && cfg.poll == 0 {
		return usagef("loadtest: --push goes with --poll (the load shaped as browsers make it)")
	}
	if cfg.thinkMin, cfg.thinkMax, err = parseThink(think); err != nil {
		return usagef("loadtest: --think %q: %v", think, err)
	}
	switch {
	case cfg.students < 1 || cfg.students > 5000:
		return usagef("loadtest: --students %d: from 1 to 5000", cfg.students)
	case cfg.duration < 10*time.Millisecond || cfg.duration > time.Hour:
		return usagef("loadtest: --duration %s: from 10ms to 1h", cfg.duration)
	case cfg.every != 0 && (cfg.every < time.Second || cfg.every > 10*time.Minute):
		return usagef("loadtest: --rounds-every %s: 0, or from 1s to 10m", cfg.every)
	case cfg.teachers < 0 || cfg.teachers > 20:
		return usagef("loadtest: --teachers %d: from 0 to 20", cfg.teachers)
	case cfg.target < 10 || cfg.target > 200:
		return usagef("loadtest: --target %d: from 10 to 200", cfg.target)
	case cfg.holdAt < 1 || cfg.holdAt > 100:
		return usagef("loadtest: --hold-at %d: from 1 to 100", cfg.holdAt)
	case cfg.poll != 0 && (cfg.poll < 100*time.Millisecond || cfg.poll > 10*time.Second):
		return usagef("loadtest: --poll %s: 0, or from 100ms to 10s", cfg.poll)
	}
	if err := checkLoopback(cfg.url); err != nil {
		return usagef("loadtest: --url %s: %v", cfg.url, err)
	}
	rep, err := loadtest(e.ctx, cfg, e.stderr)
	if err != nil {
		return err
	}
	if cfg.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		rep.print(e.stdout)
	}
	if !rep.OK {
		return fmt.Errorf("loadtest: %s", rep.Problem)
	}
	return nil
}

// parseThink reads "0", "2s" or "1s-3s".
func parseThink(s string) (time.Duration, time.Duration, error) {
	lo, hi, ranged := strings.Cut(s, "-")
	a, err := time.ParseDuration(strings.TrimSpace(lo))
	if err != nil && strings.TrimSpace(lo) != "0" {
		return 0, 0, err
	}
	if !ranged {
		return a, a, nil
	}
	b, err := time.ParseDuration(strings.TrimSpace(hi))
	if err != nil {
		return 0, 0, err
	}
	if b < a || a < 0 || b > time.Minute {
		return 0, 0, errors.New("MIN-MAX with 0 <= MIN <= MAX <= 1m")
	}
	return a, b, nil
}

// checkLoopback refuses any address but this machine's loopback: the load
// is never sent anywhere else.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return errors.New("give an address like http://127.0.0.1:8080")
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s is not a loopback address (127.0.0.1, ::1 or localhost): the load test runs on this machine only", host)
	}
	return nil
}

// latency collects durations.
type latency struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latency) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

// Latency is a summary in milliseconds.
type Latency struct {
	N                  int
	P50, P95, P99, Max float64
}

func (l *latency) summary() Latency {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.d) == 0 {
		return Latency{}
	}
	s := slices.Clone(l.d)
	slices.Sort(s)
	q := func(p float64) float64 {
		return float64(s[min(len(s)-1, int(p*float64(len(s))))]) / 1e6
	}
	return Latency{N: len(s), P50: q(.50), P95: q(.95), P99: q(.99), Max: float64(s[len(s)-1]) / 1e6}
}

// LoadReport is what loadtest measured; --json prints it.
type LoadReport struct {
	Students       int
	Joined         int
	JoinSeconds    float64
	JoinsPerSecond float64
	Seconds        float64 // of play
	Rounds         int
	// Acknowledged actions: moves the server answered as stored.
	Actions          int
	ActionsPerSecond float64
	// LongestPause is the longest time, in seconds, the class went without
	// an acknowledged move while it played: how long a restart or a
	// takeover held the class up.
	LongestPause float64
	Action       Latency // a move, from the post to its answer
	Page         Latency // the student's class page
	Dashboard    Latency // the teacher's live part (204 when unchanged)
	Projector    Latency `json:",omitzero"` // the projector's live part (--poll)
	Board        Latency `json:",omitzero"` // a board's poll, or its fetch when told (--poll)
	// Requests counts the requests the server answered while the class
	// played (an event stream opened counts one), and RequestsPerSecond
	// them by the seconds of play; Streams the most event streams held at
	// once (--push).
	Requests          int
	RequestsPerSecond float64
	Streams           int
	Join              Latency // a join, from the post to its answer
	// Errors counts answers 5xx and failed requests by status ("transport"
	// for a connection that failed).
	Errors map[string]int
	// Refused counts moves answered 4xx (a round ended under them).
	Refused int
	// Stalled counts students with no acknowledged move in the last two
	// seconds of play (plus a think time) who were not waiting for the
	// next round: a match that did not go on.
	Stalled int
	// StalledLast is, for each stalled student, the last answer they had:
	// what a failing run says about why.
	StalledLast []string `json:"stalled_last,omitempty"`
	// The check through the teacher's decisions.csv: every acknowledged
	// action stored exactly once.
	Stored  int
	Lost    int
	Doubled int
	OK      bool
	Problem string `json:",omitempty"`

	// Code is the class the load played in, and Teacher its teacher's
	// cookies (for a test to read the class's files afterwards).
	Code    string         `json:"-"`
	Teacher http.CookieJar `json:"-"`
}

func (r *LoadReport) print(w io.Writer) {
	fmt.Fprintf(w, "students %d, joined %d in %.2f s (%.0f joins/s)\n", r.Students, r.Joined, r.JoinSeconds, r.JoinsPerSecond)
	fmt.Fprintf(w, "played %.1f s, %d rounds: %d acknowledged actions (%.0f/s), %d refused, %d students stalled; longest pause %.2f s\n", r.Seconds, r.Rounds, r.Actions, r.ActionsPerSecond, r.Refused, r.Stalled, r.LongestPause)
	for _, l := range []struct {
		name string
		l    Latency
	}{{"join", r.Join}, {"action", r.Action}, {"student page", r.Page}, {"board poll", r.Board}, {"dashboard live", r.Dashboard}, {"projector live", r.Projector}} {
		if l.l.N == 0 && (l.name == "projector live" || l.name == "board poll") {
			continue
		}
		fmt.Fprintf(w, "%-15s n=%-7d p50 %7.2f ms  p95 %7.2f ms  p99 %7.2f ms  max %7.2f ms\n", l.name, l.l.N, l.l.P50, l.l.P95, l.l.P99, l.l.Max)
	}
	fmt.Fprintf(w, "requests answered while playing: %d (%.0f/s), event streams held: %d\n", r.Requests, r.RequestsPerSecond, r.Streams)
	fmt.Fprintf(w, "errors %v\n", r.Errors)
	fmt.Fprintf(w, "check: %d stored, %d lost, %d doubled: %s\n", r.Stored, r.Lost, r.Doubled, map[bool]string{true: "ok", false: "FAILED " + r.Problem}[r.OK])
}

// loadRun is one run's shared state.
type loadRun struct {
	cfg       loadConfig
	base      string
	transport *http.Transport
	code      string
	teacher   *http.Client

	action, page, dash, proj, join, board latency
	mu                                    sync.Mutex
	errors                                map[string]int
	notes                                 []string // the first transport errors
	refused                               atomic.Int64
	acked                                 atomic.Int64
	lastAck, longestPause                 atomic.Int64 // nanoseconds: the time of the last acknowledged move, the longest gap between two
	waiting                               atomic.Int64 // students whose match is over
	round                                 atomic.Int64 // rounds started
	requests, streams, peak               atomic.Int64 // requests answered; event streams held now, and at most (--push)
}

// client returns a client with its own cookies that does not follow
// redirects (the load reads them as a browser would, one at a time).
func (l *loadRun) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Transport: l.transport, Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// note keeps the first few transport errors, to say what they were.
func (l *loadRun) note(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.notes) < 3 {
		l.notes = append(l.notes, err.Error())
	}
}

// fail counts a failed request: a status, or "transport".
func (l *loadRun) fail(what string) {
	l.mu.Lock()
	l.errors[what]++
	l.mu.Unlock()
}

// do sends a request and reads the whole answer. A 5xx or a transport
// failure is counted as an error.
func (l *loadRun) do(c *http.Client, method, path string, form url.Values) (int, string, http.Header, error) {
	return l.send(c, method, path, form, false)
}

// send is do, for a request a look caused (look) or not.
func (l *loadRun) send(c *http.Client, method, path string, form url.Values, look bool) (int, string, http.Header, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, l.base+path, body)
	if err != nil {
		return 0, "", nil, err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if look {
		req.Header.Set("X-Pigclass-Look", "1") // as app.js marks a look's requests
	}
	resp, err := c.Do(req)
	if err != nil {
		l.fail("transport")
		l.note(err)
		return 0, "", nil, err
	}
	l.requests.Add(1)
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		l.fail("transport")
		return 0, "", nil, err
	}
	if resp.StatusCode >= 500 {
		l.fail(strconv.Itoa(resp.StatusCode))
	}
	return resp.StatusCode, string(b), resp.Header, nil
}

// joinAll has the students join the class, 32 at a time (with --poll,
// all at once), and notes how many did and how fast. With --poll each
// student then polls their class page until the time is up (playing: see
// play) from the moment they joined, on ctx; playing waits for them.
func (l *loadRun) joinAll(ctx context.Context, rep *LoadReport, playing *sync.WaitGroup) []*loadStudent {
	students := make([]*loadStudent, l.cfg.students)
	start := time.Now()
	var wg sync.WaitGroup
	at := 32
	if l.cfg.poll > 0 {
		at = len(students)
	}
	sem := make(chan struct{}, at)
	for i := range students {
		s := &loadStudent{l: l, c: l.client(), nick: fmt.Sprintf("load%04d", i), rng: rand.New(rand.NewPCG(l.cfg.seed, uint64(i)))}
		students[i] = s
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			if s.joined = s.join(); s.joined && l.cfg.poll > 0 {
				if l.cfg.push {
					s.looks = l.listen(ctx, s.c, "/c/"+l.code+"/events")
				}
				playing.Go(func() { s.play(ctx) })
			}
		})
	}
	wg.Wait()
	rep.JoinSeconds = time.Since(start).Seconds()
	for _, s := range students {
		if s.joined {
			rep.Joined++
		}
	}
	rep.JoinsPerSecond = float64(rep.Joined) / rep.JoinSeconds
	return students
}

// loadtest runs the whole load: a class, its students joining, rounds of
// Pig against hold:20 while teacher screens poll, then the check.
func loadtest(ctx context.Context, cfg loadConfig, progress io.Writer) (*LoadReport, error) {
	l := &loadRun{cfg: cfg, base: strings.TrimRight(cfg.url, "/"), errors: map[string]int{},
		transport: &http.Transport{MaxIdleConns: 0, MaxIdleConnsPerHost: cfg.students + cfg.teachers + 10, IdleConnTimeout: time.Minute}}
	defer l.transport.CloseIdleConnections()
	rep := &LoadReport{Students: cfg.students}

	l.teacher = l.client()
	status, _, h, err := l.do(l.teacher, http.MethodPost, "/classes", url.Values{})
	if err != nil || status != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), "/t/") {
		return nil, fmt.Errorf("loadtest: starting a class at %s: status %d, %v", l.base, status, err)
	}
	l.code = strings.TrimPrefix(h.Get("Location"), "/t/")
	// A class takes a limited number of joins a minute until its teacher
	// allows more, as a teacher expecting a whole school would.
	if status, _, _, err := l.do(l.teacher, http.MethodPost, "/t/"+l.code+"/joins/unlimited", url.Values{}); err != nil || status != http.StatusSeeOther {
		return nil, fmt.Errorf("loadtest: allowing joins: status %d, %v", status, err)
	}

	// With --poll the students play (polling while they wait) from their
	// join on; the time of play counts from the round's start.
	playCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	students := l.joinAll(playCtx, rep, &wg)
	if rep.Joined == 0 {
		stop()
		return nil, errors.New("loadtest: no student could join")
	}
	fmt.Fprintf(progress, "loadtest: class %s, %d students joined; playing for %s\n", l.code, rep.Joined, cfg.duration)

	if err := l.startRound(); err != nil {
		stop()
		return nil, err
	}
	timer := time.AfterFunc(cfg.duration, stop)
	defer timer.Stop()
	start := time.Now()
	l.requests.Store(0)
	for _, s := range students {
		if s.joined && cfg.poll == 0 {
			wg.Go(func() { s.play(playCtx) })
		}
	}
	for range cfg.teachers {
		wg.Go(func() { l.pollLive(playCtx, "/live", &l.dash) })
		if cfg.poll > 0 {
			wg.Go(func() { l.pollLive(playCtx, "/projector/live", &l.proj) })
		}
	}
	wg.Go(func() { l.nextRounds(playCtx, rep.Joined) })
	wg.Wait()
	end := time.Now()
	rep.Requests, rep.Streams = int(l.requests.Load()), int(l.peak.Load())
	rep.RequestsPerSecond = float64(rep.Requests) / end.Sub(start).Seconds()
	l.summarize(students, rep, start, end)
	rep.Errors = l.errors
	rep.Code, rep.Teacher = l.code, l.teacher.Jar
	for _, n := range l.notes {
		fmt.Fprintf(progress, "loadtest: %s\n", n)
	}
	if err := l.check(students, rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// summarize fills the report with the play from start to end: its
// figures, and the students stalled at the end.
func (l *loadRun) summarize(students []*loadStudent, rep *LoadReport, start, end time.Time) {
	rep.Seconds = end.Sub(start).Seconds()
	for _, s := range students {
		if s.joined && !s.waiting && (s.lastAck.IsZero() || end.Sub(s.lastAck) > 2*time.Second+l.cfg.thinkMax) {
			rep.Stalled++
			rep.StalledLast = append(rep.StalledLast, fmt.Sprintf("%s: %s, %s before the end", s.nick, s.last, end.Sub(s.lastAck).Round(time.Millisecond)))
		}
	}
	rep.Rounds = int(l.round.Load())
	rep.Actions = int(l.acked.Load())
	rep.LongestPause = time.Duration(l.longestPause.Load()).Seconds()
	rep.ActionsPerSecond = float64(rep.Actions) / rep.Seconds
	rep.Refused = int(l.refused.Load())
	rep.Action, rep.Page, rep.Dashboard, rep.Projector, rep.Join, rep.Board = l.action.summary(), l.page.summary(), l.dash.summary(), l.proj.summary(), l.join.summary(), l.board.summary()
}

// startRound starts a round of Pig against hold:20 for every student.
func (l *loadRun) startRound() error {
	status, body, _, err := l.do(l.teacher, http.MethodPost, "/t/"+l.code+"/rounds", url.Values{"game": {"pig"}, "target": {strconv.Itoa(l.cfg.target)},
		"mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	if err != nil {
		return fmt.Errorf("loadtest: starting a round: %w: %w", errNoAnswer, err)
	}
	if status >= 500 {
		// Not started (an instance stopping, a district handing the
		// class over): asked again.
		return fmt.Errorf("loadtest: starting a round: %w: status %d", errNoAnswer, status)
	}
	if status != http.StatusSeeOther {
		return fmt.Errorf("loadtest: starting a round: status %d, %v %.200s", status, err, body)
	}
	l.waiting.Store(0)
	l.round.Add(1)
	return nil
}

// nextRounds starts a new round once every student's match is over, or
// every --rounds-every whatever is being played. A server that does not
// answer (restarting) is asked again.
func (l *loadRun) nextRounds(ctx context.Context, joined int) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			due := int(l.waiting.Load()) >= joined
			if l.cfg.every > 0 {
				due = time.Since(last) >= l.cfg.every
			}
			if due {
				last = time.Now()
				if err := l.startRound(); err != nil && !errors.Is(err, errNoAnswer) {
					l.fail("round")
					l.note(err)
					return
				}
			}
		}
	}
}

// errNoAnswer is a request the server did not answer (counted already).
var errNoAnswer = errors.New("no answer")

// dashPoll finds the live part's own poll address in a dashboard answer.
var dashPoll = regexp.MustCompile(`id="dash-live" hx-get="([^"]+)"`)

// pollLive is a teacher screen's live part (the dashboard's, /live, or
// the projector's, /projector/live) every second, into its latencies; a
// part that names its own next poll address (the dashboard's, with the
// version it shows, as htmx polls it) is followed.
func (l *loadRun) pollLive(ctx context.Context, part string, into *latency) {
	path := "/t/" + l.code + part
	every := time.Second
	var looks <-chan string
	if l.cfg.push {
		// The screen's page holds its stream and fetches when told.
		every, looks = pushFallback, l.listen(ctx, l.teacher, "/t/"+l.code+"/events")
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		looked := false
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-looks:
			looked = true
		}
		begin := time.Now()
		status, body, _, err := l.send(l.teacher, http.MethodGet, path, nil, looked)
		if err != nil {
			continue
		}
		into.add(time.Since(begin))
		if status != http.StatusOK {
			continue // 204: nothing new
		}
		if m := dashPoll.FindStringSubmatch(body); m != nil {
			path = strings.ReplaceAll(m[1], "&amp;", "&")
		}
	}
}

// check reads decisions.csv as the teacher and compares each student's
// stored decisions with their acknowledged ones.
func (l *loadRun) check(students []*loadStudent, rep *LoadReport) error {
	status, body, _, err := l.do(l.teacher, http.MethodGet, "/t/"+l.code+"/decisions.csv?names=real", nil)
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("loadtest: reading decisions.csv: status %d, %v", status, err)
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(rows) == 0 {
		return fmt.Errorf("loadtest: decisions.csv: %v", err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	stored := map[string]int{}
	for _, r := range rows[1:] {
		if r[col["by"]] == "student" {
			stored[r[col["student"]]]++
			rep.Stored++
		}
	}
	for _, s := range students {
		got, acked, unknown := stored[s.nick], int(s.acked), int(s.unknown)
		rep.Lost += max(0, acked-got)
		rep.Doubled += max(0, got-acked-unknown)
	}
	rep.OK = rep.Lost == 0 && rep.Doubled == 0 && len(rep.Errors) == 0 && rep.Actions > 0
	if !rep.OK {
		rep.Problem = fmt.Sprintf("%d lost, %d doubled, errors %v, %d actions", rep.Lost, rep.Doubled, rep.Errors, rep.Actions)
	}
	return nil
}

// listen holds the event stream at path for a page with c's cookies
// until ctx ends: each "look" it says is passed on with its data (at
// most one waiting),
// as a page's live parts fetch when told. A stream that ends is opened
// again after a second, as a browser does.
func (l *loadRun) listen(ctx context.Context, c *http.Client, path string) <-chan string {
	looks := make(chan string, 1)
	stream := &http.Client{Transport: l.transport, Jar: c.Jar} // no timeout: it stays open
	go func() {
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, l.base+path, nil)
			resp, err := stream.Do(req)
			if err == nil {
				l.requests.Add(1)
				for n := l.streams.Add(1); ; {
					if p := l.peak.Load(); n <= p || l.peak.CompareAndSwap(p, n) {
						break
					}
				}
				sc := bufio.NewScanner(resp.Body)
				look := false
				for sc.Scan() {
					line := sc.Text()
					if data, ok := strings.CutPrefix(line, "data: "); ok && look {
						select {
						case looks <- data:
						default: // one look waiting is as good as two: keep the first
						}
					}
					look = line == "event: look"
				}
				resp.Body.Close()
				l.streams.Add(-1)
			}
			sleep(ctx, time.Second)
		}
	}()
	return looks
}

// loadStudent is one simulated student: a browser without JavaScript
// (with --push, one with: it holds its page's event stream).
type loadStudent struct {
	l       *loadRun
	looks   <-chan string // the page's stream's looks and what they say (--push)
	c       *http.Client
	nick    string
	rng     *rand.Rand
	joined  bool
	acked   int64 // moves answered as stored
	unknown int64 // moves whose answer never came (stored or not)
	lastAck time.Time
	waiting bool   // at the end: the match was over, the next round not begun
	last    string // the last answer: a request and its status, or its error
}

func (s *loadStudent) join() bool {
	begin := time.Now()
	status, _, h, err := s.l.do(s.c, http.MethodPost, "/join/"+s.l.code, url.Values{"code": {s.l.code}, "nickname": {s.nick}})
	if err == nil {
		s.l.join.add(time.Since(begin))
	}
	return err == nil && status == http.StatusSeeOther && h.Get("Location") == "/c/"+s.l.code
}

// What a student reads on their class page.
var (
	boardSeq  = regexp.MustCompile(`data-testid="board" data-seq="(\d+)"`)
	boardAct  = regexp.MustCompile(`<form method="post" action="(/c/[^"]+/act)"`)
	turnTotal = regexp.MustCompile(`data-testid="turn-total">(\d+)<`)
	boardPoll = regexp.MustCompile(`data-testid="board" data-seq="\d+" hx-get="([^"]+)"`)
)

// play loops: read the class page, move, until the time is up. A finished
// match waits for the next round by polling /next, as the page does.
func (s *loadStudent) play(ctx context.Context) {
	home := "/c/" + s.l.code
	over := false
	if hi := s.l.cfg.thinkMax; hi > 0 {
		// Students thinking do not all look at once: each starts at a
		// moment of their own within one think time.
		sleep(ctx, time.Duration(s.rng.Int64N(int64(hi))))
	}
	for ctx.Err() == nil {
		begin := time.Now()
		status, body, _, err := s.l.do(s.c, http.MethodGet, home, nil)
		s.last = fmt.Sprintf("GET %s: %d %v", home, status, err)
		if err != nil {
			sleep(ctx, 100*time.Millisecond)
			continue
		}
		s.l.page.add(time.Since(begin))
		if status != http.StatusOK {
			sleep(ctx, 100*time.Millisecond)
			continue
		}
		seq, act := boardSeq.FindStringSubmatch(body), boardAct.FindStringSubmatch(body)
		if seq == nil || act == nil {
			if !over && s.l.round.Load() > 0 {
				over = true
				s.l.waiting.Add(1)
			}
			s.waiting = true
			switch {
			case s.looks != nil:
				s.waitLook(ctx) // told when the next round begins
			case s.l.cfg.poll > 0:
				sleep(ctx, s.l.cfg.poll) // a browser left open reloads its page
			default:
				s.waitNext(ctx)
			}
			continue
		}
		over, s.waiting = false, false
		total := 0
		if m := turnTotal.FindStringSubmatch(body); m != nil {
			total, _ = strconv.Atoi(m[1])
		}
		action := "roll"
		if total >= s.l.cfg.holdAt {
			action = "hold"
		}
		if m := boardPoll.FindStringSubmatch(body); m != nil && s.l.cfg.poll > 0 {
			s.thinkWatching(ctx, strings.ReplaceAll(m[1], "&amp;", "&"))
		} else {
			s.think(ctx)
		}
		if ctx.Err() != nil {
			return
		}
		s.move(act[1], seq[1], action)
	}
}

// move posts the student's action at the board's seq and counts its
// answer: acknowledged, refused, or unknown (stored or not).
func (s *loadStudent) move(act, seq, action string) {
	begin := time.Now()
	status, _, _, err := s.l.do(s.c, http.MethodPost, act, url.Values{"seq": {seq}, "action": {action}})
	s.last = fmt.Sprintf("POST %s %s: %d %v", act, action, status, err)
	switch {
	case err != nil:
		s.unknown++
	case status == http.StatusSeeOther:
		s.l.action.add(time.Since(begin))
		s.acked++
		s.lastAck = time.Now()
		s.l.acked.Add(1)
		s.l.acknowledged(s.lastAck)
	case status == http.StatusBadGateway || status == http.StatusGatewayTimeout:
		// A proxy's answer for an instance that stopped with the move in
		// hand: stored or not, nobody knows.
		s.unknown++
	case status < 500:
		s.l.refused.Add(1)
	}
}

// acknowledged notes an acknowledged move at now, and the pause before it.
func (l *loadRun) acknowledged(now time.Time) {
	at := now.UnixNano()
	if prev := l.lastAck.Swap(at); prev != 0 {
		for gap := at - prev; ; {
			longest := l.longestPause.Load()
			if gap <= longest || l.longestPause.CompareAndSwap(longest, gap) {
				break
			}
		}
	}
}

// think waits the student's think time.
func (s *loadStudent) think(ctx context.Context) {
	if s.l.cfg.thinkMax <= 0 {
		return
	}
	sleep(ctx, s.thinkTime())
}

// thinkTime draws the student's next think time from [thinkMin, thinkMax].
func (s *loadStudent) thinkTime() time.Duration {
	lo, hi := s.l.cfg.thinkMin, s.l.cfg.thinkMax
	d := lo
	if hi > lo {
		d += time.Duration(s.rng.Int64N(int64(hi - lo)))
	}
	return d
}

// thinkWatching is think for a page a browser keeps open: its board
// (at poll) polls itself every 2 s meanwhile, as htmx does while it is
// the student's turn, or with --push fetches itself when its stream
// says look.
func (s *loadStudent) thinkWatching(ctx context.Context, poll string) {
	done := time.NewTimer(s.thinkTime())
	defer done.Stop()
	every := time.NewTicker(2 * time.Second)
	defer every.Stop()
	for {
		look := false
		select {
		case <-ctx.Done():
			return
		case <-done.C:
			return
		case <-every.C:
			if s.looks != nil {
				continue // the stream tells; the poll is held back
			}
		case said := <-s.looks:
			// As app.js: a board that shows the version the look names
			// asks nothing (the look after the student's own move).
			if id, ver, ok := strings.Cut(said, "/"); ok && strings.Contains(poll, "/m/"+id+"/board?") && showsAtLeast(boardShows(poll), ver) {
				continue
			}
			look = true
		}
		begin := time.Now()
		if _, _, _, err := s.l.send(s.c, http.MethodGet, poll, nil, look); err == nil {
			s.l.board.add(time.Since(begin))
		}
	}
}

// boardShows is the version a board's poll address carries (its v).
func boardShows(poll string) string {
	if u, err := url.Parse(poll); err == nil {
		return u.Query().Get("v")
	}
	return ""
}

// showsAtLeast reports whether a board's version ("6.3": its match's
// and its class's) is said's or newer, as app.js compares them.
func showsAtLeast(shown, said string) bool {
	a, b := strings.Split(shown, "."), strings.Split(said, ".")
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, err1 := strconv.ParseInt(a[i], 10, 64)
		y, err2 := strconv.ParseInt(b[i], 10, 64)
		if err1 != nil || err2 != nil || x < y {
			return false
		}
	}
	return true
}

// waitLook waits until the page's stream says look (or pushFallback
// passes, or the time is up).
func (s *loadStudent) waitLook(ctx context.Context) {
	t := time.NewTimer(pushFallback)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-s.looks:
	case <-t.C:
	}
}

// waitNext polls /next until the next match begins (or the time is up).
func (s *loadStudent) waitNext(ctx context.Context) {
	for ctx.Err() == nil {
		status, _, _, err := s.l.do(s.c, http.MethodGet, "/c/"+s.l.code+"/next", nil)
		if err == nil && status == http.StatusOK {
			return
		}
		sleep(ctx, 200*time.Millisecond)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
