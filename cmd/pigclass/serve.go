package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	_ "net/http/pprof" // on PIGCLASS_PPROF only: a loopback address of its own
	"net/netip"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"pigclass/server"
	"pigclass/server/store"
)

// serveConfig is the web app's configuration: flags, with environment
// variables as defaults.
type serveConfig struct {
	addr       string
	db         string
	key        string // the key file: beside a SQLite file unless given; required with Postgres
	publicURL  string
	codePrefix string
	moves      int    // moves a player may make a second (0: the server's default)
	retainDays int    // days a class is kept after its last activity (0: until deleted)
	metrics    string // where the metrics are served ("" for nowhere)
	// metricsHosts are the names, comma-separated, the metrics answer for
	// besides their address and localhost.
	metricsHosts string
	proxies      []netip.Prefix
	timeouts     timeouts // zero: defaultTimeouts
	// logFormat and logLevel are the log's (newLog).
	logFormat, logLevel string
	// serving, if set, is called once the server answers on ln, before it
	// serves its first request (a classroom start says so in words).
	serving func()
}

// timeouts bound every connection: a client that sends nothing, or half a
// request, or never reads, does not hold a descriptor for ever.
type timeouts struct {
	readHeader, read, write, idle time.Duration
	maxHeader                     int
}

// defaultTimeouts fit the app: small forms, pages in milliseconds, a
// class's export in seconds. A page's event stream (server.events) lifts
// the read deadline for itself and sets a write deadline for each event.
var defaultTimeouts = timeouts{readHeader: 10 * time.Second, read: 30 * time.Second, write: 2 * time.Minute, idle: 2 * time.Minute, maxHeader: 64 << 10}

