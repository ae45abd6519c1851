package server

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"
)

// maxBody is the largest request body accepted: forms are tiny.
const maxBody = 64 << 10

// limitBody caps request bodies and parses forms up front, so that a form
// too large is refused as a whole instead of read in part.
func limitBody(c *gin.Context) {
	if c.Request.ContentLength > maxBody {
		refuse(c, http.StatusRequestEntityTooLarge, loc(c).T("error.toolarge"))
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBody)
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
func securityHeaders(c *gin.Context) {
	setSecurityHeaders(c.Writer.Header())
	c.Next()
}

// setSecurityHeaders sets the headers every answer carries.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
}
