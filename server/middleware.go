package server

import (
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"
)

// maxBody is the largest request body accepted: forms are tiny.
const maxBody = 64 << 10

// limitBody caps request bodies.
func limitBody(c *gin.Context) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBody)
	c.Next()
}

// sameOrigin refuses cross-site form posts: a browser's Sec-Fetch-Site or
// Origin must name this site.
func sameOrigin(c *gin.Context) {
	if c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead {
		c.Next()
		return
	}
	if site := c.GetHeader("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		refuse(c, http.StatusForbidden, "This form was sent from another site, so it was refused. Use pigclass's own pages.")
		return
	}
	if origin := c.GetHeader("Origin"); origin != "" && origin != "null" {
		u, err := url.Parse(origin)
		if err != nil || u.Host != c.Request.Host {
			refuse(c, http.StatusForbidden, "This form was sent from another site, so it was refused. Use pigclass's own pages.")
			return
		}
	}
	c.Next()
}

// securityHeaders keeps pages to the app's own scripts and styles.
func securityHeaders(c *gin.Context) {
	h := c.Writer.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	c.Next()
}