func runServe(e env, args []string) error {
	cfg, err := parseServe(e, "serve", args)
	if err != nil {
		return err
	}
	log, err := newLog(e.stderr, cfg.logFormat, cfg.logLevel)
	if err != nil {
		return err
	}
	log.Info("pigclass starting", "version", server.BuildInfo().Short(), "build", server.BuildInfo().String())
	if e.getenv("GOMEMLIMIT") == "" {
		// A soft limit on Go's heap: past it the collector works harder
		// instead of letting a school's load grow the process (the guide, doc.go).
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	if addr := e.getenv("PIGCLASS_PPROF"); addr != "" {
		if err := checkLoopback("http://" + addr); err != nil {
			return usagef("serve: PIGCLASS_PPROF=%s: %v", addr, err)
		}
		// Where requests wait, too: one contended lock event in 5 and
		// every blocking of 100 µs or more are sampled (mutex and block
		// profiles).
		runtime.SetMutexProfileFraction(5)
		runtime.SetBlockProfileRate(int(100 * time.Microsecond))
		go http.ListenAndServe(addr, nil) // net/http/pprof's handlers, for profiling under load
		log.Info("profiling", "url", "http://"+addr+"/debug/pprof/")
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return serve(e.ctx, cfg, ln, log)
}

// parseServe reads serve's flags (for serve, or for the unit service
// writes), checked.
func parseServe(e env, name string, args []string) (serveConfig, error) {
	fs := newFlags(e, name, "[--addr HOST:PORT] [--db FILE] [--public-url URL] [--code-prefix P]")
	var cfg serveConfig
	fs.StringVar(&cfg.addr, "addr", envOr(e, "PIGCLASS_ADDR", "localhost:8080"), "address to listen on (env PIGCLASS_ADDR); use :8080 to serve the classroom network")
	fs.StringVar(&cfg.db, "db", envOr(e, "PIGCLASS_DB", "./pigclass.db"), "SQLite database file, created on first start, or a district's Postgres database as a postgres:// URL (env PIGCLASS_DB)")
	err := parseServeFlags(e, fs, &cfg, args)
	return cfg, err
}

// parseServeFlags adds the flags serve shares with a classroom start to
// fs (which has --addr and --db of its own), parses args into cfg and
// checks them.
func parseServeFlags(e env, fs *flag.FlagSet, cfg *serveConfig, args []string) error {
	fs.StringVar(&cfg.key, "key", e.getenv("PIGCLASS_KEY"), "the server's key file, made the first time (env PIGCLASS_KEY; default: the database file's name with .key); with Postgres, required: the same file on every instance of the district")
	fs.StringVar(&cfg.publicURL, "public-url", e.getenv("PIGCLASS_PUBLIC_URL"), "address students type, shown on the projector (env PIGCLASS_PUBLIC_URL; default: the browser's)")
	proxies := fs.String("trusted-proxy", e.getenv("PIGCLASS_TRUSTED_PROXY"), "reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, as addresses or networks separated by commas (env PIGCLASS_TRUSTED_PROXY; default: none)")
	fs.StringVar(&cfg.codePrefix, "code-prefix", e.getenv("PIGCLASS_CODE_PREFIX"), "the first characters of every join code this instance draws, for a proxy routing classes by code (env PIGCLASS_CODE_PREFIX)")
	fs.StringVar(&cfg.metricsHosts, "metrics-host", e.getenv("PIGCLASS_METRICS_HOST"), "names, comma-separated, a Prometheus server scrapes the metrics by, besides their address and localhost (env PIGCLASS_METRICS_HOST)")
	fs.StringVar(&cfg.metrics, "metrics-addr", e.getenv("PIGCLASS_METRICS_ADDR"), "serve Prometheus metrics at /metrics on this address, e.g. 127.0.0.1:9100 (env PIGCLASS_METRICS_ADDR; default: none)")
	fs.StringVar(&cfg.logFormat, "log-format", envOr(e, "PIGCLASS_LOG_FORMAT", "text"), "the log's format: text, or json for a school's log tools (env PIGCLASS_LOG_FORMAT)")
	fs.StringVar(&cfg.logLevel, "log-level", envOr(e, "PIGCLASS_LOG_LEVEL", "info"), "info, or debug for a line a request (its route's pattern, status and time; env PIGCLASS_LOG_LEVEL)")
	moves := fs.String("moves-per-second", e.getenv("PIGCLASS_MOVES_PER_SECOND"), fmt.Sprintf("moves a player may make a second (env PIGCLASS_MOVES_PER_SECOND; default %d: faster than a hand; raise it only for a load test without think time)", server.DefaultMovesPerSecond))
	retain := fs.String("retain-days", envOr(e, "PIGCLASS_RETAIN_DAYS", strconv.Itoa(DefaultRetainDays)), "days a class and everything in it is kept after its last activity, then erased; 0 keeps classes until their teacher deletes them (env PIGCLASS_RETAIN_DAYS)")
	if err := parse(fs, args); err != nil {
		return err
	}
	var err error
	if cfg.retainDays, err = strconv.Atoi(*retain); err != nil || cfg.retainDays < 0 || cfg.retainDays > maxRetainDays {
		return usagef("serve: --retain-days %q: a whole number of days, 0 (keep until deleted) to %d", *retain, maxRetainDays)
	}
	if *moves != "" {
		if cfg.moves, err = strconv.Atoi(*moves); err != nil || cfg.moves < 1 {
			return usagef("serve: --moves-per-second %q: a whole number, at least 1", *moves)
		}
	}
	switch {
	case cfg.key == "" && store.IsPostgres(cfg.db):
		return usagef("serve: --key: with a Postgres database, name the district's key file (the same file on every instance: projector links and rejoin codes are made with it), for example --key /etc/pigclass/district.key")
	}
	if cfg.proxies, err = server.ParseProxies(*proxies); err != nil {
		return usagef("serve: --%v", err)
	}
	cfg.codePrefix = strings.ToUpper(cfg.codePrefix)
	if err := server.CheckCodePrefix(cfg.codePrefix); err != nil {
		return usagef("serve: --%v", err)
	}
	if _, err := newLog(io.Discard, cfg.logFormat, cfg.logLevel); err != nil {
		return err
	}
	return nil
}

// newLog is the server's structured log on w: text (the default) or
// JSON lines, at info or debug.
func newLog(w io.Writer, format, level string) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{}
	switch level {
	case "info":
	case "debug":
		opts.Level = slog.LevelDebug
	default:
		return nil, usagef("serve: --log-level %q: info or debug", level)
	}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, usagef("serve: --log-format %q: text or json", format)
}

// DefaultRetainDays is how long a class is kept after its last activity
// (the guide, doc.go, "How long a class is kept"): a unit, a term's reports and a
// summer holiday fit in it; last school year's classes are gone before the
// next year's first lesson. maxRetainDays is ten years.
const (
	DefaultRetainDays = 180
	maxRetainDays     = 3650
)

// defaultMemoryLimit is the Go heap's soft limit unless GOMEMLIMIT says
// otherwise: with SQLite's own memory beside it, the server stays under
// 300 MB with a thousand students playing.
const defaultMemoryLimit = 160 << 20

func envOr(e env, key, def string) string {
	if v := e.getenv(key); v != "" {
		return v
	}
	return def
}

// serve runs the app on ln until ctx ends, then shuts down gracefully.
func serve(ctx context.Context, cfg serveConfig, ln net.Listener, log *slog.Logger) error {
	st, err := store.Open(ctx, cfg.db)
	if err != nil {
		ln.Close()
		return err
	}
	defer st.Close()
	if cfg.key == "" {
		cfg.key = cfg.db + ".key"
	}
	key, err := store.LoadKey(cfg.key)
	if err != nil {
		ln.Close()
		return err
	}
	if err := st.DistrictKey(ctx, store.KeyFingerprint(key.Bytes)); err != nil {
		ln.Close()
		return fmt.Errorf("serve: %w", err)
	}
	if key.Renewed {
		log.Warn("the key file held the key once published in pigclass's repository, which anyone could read: a new key was made. Projector links and rejoin codes change (print them again from each class's dashboard), and records are signed with a new key from now on (the fingerprint /verify shows changes; records downloaded before still verify by their own signature)",
			"key", cfg.key, "fingerprint", store.KeyFingerprint(key.Bytes))
	}
	srv, err := server.New(ctx, server.Config{PublicURL: cfg.publicURL, Listen: ln.Addr().String(), Key: key.Bytes, MovesPerSecond: cfg.moves, CodePrefix: cfg.codePrefix, TrustedProxies: cfg.proxies,
		Retain: time.Duration(cfg.retainDays) * 24 * time.Hour}, st, log)
	if err != nil {
		ln.Close()
		return err
	}
	defer srv.Close()
	t := cfg.timeouts
	if t == (timeouts{}) {
		t = defaultTimeouts
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: t.readHeader, ReadTimeout: t.read, WriteTimeout: t.write,
		IdleTimeout: t.idle, MaxHeaderBytes: t.maxHeader}
	hs.RegisterOnShutdown(srv.EndStreams) // the pages' event streams end, so that Shutdown need not wait for them
	if cfg.metrics != "" {
		mux := http.NewServeMux()
		mux.Handle("/metrics", srv.MetricsHandler())
		mln, err := net.Listen("tcp", cfg.metrics)
		if err != nil {
			ln.Close()
			return fmt.Errorf("serve: --metrics-addr %s: %w", cfg.metrics, err)
		}
		gate := server.MetricsGate(mln.Addr().String(), strings.Split(cfg.metricsHosts, ","), mux)
		ms := &http.Server{Addr: cfg.metrics, Handler: gate, ReadHeaderTimeout: t.readHeader}
		go ms.Serve(mln)
		defer ms.Close()
		log.Info("metrics", "url", "http://"+mln.Addr().String()+"/metrics")
	}
	log.Info("pigclass is serving", "url", "http://"+ln.Addr().String(), "db", store.Redacted(cfg.db))
	if cfg.serving != nil {
		cfg.serving()
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("pigclass stopped")
	return nil
}
