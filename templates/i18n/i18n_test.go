package i18n

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nicksnyder/go-i18n/v2/i18n/template"
)

// placeholder finds a message's {{.Name}} fields.
var placeholder = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

func fields(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestCatalogsDoNotDrift: every language has every message English has,
// nothing English lacks, the plural forms its language needs, and the
// same {{.Fields}} (a translation may move them, not drop or invent
// them).
func TestCatalogsDoNotDrift(t *testing.T) {
	en, err := Catalog(Source)
	if err != nil {
		t.Fatal(err)
	}
	if len(en) < 300 {
		t.Fatalf("the English catalog has %d messages: not read whole?", len(en))
	}
	for _, l := range Langs[1:] {
		cat, err := Catalog(l.Code)
		if err != nil {
			t.Fatal(err)
		}
		for id, forms := range en {
			got, ok := cat[id]
			if !ok {
				t.Errorf("%s: no translation of %q (%q)", l.Code, id, forms["other"])
				continue
			}
			if _, ok := got["other"]; !ok {
				t.Errorf("%s %s: no other form", l.Code, id)
			}
			if _, plural := forms["one"]; plural {
				if _, ok := got["one"]; !ok {
					t.Errorf("%s %s: English has plural forms, the translation no one form", l.Code, id)
				}
			}
			want := fields(forms["other"])
			for form, text := range got {
				if f := fields(text); !slices.Equal(f, want) && !(form == "one" && isSubset(f, want)) {
					t.Errorf("%s %s (%s): fields %v, English %v", l.Code, id, form, f, want)
				}
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s %s (%s): empty", l.Code, id, form)
				}
			}
		}
		for id := range cat {
			if _, ok := en[id]; !ok {
				t.Errorf("%s: %q is not an English message (renamed or removed?)", l.Code, id)
			}
		}
	}
}

