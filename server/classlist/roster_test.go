package classlist

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"pigclass/templates/i18n"
)

// names is each group's names, in order.
func names(l List) [][]string {
	var out [][]string
	for _, g := range l.Groups {
		var ns []string
		for _, e := range g.Names {
			ns = append(ns, e.Name)
		}
		out = append(out, ns)
	}
	return out
}

// said is the list's problems in English.
func said(l List) []string { return i18n.For("en").SayAll(l.Problems) }

func TestAPlainListIsOneNameALine(t *testing.T) {
	l, err := Read(nil, "Ana López\r\n\n  Bruno  \nChloé\n")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]string{{"Ana López", "Bruno", "Chloé"}}, names(l)); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if got := i18n.For("en").Say(l.Groups[0].Names[1].Where); got != "the names typed, line 3" {
		t.Errorf("Bruno was read at %q", got)
	}
	// A column pasted from a spreadsheet, its header with it.
	l, _ = Read([]File{{Name: "class.txt", Data: []byte("Nombre\nAna\nBo\n")}}, "")
	if diff := cmp.Diff([][]string{{"Ana", "Bo"}}, names(l)); diff != "" {
		t.Errorf("a pasted column (-want +got):\n%s", diff)
	}
}

func TestACSVListHasANameColumn(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"id,Name,grade\n1,Ana,7\n2,\"Bruno, Jr\",7\n", []string{"Ana", "Bruno, Jr"}},
		// A French spreadsheet: semicolons, Latin-1, given and family names.
		{"\xef\xbb\xbfPrénom;Nom de famille\nChloé;Durand\nDév;Ali\n", []string{"Chloé Durand", "Dév Ali"}},
		{"Vorname;Nachname\n" + string([]byte{'J', 0xfc, 'r', 'g', 'e', 'n'}) + ";M" + string([]byte{0xfc}) + "ller\n", []string{"Jürgen Müller"}},
	} {
		l, err := Read([]File{{Name: "list.csv", Data: []byte(tc.file)}}, "")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][]string{tc.want}, names(l)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.file, diff)
		}
	}
	l, err := Read([]File{{Name: "list.csv", Data: []byte("id,grade\n1,7\n")}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := said(l); len(got) != 1 || !strings.Contains(got[0], "list.csv has no column of names") || !strings.Contains(got[0], "id, grade") {
		t.Errorf("a CSV without names: %q", got)
	}
}

// export is a OneRoster 1.2 export of a school with two classes: 7B with
// three students (one to be deleted, one not enabled) and its teacher,
// 7C with one, a teachers' class with none, and rows that name what the
// export does not hold.
var export = map[string]string{
	"manifest.csv": "propertyName,value\nmanifest.version,1.0\noneroster.version,1.2\nfile.users,bulk\nfile.classes,bulk\nfile.enrollments,bulk\nfile.roles,bulk\n",
	"users.csv": "sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns\n" +
		"u1,,,true,ana,,Ana,López,,,,,,,07,,,,,,,org1,\n" +
		"u2,,,true,bru,,Bruno,Silva,,,,,,,07,,,,Bru,,,org1,\n" +
		"u3,tobedeleted,,true,old,,Old,Pupil,,,,,,,07,,,,,,,org1,\n" +
		"u4,,,false,off,,Off,Line,,,,,,,07,,,,,,,org1,\n" +
		"u5,,,true,chl,,Chloé,Durand,,,,,,,07,,,,,,,org1,\n" +
		"t1,,,true,teach,,Mrs,Teacher,,,,,,,,,,,,,,org1,\n" +
		"u6,,,true,nameless,,,,,,,,,,07,,,,,,,org1,\n",
	"classes.csv": "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods\n" +
		"c1,,,Maths 7B,07,k1,7B,scheduled,,org1,term1,,,\n" +
		"c2,,,Maths 7C,07,k1,7C,scheduled,,org1,term1,,,\n" +
		"c3,,,Staff,,k2,,homeroom,,org1,term1,,,\n",
	"enrollments.csv": "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate\n" +
		"e1,,,c1,org1,u1,student,,,\n" +
		"e2,,,c1,org1,u2,student,,,\n" +
		"e3,,,c1,org1,u3,student,,,\n" +
		"e4,,,c1,org1,u4,student,,,\n" +
		"e5,,,c1,org1,t1,teacher,true,,\n" +
		"e6,,,c2,org1,u5,student,,,\n" +
		"e7,,,c2,org1,u9,student,,,\n" +
		"e8,,,c9,org1,u1,student,,,\n" +
		"e9,,,c2,org1,u6,student,,,\n",
	"roles.csv": "sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId\nr1,,,u1,primary,student,,,org1,\n",
}

func exportFiles(skip string) []File {
	var fs []File
	for _, n := range []string{"manifest.csv", "users.csv", "classes.csv", "enrollments.csv", "roles.csv"} {
		if n != skip {
			fs = append(fs, File{Name: n, Data: []byte(export[n])})
		}
	}
	return fs
}

func TestAOneRosterExportIsItsClasses(t *testing.T) {
	var zipped bytes.Buffer
	w := zip.NewWriter(&zipped)
	for _, f := range exportFiles("") {
		fw, _ := w.Create("oneroster/" + f.Name)
		fw.Write(f.Data)
	}
	w.Close()
	for name, files := range map[string][]File{"files": exportFiles(""), "zip": {{Name: "export.zip", Data: zipped.Bytes()}}} {
		l, err := Read(files, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !l.OneRoster || len(l.Groups) != 2 || l.Groups[0].Title != "Maths 7B (7B)" || l.Groups[1].Title != "Maths 7C (7C)" {
			t.Errorf("%s: groups %+v", name, l.Groups)
		}
		if diff := cmp.Diff([][]string{{"Ana López", "Bru Silva"}, {"Chloé Durand"}}, names(l)); diff != "" {
			t.Errorf("%s: students (-want +got):\n%s", name, diff)
		}
		want := []string{
			"users.csv, line 8: this user has no name",
			"enrollments.csv, line 8: no user u9 in users.csv",
			"enrollments.csv, line 9: no class c9 in classes.csv",
		}
		if diff := cmp.Diff(want, said(l)); diff != "" {
			t.Errorf("%s: problems (-want +got):\n%s", name, diff)
		}
	}
}

func TestAnExportThatCannotBeReadSaysWhy(t *testing.T) {
	en := i18n.For("en")
	refusal := func(files []File) string {
		t.Helper()
		_, err := Read(files, "")
		var r *Refusal
		if !errors.As(err, &r) {
			t.Fatalf("not refused: %v", err)
		}
		return en.Say(r.Msg)
	}
	if got := refusal(exportFiles("users.csv")); got != "This OneRoster export has no users.csv: upload users.csv, classes.csv and enrollments.csv together (or the whole export as a zip)." {
		t.Errorf("without users: %q", got)
	}
	bad := exportFiles("")
	bad[2].Data = []byte("sourcedId,status,name\nc1,,7B\n")
	if got := refusal(bad); got != "classes.csv has no column title, which OneRoster 1.2 gives it: upload the file as the school's system exported it." {
		t.Errorf("a file without its column: %q", got)
	}
	if got := refusal([]File{{Name: "export.zip", Data: []byte("not a zip")}}); got != "export.zip could not be opened as a zip: export it again, or upload its CSV files." {
		t.Errorf("not a zip: %q", got)
	}
	var big bytes.Buffer
	w := zip.NewWriter(&big)
	fw, _ := w.Create("users.csv")
	fw.Write(bytes.Repeat([]byte("a"), MaxBytes+10))
	w.Close()
	if got := refusal([]File{{Name: "big.zip", Data: big.Bytes()}}); !strings.Contains(got, "4 MB") {
		t.Errorf("a zip that unpacks past the limit: %q", got)
	}
	if _, err := Read(nil, " \n "); !errors.Is(err, ErrEmpty) {
		t.Errorf("nothing: %v", err)
	}
}
