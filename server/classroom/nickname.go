package classroom

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/text/secure/precis"
)

// MaxNickname is the longest nickname, in characters.
const MaxNickname = 24

// MaxPlatformName is the longest name a learning platform's user keeps,
// in characters: a class list's whole names ("María José Fernández de la
// Cruz" is 32), where a typed nickname is short.
const MaxPlatformName = 64

// PlatformName is a learning platform's name for its user as pigclass
// keeps it (issue 79): the name as the platform gives it, in any script,
// with the joiners and marks its script needs (U+200C and U+200D where
// PRECIS's contextual rules allow them, combining marks); direction
// overrides and isolates, other invisible format characters and controls
// are removed, not the whole name; spaces of every kind made one, cut to
// MaxPlatformName. "" when nothing is left to show.
func PlatformName(raw string) string {
	if !utf8.ValidString(raw) {
		raw = strings.ToValidUTF8(raw, "")
	}
	keep := func(joiners bool) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r == '\u200c' || r == '\u200d':
				if joiners {
					return r
				}
				return -1
			case unicode.Is(unicode.Cf, r), unicode.IsControl(r) && !unicode.IsSpace(r), blankLooking[r]:
				return -1
			}
			return r
		}, raw)
	}
	n, err := precis.Nickname.String(keep(true))
	if err != nil {
		// A joiner where its script does not join: the name without it.
		n, err = precis.Nickname.String(keep(false))
	}
	if err != nil {
		return ""
	}
	return cut(n, MaxPlatformName)
}

// Nickname problems a student can fix; each error's text says how (in
// English; pages say it in the reader's language by the Kind of its
// NicknameError).
var (
	errNicknameEmpty     = &NicknameError{Kind: "empty", text: "type a nickname, 1 to 24 characters"}
	errNicknameInvisible = &NicknameError{Kind: "invisible", text: "remove the invisible character (a zero-width space, a direction mark or a byte-order mark)"}
	errNicknameChars     = &NicknameError{Kind: "chars", text: "use letters, digits, spaces and punctuation only"}
	errNicknameBlank     = &NicknameError{Kind: "blank", text: "remove the blank-looking character (a blank Braille cell or a Hangul filler)"}
	errNicknameMarks     = &NicknameError{Kind: "marks", text: "at most two accent marks on a letter"}
)

// blankLooking are characters that draw nothing, or nothing but space,
// though PRECIS lets them through: a name of them, or one with them
// added, looks like another or like none.
var blankLooking = map[rune]bool{
	'\u2800': true, // Braille pattern blank
	'\u3164': true, // Hangul filler
	'\u115F': true, // Hangul choseong filler
	'\u1160': true, // Hangul jungseong filler
	'\uFFA0': true, // halfwidth Hangul filler
	'\u17B4': true, // Khmer vowel inherent aq
	'\u17B5': true, // Khmer vowel inherent aa
	'\u034F': true, // combining grapheme joiner
	'\u180E': true, // Mongolian vowel separator
	'\u2060': true, // word joiner
}

// maxMarks is how many combining marks one letter may carry: enough for
// every language's accents (Vietnamese uses two), not for a tower of marks
// that draws over the names around it.
const maxMarks = 2

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
	marks := 0
	for _, r := range raw {
		switch {
		case blankLooking[r]:
			return "", fmt.Errorf("%w: U+%04X", errNicknameBlank, r)
		case unicode.Is(unicode.Cf, r):
			return "", fmt.Errorf("%w: U+%04X", errNicknameInvisible, r)
		case unicode.IsControl(r), r == utf8.RuneError:
			return "", errNicknameChars
		}
		if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
			if marks++; marks > maxMarks {
				return "", errNicknameMarks
			}
		} else {
			marks = 0
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
	case looksLikeRejoinCode(n):
		return "", &NicknameError{Kind: "code", text: "it looks like a rejoin code: type that in the rejoin code field"}
	}
	return n, nil
}

// rejoinShaped finds what a rejoin code looks like inside a nickname: four
// characters of the codes' alphabet, a dash, four more ("4PJE-3MYJ"), or
// eight in a row with two digits or more among them ("4PJE3MYJ").
var rejoinShaped = regexp.MustCompile(`(?i)[` + CodeAlphabet + `]{4}-[` + CodeAlphabet + `]{4}|[` + CodeAlphabet + `]{8}`)

// looksLikeRejoinCode reports whether a nickname holds a rejoin code,
// typed into the nickname field ("Noah4PJE-3MYJ").
func looksLikeRejoinCode(n string) bool {
	for _, m := range rejoinShaped.FindAllString(n, -1) {
		digits := 0
		for _, r := range m {
			if unicode.IsDigit(r) {
				digits++
			}
		}
		if strings.Contains(m, "-") || digits >= 2 {
			return true
		}
	}
	return false
}

// LooksAlike reports whether two nicknames would pass for each other on a
// projector: the same once each is read as PRECIS prepares it, then by
// its confusable skeleton (Unicode Technical Standard #39: Cyrillic and
// Greek letters drawn like Latin ones, mathematical and fullwidth forms,
// 1 and l, and the rest of Unicode's confusables.txt), compared as PRECIS
// compares (case folded). "Аna" (a Cyrillic А), "Ana " and "ANA" all look
// like "Ana"; so do "mia" and "MIA" like "Mia".
func LooksAlike(a, b string) bool {
	kb := lookOf(b)
	for _, s := range lookOf(a) {
		if slices.Contains(kb[:], s) {
			return true
		}
	}
	return false
}

// look is a name's skeletons. The skeleton of the name as drawn, then
// case folded, reads each case as it looks (Greek Ν is N, ν is v; I is l).
// The skeleton of the case-folded name reads a name that only differs by
// case as the same (TS #39 draws m as "rn" and leaves M, so "mia" and
// "Mia" part under the first). The third draws each letter beyond ASCII
// as its skeleton, then folds, then takes the skeleton (a Cyrillic М is
// M, so m, so "rn"; "МIA" is "MIA"). Two names look alike when any of
// one's matches any of the other's.
type look [3]string

func lookOf(n string) look {
	if p, err := precis.Nickname.String(n); err == nil {
		n = p
	}
	latin := strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf {
			return r
		}
		if s := []rune(confusables.Skeleton(string(r))); len(s) == 1 {
			return s[0]
		}
		return r
	}, n)
	return look{fold(confusables.Skeleton(n)), confusables.Skeleton(fold(n)), confusables.Skeleton(fold(latin))}
}

// fold is PRECIS's comparison key of a name (case folded, NFKC).
func fold(n string) string {
	key, err := precis.Nickname.CompareKey(n)
	if err != nil {
		return strings.ToLower(n)
	}
	return key
}

// looks finds the first name held with each look.
type looks map[string]string

// add holds nick under k, unless a name is held there already.
func (ix looks) add(k look, nick string) {
	for _, s := range k {
		if ix[s] == "" {
			ix[s] = nick
		}
	}
}

// find is the first name held that looks like k, or "".
func (ix looks) find(k look) string {
	for _, s := range k {
		if n := ix[s]; n != "" {
			return n
		}
	}
	return ""
}
