package server

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"pigclass/templates/paths"
)

// TestPrivacyPageNamesEveryColumn (issue 33, item 4): the privacy page
// names every table and every column the migrations make, each with its
// words, and nothing the database does not hold; it says how long this
// server keeps a class; every page but the projector's links it from
// its footer.
func TestPrivacyPageNamesEveryColumn(t *testing.T) {
	a := newAppConfig(t, func(c *Config) { c.Retain = 180 * 24 * time.Hour })
	schema := map[string]bool{}
	query := `SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`
	if a.store.Engine() == "postgres" {
		query = `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`
	}
	rows, err := a.store.DB().Query(query)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			t.Fatal(err)
		}
		schema[table+"."+column] = true
	}
	rows.Close()
	if len(schema) < 90 {
		t.Fatalf("the schema has only %d columns: not read whole?", len(schema))
	}
	anyone := a.browser()
	page := anyone.get(paths.Privacy.String())
	named := map[string]bool{}
	page.Find(`[data-testid="privacy-column"]`).Each(func(_ int, dt *goquery.Selection) {
		key := dt.AttrOr("data-table", "") + "." + dt.AttrOr("data-column", "")
		if means := strings.TrimSpace(dt.Next().Text()); means == "" || strings.HasPrefix(means, "privacy.") {
			t.Errorf("%s is named without words: %q", key, means)
		}
		named[key] = true
	})
	for _, col := range slices.Sorted(maps.Keys(schema)) {
		if !named[col] {
			t.Errorf("the privacy page does not name the column %s", col)
		}
	}
	for _, col := range slices.Sorted(maps.Keys(named)) {
		if !schema[col] {
			t.Errorf("the privacy page names %s, which the database does not hold", col)
		}
	}
	page.Find(`[data-testid="privacy-table"]`).Each(func(_ int, s *goquery.Selection) {
		if about := s.Find("p").First().Text(); about == "" || strings.HasPrefix(about, "privacy.") {
			t.Errorf("the table %s has no words", s.AttrOr("data-table", ""))
		}
	})
	if got := page.Find(`[data-testid="privacy-kept"]`).Text(); !strings.Contains(got, "180 days after its last activity") {
		t.Errorf("how long a class is kept: %q", got)
	}
	anyone.accept = "es"
	if got := anyone.get(paths.Privacy.String()).Find("h1").Text(); got != "Privacidad: qué guarda pigclass" {
		t.Errorf("the page in Spanish: %q", got)
	}
	anyone.accept = ""
	teacher := a.browser()
	code := teacherStart(t, teacher)
	ana := join(t, a, code, "Ana")
	// A student's pages link the class's privacy page, the same page
	// (issue 81: it follows the class, as their other pages do).
	for b, path := range map[*browser]string{anyone: "/", teacher: paths.Teacher.For(code), ana: paths.Student.For(code), a.browser(): paths.Join.String()} {
		want := paths.Privacy.String()
		if b == ana {
			want = paths.ClassPrivacy.For(code)
		}
		if href := b.get(path).Find(`footer [data-testid="privacy-link"]`).AttrOr("href", ""); href != want {
			t.Errorf("%s's footer links %q, want %q", path, href, want)
		}
	}
	if got, want := ana.get(paths.ClassPrivacy.For(code)).Find("main").Text(), anyone.get(paths.Privacy.String()).Find("main").Text(); got != want {
		t.Errorf("the class's privacy page says other words than the privacy page")
	}
	stranger := a.browser()
	if stranger.get(paths.ClassPrivacy.For(code)); stranger.status() != http.StatusForbidden {
		t.Errorf("the class's privacy page to a stranger: %d, want 403 as every student page", stranger.status())
	}
}
