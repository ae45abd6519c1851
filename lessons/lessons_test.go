package lessons

import (
	"strings"
	"testing"
	"testing/fstest"

	"pigclass/lessons/figures"
	"pigclass/sim"
	"pigclass/sim/solve"
)

// computedFigures are the figures lessons/figures computes.
func computedFigures() map[string]bool {
	out := map[string]bool{}
	for _, n := range figures.Names() {
		out[n] = true
	}
	return out
}

func testRules() Rules {
	return Rules{
		Charts:   map[string]bool{"hold-points": true, "class-dice": true, "decision-map": true, "skill-luck": true, "ladder": true, "first-player": true, "hog-curve": true, "hog-dice": true, "share-of-ones": true, "skunk-sits": true, "pig-landings": true, "mystery-guesses": true, "progress": true, "lab": true, "lab-spread": true, "arms": true},
		Figures:  computedFigures(),
		Strategy: solve.CheckStrategy, // as the app checks them (server/views_lesson.go)
	}
}

// TestEveryLessonLoads: the six lessons the product names load and check.
func TestEveryLessonLoads(t *testing.T) {
	ls, err := Load(testRules())
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	for _, l := range ls {
		titles[l.Title] = true
		if len(l.Phases) < 2 || l.Minutes == 0 || len(l.Goals) < 2 {
			t.Errorf("%s: %d phases, %d minutes, %d goals", l.Slug, len(l.Phases), l.Minutes, len(l.Goals))
		}
	}
	for _, want := range []string{"Roll or hold?", "Why 20?", "Playing to win", "Hog: how many dice?", "Is going first fair?", "Skunk", "Are pigs fair dice?"} {
		if !titles[want] {
			t.Errorf("no lesson %q", want)
		}
	}
	skunk := ls[5]
	if skunk.Phases[0].Game != "skunk" || skunk.Phases[0].Rounds != 5 || skunk.Phases[0].Plays() {
		t.Errorf("skunk phase %+v", skunk.Phases[0])
	}
	hog := ls[3]
	if v := hog.Phases[0].Variant; v.Game != sim.Hog || v.MaxDice != 10 || hog.Phases[0].Bot != "dice:5" {
		t.Errorf("hog phase %+v", hog.Phases[0])
	}
}

// TestLessonErrorsNameFileAndLine: each mistake is reported with the file,
// the line and what is allowed.
func TestLessonErrorsNameFileAndLine(t *testing.T) {
	head := "title: T\nlevel: all\nminutes: 30\ngoal: g\nmaths: m\n"
	phase := "phase: P\ngame: pig\nopponents: bot hold:20\nprompt: p\n"
	cases := []struct{ src, want string }{
		{head + phase, ""},
		{head + "phase: P\ngmae: pig\n", "x.lesson:7: unknown key \"gmae\" in a phase"},
		{head + "phase: P\ngame: chess\n", "x.lesson:7: game \"chess\": use pig, two-dice"},
		{head + phase + "target: 5\n", "x.lesson:10: target \"5\": a whole number from 10 to 200"},
		{head + phase + "seats: 11\n", "x.lesson:10: seats \"11\": a whole number from 2 to 10"},
		{"title: T\nminutes: lots\n", "x.lesson:2: minutes \"lots\": a whole number from 5 to 180"},
		{head + "phase: P\ngame: pig\nprompt: p\n", "x.lesson:9: phase \"P\": it plays pig but has no opponents"},
		{head + phase + "charts: pie\n", "unknown chart \"pie\""},
		{head + "maths: {pig.secret}\n" + phase, "x.lesson:6: unknown figure {pig.secret}"},
		{head + "phase: P\ngame: hog\nopponents: bot hold:20\nprompt: p\n", "Hog has no hold"},
		{head, "the lesson has no phase"},
		{"just words\n", "x.lesson:1: write key: value"},
		{head + phase + "title: again\n", "x.lesson:10: title belongs before the first phase"},
	}
	for _, c := range cases {
		_, err := Parse("x.lesson", strings.NewReader(c.src), testRules())
		switch {
		case c.want == "" && err != nil:
			t.Errorf("valid lesson: %v", err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("got %v, want an error containing %q", err, c.want)
		}
	}
	fsys := fstest.MapFS{"d/bad.lesson": {Data: []byte("title: T\n")}}
	if _, err := LoadFS(fsys, "d", testRules()); err == nil || !strings.HasPrefix(err.Error(), "lessons/d/bad.lesson:") {
		t.Errorf("LoadFS error %v does not name the file", err)
	}
}

func TestFill(t *testing.T) {
	got := Fill("wins {pig.first}, {unknown} stays", map[string]string{"pig.first": "53.06%"})
	if got != "wins 53.06%, {unknown} stays" {
		t.Errorf("Fill: %q", got)
	}
}

// TestEveryLessonInEveryLanguage: every lesson has a translation in each
// language the app speaks besides English (Spanish, French, Brazilian
// Portuguese, German), whole: every goal, paragraph, phase and prompt,
// with the English figures (the loader checks those); a language with no
// translation reads the English.
func TestEveryLessonInEveryLanguage(t *testing.T) {
	ls, err := Load(testRules())
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"es", "fr", "pt-BR", "de"} {
		for _, l := range ls {
			tr, ok := l.Translations[lang]
			if !ok {
				t.Errorf("%s: no %s translation", l.Slug, lang)
				continue
			}
			if tr.Level == l.Level || len(tr.Phases) != len(l.Phases) { // titles may agree: "Skunk"
				t.Errorf("%s (%s): level %q, %d phases", l.Slug, lang, tr.Level, len(tr.Phases))
			}
			for i, p := range tr.Phases {
				if p.Name == l.Phases[i].Name || len(p.Prompts) != len(l.Phases[i].Prompts) {
					t.Errorf("%s (%s) phase %d: %q, %d prompts", l.Slug, lang, i+1, p.Name, len(p.Prompts))
				}
			}
			if got := l.In(lang); got.Title != tr.Title {
				t.Errorf("%s: In(%s) is not the translation", l.Slug, lang)
			}
		}
	}
	for _, l := range ls {
		if got := l.In("it"); got.Title != l.Title || got.Phases[0].Prompts[0] != l.Phases[0].Prompts[0] {
			t.Errorf("%s: a language with no translation does not get the English", l.Slug)
		}
	}
}

