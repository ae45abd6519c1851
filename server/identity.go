package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
)

// codeAlphabet has no look-alike characters: no 0/O/Q/D, 1/I/L, 2/Z, 5/S,
// 6/G, 8/B, U/V.
const codeAlphabet = "ACEFHJKMNPRTWXY3479"

// CodeLength is the length of a join code.
const CodeLength = 6

// newCode draws a join code that begins with prefix (see
// Config.CodePrefix).
func newCode(prefix string) string {
	b := make([]byte, CodeLength)
	copy(b, prefix)
	for i := len(prefix); i < len(b); i++ {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(codeAlphabet))))
		b[i] = codeAlphabet[n.Int64()]
	}
	return string(b)
}

// normalizeCode reads a typed code: case, spaces and dashes do not matter.
func normalizeCode(s string) string {
	s = strings.ToUpper(s)
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, s)
}

// CheckCodePrefix says what is wrong with a code prefix, or nil.
func CheckCodePrefix(p string) error {
	if len(p) > 2 {
		return fmt.Errorf("code prefix %q: at most 2 characters", p)
	}
	for _, r := range p {
		if !strings.ContainsRune(codeAlphabet, r) {
			return fmt.Errorf("code prefix %q: use only the code characters %s", p, codeAlphabet)
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
		if !strings.ContainsRune(codeAlphabet, r) {
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
// (Room.RotateToken). The same join sent again at once (a double tap,
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

// fresh draws a new token for the browser joining the class with code
// under nickname, moves its identities from old (if any) to it, and sets
// the cookie.
func (t *tokens) fresh(c *gin.Context, room *classroom.Room, old, code, nickname string) (string, error) {
	token := newToken()
	if err := room.RotateToken(c.Request.Context(), hashOf(old), classroom.HashToken(token)); err != nil {
		return "", err
	}
	setCookie(c, playerCookie, token, 365*24*3600)
	c.Request.AddCookie(&http.Cookie{Name: playerCookie, Value: token})
	if old != "" {
		t.mu.Lock()
		now := t.now()
		for k, r := range t.rotated {
			if now.Sub(r.at) >= resendWindow {
				delete(t.rotated, k)
			}
		}
		t.rotated[old] = rotation{token: token, join: code + "\x00" + nickname, at: now}
		t.mu.Unlock()
	}
	return token, nil
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

// rejoinCode is a student's personal code for getting back to their seat
// on another device: shown on their own page only, derived with the
// server's own key (never in the database) from their browser's token (so
// it changes once used) and the class's secret's hash.
func (s *Server) rejoinCode(teacherHash, tokenHash string) string {
	mac := hmac.New(sha256.New, s.cfg.Key)
	mac.Write([]byte("pigclass-rejoin-v2\x00" + teacherHash + "\x00" + tokenHash))
	sum := mac.Sum(nil)
	b := make([]byte, 8)
	for i := range b {
		b[i] = codeAlphabet[int(sum[i])%len(codeAlphabet)]
	}
	return string(b[:4]) + "-" + string(b[4:])
}

// sameRejoinCode compares a typed rejoin code (case, spaces and dashes do
// not matter) with the student's, in constant time.
func sameRejoinCode(typed, want string) bool {
	return subtle.ConstantTimeCompare([]byte(normalizeCode(typed)), []byte(normalizeCode(want))) == 1
}
