package server

import (
	"context"
	"fmt"
	"image"
	_ "image/jpeg"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"pigclass/server/charts"
	"pigclass/server/report"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// TestHelpPicturesAreTheScreens takes the teacher's guide's pictures
// (static/help/) of the app as it is, when PIGCLASS_HELP_PICTURES names
// the folder to write them to (`PIGCLASS_HELP_PICTURES=$PWD/static/help
// go test ./server -run HelpPictures`): the dashboard and the shared
// screen of a class in its first lesson's first phase, and a student's
// board on a phone. Run it when a screen the guide shows changes.
func TestHelpPicturesAreTheScreens(t *testing.T) {
	dir := os.Getenv("PIGCLASS_HELP_PICTURES")
	if dir == "" {
		t.Skip("PIGCLASS_HELP_PICTURES names no folder: the guide's pictures are kept as they are")
	}
	person := newBrowser(t)
	// The address a classroom's server shows, not the test's loopback.
	const public = "http://10.0.0.5:8080"
	a := newAppConfig(t, func(c *Config) { c.PublicURL = public })
	teacher := a.browser()
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	var kids []*browser
	for _, nick := range []string{"Ana", "Bruno", "Chloé", "Dev", "Emma", "Felix", "Gabi"} {
		kids = append(kids, join(t, a, code, nick))
	}
	phone := person()
	run(t, phone, chromedp.EmulateViewport(400, 720))
	joinIn(t, phone, a.url, code, "Hugo")
	teacher.post(paths.LessonStart.For(code), nil)
	for range 5 {
		for _, k := range kids[:5] {
			firstMove(k, code)
		}
	}
	dash := teacher.get(paths.Teacher.For(code))
	here := strings.NewReplacer(public, a.url) // the links name the public address
	link, projector := here.Replace(dash.Find(`[data-testid="teacher-link"]`).AttrOr("href", "")), here.Replace(dash.Find(`[data-testid="projector-link"]`).AttrOr("href", ""))
	screen := person()
	run(t, screen, chromedp.EmulateViewport(1024, 640), chromedp.Navigate(link), chromedp.WaitVisible(q(`[data-testid="lesson"]`)))
	picture(t, screen, filepath.Join(dir, "dashboard.jpg"))
	run(t, screen, chromedp.EmulateViewport(1024, 640), chromedp.Navigate(projector))
	eventually(t, screen, `!!document.querySelector('[data-testid="projector-phase"]')`, "the shared screen shows the phase")
	picture(t, screen, filepath.Join(dir, "shared-screen.jpg"))
	run(t, phone, chromedp.Navigate(a.url+paths.Student.For(code)))
	eventually(t, phone, `!!document.querySelector('#board [data-testid="act-roll"]')`, "the phone's board offers a roll")
	clickJS(t, phone, `#board [data-testid="act-roll"]`)
	eventually(t, phone, `!!document.querySelector('#board [data-testid="act-hold"]')`, "the phone's board offers a hold")
	picture(t, phone, filepath.Join(dir, "phone-board.jpg"))
}

// picture saves what the page shows (its viewport) as a JPEG.
func picture(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	quality := int64(82)
	b := value(t, ctx, chromedp.Action[[]byte](func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, tg, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatJpeg, Quality: &quality})
		return r.Data, err
	}))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHelpPicturesAreServed: each picture the guide shows answers at its
