package classroom

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"
)

// MaxNickname is the longest nickname, in characters.
const MaxNickname = 24

// Nickname problems a student can fix; each error's text says how (in
// English; pages say it in the reader's language by the Kind of its
// NicknameError).
var (
	errNicknameEmpty     = &NicknameError{Kind: "empty", text: "type a nickname, 1 to 24 characters"}
	errNicknameInvisible = &NicknameError{Kind: "invisible", text: "remove the invisible character (a zero-width space, a direction mark or a byte-order mark)"}
	errNicknameChars     = &NicknameError{Kind: "chars", text: "use letters, digits, spaces and punctuation only"}
)

// NicknameError is what is wrong with a typed nickname: Kind is "empty",
// "invisible", "chars" or "long" (then Count is its length).
type NicknameError struct {
	Kind  string
	Count int
	text  string
}

func (e *NicknameError) Error() string { return e.text }

// Nickname reads a typed nickname as the PRECIS nickname profile (RFC 8266)
// prepares it: width and compatibility forms folded (NFKC), spaces of
// every kind made one ordinary space, trimmed. Invisible format
// characters (zero-width spaces and joiners, direction controls, the
// byte-order mark) are refused rather than dropped: a name must look the
// way it is stored, in pages and in a spreadsheet's cells.
func Nickname(raw string) (string, error) {
	if !utf8.ValidString(raw) {
		return "", errNicknameChars
	}
	for _, r := range raw {
		switch {
		case unicode.Is(unicode.Cf, r):
			return "", fmt.Errorf("%w: U+%04X", errNicknameInvisible, r)
		case unicode.IsControl(r), r == utf8.RuneError:
			return "", errNicknameChars
		}
	}
	n, err := precis.Nickname.String(raw)
	if err != nil {
		if strings.TrimSpace(raw) == "" {
			return "", errNicknameEmpty
		}
		return "", errNicknameChars
	}
	switch count := utf8.RuneCountInString(n); {
	case count == 0:
		return "", errNicknameEmpty
	case count > MaxNickname:
		return "", &NicknameError{Kind: "long", Count: count, text: fmt.Sprintf("at most %d characters (this one has %d)", MaxNickname, count)}
	}
	return n, nil
}

// LooksAlike reports whether two nicknames would pass for each other on a
// projector: the same under PRECIS comparison (case, width, composed or
// decomposed accents) once Cyrillic and Greek letters shaped like Latin
// ones are read as those.
func LooksAlike(a, b string) bool { return skeleton(a) == skeleton(b) }

// skeleton is a name's look: Cyrillic and Greek letters drawn like Latin
// ones read as those (each case as it is drawn: Greek Ν is N, ν is v),
// then the PRECIS comparison key (case folded, NFKC).
func skeleton(n string) string {
	if p, err := precis.Nickname.String(n); err == nil {
		n = p
	}
	n = strings.Map(func(r rune) rune {
		if l, ok := lookAlike[r]; ok {
			return l
		}
		return r
	}, n)
	key, err := precis.Nickname.CompareKey(n)
	if err != nil {
		return strings.ToLower(n)
	}
	return key
}

// lookAlike maps Cyrillic and Greek letters to the Latin letters they are
// drawn like.
var lookAlike = map[rune]rune{
	// Cyrillic and Greek capitals
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X',
	'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'У': 'Y',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'з': '3', 'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k', 'м': 'm', 'н': 'h',
	'о': 'o', 'п': 'n', 'р': 'p', 'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w',
	'һ': 'h', 'ь': 'b', 'ɡ': 'g',
	// Greek
	'α': 'a', 'β': 'b', 'γ': 'y', 'ε': 'e', 'ζ': 'z', 'η': 'n', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'χ': 'x', 'ω': 'w',
}
