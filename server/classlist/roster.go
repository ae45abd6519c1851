// Package classlist reads a class list a teacher uploads: a plain list of
// names (one a line, or a CSV file with a name column) or a OneRoster 1.2
// CSV export (a zip, or its files users.csv, classes.csv, enrollments.csv,
// with roles.csv and manifest.csv beside them), as school information
// systems write it (1EdTech's OneRoster 1.2 CSV binding).
//
// It reads names and says which rows it could not read and why; whether a
// name may be a nickname of the class, and whether the class has it
// already, is the classroom's to say (classroom.Room.AddRoster).
package classlist

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"pigclass/templates/i18n"
)

// Limits of an upload: a class list is small, a zip bomb is not.
const (
	MaxBytes = 4 << 20 // an upload's files together, unzipped
	MaxFiles = 12      // files in an upload or a zip
	MaxNames = 400     // names in one group
	// MaxStudents is the names of an upload, every group's together: a
	// school's OneRoster export, not a file of any size (issue 79).
	MaxStudents = 10000
)

// A File is one uploaded file: its name (as the browser gives it) and
// its bytes.
type File struct {
	Name string
	Data []byte
}

// A List is what an upload holds: its groups of names (a OneRoster
// export's classes, each with its students; a plain list's one group) and
// the rows it could not read.
type List struct {
	Groups   []Group
	Problems []i18n.Msg
	// OneRoster: the upload was a OneRoster export.
	OneRoster bool

	names int  // the names read, every group's
	full  bool // MaxStudents read: the rest is left unread
}

// A Group is the names of one class of the upload.
type Group struct {
	// Title is a OneRoster class's title (and its classCode), "" for a
	// plain list.
	Title string
	Names []Entry

	full bool // MaxNames read: the group's later names are left out
}

// An Entry is one name and where it was read ("users.csv, line 4").
type Entry struct {
	Name  string
	Where i18n.Msg
}

// ErrEmpty says the upload held nothing to read.
var ErrEmpty = errors.New("classlist: nothing uploaded")

// Read reads an upload: its files and the names typed or pasted (one a
// line). A whole upload it cannot read (a OneRoster export without its
// users, a zip it cannot open, too big) is an error with words
// (*Refusal); a row it cannot read is one of List.Problems.
func Read(files []File, typed string) (List, error) {
	files, err := unzipped(files)
	if err != nil {
		return List{}, err
	}
	byName := map[string][]byte{}
	for _, f := range files {
		byName[strings.ToLower(path.Base(f.Name))] = f.Data
	}
	if byName["users.csv"] != nil || byName["enrollments.csv"] != nil || byName["classes.csv"] != nil || byName["manifest.csv"] != nil {
		return oneRoster(byName)
	}
	var l List
	g := Group{}
	for _, f := range files {
		plain(&g, &l, f.Name, f.Data)
	}
	if strings.TrimSpace(typed) != "" {
		plain(&g, &l, "", []byte(typed))
	}
	if len(files) == 0 && strings.TrimSpace(typed) == "" {
		return List{}, ErrEmpty
	}
	l.Groups = []Group{g}
	return l, nil
}

// A Refusal is an upload that cannot be read at all, with its words.
type Refusal struct{ Msg i18n.Msg }

func (r *Refusal) Error() string { return "classlist: " + r.Msg.ID }

func refuse(id string, args ...any) *Refusal { return &Refusal{Msg: i18n.M(id, args...)} }

// unzipped is the upload's files with each zip's files in its place,
// within the limits.
func unzipped(files []File) ([]File, error) {
	var out []File
	total := 0
	for _, f := range files {
		if !strings.EqualFold(path.Ext(f.Name), ".zip") {
			out = append(out, f)
			total += len(f.Data)
			continue
		}
		z, err := zip.NewReader(bytes.NewReader(f.Data), int64(len(f.Data)))
		if err != nil {
			return nil, refuse("roster.zip", "File", f.Name)
		}
		for _, zf := range z.File {
			if zf.FileInfo().IsDir() || strings.HasPrefix(path.Base(zf.Name), ".") || strings.Contains(zf.Name, "__MACOSX") {
				continue
			}
			if len(out) >= MaxFiles {
				return nil, refuse("roster.files", "N", MaxFiles)
			}
			r, err := zf.Open()
			if err != nil {
				return nil, refuse("roster.zip", "File", f.Name)
			}
			// Read at most what is left of the limit, and one byte more
			// to know it was passed (the zip's own sizes may lie).
			b, err := io.ReadAll(io.LimitReader(r, int64(MaxBytes-total)+1))
			r.Close()
			if err != nil {
				return nil, refuse("roster.zip", "File", f.Name)
			}
			total += len(b)
			if total > MaxBytes {
				return nil, refuse("roster.size", "N", MaxBytes>>20)
			}
			out = append(out, File{Name: zf.Name, Data: b})
		}
	}
	if len(out) > MaxFiles {
		return nil, refuse("roster.files", "N", MaxFiles)
	}
	if total > MaxBytes {
		return nil, refuse("roster.size", "N", MaxBytes>>20)
	}
	return out, nil
}

