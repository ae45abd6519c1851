package server

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"pigclass/templates/paths"
)

// upload posts a class list to the preview: files by name, and the names
// typed.
func (b *browser) upload(code string, files map[string]string, typed string) *goquery.Document {
	b.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fw, _ := w.CreateFormFile("files", n)
		fw.Write([]byte(files[n]))
	}
	w.WriteField("names", typed)
	w.Close()
	req, _ := http.NewRequest(http.MethodPost, b.app.url+paths.RosterPreview.For(code), &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return b.do(req)
}

// previewRows are a preview's rows, group by group, as "name: kind".
func previewRows(doc *goquery.Document) [][]string {
	var out [][]string
	doc.Find(`[data-testid="roster-group"]`).Each(func(_ int, g *goquery.Selection) {
		var rows []string
		g.Find(`[data-testid="roster-row"]`).Each(func(_ int, r *goquery.Selection) {
			rows = append(rows, strings.TrimSpace(r.Find("td").First().Text())+": "+r.AttrOr("data-kind", ""))
		})
		out = append(out, rows)
	})
	return out
}

// addGroup posts the add form of a preview's group i.
func (b *browser) addGroup(doc *goquery.Document, i int) *goquery.Document {
	b.t.Helper()
	form := doc.Find(`[data-testid="roster-group"]`).Eq(i).Find("form")
	if form.Length() == 0 {
		b.t.Fatalf("group %d offers nothing to add", i)
	}
	vals := url.Values{}
	form.Find(`input[name="name"]`).Each(func(_ int, in *goquery.Selection) { vals.Add("name", in.AttrOr("value", "")) })
	return b.post(form.AttrOr("action", ""), vals)
}

// TestAClassListComesInOnce (issue 61, item 6): a typed list is shown row
// by row before anything is stored (new, a duplicate, a name too long, one
// that looks like a student's, one already in the class); adding it adds
// the new names only, as students who have not started; the same list
// again with a newcomer adds the newcomer and changes no one.
func TestAClassListComesInOnce(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	join(t, a, code, "Bo")
	list := "Ana López\nBruno\nAna López\nMaximiliane-Friederike von Bülow\nB0\nBo\n"
	doc := teacher.upload(code, nil, list)
	want := [][]string{{"Ana López: new", "Bruno: new", "Ana López: twice", "Maximiliane-Friederike von Bülow: bad", "B0: looks", "Bo: there"}}
	if diff := cmp.Diff(want, previewRows(doc)); diff != "" {
		t.Fatalf("the preview (-want +got):\n%s", diff)
	}
	if got := doc.Find(`[data-testid="roster-row"][data-kind="bad"] td`).Last().Text(); !strings.Contains(got, "24") {
		t.Errorf("a name too long is not told its limit: %q", got)
	}
	if got := doc.Find(`[data-testid="roster-row"][data-kind="looks"] td`).Last().Text(); !strings.Contains(got, "Bo") {
		t.Errorf("a name like Bo's is not told whose: %q", got)
	}
	if got := doc.Find(`[data-testid="roster-add"]`).Text(); got != "Add 2 new students" {
		t.Errorf("the add button says %q", got)
	}
	if n := len(operator(t, a, code).Class().Students); n != 1 {
		t.Fatalf("the preview stored something: %d students", n)
	}
	dash := teacher.addGroup(doc, 0)
	if got := dash.Find(`.notice`).Text(); !strings.Contains(got, "2 students of the list added") || !strings.Contains(got, "4 names were not added") {
		t.Errorf("the dashboard says %q", got)
	}
	students := map[string]bool{} // name -> taken their seat
	for _, st := range operator(t, a, code).Class().Students {
		students[st.Nickname] = !strings.HasPrefix(st.TokenHash, "unclaimed:")
	}
	if diff := cmp.Diff(map[string]bool{"Bo": true, "Ana López": false, "Bruno": false}, students); diff != "" {
		t.Errorf("the class's students, taken their seat (-want +got):\n%s", diff)
	}
	live := teacher.get(paths.TeacherLive.For(code))
	if got := live.Find(`[data-testid="pace-chip"][data-kind="absent"]`).Length(); got != 2 {
		t.Errorf("%d students shown as not started, want 2", got)
	}
	// Again, with a newcomer: only she is added.
	doc = teacher.upload(code, nil, list+"Chloé\n")
	if got := previewRows(doc)[0]; got[0] != "Ana López: there" || got[1] != "Bruno: there" || got[6] != "Chloé: new" {
		t.Errorf("the list again: %v", got)
	}
	teacher.addGroup(doc, 0)
	if n := len(operator(t, a, code).Class().Students); n != 4 {
		t.Errorf("%d students after the list again with one newcomer, want 4", n)
	}
}

