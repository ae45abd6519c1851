package server

import (
	"net"
	"net/netip"
	"net/url"
	"strings"

	"pigclass/templates/i18n"
)

// Whether the students' devices can reach the join address the dashboard
// and the shared screen show (issue 78, item 5): not when the server
// listens on this computer alone or the address is this computer's own
// name for itself (localhost: no network was found, or the teacher
// opened it so without --public-url), and perhaps not when --public-url
// names an address that is not one of this computer's (unless a proxy
// in front, --trusted-proxy, is where students go). A handler tested
// alone (Config.Listen empty) is not asked.

// reachKind is what the join address is to the students' devices.
type reachKind int

const (
	reachable      reachKind = iota
	reachAlone               // no other device reaches it
	reachElsewhere           // not this computer's: they may not reach it
)

// reach says what public, the address shown to the students (publicURL),
// is to their devices.
func (s *Server) reach(public string) reachKind {
	if s.cfg.Listen == "" {
		return reachable
	}
	if lh, _, err := net.SplitHostPort(s.cfg.Listen); err == nil && isLoopbackHost(lh) {
		return reachAlone
	}
	u, err := url.Parse(public)
	if err != nil {
		return reachable
	}
	host := u.Hostname()
	if isLoopbackHost(host) {
		return reachAlone
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || len(s.proxies) > 0 || s.hosts.isLocal(ip.Unmap()) {
		return reachable // a name (a proxy's, a school's DNS) is not ours to judge
	}
	return reachElsewhere
}

// isLoopbackHost reports whether host is this computer's own name for
// itself: localhost, 127.x.x.x or ::1.
func isLoopbackHost(host string) bool {
	host = strings.Trim(strings.ToLower(host), "[]")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// reachWarning is the dashboard's sentence about the address shown to
// the students (public), "" when their devices reach it.
func (s *Server) reachWarning(l *i18n.Localizer, public string) string {
	switch s.reach(public) {
	case reachAlone:
		return l.T("dash.reach.alone", "Address", public)
	case reachElsewhere:
		return l.T("dash.reach.elsewhere", "Address", public)
	}
	return ""
}
