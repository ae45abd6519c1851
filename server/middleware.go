package server

import (
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"
)

// maxBody is the largest request body accepted: forms are tiny.
const maxBody = 64 << 10

// limitBody caps request bodies and parses forms up front, so that a form
// too large is refused as a whole instead of read in part.
func limitBody(c *gin.Context) {
	if c.Request.ContentLength > maxBody {
		refuse(c, http.StatusRequestEntityTooLarge, "The form is too large: at most 64 KB.")
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBody)
	if c.Request.Method == http.MethodPost {
		if err := c.Request.ParseForm(); err != nil {
			refuse(c, http.StatusRequestEntityTooLarge, "The form could not be read: it must be at most 64 KB.")
			return
		}
	}
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