// TestAStudentOfTheListTakesTheirSeat: the join page offers the list's
// names; a student picks theirs and types the code on their login card
// (a wrong one is refused, in the list's own form, and nothing moves);
// then they are the student, and the next round seats them but not those
// of the list who have not come.
func TestAStudentOfTheListTakesTheirSeat(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	teacher.addGroup(teacher.upload(code, nil, "Ana\nBruno\nChloé\n"), 0)
	cards := teacher.get(paths.LoginCards.For(code))
	codes := map[string]string{}
	cards.Find(`[data-testid="login-card"]`).Each(func(_ int, c *goquery.Selection) {
		codes[c.Find(`[data-testid="card-name"]`).Text()] = c.Find(`[data-testid="card-rejoin"]`).Text()
		if c.Find("svg").Length() != 1 {
			t.Errorf("a card has no QR code")
		}
	})
	if len(codes) != 3 || codes["Ana"] == "" || codes["Ana"] == codes["Bruno"] {
		t.Fatalf("the login cards: %v", codes)
	}
	ana := a.browser()
	page := ana.get(paths.JoinCode.For(code))
	if page.Find(`#roster-name`).Length() != 0 || page.Find(`[data-testid="roster-ask"]`).Length() != 1 {
		t.Fatalf("the join page shows the names before they are asked for, or offers no way to ask")
	}
	page = ana.post(paths.JoinCode.For(code), url.Values{"code": {code}, "roster": {"ask"}})
	var offered []string
	page.Find(`#roster-name option`).Each(func(_ int, o *goquery.Selection) {
		if v := o.AttrOr("value", ""); v != "" {
			offered = append(offered, v)
		}
	})
	if diff := cmp.Diff([]string{"Ana", "Bruno", "Chloé"}, offered); diff != "" {
		t.Fatalf("the join page offers (-want +got):\n%s", diff)
	}
	page = ana.post(paths.JoinCode.For(code), url.Values{"code": {code}, "roster": {"1"}, "nickname": {"Ana"}, "rejoin": {codes["Bruno"]}})
	if ana.status() < 400 {
		t.Errorf("a wrong code: status %d", ana.status())
	}
	// It speaks of her login card, not of another device (issue 81).
	if got := page.Find(`[data-testid="roster-error"]`).Text(); !strings.HasPrefix(got, "This is not the code on the login card of Ana in class") || strings.Contains(got, "other device") ||
		page.Find(`#roster-name option[selected]`).AttrOr("value", "") != "Ana" {
		t.Errorf("a wrong code says %q beside the list (Ana picked: %q)", got, page.Find(`#roster-name option[selected]`).AttrOr("value", ""))
	}
	ana.post(paths.JoinCode.For(code), url.Values{"code": {code}, "roster": {"1"}, "nickname": {"Ana"}, "rejoin": {codes["Ana"]}})
	if ana.path() != paths.Student.For(code) || ana.get(paths.Student.For(code)).Find(`[data-testid="nickname"]`).Text() != "Ana" {
		t.Fatalf("Ana with her card's code is at %s", ana.path())
	}
	teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}})
	seated := map[string]bool{}
	names := map[int64]string{}
	for _, st := range operator(t, a, code).Class().Students {
		names[st.ID] = st.Nickname
	}
	for _, m := range operator(t, a, code).Matches() {
		for _, seat := range m.Seats {
			if seat.StudentID != 0 {
				seated[names[seat.StudentID]] = true
			}
		}
	}
	if diff := cmp.Diff(map[string]bool{"Ana": true}, seated); diff != "" {
		t.Errorf("the round seats (-want +got):\n%s", diff)
	}
}

// oneRosterExport is a school's OneRoster 1.2 export of two classes, with
// a row that names a user the export does not hold.
var oneRosterExport = map[string]string{
	"manifest.csv": "propertyName,value\nmanifest.version,1.0\noneroster.version,1.2\n",
	"users.csv": "sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns\n" +
		"u1,,,true,,,Ana,López,,,,,,,07,,,,,,,org1,\nu2,,,true,,,Bruno,Silva,,,,,,,07,,,,,,,org1,\nu3,,,true,,,Chloé,Durand,,,,,,,07,,,,,,,org1,\nt1,,,true,,,Ms,Teacher,,,,,,,,,,,,,,org1,\n",
	"classes.csv":     "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods\nc1,,,Maths 7B,07,k1,7B,scheduled,,org1,t1,,,\nc2,,,Maths 7C,07,k1,7C,scheduled,,org1,t1,,,\n",
	"enrollments.csv": "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate\ne1,,,c1,org1,u1,student,,,\ne2,,,c1,org1,u2,student,,,\ne3,,,c1,org1,t1,teacher,true,,\ne4,,,c2,org1,u3,student,,,\ne5,,,c2,org1,u9,student,,,\n",
}

