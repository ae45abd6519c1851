package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The hosts the server answers for: its --public-url's, and the addresses
// it listens on (every address of this machine when it listens on all of
// them, with "localhost"). A request for any other Host (a DNS rebinding
// page's, a misdirected proxy's) is answered 421 with a sentence naming
// the flag: a page of another site cannot drive the server through a
// name it chose.

// hostGate knows the hosts the server answers for.
type hostGate struct {
	public string // host[:port] of --public-url, lower case; "" if none
	listen string // the address listened on; "" answers every host (tests of the handler alone)

	mu      sync.Mutex
	at      time.Time // when local was read
	local   map[string]bool
	readNow func() ([]net.Addr, error)
}

func newHostGate(publicURL, listen string) *hostGate {
	g := &hostGate{listen: listen, readNow: net.InterfaceAddrs}
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" {
		g.public = strings.ToLower(u.Host)
	}
	return g
}

// allows reports whether the server answers for host (a request's Host).
func (g *hostGate) allows(host string) bool {
	if g.listen == "" {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == g.public || g.public != "" && hostOnly(host) == hostOnly(g.public) && !strings.Contains(g.public, ":") && defaultPort(host) {
		return true
	}
	lh, lport, err := net.SplitHostPort(g.listen)
	if err != nil {
		return false
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		h, port = host, "80"
	}
	if port != lport {
		return false
	}
	h = strings.Trim(h, "[]")
	if h == "localhost" {
		return true
	}
	addr, err := netip.ParseAddr(h)
	if err != nil {
		return strings.EqualFold(h, lh)
	}
	if la, err := netip.ParseAddr(lh); err == nil && !la.IsUnspecified() {
		return addr.Unmap() == la.Unmap()
	}
	return g.isLocal(addr.Unmap())
}

// isLocal reports whether addr is one of this machine's addresses, read
// again at most every ten seconds (a laptop's address changes with the
// network it joins).
func (g *hostGate) isLocal(addr netip.Addr) bool {
	if addr.IsLoopback() {
		return true
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.local == nil || time.Since(g.at) > 10*time.Second {
		g.local, g.at = map[string]bool{}, time.Now()
		addrs, _ := g.readNow()
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				g.local[p.Addr().Unmap().String()] = true
			}
		}
	}
	return g.local[addr.String()]
}

func hostOnly(hp string) string {
	if h, _, err := net.SplitHostPort(hp); err == nil {
		return h
	}
	return hp
}

func defaultPort(hp string) bool {
	_, p, err := net.SplitHostPort(hp)
	return err != nil || p == "80" || p == "443"
}

// MetricsGate answers the metrics only for the hosts of the address they
// are served on (listen, as bound), localhost and the names given (the
// names a Prometheus server scrapes by, --metrics-host), on that port; any
// other Host gets 421, as the app's own port answers a rebinding host.
func MetricsGate(listen string, names []string, h http.Handler) http.Handler {
	g := newHostGate("", listen)
	_, port, _ := net.SplitHostPort(listen)
	allowed := map[string]bool{}
	for _, n := range names {
		if n = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(n)), "."); n != "" {
			allowed[n] = true
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.TrimSuffix(strings.ToLower(r.Host), ".")
		hn, hp, err := net.SplitHostPort(host)
		if err != nil {
			hn, hp = host, "80"
		}
		if g.allows(r.Host) || allowed[hn] && hp == port {
			h.ServeHTTP(w, r)
			return
		}
		setSecurityHeaders(w.Header(), "'none'")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusMisdirectedRequest)
		fmt.Fprintf(w, "pigclass's metrics do not answer for the host %q: scrape them by the address they are served on, or name the host with --metrics-host.\n", r.Host)
	})
}

// setSecurityHeaders sets the headers every answer carries; frames is
// the CSP's frame-ancestors (who may show the page in a frame: 'none',
// or the learning platforms pigclass is registered with, ltiSide).
func setSecurityHeaders(h http.Header, frames string) {
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors "+frames)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
}