// address as a JPEG of the size the page gives it.
func TestHelpPicturesAreServed(t *testing.T) {
	a := newApp(t)
	b := a.browser()
	imgs := b.get(paths.Help.String()).Find(`[data-testid="help-picture"]`)
	if imgs.Length() != 3 {
		t.Fatalf("the guide shows %d pictures, want the dashboard, the shared screen and a board", imgs.Length())
	}
	imgs.Each(func(_ int, img *goquery.Selection) {
		src := img.AttrOr("src", "")
		b.get(src)
		c, format, err := image.DecodeConfig(strings.NewReader(b.body))
		if b.status() != http.StatusOK || err != nil || format != "jpeg" {
			t.Fatalf("%s: %d, %s, %v", src, b.status(), format, err)
		}
		if size := fmt.Sprintf("%dx%d", c.Width, c.Height); size != img.AttrOr("width", "")+"x"+img.AttrOr("height", "") || c.Width < 400 {
			t.Errorf("%s is %s, the page says %sx%s", src, size, img.AttrOr("width", ""), img.AttrOr("height", ""))
		}
		if img.AttrOr("alt", "") == "" {
			t.Errorf("%s has no words for a reader who cannot see it", src)
		}
	})
}

// TestHelpIsWhereATeacherLooks: the front page, the dashboard's bar and
// the lesson's panel link the teacher's guide; the guide's counts are the
// app's own (its lesson plans, charts and files), its lesson plans are
// listed by their titles in the reader's language, and each section the
// contents list names is on the page.
func TestHelpIsWhereATeacherLooks(t *testing.T) {
	a := newApp(t)
	teacher := a.browser()
	if href := teacher.get(paths.Front.String()).Find(`[data-testid="help-link"]`).AttrOr("href", ""); href != paths.Help.String() {
		t.Errorf("the front page links the guide at %q", href)
	}
	code := teacherStartLesson(t, teacher, "1-roll-or-hold")
	dash := teacher.get(paths.Teacher.For(code))
	if href := dash.Find(`[data-testid="dash-bar"] [data-testid="help-open"]`).AttrOr("href", ""); href != paths.Help.String() {
		t.Errorf("the dashboard's bar links the guide at %q", href)
	}
	if href := dash.Find(`[data-testid="lesson"] [data-testid="lesson-help"]`).AttrOr("href", ""); href != paths.Help.String()+"#lessons" {
		t.Errorf("the lesson's panel links the guide at %q", href)
	}
	for _, lang := range []string{"en", "de"} {
		reader := a.browser()
		reader.accept = lang
		doc := reader.get(paths.Help.String())
		l := i18n.For(lang)
		text := strings.Join(strings.Fields(doc.Find(`[data-testid="help"]`).Text()), " ")
		for _, n := range []struct {
			section string
			count   int
			words   string
		}{
			{"lessons", len(a.srv.views.lessons), "help.lessons.1"},
			{"charts", len(charts.ClassKeys), "help.charts.1"},
			{"files", len(report.Files), "help.files.1"},
		} {
			got := strings.Join(strings.Fields(doc.Find(`[data-testid="help-`+n.section+`"] p`).First().Text()), " ")
			if want := l.T(n.words, "Lessons", l.Int(n.count), "Charts", l.Int(n.count), "Files", l.Int(n.count)); got != want || !strings.Contains(got, " "+l.Int(n.count)+" ") {
				t.Errorf("%s: the guide's %s say %q, want %d", lang, n.section, got, n.count)
			}
		}
		if got := doc.Find(`[data-testid="help-lessons"] li`).Length(); got != len(a.srv.views.lessons) {
			t.Errorf("%s: the guide lists %d lesson plans, the app has %d", lang, got, len(a.srv.views.lessons))
		}
		for _, ls := range a.srv.views.lessons {
			if title := ls.In(lang).Title; !strings.Contains(text, title) {
				t.Errorf("%s: the guide does not list %q", lang, title)
			}
		}
		doc.Find(`nav a`).Each(func(_ int, s *goquery.Selection) {
			if id := strings.TrimPrefix(s.AttrOr("href", ""), "#"); doc.Find(`section#`+id).Length() != 1 {
				t.Errorf("%s: the contents name #%s, which is not on the page", lang, id)
			}
		})
		if got := doc.Find(`section`).Length(); got != len(helpSections) {
			t.Errorf("%s: %d sections, want %d", lang, got, len(helpSections))
		}
	}
}