// TestEveryMessageTranslated: no language leaves a sentence in English: a
// message of three words or more that reads exactly as the English one is
// a message not translated (a word or a name alike in both, such as
// "Koala", "Bot" or "Pig", may be the same, and so may the games' names).
func TestEveryMessageTranslated(t *testing.T) {
	en, err := Catalog(Source)
	if err != nil {
		t.Fatal(err)
	}
	words := regexp.MustCompile(`\p{L}+`)
	fields := regexp.MustCompile(`\{\{\.\w+\}\}`)
	for _, l := range Langs[1:] {
		cat, err := Catalog(l.Code)
		if err != nil {
			t.Fatal(err)
		}
		for id, forms := range cat {
			if strings.HasPrefix(id, "game.") {
				continue // a game's name may stay its proper name ("Pass the Pigs")
			}
			for form, text := range forms {
				if text == en[id][form] && len(words.FindAllString(fields.ReplaceAllString(text, " "), -1)) >= 3 {
					t.Errorf("%s %s (%s) is the English: %q", l.Code, id, form, text)
				}
			}
		}
	}
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// TestNumbersInTheReadersFormat: the same numbers, as English and Spanish
// readers write them (CLDR, through golang.org/x/text).
func TestNumbersInTheReadersFormat(t *testing.T) {
	en, es := For("en"), For("es")
	for _, c := range []struct{ got, want string }{
		{en.Pct(0.530638, 2), "53.06%"},
		{es.Pct(0.530638, 2), "53,06\u00a0%"},
		{en.Pct(0.0123, 1), "1.2%"},
		{es.Pct(0.0123, 1), "1,2\u00a0%"},
		{en.Dec(8.1358, 2), "8.14"},
		{es.Dec(8.1358, 2), "8,14"},
		{en.Dec(3, 2), "3.00"},
		{es.Dec(0.5, 4), "0,5000"},
		{en.Int(505000), "505,000"},
		{es.Int(505000), "505.000"},
		{en.Int(42), "42"},
		{es.Int(1234), "1.234"}, // x/text groups from four digits (CLDR's minimum grouping is not applied)
		{en.Points(0.0153), "1.53 percentage points"},
		{en.Clock(time.Date(2026, 11, 30, 9, 1, 0, 0, time.UTC)), "09:01:00"},
		{es.Clock(time.Date(2026, 11, 30, 21, 1, 5, 0, time.UTC)), "21:01:05"},
		{es.Points(0.0153), "1,53 puntos porcentuales"},
		{For("fr").Pct(0.530638, 2), "53,06\u00a0%"},
		{For("fr").Int(505000), "505\u00a0000"},
		{For("fr").Points(0.0153), "1,53 points de pourcentage"},
		{For("de").Pct(0.530638, 2), "53,06\u00a0%"},
		{For("de").Int(505000), "505.000"},
		{For("de").Dec(8.1358, 2), "8,14"},
		{For("pt-BR").Pct(0.530638, 2), "53,06%"},
		{For("pt-BR").Int(505000), "505.000"},
		{For("pt-BR").Points(0.0153), "1,53 pontos percentuais"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestPlurals: counts pick their language's plural form.
func TestPlurals(t *testing.T) {
	en, es := For("en"), For("es")
	for _, c := range []struct{ got, want string }{
		{en.N("board.dice", 1), "1 die"},
		{en.N("board.dice", 5), "5 dice"},
		{es.N("board.dice", 1), "1 dado"},
		{es.N("board.dice", 5), "5 dados"},
		{es.N("live.match_decisions", 0), "0 decisiones"},
		// French and Brazilian Portuguese say 0 in the singular (CLDR:
		// one is 0 and 1); German in the plural.
		{For("fr").N("live.match_decisions", 0), "0 décision"},
		{For("fr").N("live.match_decisions", 2), "2 décisions"},
		{For("pt-BR").N("live.match_decisions", 1), "1 decisão"},
		{For("pt-BR").N("live.match_decisions", 3), "3 decisões"},
		{For("de").N("live.match_decisions", 0), "0 Entscheidungen"},
		{For("de").N("live.match_decisions", 1), "1 Entscheidung"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestMatch: Accept-Language picks the best language shipped; English
// when none fits.
func TestMatch(t *testing.T) {
	for header, want := range map[string]string{
		"":                           "en",
		"es":                         "es",
		"es-MX,es;q=0.9,en;q=0.8":    "es",
		"fr-FR,fr;q=0.9":             "fr",
		"fr-CA":                      "fr",
		"ja-JP,ja;q=0.9":             "en",
		"it;q=0.9,es;q=0.5":          "es",
		"en-GB,en;q=0.9,es;q=0.8":    "en",
		"de, es;q=0.1":               "de",
		"de-AT":                      "de",
		"not a header ;;; q=x":       "en",
		"pt-BR,pt;q=0.9,es-419;q=.5": "pt-BR",
		"pt":                         "pt-BR",
	} {
		if got := Match(header); got != want {
			t.Errorf("Accept-Language %q: %s, want %s", header, got, want)
		}
	}
}

// TestContext: a request's localizer rides in its context; none is
// English.
func TestContext(t *testing.T) {
	ctx := context.Background()
	if From(ctx).Lang() != "en" || T(ctx, "board.roll") != "Roll" {
		t.Error("no localizer: not English")
	}
	ctx = WithLocalizer(ctx, For("es"))
	if From(ctx).Lang() != "es" || T(ctx, "board.roll") != "Tirar" {
		t.Errorf("Spanish: %q", T(ctx, "board.roll"))
	}
	if For("xx").Lang() != "en" || Known("xx") || !Known("es") {
		t.Error("an unknown language is not English")
	}
}

// TestPseudo: the pseudo-locale wraps and lengthens every message, keeps
// the fields working, and speaks only when enabled.
func TestPseudo(t *testing.T) {
	if !pseudoOn { // a second run (-count) finds it enabled
		if Known(PseudoCode) || Match("en-XA") != "en" {
			t.Fatal("the pseudo-locale is known before a test enables it")
		}
	}
	EnablePseudo()
	p := For(PseudoCode)
	got := p.T("move.held", "Name", "Ana", "Points", p.Int(20))
	if !strings.HasPrefix(got, "[!! Ana held 20 points. ~") || !strings.HasSuffix(got, "~ !!]") || len(got) < len("Ana held 20 points.")*14/10 {
		t.Errorf("pseudo: %q", got)
	}
	if Match("en-XA,en;q=0.5") != PseudoCode {
		t.Error("Accept-Language en-XA does not pick the pseudo-locale once enabled")
	}
}

// TestFieldsParser: the fast fill agrees with text/template on every
// message of every language, with every field given and with none.
func TestFieldsParser(t *testing.T) {
	for _, l := range Langs {
		cat, err := Catalog(l.Code)
		if err != nil {
			t.Fatal(err)
		}
		for id, forms := range cat {
			for form, src := range forms {
				data := map[string]any{}
				for _, f := range fields(src) {
					data[f] = "<" + f + ">"
				}
				for _, d := range []map[string]any{data, nil} {
					fast, err1 := mustExec(fieldsParser{}, src, d)
					slow, err2 := mustExec(&template.TextParser{}, src, d)
					if err1 != nil || err2 != nil || fast != slow {
						t.Errorf("%s %s (%s): %q / %q (%v %v)", l.Code, id, form, fast, slow, err1, err2)
					}
				}
			}
		}
	}
}

func mustExec(p interface {
	Parse(src, l, r string) (template.ParsedTemplate, error)
}, src string, data map[string]any) (string, error) {
	pt, err := p.Parse(src, "", "")
	if err != nil {
		return "", err
	}
	return pt.Execute(data)
}

// TestPunctuation (issue 44): no message in any language doubles its
// punctuation ("play??", "now..") or sets a space before a comma or a
// full stop, singular and plural forms alike.
func TestPunctuation(t *testing.T) {
	bad := []string{"??", "!!", "..", ",,", " ,", " .", ".,", ",."}
	eachMessage(t, func(lang, id, form, text string) {
		for _, b := range bad {
			if strings.Contains(text, b) {
				t.Errorf("%s %s (%s): %q in %q", lang, id, form, b, text)
			}
		}
	})
}

// TestRejectedForms (issue 44, the start of a glossary): words a native
// teacher reading the student's pages rejected do not come back. German:
// the turn total is "Zugsumme" ("Rundensumme" clashes with the teacher's
// "Runde 2"; Skunk's total is the round's and keeps it), a forfeit is
// not "kampflos", a chance is "1 zu N". Brazilian Portuguese: no "W.O."
// (sports jargon), "dois uns", "código para voltar", and the roll button
// "Rolar". French: a game "jusqu'à 100", the match's "bilan" everywhere.
func TestRejectedForms(t *testing.T) {
	rejected := map[string][]string{
		"de":    {"Rundensumme", "kampflos", "je eine Chance von", "Würfel-Festlegung", "Deine Spiele"},
		"pt-BR": {"W.O.", "dois 1:", "dois 1 ", "dois 1)", "código de volta", "vezes iguais", "contra {{.Bot}}"},
		"fr":    {"} en {{.N}}", "la revue", "ta revue", "Bot (bot mystère)", "contre {{.Bot}}"},
	}
	// The roll button is not the verb of "play a game" (Portuguese "Jogar").
	if pt, err := Catalog("pt-BR"); err != nil || pt["board.roll"]["other"] == "Jogar" {
		t.Errorf("pt-BR board.roll: %q (%v)", pt["board.roll"]["other"], err)
	}
	for lang, words := range rejected {
		cat, err := Catalog(lang)
		if err != nil {
			t.Fatal(err)
		}
		for id, forms := range cat {
			skunk := strings.HasPrefix(id, "skunk") || strings.Contains(id, "skunk")
			for _, text := range forms {
				for _, w := range words {
					if strings.Contains(text, w) && !(w == "Rundensumme" && (skunk || strings.Contains(text, "Skunk"))) {
						t.Errorf("%s %s: %q in %q", lang, id, w, text)
					}
				}
			}
		}
	}
}

// TestCountedWordsAgree (issue 44): a counted message agrees with its
// count in every language: one choice "was", twenty "were".
func TestCountedWordsAgree(t *testing.T) {
	for lang, want := range map[string][2]string{
		"en":    {"1 of your 20 choices was not", "2 of your 20 choices were not"},
		"de":    {"1 deiner 20 Entscheidungen war nicht", "2 deiner 20 Entscheidungen waren nicht"},
		"es":    {"1 de tus 20 decisiones no fue", "2 de tus 20 decisiones no fueron"},
		"fr":    {"1 de tes 20 choix n'était pas", "2 de tes 20 choix n'étaient pas"},
		"pt-BR": {"1 das suas 20 escolhas não foi", "2 das suas 20 escolhas não foram"},
	} {
		l := For(lang)
		for i, n := range []int{1, 2} {
			if got := l.N("review.differs", n, "Of", "20"); !strings.HasPrefix(got, want[i]) {
				t.Errorf("%s, %d: %q, want %q...", lang, n, got, want[i])
			}
		}
	}
	// A review of a match of one decision.
	for lang, want := range map[string]string{"en": "over 1 decision.", "de": "bei 1 Entscheidung.", "es": "en 1 decisión.", "fr": "sur 1 décision.", "pt-BR": "em 1 decisão."} {
		if got := For(lang).N("review.total.after", 1, "PerDecision", "1%", "N", "1"); !strings.HasSuffix(got, want) {
			t.Errorf("%s, one decision: %q", lang, got)
		}
	}
	// A hold of 1 point (Pass the Pigs: a Sider, then hold) on the board.
	for lang, want := range map[string][2]string{
		"en":    {"You held 1 point.", "You held 2 points."},
		"de":    {"Du hast 1 Punkt gesichert.", "Du hast 2 Punkte gesichert."},
		"es":    {"Te plantaste con 1 punto.", "Te plantaste con 2 puntos."},
		"fr":    {"Tu as gardé 1 point.", "Tu as gardé 2 points."},
		"pt-BR": {"Você guardou 1 ponto.", "Você guardou 2 pontos."},
	} {
		for i, n := range []int{1, 2} {
			if got := For(lang).N("move.held_you", n, "Points", n); got != want[i] {
				t.Errorf("%s, held %d: %q, want %q", lang, n, got, want[i])
			}
		}
	}
}

// TestCountedMessagesHavePlurals (issue 44): an English message that puts
// a count before a plural noun ("{{.N}} decisions", "of the {{.Rolls}}
// throws") has singular and plural forms, so that 1 reads "1 decision" in
// every language; the exceptions are counts that are never 1, each with
// its reason.
func TestCountedMessagesHavePlurals(t *testing.T) {
	never1 := map[string]string{
		"error.classes_rate":             "past the limit of classes a minute (at least 2)",
		"error.limit_live":               "the server's limit of matches",
		"error.limit_class_live":         "a class's limit of matches",
		"error.limit_player_open":        "a player's limit of open games",
		"error.limit_class_starts":       "a class's limit of starts a minute",
		"board.warning":                  "said after two time-outs in a row (sim.TimeoutsResign - 1)",
		"review.pattern":                 "a pattern is 3 decisions or more (minPattern)",
		"review.pattern_hog":             "a pattern is 3 decisions or more (minPattern)",
		"review.pattern_at":              "a pattern is 3 decisions or more (minPattern)",
		"review_of.pattern":              "a pattern is 3 decisions or more (minPattern)",
		"review_of.pattern_hog":          "a pattern is 3 decisions or more (minPattern)",
		"review_of.pattern_at":           "a pattern is 3 decisions or more (minPattern)",
		"notice.joins_limited":           "the joins a minute a class takes (DefaultClassJoins)",
		"live.joins.count":               "\"of at most N joins\": the class's cap",
		"live.joins.full":                "\"of at most N joins\": the class's cap",
		"lesson.tag":                     "a lesson lasts 5 to 180 minutes",
		"lesson.choice":                  "a lesson lasts 5 to 180 minutes",
		"against.bot_seats":              "said for 3 players a match or more",
		"against.pairs_seats":            "said for 3 players a match or more",
		"nickname.empty":                 "the longest nickname (MaxNickname)",
		"nickname.long":                  "the longest nickname (MaxNickname)",
		"joinerr.cap":                    "a class's cap of students",
		"award.decisions_value":          "the award asks 10 decisions or more (report.MinDecisions)",
		"variant.seats":                  "a match has 2 seats or more",
		"table.error.size":               "a table seats 2 players or more",
		"howto.deadline":                 "a deadline is 3 seconds or more",
		"homework.summary":               "\"X of N students\" reads in the plural for any N",
		"contest.status.over":            "a tournament has 2 entries and 2 duels or more",
		"verify.dice.ok":                 "a verified record is a whole match's: many throws",
		"contest.error.too_many_entries": "more entries than contest.MaxEntries: never one",
		"verify.dice.before":             "a verified record is a whole match's: many throws",
		"verify.moves.ok":                "a verified record is a whole match's: many events",
		"verify.skunk.ok":                "a verified game of Skunk: many rolls and sits",
		"verify.problem.not_over":        "a verified record is a whole match's: many events",
		"verify.problem.no_result":       "a verified record is a whole match's: many events",
		"roster.too_many":                "a class list holds classlist.MaxNames names: never one",
		"roster.too_many_upload":         "an upload holds classlist.MaxStudents names: never one",
		"lab.error.rate":                 "a student runs labRunsPerMinute (20) experiments a minute: never one",
		"lab.error.total":                "a student runs labRunsPerStudent (300) experiments in a class: never one",
		"chart.lab.pooled":               "a run plays 10 games or more (sim.MinExperiment)",
		"chart.lab-path.caption":         "a run plays 10 games or more (sim.MinExperiment)",
		"chart.lab-spread.large":         "N is charts.labLarge, 1,000 games",
		"chart.lab-spread.small":         "N is charts.labLarge, 1,000 games",
		"chart.lab-spread.caption":       "N is charts.labLarge, 1,000 games",
		"chart.lab-spread.large_spread":  "N is charts.labLarge, 1,000 games; a spread is said of 2 runs or more",
		"chart.lab-spread.small_spread":  "N is charts.labLarge, 1,000 games; a spread is said of 2 runs or more",
		"roster.files":                   "an upload holds classlist.MaxFiles files: never one",
	}
	en, err := Catalog(Source)
	if err != nil {
		t.Fatal(err)
	}
	counted := regexp.MustCompile(`\{\{\.(N|Count|Cap|Max|Rolls|Events|Sits|Pieces|Throws|Students|Cells|Duels|Points|Decisions|Games)\}\} (?:of (?:your|the|\{\{\.\w+\}\}'s) )?(?:\{\{\.\w+\}\} )?[a-z]+s\b`)
	for id, forms := range en {
		if _, plural := forms["one"]; plural || !counted.MatchString(forms["other"]) {
			continue
		}
		if never1[id] == "" {
			t.Errorf("%s counts without a singular form: %q", id, forms["other"])
		}
	}
	for id := range never1 {
		if _, ok := en[id]; !ok {
			t.Errorf("the exception %s is no message", id)
		}
	}
}

// TestNoMessageSpeaksTheCode (issue 59, item 9): the words a teacher or a
// student reads name things as the pages do, never by the repository's
// files ("(sim/plans.md)") or the code's numbering of the editor's forms
// ("(form 1)").
func TestNoMessageSpeaksTheCode(t *testing.T) {
	code := regexp.MustCompile(`\b[\w-]+/[\w./-]+\.(md|go|toml)\b|\((form|forme|forma|Form) \d\)`)
	eachMessage(t, func(lang, id, form, text string) {
		if m := code.FindString(text); m != "" {
			t.Errorf("%s %s (%s): %q in %q", lang, id, form, m, text)
		}
	})
}

// eachMessage calls f with every form of every message of every catalog.
func eachMessage(t *testing.T, f func(lang, id, form, text string)) {
	t.Helper()
	for _, l := range Langs {
		cat, err := Catalog(l.Code)
		if err != nil {
			t.Fatal(err)
		}
		for id, forms := range cat {
			for form, text := range forms {
				f(l.Code, id, form, text)
			}
		}
	}
}

// TestFilledAsGoI18nFillsThem: every message of every language, with and
// without a count (counts of each plural form, past the kept small ones
// too), reads the same through localize's message found once and filled
// (fill) as go-i18n fills it each time: the same language, plural form,
// fallback to English and fields, a missing field and a number among the
// arguments included.
func TestFilledAsGoI18nFillsThem(t *testing.T) {
	en, err := Catalog(Source)
	if err != nil {
		t.Fatal(err)
	}
	var args []any
	named := map[string]bool{}
	for _, forms := range en {
		for _, text := range forms {
			for _, f := range fields(text) {
				if !named[f] {
					named[f] = true
					args = append(args, f, "«"+f+"»")
				}
			}
		}
	}
	args = append(args, "Score", 17, "Score", "last") // the last of a name wins
	counts := []int{0, 1, 2, 3, 4, 5, 6, 11, 21, 22, 100, 101, 102, 999, 1000, 1001, 1_000_000, 2_000_001}
	compared := 0
	for _, lang := range Langs {
		l := For(lang.Code)
		for id := range en {
			if got, want := l.T(id, args...), l.goi18n(id, nil, args); got != want {
				t.Errorf("%s %s: %q, go-i18n %q", lang.Code, id, got, want)
			}
			for _, n := range counts {
				all := append(slices.Clone(args), "Count", l.Int(n))
				if got, want := l.N(id, n, args...), l.goi18n(id, n, all); got != want {
					t.Errorf("%s %s (%d): %q, go-i18n %q", lang.Code, id, n, got, want)
				}
				compared++
			}
		}
	}
	if compared < 5*300*len(counts) {
		t.Errorf("%d compared: the catalogs not read whole?", compared)
	}
	if got := For("fr").N("projector.playing", 1); got != For("fr").goi18n("projector.playing", 1, []any{"Count", "1"}) || got == For("fr").N("projector.playing", 2) {
		t.Errorf("fr: one and two play alike: %q", got)
	}
}
