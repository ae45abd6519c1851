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

	"github.com/gin-gonic/gin"
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