// where names a row: the file's name and the line ("" for the names typed).
func where(file string, line int) i18n.Msg {
	if file == "" {
		return i18n.M("roster.where.typed", "N", line)
	}
	return i18n.M("roster.where.file", "File", i18n.Text(path.Base(file)), "N", line)
}

// text is a file's text: UTF-8 without its byte-order mark, or, for a
// file saved by an old spreadsheet, Windows-1252 read as Latin-1's
// neighbour.
func text(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if utf8.Valid(b) {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c) // Latin-1: the accents of a Western European list
	}
	return string(r)
}

// nameHeaders are the headers of a plain CSV's column of whole names, in
// the five languages, and of its given and family names.
var (
	nameHeaders   = []string{"name", "full name", "fullname", "student", "student name", "nickname", "nom", "nom complet", "élève", "eleve", "nombre", "nombre completo", "alumno", "estudiante", "nome", "nome completo", "aluno", "estudante", "name des kindes", "schüler", "schueler", "vollständiger name"}
	givenHeaders  = []string{"given name", "givenname", "first name", "firstname", "first", "prénom", "prenom", "nombre de pila", "primeiro nome", "vorname"}
	familyHeaders = []string{"family name", "familyname", "last name", "lastname", "surname", "last", "nom de famille", "apellido", "apellidos", "sobrenome", "nachname", "familienname"}
)

// plain reads one plain list into g: a CSV file (.csv) with a header
// naming a name column (or given and family name columns), else one name
// a line (a header line of one known name is skipped: a column pasted
// from a spreadsheet).
func plain(g *Group, l *List, file string, data []byte) {
	s := strings.ReplaceAll(strings.ReplaceAll(text(data), "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(s, "\n")
	if strings.EqualFold(path.Ext(file), ".csv") {
		rows, err := readCSV(s, separator(lines[0]))
		if err != nil || len(rows) == 0 {
			l.Problems = append(l.Problems, i18n.M("roster.csv", "File", i18n.Text(label(file))))
			return
		}
		name, given, family := columns(rows[0])
		if name < 0 && given < 0 && family < 0 {
			l.Problems = append(l.Problems, i18n.M("roster.no_name_column", "File", i18n.Text(label(file)), "Columns", i18n.Text(strings.Join(rows[0], ", "))))
			return
		}
		for i, row := range rows[1:] {
			if !add(g, l, joinName(cell(row, name), cell(row, given), cell(row, family)), where(file, i+2)) {
				return
			}
		}
		return
	}
	for i, line := range lines {
		if i == 0 && slices.Contains(nameHeaders, strings.ToLower(strings.TrimSpace(line))) {
			continue
		}
		if !add(g, l, line, where(file, i+1)) {
			return
		}
	}
}

// label is a file's name for a reader.
func label(file string) string { return path.Base(file) }

// separator is the separator of a CSV's header line: a comma, or the
// semicolon of a spreadsheet in French, Spanish, Portuguese or German, or
// a tab, whichever it has most of.
func separator(header string) rune {
	best, n := ',', 0
	for _, sep := range []rune{',', ';', '\t'} {
		if c := strings.Count(header, string(sep)); c > n {
			best, n = sep, c
		}
	}
	return best
}

func readCSV(s string, sep rune) ([][]string, error) {
	r := csv.NewReader(strings.NewReader(s))
	r.Comma = sep
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	return r.ReadAll()
}

// columns finds a header's name column, or its given and family name
// columns (-1 for none).
func columns(header []string) (name, given, family int) {
	name, given, family = -1, -1, -1
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		switch {
		case name < 0 && slices.Contains(nameHeaders, h):
			name = i
		case given < 0 && slices.Contains(givenHeaders, h):
			given = i
		case family < 0 && slices.Contains(familyHeaders, h):
			family = i
		}
	}
	if name >= 0 {
		given, family = -1, -1
	}
	return name, given, family
}

func cell(row []string, i int) string {
	if i < 0 || i >= len(row) {
		return ""
	}
	return strings.TrimSpace(row[i])
}

// joinName is a row's name: its whole name, or its given and family
// names.
func joinName(whole, given, family string) string {
	if whole != "" {
		return whole
	}
	return strings.TrimSpace(given + " " + family)
}

// add adds a name read at w, and reports whether more may follow: a blank
// line is skipped; past MaxNames a group, or MaxStudents an upload, it
// says so once and takes no more (a zip of a hundred thousand lines is
// read no further than its limit).
func add(g *Group, l *List, name string, w i18n.Msg) bool {
	switch name = strings.TrimSpace(name); {
	case l.full || g.full:
		return false
	case name == "":
		return true
	case l.names == MaxStudents:
		l.full = true
		l.Problems = append(l.Problems, i18n.M("roster.too_many_upload", "N", MaxStudents, "Where", w))
		return false
	case len(g.Names) == MaxNames:
		g.full = true
		l.Problems = append(l.Problems, i18n.M("roster.too_many", "N", MaxNames, "Where", w))
		return false
	}
	g.Names = append(g.Names, Entry{Name: name, Where: w})
	l.names++
	return true
}
