package server

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/static"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// langCookie remembers the language a reader picked with the switcher.
const langCookie = "pigclass_lang"

// chooseLanguage gives every request its language: the reader's own pick
// (the switcher's cookie), else the best of Accept-Language. A class's
// pages may change it once they know the class (classLanguage).
func chooseLanguage(c *gin.Context) {
	if strings.HasPrefix(c.Request.URL.Path, static.Prefix) {
		return // the same file in every language, cached for a year
	}
	code := ""
	if v, err := c.Cookie(langCookie); err == nil && i18n.Known(v) {
		code = v
		c.Set(chosenKey, true)
	}
	if code == "" {
		code = i18n.Match(c.GetHeader("Accept-Language"))
	}
	c.Header("Vary", "Accept-Language, Cookie")
	ctx := templates.WithChrome(c.Request.Context(), templates.Chrome{Here: here(c)})
	c.Request = c.Request.WithContext(i18n.WithLocalizer(ctx, i18n.For(code)))
	c.Next()
}

func setLanguage(c *gin.Context, code string) {
	c.Request = c.Request.WithContext(i18n.WithLocalizer(c.Request.Context(), i18n.For(code)))
}

// loc is the request's localizer.
func loc(c *gin.Context) *i18n.Localizer { return i18n.From(c.Request.Context()) }

// here is the page the switcher comes back to: this page for a GET, the
// page the form was on for a post (its Referer on this site), else the
// front page.
func here(c *gin.Context) string {
	if c.Request.Method == http.MethodGet {
		return c.Request.URL.RequestURI()
	}
	if ref, err := url.Parse(c.GetHeader("Referer")); err == nil && ref.Host == c.Request.Host && localPath(ref.Path) {
		return ref.RequestURI()
	}
	return "/"
}

// localPath reports whether p is a path on this site (not //host).
func localPath(p string) bool {
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "/\\")
}

// backPath is where a form may send the browser back to: a path on this
// site (with its query), parsed as a browser would read it. Anything else,
// a backslash or a control character anywhere (which browsers drop or read
// as a slash: "/\t/evil.example" is "//evil.example"), is the front page.
func backPath(p string) string {
	front := paths.Front.String()
	if strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || r < 0x20 || r == 0x7f }) {
		return front
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || !localPath(u.Path) || !localPath(p) {
		return front
	}
	return p
}

// classLanguage applies a class's language to one of its pages: a
// student's pages use it unless the student picked their own; the
// projector, the class's shared screen, always does.
func classLanguage(c *gin.Context, class *classroom.Class, projector bool) {
	if class == nil || class.Language == "" || !i18n.Known(class.Language) {
		return
	}
	if projector || !languageChosen(c) {
		setLanguage(c, class.Language)
	}
}

func langNames() string {
	var names []string
	for _, l := range i18n.Langs {
		names = append(names, l.Name+" ("+l.Code+")")
	}
	return strings.Join(names, ", ")
}

// reloadIfLanguageChanged answers a live part's poll by reloading the
// whole page (htmx's HX-Refresh) when the language the page was drawn in
// (its poll's ?lang=) is no longer the reader's: the teacher changed the
// class's language, and the page follows, frame and all.
func reloadIfLanguageChanged(c *gin.Context) bool {
	if l := c.Query("lang"); l != "" && l != loc(c).Lang() {
		c.Header("HX-Refresh", "true")
		c.Status(http.StatusOK)
		return true
	}
	return false
}
