package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/lti"
	"pigclass/server/store"
)

// What the learning platforms' handlers share (LTI 1.3: front_lti.go,
// front_lti_deeplink.go, lti_services.go).

// LTIRegisterKey is the key of the registration address (pigclass lti
// prints it): derived from the server's key, so that only its
// administrator can give the address to a platform.
func LTIRegisterKey(serverKey []byte) string {
	return derived(serverKey, "pigclass-lti-register-v1")[:32]
}

// derived is a value only the server's key makes: HMAC-SHA256 of label
// and parts, each after a NUL, in hex. The label names what it is for,
// so that no two uses of the key can give the same value.
func derived(serverKey []byte, label string, parts ...string) string {
	mac := hmac.New(sha256.New, serverKey)
	mac.Write([]byte(strings.Join(append([]string{label}, parts...), "\x00")))
	return hex.EncodeToString(mac.Sum(nil))
}

// ltiTool is pigclass's addresses for a platform, under its public address.
func (s *Server) ltiTool(r *http.Request) lti.Tool { return lti.ToolAt(s.publicURL(r)) }

// refuseLaunch answers a login or a launch refused, saying why in the
// reader's language (lti.refused.REASON).
func (s *Server) refuseLaunch(c *gin.Context, status int, reason string) {
	refuse(c, status, loc(c).T("lti.refused."+reason))
}

// setFrameCookie sets a cookie that a page in a platform's frame sends
// back: SameSite=None over HTTPS (a browser sends no other in a frame of
// another site); without HTTPS the browser's default, which carries it
// only on a launch in a window of its own.
func setFrameCookie(c *gin.Context, name, value string, maxAge int) {
	ck := &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true, SameSite: http.SameSiteDefaultMode}
	if overHTTPS(c) {
		ck.SameSite, ck.Secure = http.SameSiteNoneMode, true
	}
	http.SetCookie(c.Writer, ck)
}

// ltiTeacherSecret is the teacher's secret of the class a resource link
// opens: derived from the link with the server's key, so that every
// instructor's launch gives their browser the class's teacher link
// without the secret being kept anywhere.
func (s *Server) ltiTeacherSecret(l store.Link) string {
	return derived(s.cfg.Key, "pigclass-lti-teacher-v1", l.Issuer, l.ClientID, l.Deployment, l.ResourceLink)
}

// launchPlatform is the registered platform a token names (its issuer,
// and pigclass's client id among its audience), or a refusal answered.
func (s *Server) launchPlatform(c *gin.Context, issuer string, aud []string) (lti.Platform, error) {
	ps, err := s.lti.List(c.Request.Context(), issuer)
	if err != nil {
		fail(c, err)
		return lti.Platform{}, err
	}
	for _, p := range ps {
		if issuer != "" && slices.Contains(aud, p.ClientID) {
			return p, nil
		}
	}
	s.refuseLaunch(c, http.StatusForbidden, "platform")
	return lti.Platform{}, errors.New("lti: no platform")
}

// tokenPlatform is the registered platform a launch's token names (read
// before it is checked: Keys.Verify checks it), or a refusal answered.
func (s *Server) tokenPlatform(c *gin.Context, token string) (lti.Platform, error) {
	issuer, aud, err := lti.Unverified(token)
	if err != nil {
		s.refuseLaunch(c, http.StatusBadRequest, string(lti.Unreadable))
		return lti.Platform{}, err
	}
	return s.launchPlatform(c, issuer, aud)
}

// usedOnce records a one-time value (a launch's nonce, a continuation's
// id) as used until expires, and reports whether this is its first use;
// a second is refused for reason (lti.refused.REASON), and an error of
// the store answered.
func (s *Server) usedOnce(c *gin.Context, value string, expires time.Time, reason string) bool {
	switch err := s.lti.UseNonce(c.Request.Context(), value, expires); {
	case errors.Is(err, store.ErrNonceUsed):
		s.refuseLaunch(c, http.StatusForbidden, reason)
		return false
	case err != nil:
		fail(c, err)
		return false
	}
	return true
}
