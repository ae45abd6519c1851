package server

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/server/report"
	"pigclass/templates/i18n"
)

var (
	integerCell = regexp.MustCompile(`^-?[0-9]+$`)
	numberCell  = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
)

// checkCell says what is wrong with a cell of column c, or "".
func checkCell(c report.Column, v string) string {
	if v == "" {
		if c.Optional {
			return ""
		}
		return "empty"
	}
	ok := true
	switch c.Kind {
	case report.KindInteger:
		ok = integerCell.MatchString(v)
	case report.KindNumber:
		ok = numberCell.MatchString(v)
	case report.KindBoolean:
		ok = v == "true" || v == "false"
	case report.KindTime:
		_, err := time.Parse(time.RFC3339, v)
		ok = err == nil && !strings.HasSuffix(v, "Z")
	case report.KindLocal:
		_, err := time.Parse("2006-01-02 15:04:05", v)
		ok = err == nil
	case report.KindChoice:
		ok = slices.Contains(c.Choices, v)
	case report.KindDate:
		_, err := time.Parse(time.DateOnly, v)
		ok = err == nil
	}
	if !ok {
		return "not " + i18n.For("en").T(c.Kind.ID())
	}
	return ""
}

// readCSV fetches a file and checks it against its glossary entry: the
// header is the glossary's, every cell is of its column's kind. It returns
// the rows as maps.
func readCSV(t *testing.T, b *browser, path string, f *report.File) []map[string]string {
	t.Helper()
	b.get(path)
	if b.status() != http.StatusOK {
		t.Fatalf("%s: %d", path, b.status())
	}
	recs, err := csv.NewReader(strings.NewReader(b.body)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !slices.Equal(recs[0], f.Header()) {
		t.Fatalf("%s header %v, glossary %v", path, recs[0], f.Header())
	}
	var out []map[string]string
	for n, r := range recs[1:] {
		m := map[string]string{}
		for i, c := range f.Columns {
			if problem := checkCell(c, r[i]); problem != "" {
				t.Errorf("%s row %d, %s = %q: %s", path, n+2, c.Name, r[i], problem)
			}
			m[c.Name] = r[i]
		}
		out = append(out, m)
	}
	return out
}

// TestFilesMatchTheGlossary: a class plays two-player Pig, three-player
// Pig and Skunk, one student leaves; every file reads as its glossary
// says, as pandas or a spreadsheet would read it.
func TestFilesMatchTheGlossary(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	students := []*student{{b: join(t, a, code, "Zoë"), nick: "Zoë", holdAt: 20}, {b: join(t, a, code, "Bo"), nick: "Bo", holdAt: 15}, {b: join(t, a, code, "Cy"), nick: "Cy", holdAt: 25}}
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	playRound(t, code, students)
	teacher.post("/t/"+code+"/rounds", url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"pairs"}, "bot": {"optimal"}, "seats": {"3"}})
	playRound(t, code, students)
	a.srv.room.SetLesson(t.Context(), operator(t, a, code), "6-skunk", 0)
	teacher.post("/t/"+code+"/lesson/start", nil)
	teacher.post("/t/"+code+"/skunk/roll", nil)
	if form := students[0].b.get("/c/" + code + "/skunk").Find(`[data-testid="skunk"] form`); form.Length() > 0 {
		students[0].b.post(form.AttrOr("action", ""), url.Values{"moment": {form.Find(`input[name="moment"]`).AttrOr("value", "")}})
	}
	teacher.post(fmt.Sprintf("/t/%s/students/%d/remove", code, studentID(t, a, code, "Cy")), url.Values{"confirm": {"yes"}})

	ds := readCSV(t, teacher, "/t/"+code+"/decisions.csv", report.DecisionsFile)
	seen := map[string]bool{}
	firstOfMatch := map[string]string{}
	for _, r := range ds {
		seen[r["game"]+"/"+r["seats"]+"/"+r["analysis"]] = true
		if _, ok := firstOfMatch[r["match"]]; !ok {
			firstOfMatch[r["match"]] = r["seat"]
		}
		if r["action"] == "hold" && r["faces"] != "none" {
			t.Errorf("a hold's faces: %q", r["faces"])
		}
		// Two seats are always exact; three are approximate until their
		// table is solved in the background, exact after.
		if r["analysis"] == "approximate" && r["seats"] == "2" {
			t.Errorf("analysis %s with %s seats", r["analysis"], r["seats"])
		}
	}
	for _, want := range []string{"pig/2/exact", "skunk/3/expected-points"} {
		if !seen[want] {
			t.Errorf("no decision %s in %v", want, seen)
		}
	}
	if !seen["pig/3/approximate"] && !seen["pig/3/exact"] {
		t.Errorf("no three-seat Pig decision in %v", seen)
	}
	for match, seat := range firstOfMatch {
		if !strings.HasPrefix(match, "skunk") && seat != "1" {
			t.Errorf("match %s: the first decision is seat %s; seat 1 moves first", match, seat)
		}
	}
	ms := readCSV(t, teacher, "/t/"+code+"/matches.csv", report.MatchesFile)
	ps := readCSV(t, teacher, "/t/"+code+"/match_players.csv", report.PlayersFile)
	seats := 0
	for _, m := range ms {
		n, _ := strconv.Atoi(m["seats"])
		seats += n
	}
	if len(ps) != seats || len(ms) < 3 {
		t.Errorf("%d matches of %d seats in all, %d rows in match_players.csv", len(ms), seats, len(ps))
	}
	ss := readCSV(t, teacher, "/t/"+code+"/students.csv", report.StudentsFile)
	if len(ss) != 3 || ss[2]["student"] != "Cy" || ss[2]["removed"] != "true" || ss[0]["student"] != "Zoë" {
		t.Errorf("students.csv: %v", ss)
	}
	// For Excel: the same bytes after a byte-order mark.
	plain := teacher.body
	teacher.get("/t/" + code + "/students.csv?excel=1")
	if teacher.body != report.ByteOrderMark+plain || !strings.Contains(teacher.last.Header.Get("Content-Disposition"), "excel") {
		t.Errorf("the Excel download is not the file after a byte-order mark")
	}
}

