package server

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/charts"
	"pigclass/sim"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// notTranslated are the English words a page in another language may
// still show: the games' proper names and their throws' names where a
// translation keeps them (the catalogs' notes say why), the strategies'
// and the record's own words where a page quotes them as written, and
// names of things (pigclass, Excel, JSON, UTF-8, SHA-256, ISO, Ed25519,
// Wilson, Kern). The CSV files' column names stay English by design; the
// pages show them as code, which the check leaves alone.
var notTranslated = map[string]bool{
	"pig": true, "hog": true, "big": true, "skunk": true, "pass": true, "the": true, "pigs": true,
	"sider": true, "trotter": true, "razorback": true, "snouter": true, "snouters": true, "leaning": true, "jowler": true,
	"out": true, "makin": true, "bacon": true, "bot": true, "bots": true, "pigclass": true, "excel": true,
	"json": true, "utf": true, "sha": true, "iso": true, "wilson": true, "kern": true, "journal": true,
	"statistics": true, "education": true, "hold": true, "dice": true, "optimal": true, "kper": true,
}

// englishOnly returns the words of the English catalog and lessons that
// the language's own catalog and lessons never use (and are not among
// notTranslated): a page in that language showing one is showing English.
func englishOnly(t *testing.T, a *app, lang string) map[string]bool {
	t.Helper()
	enCat, err := i18n.Catalog(i18n.Source)
	if err != nil {
		t.Fatal(err)
	}
	words := func(code string) map[string]bool {
		cat, err := i18n.Catalog(code)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		add := func(s string) {
			for _, w := range wordRE.FindAllString(fieldRE.ReplaceAllString(s, " "), -1) {
				out[strings.ToLower(w)] = true
			}
		}
		for id, forms := range cat {
			for form, text := range forms {
				if code != i18n.Source && text == enCat[id][form] && len(wordRE.FindAllString(fieldRE.ReplaceAllString(text, " "), -1)) >= 3 {
					continue // a sentence left in English lends it no words
				}
				add(text)
			}
		}
		for _, l := range a.srv.views.lessons {
			tx := l.In(code)
			add(tx.Title + " " + tx.Level + " " + strings.Join(tx.Goals, " ") + " " + strings.Join(tx.Maths, " "))
			for _, p := range tx.Phases {
				add(p.Name + " " + strings.Join(p.Prompts, " "))
			}
		}
		return out
	}
	en, own := words(i18n.Source), words(lang)
	only := map[string]bool{}
	for w := range en {
		if !own[w] && !notTranslated[w] && len([]rune(w)) >= 3 {
			only[w] = true
		}
	}
	return only
}

var (
	wordRE  = regexp.MustCompile(`\p{L}+`)
	fieldRE = regexp.MustCompile(`\{\{\.\w+\}\}|\{[\w.]+\}`)
)

// pageText is what a person reads on a page: its title, its text and the
// attributes read aloud, without code, drawings, scripts and what the page
// marks as not to be translated or in another language.
func pageText(doc *goquery.Document) string {
	doc.Find(`script, style, noscript, svg, code, kbd, pre, [translate="no"], body [lang]`).Remove()
	var b strings.Builder
	b.WriteString(doc.Find("title").Text() + " ")
	b.WriteString(doc.Find("body").Text() + " ")
	doc.Find("[aria-label], [alt], [title], [placeholder]").Each(func(_ int, s *goquery.Selection) {
		for _, a := range []string{"aria-label", "alt", "title", "placeholder"} {
			b.WriteString(s.AttrOr(a, "") + " ")
		}
	})
	// The CSV files' names are data (English by design), in any sentence.
	return csvName.ReplaceAllString(b.String(), " ")
}

var csvName = regexp.MustCompile(`\w+\.csv`)

