package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/lti"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// A browser that keeps no cookies in a frame of another site (Safari, or
// Chrome set to block third-party cookies) sends pigclass's state cookie
// back with no launch. A platform that offers its storage (1EdTech's LTI
// Client Side postMessages and Platform Storage: the lti_storage_target
// of the login and the launch) keeps the state for pigclass instead:
// pigclass's page puts it there at the login and reads it back at the
// launch, then posts the launch again to pigclass itself, where the
// cross-origin check lets only pigclass's own page post. Since the frame
// keeps no cookie either for the pages after, the launch then gives a
// link that opens the class in a window of its own, once.

// storageKey is the name the state is kept under in the platform's
// storage.
func storageKey(state string) string { return "pigclass_state_" + state }

// platformOrigin is the origin of a platform's authorization endpoint:
// the one its storage answers from (Platform Storage 2.2).
func platformOrigin(p lti.Platform) string {
	u, err := url.Parse(p.LoginURL)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// storeStatePage is the login's page for a platform that offers its
// storage: it puts the state there, then goes on to the platform's sign
// in (the cookie is set as well, for a browser that keeps it).
func (s *Server) storeStatePage(c *gin.Context, p lti.Platform, state, target, next string) {
	render(c, http.StatusOK, templates.LTIStorageView(templates.LTIStorage{
		Mode: "put", Target: target, Origin: platformOrigin(p), Key: storageKey(state), Value: state, Next: next}))
}

// storedStatePage answers a launch that came back without the state
// cookie from a platform that offers its storage: the page reads the
// state there and, if it is this launch's, posts the launch again to
// pigclass (ltiLaunchStored).
func (s *Server) storedStatePage(c *gin.Context, token, state, target string) {
	p, err := s.tokenPlatform(c, token)
	if err != nil {
		return
	}
	render(c, http.StatusOK, templates.LTIStorageView(templates.LTIStorage{
		Mode: "get", Target: target, Origin: platformOrigin(p), Key: storageKey(state), Value: state,
		Next: paths.LTILaunchStored.String(), Token: token}))
}

// continuation is what a browser whose frame keeps no cookie takes to a
// window of its own: the cookie to set and the page to open, once, within
// continueLife.
type continuation struct {
	ID      string `json:"id"`
	Cookie  string `json:"cookie"`
	Value   string `json:"value"`
	Path    string `json:"path"`
	Expires int64  `json:"exp"`
}

const (
	continueLife    = 5 * time.Minute
	continuePurpose = "pigclass-lti-continue-v1"
)

// enterFrom gives the browser of a checked launch its cookie and sends it to
// its page; a browser whose frame keeps no cookie (stored: the launch was
// checked by the platform's storage) gets a link that does it in a window
// of its own instead, sealed with the server's key (it holds the cookie's
// secret) and good once.
func (s *Server) enterFrom(c *gin.Context, stored bool, cookie, value, path string) {
	if !stored {
		setFrameCookie(c, cookie, value, 365*24*3600)
		c.Redirect(http.StatusSeeOther, path)
		return
	}
	b, _ := json.Marshal(continuation{ID: newToken(), Cookie: cookie, Value: value, Path: path, Expires: s.cfg.Now().Add(continueLife).Unix()})
	boxed, err := lti.Box(s.cfg.Key, continuePurpose, b, nil)
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.LTIContinueView(templates.LTIContinue{URL: paths.LTIContinue.WithKey(boxed)}))
}

// ltiContinue opens a launch's page in a window of its own: its cookie
// set there, once.
func (s *Server) ltiContinue(c *gin.Context) {
	var k continuation
	plain, err := lti.Unbox(s.cfg.Key, continuePurpose, c.Param("key"), nil)
	if err == nil {
		err = json.Unmarshal(plain, &k)
	}
	if err != nil || s.cfg.Now().Unix() > k.Expires || !strings.HasPrefix(k.Path, "/") {
		s.refuseLaunch(c, http.StatusForbidden, "continue")
		return
	}
	if !s.usedOnce(c, "continue:"+k.ID, time.Unix(k.Expires, 0), "continue") {
		return
	}
	setCookie(c, k.Cookie, k.Value, 365*24*3600)
	c.Redirect(http.StatusSeeOther, k.Path)
}