// TestGlossaryIsComplete: the glossary page and the dashboard's link to it
// name every column of every file.
func TestGlossaryIsComplete(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	dash := teacher.get("/t/" + code)
	if dash.Find(`[data-testid="glossary-link"]`).AttrOr("href", "") != "/glossary" || dash.Find(`[data-testid="exports"] li`).Length() != len(report.Files) {
		t.Error("the dashboard does not link every file and the glossary")
	}
	page := a.browser().get("/glossary")
	for _, f := range report.Files {
		section := page.Find(`[data-testid="glossary-` + f.Name + `.csv"]`)
		if section.Length() != 1 {
			t.Errorf("the glossary has no section for %s.csv", f.Name)
		}
		for _, c := range f.Columns {
			if !strings.Contains(section.Text(), c.Name) {
				t.Errorf("the glossary's %s.csv does not explain %s", f.Name, c.Name)
			}
			// A column of choices (the games, say) is listed whole: a
			// game added to sim is on the page (issue 59, item 13).
			if c.Kind == report.KindChoice && !strings.Contains(section.Text(), strings.Join(c.Choices, ", ")) {
				t.Errorf("the glossary does not list %s.csv's %s as one of %s", f.Name, c.Name, strings.Join(c.Choices, ", "))
			}
			if means := i18n.For("en").T(f.MeansID(c)); !strings.Contains(section.Text(), means) {
				t.Errorf("the glossary does not say what %s.csv's %s means: %q", f.Name, c.Name, means)
			}
		}
	}
}

// TestRealNamesOnTheDashboard: in anonymous mode the dashboard offers the
// files with real nicknames, with a word on privacy; the files themselves
// carry the generated names unless asked.
func TestRealNamesOnTheDashboard(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Zoë")
	teacher.post("/t/"+code+"/anonymous-on", nil)
	dash := teacher.get("/t/" + code)
	links := dash.Find(`[data-testid="real-names"] a`)
	if links.Length() != len(report.Files) || !strings.Contains(dash.Text(), "keep them on the school's computers") {
		t.Fatalf("real-name exports: %d links", links.Length())
	}
	anon := readCSV(t, teacher, "/t/"+code+"/students.csv", report.StudentsFile)
	studentsLink := links.FilterFunction(func(_ int, s *goquery.Selection) bool { return strings.Contains(s.AttrOr("href", ""), "/students.csv") })
	real := readCSV(t, teacher, studentsLink.AttrOr("href", ""), report.StudentsFile)
	if anon[0]["student"] == "Zoë" || real[0]["student"] != "Zoë" {
		t.Errorf("generated %q, real %q", anon[0]["student"], real[0]["student"])
	}
}
