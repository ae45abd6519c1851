package server

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/classroom"
	"pigclass/server/report"
	"pigclass/sim"
	"pigclass/static"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// lang is a page's <html lang>.
func lang(doc *goquery.Document) string { return doc.Find("html").AttrOr("lang", "") }

// TestAcceptLanguage: a browser that asks for Spanish gets Spanish pages
// with lang="es", one that asks for a language not shipped gets English,
// and the answer varies by the header and the cookie.
func TestAcceptLanguage(t *testing.T) {
	a := newApp(t)
	es := a.browser()
	es.accept = "es-ES,es;q=0.9,en;q=0.5"
	doc := es.get("/")
	if lang(doc) != "es" || doc.Find("h1").Text() != "¿Tirar o plantarse?" || !strings.Contains(doc.Find("#lesson").Text(), "Jugar para ganar") {
		t.Errorf("Spanish front page: lang %q, h1 %q", lang(doc), doc.Find("h1").Text())
	}
	if es.last.Header.Get("Content-Language") != "es" {
		t.Errorf("Content-Language %q", es.last.Header.Get("Content-Language"))
	}
	if v := es.last.Header.Get("Vary"); !strings.Contains(v, "Accept-Language") || !strings.Contains(v, "Cookie") {
		t.Errorf("Vary: %q", v)
	}
	if es.get(static.Path("app.css")); strings.Contains(es.last.Header.Get("Vary"), "Accept-Language") {
		t.Error("a static file varies by language")
	}
	if doc := es.get("/join"); lang(doc) != "es" || doc.Find(`label[for="nickname"]`).Text() != "Apodo" {
		t.Errorf("Spanish join page: %q", doc.Find(`label[for="nickname"]`).Text())
	}
	if doc := es.get("/no-such-page"); es.status() != http.StatusNotFound || doc.Find("h1").Text() != "Esta página no existe." {
		t.Errorf("Spanish 404: %q", doc.Find("h1").Text())
	}
	ja := a.browser()
	ja.accept = "ja-JP,ja;q=0.9"
	if doc := ja.get("/"); lang(doc) != "en" || doc.Find("h1").Text() != "Roll or hold?" {
		t.Errorf("Japanese asks, English answers: lang %q", lang(doc))
	}
	// French, Brazilian Portuguese and German readers get their own.
	for accept, want := range map[string]string{"fr-FR,fr;q=0.9": "Lancer ou garder ?", "pt-BR,pt;q=0.9": "Rolar ou guardar?", "de-DE,de;q=0.9": "Würfeln oder sichern?"} {
		b := a.browser()
		b.accept = accept
		if doc := b.get("/"); doc.Find("h1").Text() != want || b.last.Header.Get("Content-Language") != lang(doc) {
			t.Errorf("%s: h1 %q (lang %q), want %q", accept, doc.Find("h1").Text(), lang(doc), want)
		}
	}
	// A bad field's message is in the reader's language too.
	doc = es.post("/join", url.Values{"code": {"??"}, "nickname": {"Ana"}})
	if got := doc.Find("#code-error").Text(); !strings.HasPrefix(got, "Código de la clase: las 6 letras") {
		t.Errorf("Spanish field error: %q", got)
	}
}

// TestLanguageSwitcher: every page has the switcher; it remembers the
// reader's choice in a cookie over Accept-Language and goes back to the
// page; a bad language or a foreign address is refused or ignored.
func TestLanguageSwitcher(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	b.accept = "es"
	for _, path := range []string{"/", "/join", "/glossary", "/verify"} {
		doc := b.get(path)
		sw := doc.Find(`[data-testid="lang-switch"]`)
		if sw.Length() != 1 || sw.AttrOr("action", "") != "/lang" || sw.Find(`input[name="back"]`).AttrOr("value", "") != path {
			t.Errorf("%s: switcher %d", path, sw.Length())
		}
		if sw.Find(`[data-testid="lang-es"]`).AttrOr("aria-pressed", "") != "true" || sw.Find(`[data-testid="lang-en"]`).AttrOr("lang", "") != "en" {
			t.Errorf("%s: the switcher does not show Spanish as chosen", path)
		}
	}
	doc := b.post("/lang", url.Values{"lang": {"en"}, "back": {"/glossary"}})
	if b.path() != "/glossary" || lang(doc) != "en" || doc.Find("h1").Text() != "What the CSV files say" {
		t.Errorf("after picking English: %s, lang %q", b.path(), lang(doc))
	}
	if doc := b.get("/"); lang(doc) != "en" {
		t.Error("the choice is not remembered over Accept-Language")
	}
	b.post("/lang", url.Values{"lang": {"xx"}, "back": {"/"}})
	if b.status() != http.StatusUnprocessableEntity || !strings.Contains(b.body, "Español (es)") {
		t.Errorf("unknown language: %d", b.status())
	}
	b.post("/lang", url.Values{"lang": {"es"}, "back": {"//evil.example/"}})
	if b.path() != "/" || b.last.Request.URL.Host != strings.TrimPrefix(a.url, "http://") {
		t.Errorf("a foreign back address was followed: %s", b.last.Request.URL)
	}
}