// TestAOneRosterExportComesInByItsClass: the export's files, uploaded
// together, preview each class with its students (not its teacher) and
// the row that could not be read; the teacher adds one class.
func TestAOneRosterExportComesInByItsClass(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	doc := teacher.upload(code, oneRosterExport, "")
	if diff := cmp.Diff([][]string{{"Ana López: new", "Bruno Silva: new"}, {"Chloé Durand: new"}}, previewRows(doc)); diff != "" {
		t.Fatalf("the preview (-want +got):\n%s", diff)
	}
	var titles []string
	doc.Find(`[data-testid="roster-group"] h2`).Each(func(_ int, h *goquery.Selection) { titles = append(titles, h.Text()) })
	if diff := cmp.Diff([]string{"Maths 7B (7B)", "Maths 7C (7C)"}, titles); diff != "" {
		t.Errorf("the classes (-want +got):\n%s", diff)
	}
	if got := doc.Find(`[data-testid="roster-problems"] li`).Text(); got != "enrollments.csv, line 6: no user u9 in users.csv" {
		t.Errorf("the row that could not be read: %q", got)
	}
	teacher.addGroup(doc, 1)
	var names []string
	for _, st := range operator(t, a, code).Class().Students {
		names = append(names, st.Nickname)
	}
	if diff := cmp.Diff([]string{"Chloé Durand"}, names); diff != "" {
		t.Errorf("the class after adding 7C (-want +got):\n%s", diff)
	}
}

// TestAClassListSaysWhatIsWrongInEachLanguage: an export without its
// users, and a CSV without a name column, are refused or named in the
// teacher's language, each in words of its own catalog.
func TestAClassListSaysWhatIsWrongInEachLanguage(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	noUsers := map[string]string{"classes.csv": oneRosterExport["classes.csv"], "enrollments.csv": oneRosterExport["enrollments.csv"]}
	want := map[string][2]string{
		"en":    {"This OneRoster export has no users.csv", "list.csv has no column of names"},
		"es":    {"A esta exportación OneRoster le falta users.csv", "list.csv no tiene una columna de nombres"},
		"fr":    {"Il manque users.csv à cet export OneRoster", "list.csv n'a pas de colonne de noms"},
		"pt-BR": {"Falta users.csv nesta exportação OneRoster", "list.csv não tem uma coluna de nomes"},
		"de":    {"Diesem OneRoster-Export fehlt users.csv", "list.csv hat keine Spalte mit Namen"},
	}
	for lang, w := range want {
		teacher.accept = lang
		teacher.post(paths.Lang.String(), url.Values{"lang": {lang}, "back": {paths.Teacher.For(code)}})
		doc := teacher.upload(code, noUsers, "")
		if got := doc.Find(`[data-testid="roster-refusal"]`).Text(); teacher.status() != http.StatusUnprocessableEntity || !strings.HasPrefix(got, w[0]) {
			t.Errorf("%s: an export without users: %d %q", lang, teacher.status(), got)
		}
		doc = teacher.upload(code, map[string]string{"list.csv": "id;grade\n1;7\n"}, "Ana\n")
		if got := doc.Find(`[data-testid="roster-problems"] li`).Text(); !strings.HasPrefix(got, w[1]) {
			t.Errorf("%s: a CSV without names: %q", lang, got)
		}
		if got := previewRows(doc); len(got) != 1 || len(got[0]) != 1 {
			t.Errorf("%s: the typed name beside the bad file: %v", lang, got)
		}
	}
}

// TestTheListsNamesAreOfferedForARightCodeOnly: the join page offers a
// class list's names only when asked with the class's code; wrong codes
// count as the join form's guesses do, and a guesser out of guesses is
// offered no names, even for the right code. A class without a list says
// so.
func TestTheListsNamesAreOfferedForARightCodeOnly(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	code := teacherStart(t, teacher)
	teacher.addGroup(teacher.upload(code, nil, "Ana\nBruno\n"), 0)
	other := teacherStart(t, a.browser())
	stranger := a.browser()
	ask := func(code string) *goquery.Document {
		return stranger.post(paths.JoinCode.For(code), url.Values{"code": {code}, "roster": {"ask"}})
	}
	if n := ask(code).Find(`#roster-name option`).Length(); n != 3 {
		t.Fatalf("the right code offers %d choices, want the two names and the prompt", n)
	}
	if doc := ask(other); doc.Find(`#roster-name`).Length() != 0 || !strings.Contains(doc.Find(`[data-testid="join-moved"]`).Text(), "no list of names") {
		t.Errorf("a class without a list: %q", doc.Find(`[data-testid="join-moved"]`).Text())
	}
	for i := range 40 {
		wrong := []byte(code)
		wrong[len(wrong)-1] = "ACEFHJKMNPRTWXY3479"[i%19]
		wrong[len(wrong)-2] = "ACEFHJKMNPRTWXY3479"[i/19]
		if string(wrong) != code && ask(string(wrong)).Find(`#roster-name`).Length() != 0 {
			t.Fatalf("a wrong code %s offers names", wrong)
		}
	}
	if n := ask(code).Find(`#roster-name`).Length(); n != 0 {
		t.Errorf("after 40 wrong codes the right one still offers the names")
	}
}