// TestTranslationErrors: a translation that does not follow its English
// plan is refused, naming the file and what differs.
func TestTranslationErrors(t *testing.T) {
	plan := "title: T\nlevel: all\nminutes: 30\ngoal: g\nmaths: m {pig.first}\nphase: P\ngame: pig\nopponents: bot hold:20\nprompt: p\n"
	good := "title: T2\nlevel: todos\ngoal: g2\nmaths: m2 {pig.first}\nphase: P2\nprompt: p2\n"
	cases := []struct{ tr, want string }{
		{good, ""},
		{"title: T2\nlevel: todos\ngoal: g2\nmaths: m2\nphase: P2\nprompt: p2\n", "maths 1 names figures [], but the English names [pig.first]"},
		{"title: T2\nlevel: todos\ngoal: g2\ngoal: g3\nmaths: m2 {pig.first}\nphase: P2\nprompt: p2\n", "2 goals, but the English plan has 1"},
		{"title: T2\nlevel: todos\ngoal: g2\nmaths: m2 {pig.first}\nphase: P2\nprompt: p2\nprompt: p3\n", "phase 1 (P2): 2 prompts, but the English plan has 1"},
		{"title: T2\nlevel: todos\ngoal: g2\nmaths: m2 {pig.first}\nphase: P2\ngame: hog\nprompt: p2\n", `lessons/plans/es/x.lesson:6: "game" has no place here`},
		{"title: T2\nlevel: todos\ngoal: g2\nmaths: m2 {pig.nope}\nphase: P2\nprompt: p2\n", "unknown figure {pig.nope}"},
	}
	for _, c := range cases {
		fsys := fstest.MapFS{"plans/x.lesson": {Data: []byte(plan)}, "plans/es/x.lesson": {Data: []byte(c.tr)}}
		ls, err := LoadFS(fsys, "plans", testRules())
		switch {
		case c.want == "" && err != nil:
			t.Errorf("good translation refused: %v", err)
		case c.want == "" && ls[0].In("es").Phases[0].Prompts[0] != "p2":
			t.Errorf("good translation not used: %+v", ls[0].Translations)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %q", c.tr, err, c.want)
		}
	}
	fsys := fstest.MapFS{"plans/x.lesson": {Data: []byte(plan)}, "plans/es/y.lesson": {Data: []byte(good)}}
	if _, err := LoadFS(fsys, "plans", testRules()); err == nil || !strings.Contains(err.Error(), "no English plan y.lesson") {
		t.Errorf("a translation without its plan: %v", err)
	}
}