// TestClassLanguage: the teacher sets the class's language; students'
// pages use it unless a student picked their own, the projector always
// does, and the teacher's own pages keep the teacher's language. The
// files stay in their one format.
func TestClassLanguage(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	teacher.accept = "en"
	code := teacherStart(t, teacher)
	doc := teacher.post("/t/"+code+"/language", url.Values{"lang": {"es"}})
	if lang(doc) != "en" || !strings.Contains(doc.Find(".notice").Text(), "The class's language is set") {
		t.Errorf("teacher's dashboard after setting Spanish: lang %q", lang(doc))
	}
	if doc.Find(`#class-lang option[selected]`).AttrOr("value", "") != "es" {
		t.Error("the dashboard does not show the class's language")
	}
	ana := a.browser()
	ana.accept = "en-US,en"
	// The join page speaks the reader's language: a stranger must not
	// learn from it that the code is a real (Spanish) class's.
	if doc := ana.get("/join/" + code); lang(doc) != "en" {
		t.Errorf("the class's join page for a stranger: lang %q, want the reader's", lang(doc))
	}
	doc = ana.post("/join/"+code, url.Values{"nickname": {"Ana"}})
	if lang(doc) != "es" || !strings.Contains(doc.Find(".who").Text(), "Eres") {
		t.Errorf("a student without a choice: lang %q, %q", lang(doc), doc.Find(".who").Text())
	}
	bo := join(t, a, code, "Bo")
	bo.post("/lang", url.Values{"lang": {"en"}, "back": {"/c/" + code}})
	if doc := bo.get("/c/" + code); lang(doc) != "en" || !strings.Contains(doc.Find(".who").Text(), "You are") {
		t.Errorf("a student who picked English: lang %q", lang(doc))
	}
	// The projector: the class's language, even in a browser whose
	// reader picked English; a shared screen has no switcher (the
	// dashboard sets the class's language).
	teacher.post("/lang", url.Values{"lang": {"en"}, "back": {"/"}})
	doc = teacher.get("/t/" + code + "/projector")
	if lang(doc) != "es" || doc.Find(`[data-testid="lang-switch"], .lang-switch`).Length() != 0 {
		t.Errorf("teacher's projector: lang %q, %d switchers", lang(doc), doc.Find(`[data-testid="lang-switch"], .lang-switch`).Length())
	}
	if !strings.Contains(doc.Find(".join-at").Text(), "Únete en") {
		t.Errorf("projector words: %q", doc.Find(".join-at").Text())
	}
	room := a.browser()
	doc = room.get(teacher.get("/t/"+code).Find(`[data-testid="projector-link"]`).AttrOr("href", "")[len(a.url):])
	if lang(doc) != "es" || doc.Find(`.lang-switch`).Length() != 0 {
		t.Errorf("read-only projector: lang %q, %d switchers", lang(doc), doc.Find(`.lang-switch`).Length())
	}
	if doc := room.get("/p/" + code + "/results"); lang(doc) != "es" {
		t.Errorf("the projector's results: lang %q", lang(doc))
	}
	// A page drawn in another language reloads itself at its next poll.
	if room.get("/p/" + code + "/live?v=0&lang=en"); room.last.Header.Get("HX-Refresh") != "true" {
		t.Error("the projector drawn in English does not reload into the class's Spanish")
	}
	if room.get("/p/" + code + "/live?v=0&lang=es"); room.last.Header.Get("HX-Refresh") != "" || room.status() != http.StatusOK {
		t.Errorf("the projector in the class's language reloads: %d", room.status())
	}
	// The dashboard's class language changes the projector's.
	teacher.post("/t/"+code+"/language", url.Values{"lang": {"en"}})
	if lang(teacher.get("/t/"+code+"/projector")) != "en" {
		t.Errorf("class language en: the projector in %q", lang(teacher.get("/t/"+code+"/projector")))
	}
	teacher.post("/t/"+code+"/language", url.Values{"lang": {"ja"}})
	if teacher.status() != http.StatusUnprocessableEntity {
		t.Errorf("class language ja: %d", teacher.status())
	}
	// Back to each reader's own: Ana's page follows her browser again.
	teacher.post("/t/"+code+"/language", url.Values{"lang": {""}})
	if doc := ana.get("/c/" + code); lang(doc) != "en" {
		t.Errorf("class language cleared: Ana's page lang %q", lang(doc))
	}
}

