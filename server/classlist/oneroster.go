package classlist

import (
	"strings"

	"pigclass/templates/i18n"
)

// oneRoster reads a OneRoster 1.2 CSV export (its files by lower-case
// name): each class of classes.csv with the users enrolled in it as
// students (enrollments.csv, role "student"), named from users.csv
// (preferred given name, else given name, with the family name). A
// record marked "tobedeleted", or a user not enabled, is left out; a row
// that names what the export does not hold is a problem.
func oneRoster(files map[string][]byte) (List, error) {
	l := List{OneRoster: true}
	for _, need := range []string{"users.csv", "classes.csv", "enrollments.csv"} {
		if files[need] == nil {
			return List{}, refuse("roster.oneroster_file", "File", i18n.Text(need))
		}
	}
	if m := files["manifest.csv"]; m != nil {
		if v := manifestVersion(m); v != "" && !strings.HasPrefix(v, "1.") {
			return List{}, refuse("roster.oneroster_version", "Version", i18n.Text(v))
		}
	}
	users, err := table(files, "users.csv", "sourcedId", "givenName", "familyName")
	if err != nil {
		return List{}, err
	}
	classes, err := table(files, "classes.csv", "sourcedId", "title")
	if err != nil {
		return List{}, err
	}
	enrollments, err := table(files, "enrollments.csv", "classSourcedId", "userSourcedId", "role")
	if err != nil {
		return List{}, err
	}
	names := userNames(users, &l)
	index := classGroups(classes, &l)
	for _, e := range enrollments.rows {
		if e.deleted() || !strings.EqualFold(e.get("role"), "student") {
			continue
		}
		gi, ok := index[e.get("classSourcedId")]
		if !ok {
			l.Problems = append(l.Problems, i18n.M("roster.no_class", "Where", e.where, "ID", i18n.Text(e.get("classSourcedId"))))
			continue
		}
		name, ok := names[e.get("userSourcedId")]
		if !ok {
			if !users.has(e.get("userSourcedId")) {
				l.Problems = append(l.Problems, i18n.M("roster.no_user", "Where", e.where, "ID", i18n.Text(e.get("userSourcedId"))))
			}
			continue // a user left out above: said there
		}
		if !add(&l.Groups[gi], &l, name, e.where) && l.full {
			break // the upload's limit: no more is read
		}
	}
	// A class without students (a teacher's own, a club) is not offered.
	kept := l.Groups[:0]
	for _, g := range l.Groups {
		if len(g.Names) > 0 {
			kept = append(kept, g)
		}
	}
	l.Groups = kept
	if len(l.Groups) == 0 {
		return List{}, &Refusal{Msg: i18n.M("roster.oneroster_empty")}
	}
	return l, nil
}

// userNames are the export's users' names by sourcedId (preferred given
// name, else given name, with the family name): a user to be deleted or
// not enabled is left out, one without a name is a problem of l's.
func userNames(users records, l *List) map[string]string {
	names := map[string]string{}
	for _, u := range users.rows {
		if u.deleted() || strings.EqualFold(u.get("enabledUser"), "false") {
			continue
		}
		given := u.get("preferredGivenName")
		if given == "" {
			given = u.get("givenName")
		}
		name := strings.TrimSpace(given + " " + u.get("familyName"))
		if name == "" {
			l.Problems = append(l.Problems, i18n.M("roster.no_name", "Where", u.where))
			continue
		}
		names[u.get("sourcedId")] = name
	}
	return names
}

// classGroups adds a group to l for each class of the export (its title
// and class code), and returns each class's group by sourcedId.
func classGroups(classes records, l *List) map[string]int {
	index := map[string]int{}
	for _, c := range classes.rows {
		if c.deleted() {
			continue
		}
		title := c.get("title")
		if code := c.get("classCode"); code != "" && code != title {
			title += " (" + code + ")"
		}
		index[c.get("sourcedId")] = len(l.Groups)
		l.Groups = append(l.Groups, Group{Title: title})
	}
	return index
}

// records are a OneRoster file's rows by their header's names.
type records struct {
	rows []record
	ids  map[string]bool // sourcedId of every row, left out or not
}

type record struct {
	cols  map[string]int
	cells []string
	where i18n.Msg
}

func (r record) get(col string) string { return cell(r.cells, colOf(r.cols, col)) }

func colOf(cols map[string]int, col string) int {
	if i, ok := cols[strings.ToLower(col)]; ok {
		return i
	}
	return -1
}

// deleted: the record's status says it is to be deleted.
func (r record) deleted() bool { return strings.EqualFold(r.get("status"), "tobedeleted") }

func (t records) has(id string) bool { return t.ids[id] }

// table reads one file of the export, which must have the columns need.
func table(files map[string][]byte, name string, need ...string) (records, error) {
	rows, err := readCSV(text(files[name]), ',')
	if err != nil || len(rows) == 0 {
		return records{}, refuse("roster.csv", "File", i18n.Text(name))
	}
	cols := map[string]int{}
	for i, h := range rows[0] {
		cols[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, n := range need {
		if colOf(cols, n) < 0 {
			return records{}, refuse("roster.oneroster_column", "File", i18n.Text(name), "Column", i18n.Text(n))
		}
	}
	t := records{ids: map[string]bool{}}
	for i, cells := range rows[1:] {
		r := record{cols: cols, cells: cells, where: where(name, i+2)}
		t.ids[r.get("sourcedId")] = true
		t.rows = append(t.rows, r)
	}
	return t, nil
}

// manifestVersion is the OneRoster version a manifest.csv names.
func manifestVersion(b []byte) string {
	rows, err := readCSV(text(b), ',')
	if err != nil {
		return ""
	}
	for _, r := range rows {
		if len(r) >= 2 && strings.EqualFold(strings.TrimSpace(r[0]), "oneroster.version") {
			return strings.TrimSpace(r[1])
		}
	}
	return ""
}