// TestEveryPageInEachLanguage: in French, Brazilian Portuguese and German,
// every page a visitor, a student, a teacher and the projector see (the
// front page, joining, verify, the glossary, a class's page, a match being
// played and its review, the charts, the dashboard with each of its
// charts, a student's decisions, the projector, the results, Skunk, the
// confirmations, an error) shows no English word: every word comes from
// the language's own catalog and lessons, or is a listed proper name.
func TestEveryPageInEachLanguage(t *testing.T) {
	for _, lang := range []string{"fr", "pt-BR", "de"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			a := newApp(t)
			only := englishOnly(t, a, lang)
			if len(only) > 0 && len(only) < 50 {
				t.Fatalf("only %d English words to look for: the catalogs were not read", len(only))
			}
			// codes are the classes' join codes, drawn at random: a page's
			// title and the projector's QR code name theirs, and "FEW4YW"
			// shows no English word. The server's key's fingerprint, in
			// the verify page's sentence, is data too: its hex, drawn with
			// the key, may spell "add" or "bed".
			codes := []string{sim.Fingerprint(a.srv.hall.RecordKey())}
			visit := func(b *browser, path string) {
				t.Helper()
				doc := b.get(path)
				if b.status() >= 500 {
					t.Fatalf("%s: %d", path, b.status())
				}
				text := pageText(doc)
				for _, c := range codes {
					text = strings.ReplaceAll(text, c, " ")
				}
				var found []string
				for _, w := range wordRE.FindAllString(text, -1) {
					if only[strings.ToLower(w)] && len(found) < 8 {
						found = append(found, w)
					}
				}
				if len(found) > 0 {
					t.Errorf("%s in %s shows English: %v", path, lang, found)
				}
			}
			teacher, visitor := a.browser(), a.browser()
			for _, b := range []*browser{teacher, visitor} {
				b.accept = lang
			}
			code := teacherStartLesson(t, teacher, "1-roll-or-hold")
			codes = append(codes, code)
			ana := join(t, a, code, "Ana")
			ana.accept = lang
			visit(visitor, paths.Front.String())
			visit(visitor, paths.JoinCode.For(code))
			visit(visitor, paths.Verify.String())
			visit(visitor, paths.Glossary.String())
			visit(visitor, paths.Help.String())
			visit(visitor, "/no-such-page")
			visit(ana, paths.Student.For(code))
			visit(teacher, paths.Teacher.For(code))
			teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "deadline": {"60"}})
			visit(ana, paths.Student.For(code))
			visit(teacher, paths.ConfirmEndRound.For(code))
			visit(teacher, paths.TeacherProjector.Page.For(code))
			playRound(t, code, []*student{{b: ana, nick: "Ana", holdAt: 15}})
			id := anaMatch(t, a, code)
			visit(ana, paths.Match(code, id))
			visit(ana, paths.StudentCharts.For(code))
			for _, key := range charts.ClassKeys {
				visit(teacher, paths.Teacher.For(code)+"?chart="+key)
			}
			visit(teacher, fmt.Sprintf("/t/%s/students/%d", code, studentID(t, a, code, "Ana")))
			visit(teacher, paths.TeacherProjector.Results.For(code))
			visit(teacher, paths.ConfirmDelete.For(code))
			// Skunk, from its lesson's phase.
			sk := teacherStartLesson(t, teacher, "6-skunk")
			codes = append(codes, sk)
			bo := join(t, a, sk, "Bo")
			bo.accept = lang
			teacher.post(paths.LessonStart.For(sk), nil)
			visit(bo, paths.StudentSkunk.For(sk))
			visit(teacher, paths.TeacherSkunk.For(sk))
			visit(teacher, paths.TeacherProjector.Page.For(sk))
		})
	}
}

// jargon is what a 12-year-old stumbles on, never said on a student's
// pages in English (the teacher's pages and the CSV glossary may use it).
var jargon = []string{"expected-value", "expected value", "percentage point"}

// TestStudentPagesSpeakPlainly (issue 32, item 10): a student's pages in
// English (the class page, the board against the bot that plays for the
// most points each turn, the review of a match, their charts beside the
// class) use none of the jargon words: chances are said in percent, the
// rule of thumb and perfect play by those names.
func TestStudentPagesSpeakPlainly(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	s := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 30}
	check := func(path string) {
		t.Helper()
		text := strings.ToLower(pageText(s.b.get(path)))
		for _, j := range jargon {
			if strings.Contains(text, j) {
				i := strings.Index(text, j)
				t.Errorf("%s says %q: …%s…", path, j, text[max(0, i-60):min(len(text), i+60)])
			}
		}
	}
	check(paths.Student.For(code))
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"100"}, "mode": {"bot"}, "bot": {"ev"}})
	check(paths.Student.For(code))
	playRound(t, code, []*student{s})
	check(paths.Match(code, anaMatch(t, a, code)))
	check(paths.StudentCharts.For(code))
}