// TestSpanishNumbersAndFiles: a match reviewed in Spanish writes chances
// as Spanish readers do (48,3 %); the CSV files are the same bytes
// whatever the reader's language: English headers, dot decimals.
func TestSpanishNumbersAndFiles(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	ana.b.post("/lang", url.Values{"lang": {"es"}, "back": {"/"}})
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, []*student{ana})
	home := ana.b.get("/c/" + code)
	review := ana.b.get(home.Find(".card ul a").First().AttrOr("href", ""))
	if lang(review) != "es" {
		t.Fatalf("review lang %q", lang(review))
	}
	spanishPct := regexp.MustCompile(`^[0-9]{1,3},[0-9]\x{00a0}%$`)
	cells := 0
	review.Find(`[data-testid="review-row"]`).Each(func(_ int, r *goquery.Selection) {
		if before := r.Find("td").Eq(9).Text(); before != "" {
			cells++
			if !spanishPct.MatchString(before) {
				t.Errorf("a chance in Spanish: %q", before)
			}
		}
	})
	if cells == 0 || !spanishPct.MatchString(review.Find(`[data-testid="total-cost"]`).Text()) {
		t.Errorf("%d chances; total cost %q", cells, review.Find(`[data-testid="total-cost"]`).Text())
	}
	if got := review.Find(`[data-testid="review-row"] td`).Eq(5).Text(); got != "tirar" && got != "plantarse" {
		t.Errorf("the choice in Spanish: %q", got)
	}
	english := teacher.csvRows("/t/" + code + "/decisions.csv")
	en := teacher.body
	teacher.post("/lang", url.Values{"lang": {"es"}, "back": {"/"}})
	teacher.get("/t/" + code + "/decisions.csv")
	if teacher.body != en || len(english) == 0 {
		t.Error("decisions.csv differs with the reader's language")
	}
	if !strings.HasPrefix(en, strings.Join(report.DecisionsFile.Header(), ",")) || !slices.ContainsFunc(english, func(r map[string]string) bool { return strings.Contains(r["win_if_chosen_pct"], ".") }) {
		t.Error("decisions.csv: not English headers and dot decimals")
	}
	if doc := teacher.get("/glossary"); lang(doc) != "es" || !strings.Contains(doc.Find(`[data-testid="glossary-decisions.csv"]`).Text(), "La probabilidad de ganar") {
		t.Error("the glossary page is not in Spanish")
	}
}

// TestEveryVerifyProblemIsSaid: each problem the record check names, and
// each reason the rules refuse a move, has its words in every language
// (a missing message would show its id).
func TestEveryVerifyProblemIsSaid(t *testing.T) {
	problems := []string{sim.ProblemNotRecord, sim.ProblemMissing, sim.ProblemCommitment, sim.ProblemVariant, sim.ProblemRefused,
		sim.ProblemTurn, sim.ProblemRoll, sim.ProblemNoFaces, sim.ProblemExtraFaces, sim.ProblemFaces, sim.ProblemNoPoints,
		sim.ProblemPoints, sim.ProblemExtraPts, sim.ProblemNotOver, sim.ProblemNoResult, sim.ProblemResult}
	codes := []sim.ErrorCode{sim.CodeMatchOver, sim.CodeBadSeat, sim.CodeSeatOut, sim.CodeNotYourTurn, sim.CodeWrongGame,
		sim.CodeDiceRange, sim.CodeNoDeadline, sim.CodeUnknown, sim.CodeWrongFaces, sim.CodeWrongCounter}
	for _, lang := range i18n.Langs {
		l := i18n.For(lang.Code)
		for _, p := range problems {
			if id := "verify.problem." + p; l.T(id) == id {
				t.Errorf("%s: no words for %s", lang.Code, id)
			}
		}
		for _, c := range codes {
			for _, id := range []string{"verify.why." + string(c), "error.move." + string(c)} {
				if l.T(id) == id {
					t.Errorf("%s: no words for %s", lang.Code, id)
				}
			}
		}
	}
}

