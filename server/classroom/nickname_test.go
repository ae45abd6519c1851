package classroom

import (
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestBlankLookingNames: the names that passed PRECIS but look blank, or
// like a classmate's with something invisible added, or draw a tower of
// marks over their neighbours, are refused, each with the problem named.
func TestBlankLookingNames(t *testing.T) {
	for raw, kind := range map[string]string{
		"Ana\u2800":                        "blank",
		"\u2800Ana":                        "blank",
		"\u2800\u2800\u2800":               "blank",
		"A\u2800na":                        "blank",
		"\u3164":                           "blank",
		"Bo\u115F":                         "blank",
		"Li\uFFA0":                         "blank",
		"Z" + strings.Repeat("\u0301", 22): "marks",
		"a\u0301\u0302\u0303":              "marks",
		"An\u200Ba":                        "invisible",
	} {
		_, err := Nickname(raw)
		var ne *NicknameError
		if !errors.As(err, &ne) || ne.Kind != kind {
			t.Errorf("%+q: %v, want the %s problem", raw, err, kind)
		}
	}
	for _, ok := range []string{"Ana", "Nguyễn", "José", "Zoë", "李小龙", "O'Brien-Smith"} {
		if _, err := Nickname(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
}

// TestLookAlikeNames: names that pass for "Ana" on a projector collide
// with it (Cyrillic letters, a trailing space, case, fullwidth and
// mathematical letters), and names that look different do not.
func TestLookAlikeNames(t *testing.T) {
	for _, alike := range []string{"Аna", "Ana ", "ANA", "ａｎａ", "𝐀na", "Αna"} {
		if !LooksAlike("Ana", alike) {
			t.Errorf("%+q does not look like Ana", alike)
		}
	}
	for _, other := range []string{"Anna", "Ann", "Ada", "Ana2"} {
		if LooksAlike("Ana", other) {
			t.Errorf("%q looks like Ana", other)
		}
	}
	if !LooksAlike("Liam", "Iiam") || !LooksAlike("Nick", "Νick") {
		t.Error("Unicode's confusables are not read (I and l, Greek capital Nu)")
	}
	// Case is folded before the skeleton as well as after: TS #39 draws m
	// as "rn" and I as l, so a name read only one way parts from itself in
	// capitals.
	for _, pair := range [][2]string{
		{"Mia", "MIA"}, {"Mia", "mia"}, {"MIA", "mia"}, {"Emma", "EMMA"}, {"emma", "EMMA"},
		{"Mia Thompson", "mia thompson"}, {"Mia Thompson", "MIA THOMPSON"},
		{"Iris", "iris"}, {"Iris", "lris"}, {"Ali", "ALI"}, {"Ali", "AIi"},
		{"Мia", "mia"}, {"Маша", "МАША"}, {"Emma", "Еmmа"}, {"Nick", "Νick"},
	} {
		if !LooksAlike(pair[0], pair[1]) || !LooksAlike(pair[1], pair[0]) {
			t.Errorf("%+q and %+q do not look alike", pair[0], pair[1])
		}
	}
	for _, pair := range [][2]string{{"Mia", "Mila"}, {"Emma", "Emmy"}, {"Mia Thompson", "Mia Thomson"}, {"Ian", "Ivan"}} {
		if LooksAlike(pair[0], pair[1]) {
			t.Errorf("%q and %q look alike", pair[0], pair[1])
		}
	}
}

// FuzzNickname: whatever is typed, a name accepted is the same when read
// again, as long as allowed, holds nothing invisible or blank-looking and
// no more than two marks on a letter, and looks like itself.
func FuzzNickname(f *testing.F) {
	for _, s := range []string{"Ana", "Ana\u2800", "Z\u0301\u0301\u0301", "  Bo  ", "ｆｕｌｌ", "A\u200Bna", "\u3164"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n, err := Nickname(raw)
		if err != nil {
			return
		}
		if again, err := Nickname(n); err != nil || again != n {
			t.Fatalf("%+q read as %+q, then %+q (%v)", raw, n, again, err)
		}
		if c := utf8.RuneCountInString(n); c == 0 || c > MaxNickname {
			t.Fatalf("%+q: %d characters", n, c)
		}
		marks := 0
		for _, r := range n {
			if blankLooking[r] || unicode.Is(unicode.Cf, r) || unicode.IsControl(r) {
				t.Fatalf("%+q holds %U", n, r)
			}
			if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) {
				marks++
			} else {
				marks = 0
			}
			if marks > maxMarks {
				t.Fatalf("%+q has %d marks on a letter", n, marks)
			}
		}
		if !LooksAlike(n, n) || !LooksAlike(raw, n) {
			t.Fatalf("%+q does not look like itself", n)
		}
	})
}

// TestPlatformNamesAsThePlatformGivesThem (issue 79, item 9): a
// platform's names keep their script's joiners and marks, lose direction
// overrides and other invisible controls (not the whole name), and are
// cut at MaxPlatformName, not at a nickname's 24.
func TestPlatformNamesAsThePlatformGivesThem(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"علی\u200cرضا رضایی", "علی\u200cرضا رضایی"}, // Persian, with a zero-width non-joiner
		{"मनोज कुमार", "मनोज कुमार"},                 // Hindi: vowel signs and a virama
		{"क्\u200dष", "क्\u200dष"},                   // a joiner after a virama
		{"مُحَمَّد", "مُحَمَّد"},                     // Arabic with its marks
		{"Ana\u202eLopes", "AnaLopes"},               // a right-to-left override, removed
		{"Bo\u2066 Reis\u2069", "Bo Reis"},           // isolates, removed
		{"Mia\u200b Thompson\x07", "Mia Thompson"},   // a zero-width space and a bell
		{"Ana\u200dLopes", "AnaLopes"},               // a joiner where Latin does not join
		{"María José Fernández de la Cruz", "María José Fernández de la Cruz"},
		{strings.Repeat("Ab", 40), strings.Repeat("Ab", 32)},
		{"\u202e\u200b", ""},
	} {
		if got := PlatformName(c.raw); got != c.want {
			t.Errorf("PlatformName(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}
