package server

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classlist"
	"pigclass/server/classroom"
	"pigclass/templates/paths"
)

// maxBody is the largest request body accepted: forms are tiny.
const maxBody = 64 << 10

// uploadBody is the largest body of a class list's upload: its files
// (classlist.MaxBytes, the limit it says) and the form around them. It is
// the one route that takes more than maxBody (issue 79: a school's
// OneRoster export is larger than any form).
const uploadBody = classlist.MaxBytes + 64<<10

// limitBody caps request bodies and parses forms up front, so that a form
// too large is refused as a whole instead of read in part.
func limitBody(c *gin.Context) {
	limit, words := int64(maxBody), loc(c).T("error.toolarge")
	if c.FullPath() == paths.RosterPreview.String() {
		limit, words = uploadBody, loc(c).T("rosterui.unreadable", "N", loc(c).Int(classlist.MaxBytes>>20))
	}
	if c.Request.ContentLength > limit {
		refuse(c, http.StatusRequestEntityTooLarge, words)
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	if c.Request.Method == http.MethodPost {
		if err := c.Request.ParseForm(); err != nil {
			refuse(c, http.StatusRequestEntityTooLarge, loc(c).T("error.unreadable"))
			return
		}
	}
	c.Next()
}

// newCrossOrigin is the standard library's protection against cross-site
// posts: Sec-Fetch-Site must say same-origin (or none), and without it an
// Origin must name this host, or be --public-url's: behind a proxy over
// plain HTTP a browser's Origin is the proxy's address, not the Host the
// instance sees. "Origin: null" (sandboxed frames, redirects) names no
// host, so it is refused.
func newCrossOrigin(publicURL string) (*http.CrossOriginProtection, error) {
	p := http.NewCrossOriginProtection()
	// A learning platform posts the login initiation and the launch from
	// its own site (LTI 1.3): the launch is checked by its signed token
	// and the state its login left in this browser instead.
	p.AddInsecureBypassPattern("POST " + paths.LTILogin.String())
	p.AddInsecureBypassPattern("POST " + paths.LTILaunch.String())
	if publicURL == "" {
		return p, nil
	}
	u, err := url.Parse(publicURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("public URL %q: write it as http://HOST[:PORT]", publicURL)
	}
	if err := p.AddTrustedOrigin(u.Scheme + "://" + u.Host); err != nil {
		return nil, fmt.Errorf("public URL %q: %w", publicURL, err)
	}
	return p, nil
}

// sameOrigin refuses cross-site form posts.
func (s *Server) sameOrigin(c *gin.Context) {
	if err := s.crossOrigin.Check(c.Request); err != nil {
		refuse(c, http.StatusForbidden, loc(c).T("error.crossorigin"))
		return
	}
	c.Next()
}

// noStore keeps teacher pages and exports, which may hold real names, out
// of every cache: shared classroom computers keep nothing.
func noStore(c *gin.Context) {
	c.Header("Cache-Control", "no-store")
	c.Next()
}

// scheme notes whether the browser reached the app over HTTPS: directly,
// or through a trusted proxy's X-Forwarded-Proto (from anyone else the
// header is ignored). Cookies are Secure then.
func (s *Server) scheme(c *gin.Context) {
	https := c.Request.TLS != nil
	if !https && c.GetHeader("X-Forwarded-Proto") == "https" && s.trusted(c.RemoteIP()) {
		https = true
	}
	c.Set(httpsKey, https)
	c.Next()
}

// clientKey names the device a request comes from, for the limits by
// address: its address as gin found it (a trusted proxy's
// X-Forwarded-For, else the connection's), and for IPv6 its /64, which one
// device rotates its addresses within.
func clientKey(c *gin.Context) string {
	addr, err := netip.ParseAddr(c.ClientIP())
	if err != nil {
		return c.ClientIP()
	}
	addr = addr.Unmap()
	if addr.Is6() && !addr.IsLoopback() {
		p, _ := addr.Prefix(64)
		return p.String()
	}
	return addr.String()
}

// isLoopback reports whether a client key is this machine's own address.
func isLoopback(key string) bool {
	addr, err := netip.ParseAddr(key)
	return err == nil && addr.IsLoopback()
}

// trusted reports whether ip is one of the configured proxies.
func (s *Server) trusted(ip string) bool {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	for _, p := range s.proxies {
		if p.Contains(addr.Unmap()) {
			return true
		}
	}
	return false
}

// ParseProxies reads --trusted-proxy: addresses or networks (CIDR),
// separated by commas.
func ParseProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: give an address (10.0.0.2) or a network (10.0.0.0/24)", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// securityHeaders keeps pages to the app's own scripts and styles.
func (s *Server) securityHeaders(c *gin.Context) {
	setSecurityHeaders(c.Writer.Header(), s.lti.FrameAncestors())
	c.Next()
}

// atHome answers an address of a class whose code this instance never
// issues (it starts with another instance's prefix, see
// Config.CodePrefix): 421 and a sentence that the district's proxy sent it
// to the wrong instance, the same for every such code. On a district's
// shared database (district.go) every instance serves every class, and
// the prefix only says which one the proxy asks first.
func (s *Server) atHome(c *gin.Context) {
	code := classroom.NormalizeCode(c.Param("code"))
	if p := s.cfg.CodePrefix; p == "" || code == "" || strings.HasPrefix(code, p) || s.district != nil {
		c.Next()
		return
	}
	refuse(c, http.StatusMisdirectedRequest, loc(c).T("error.elsewhere", "Code", code, "Prefix", s.cfg.CodePrefix))
}

// checkHost answers 421 to a request for a host this server is not.
func (s *Server) checkHost(c *gin.Context) {
	if s.hosts.allows(c.Request.Host) {
		c.Next()
		return
	}
	c.Abort()
	c.String(http.StatusMisdirectedRequest, "pigclass does not answer for the host %q. To be reached by that name, start it with --public-url http://%s (or PIGCLASS_PUBLIC_URL).\n", c.Request.Host, c.Request.Host)
}

// notRemoved answers a removed student's request on their class's pages
// with what happened (403: the teacher removed this device) and how to get
// back, before anything else; polls show it in the page's place.
func (s *Server) notRemoved(c *gin.Context) {
	if viewerFrom(c).Removed() {
		c.Header("X-Pigclass-Removed", "1")
		refuse(c, http.StatusForbidden, removedMessage(loc(c), classroom.NormalizeCode(c.Param("code"))))
	}
}