// TestGeneratedNamesInTheReadersWords: every word of a generated name has
// its words in every language; Spanish puts the animal first; the
// files keep the stored English name.
func TestGeneratedNamesInTheReadersWords(t *testing.T) {
	adjs, beasts := classroom.AnonWords()
	for _, lang := range i18n.Langs {
		l := i18n.For(lang.Code)
		// Every adjective with one animal, every animal with one adjective:
		// each said in the language, and no two alike.
		seen := map[string]string{}
		say := func(stored string) {
			n := anonIn(l, stored)
			if n == stored && lang.Code != "en" {
				t.Errorf("%s: %q is not said in the language", lang.Code, stored)
			}
			if other, ok := seen[n]; ok && other != stored {
				t.Errorf("%s: %q and %q are both said %q", lang.Code, other, stored, n)
			}
			seen[n] = stored
		}
		for _, a := range adjs {
			say(a + " " + beasts[0])
		}
		for _, b := range beasts {
			say(adjs[0] + " " + b)
		}
	}
	es := i18n.For("es")
	for stored, want := range map[string]string{"Brave Otter": "Nutria Valiente", "Brave Otter 2": "Nutria Valiente 2", "Lucky": "Lucky", "Odd Thing": "Odd Thing"} {
		if got := anonIn(es, stored); got != want {
			t.Errorf("%q in Spanish: %q, want %q", stored, got, want)
		}
	}
	if got := anonIn(i18n.For("en"), "Brave Otter"); got != "Brave Otter" {
		t.Errorf("English: %q", got)
	}
	// A Spanish class in anonymous mode: the projector says the names in
	// Spanish, students.csv keeps them as stored.
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Ana")
	teacher.post("/t/"+code+"/anonymous-on", nil)
	teacher.post("/t/"+code+"/language", url.Values{"lang": {"es"}})
	stored := teacher.csvRows("/t/" + code + "/students.csv")[0]["student"]
	doc := teacher.get("/t/" + code + "/projector")
	if got := doc.Find(".names li").First().Text(); got != anonIn(es, stored) || got == stored {
		t.Errorf("projector name %q, stored %q", got, stored)
	}
}

// TestOpenPagesFollowTheClassLanguage: a student's open page (home, a
// finished match's review, charts) polls with its language; when the
// teacher sets another class language, the poll answers HX-Refresh, and
// with the same language it does not.
func TestOpenPagesFollowTheClassLanguage(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := &student{b: join(t, a, code, "Ana"), nick: "Ana", holdAt: 20}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"50"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}})
	playRound(t, code, []*student{ana})
	for _, page := range []string{paths.Match(code, anaMatch(t, a, code)), paths.StudentCharts.For(code), paths.Student.For(code)} {
		doc := ana.b.get(page)
		poll := doc.Find(`[data-testid="next-poll"], [data-testid="waiting"]`).AttrOr("hx-get", "")
		if !strings.Contains(poll, "lang=en") {
			t.Fatalf("%s: the poll %q has no language", page, poll)
		}
		ana.b.get(poll)
		if ana.b.last.Header.Get("HX-Refresh") != "" {
			t.Errorf("%s: the poll refreshes a page already in the class's language", page)
		}
	}
	review := paths.Match(code, anaMatch(t, a, code))
	poll := ana.b.get(review).Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "")
	teacher.post("/t/"+code+"/language", url.Values{"lang": {"es"}})
	ana.b.get(poll)
	if ana.b.last.Header.Get("HX-Refresh") != "true" {
		t.Error("an open review keeps the old language after the teacher set Spanish")
	}
	if lang(ana.b.get(review)) != "es" {
		t.Error("the review, drawn again, is not in Spanish")
	}
	// Drawn again in Spanish, its poll does not refresh it again.
	poll = ana.b.get(review).Find(`[data-testid="next-poll"]`).AttrOr("hx-get", "")
	ana.b.get(poll)
	if ana.b.last.Header.Get("HX-Refresh") != "" {
		t.Error("the Spanish review would be refreshed for ever")
	}
}
