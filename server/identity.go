package server

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/sim"
)

// CodeLength is the length of a join code.
const CodeLength = 6

// newCode draws a join code from ch that begins with prefix (see
// Config.CodePrefix).
func newCode(ch sim.Chance, prefix string) string {
	b := make([]byte, CodeLength)
	copy(b, prefix)
	for i := len(prefix); i < len(b); i++ {
		b[i] = classroom.CodeAlphabet[ch.Below(len(classroom.CodeAlphabet))]
	}
	return string(b)
}

// CheckCodePrefix says what is wrong with a code prefix, or nil.
func CheckCodePrefix(p string) error {
	if len(p) > 2 {
		return fmt.Errorf("code prefix %q: at most 2 characters", p)
	}
	for _, r := range p {
		if !strings.ContainsRune(classroom.CodeAlphabet, r) {
			return fmt.Errorf("code prefix %q: use only the code characters %s", p, classroom.CodeAlphabet)
		}
	}
	return nil
}

// validCode reports whether s could be a join code.
func validCode(s string) bool {
	if len(s) != CodeLength {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(classroom.CodeAlphabet, r) {
			return false
		}
	}
	return true
}

// newToken draws a secret: 32 random bytes as hex.
func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Cookie names.
const (
	playerCookie  = "pigclass_player"
	teacherPrefix = "pigclass_teacher_"
)

// tokens gives a browser a fresh player token on every join, never
// adopting the value its cookie came with (which someone else may have
// planted, and so know): the browser's identities move to the new token
// (Room.Enter). The same join sent again at once (a double tap,
// which still carries the old cookie: the same class, the same nickname)
// gets the same new token, for a few seconds; any other request with the
// old token gets nothing of it.
type tokens struct {
	mu      sync.Mutex
	now     func() time.Time
	rotated map[string]rotation // by the old token
}

type rotation struct {
	token string
	join  string // the class and nickname of the join that rotated it
	at    time.Time
}

// resendWindow is how long a rotated token still answers for the new one.
const resendWindow = 5 * time.Second

// current is the browser's player token for a join to the class with
// code under nickname ("" if it has none): the new one if its cookie's
// token was rotated a moment ago by this same join.
func (t *tokens) current(c *gin.Context, code, nickname string) string {
	old, err := c.Cookie(playerCookie)
	if err != nil || len(old) != 64 {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.rotated[old]; ok && r.join == code+"\x00"+nickname && t.now().Sub(r.at) < resendWindow {
		setCookie(c, playerCookie, r.token, 365*24*3600)
		return r.token
	}
	return old
}

// took gives the browser joining the class with code under nickname its
// new token (the room moved its identities from old to it), and remembers
// the move for a join sent again at once.
func (t *tokens) took(c *gin.Context, old, token, code, nickname string) {
	setCookie(c, playerCookie, token, 365*24*3600)
	c.Request.AddCookie(&http.Cookie{Name: playerCookie, Value: token})
	if old == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for k, r := range t.rotated {
		if now.Sub(r.at) >= resendWindow {
			delete(t.rotated, k)
		}
	}
	t.rotated[old] = rotation{token: token, join: code + "\x00" + nickname, at: now}
}

// hashOf is a token's hash, "" for no token.
func hashOf(token string) string {
	if token == "" {
		return ""
	}
	return classroom.HashToken(token)
}

// playerToken returns the browser's player token, making one if there is
// none. It lasts a year so that a reboot keeps the history.
func playerToken(c *gin.Context) string {
	if t, err := c.Cookie(playerCookie); err == nil && len(t) == 64 {
		return t
	}
	t := newToken()
	setCookie(c, playerCookie, t, 365*24*3600)
	c.Request.AddCookie(&http.Cookie{Name: playerCookie, Value: t})
	return t
}

func setCookie(c *gin.Context, name, value string, maxAge int) {
	http.SetCookie(c.Writer, &http.Cookie{
		Name: name, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: overHTTPS(c),
	})
}

const projectorPrefix = "pigclass_projector_"
