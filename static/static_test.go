package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func get(t *testing.T, path string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	Handler().ServeHTTP(w, r)
	return w
}

// TestHashedNamesAreCachedAndCompressed: ECharts under its hashed name is
// cached for a year and sent gzipped, a third of its size, and unzips to
// the embedded file.
func TestHashedNamesAreCachedAndCompressed(t *testing.T) {
	p := Path("vendor/echarts.min.js")
	if !strings.HasPrefix(p, "/static/vendor/echarts.min.") || !strings.HasSuffix(p, ".js") || p == "/static/vendor/echarts.min.js" {
		t.Fatalf("hashed path %q", p)
	}
	w := get(t, p, map[string]string{"Accept-Encoding": "gzip, br"})
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(w.Header().Get("Cache-Control"), "max-age=31536000") {
		t.Fatalf("status %d, headers %v", w.Code, w.Header())
	}
	want, _ := Files.ReadFile("vendor/echarts.min.js")
	if w.Body.Len() > len(want)/2 {
		t.Errorf("gzipped ECharts is %d bytes of %d", w.Body.Len(), len(want))
	}
	zr, err := gzip.NewReader(bytes.NewReader(w.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(zr)
	if !bytes.Equal(got, want) {
		t.Error("the gzipped body is not the file")
	}
	// Without gzip, or with q=0, the plain bytes.
	for _, enc := range []string{"", "gzip;q=0", "identity"} {
		if w := get(t, p, map[string]string{"Accept-Encoding": enc}); w.Header().Get("Content-Encoding") != "" || !bytes.Equal(w.Body.Bytes(), want) {
			t.Errorf("Accept-Encoding %q: encoding %q, %d bytes", enc, w.Header().Get("Content-Encoding"), w.Body.Len())
		}
	}
	// A revalidation with the ETag costs nothing.
	if w := get(t, p, map[string]string{"If-None-Match": w.Header().Get("ETag")}); w.Code != http.StatusNotModified {
		t.Errorf("revalidation: %d", w.Code)
	}
}

// TestPlainNamesAndDirectories: the plain name still answers, revalidated;
// a directory or an unknown file is 404.
func TestPlainNamesAndDirectories(t *testing.T) {
	w := get(t, "/static/app.css", nil)
	if w.Code != http.StatusOK || w.Header().Get("Cache-Control") != "no-cache" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/css") {
		t.Errorf("plain name: %d %v", w.Code, w.Header())
	}
	for _, p := range []string{"/static/", "/static/vendor/", "/static/nothing.js", "/static/vendor"} {
		if w := get(t, p, nil); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, w.Code)
		}
	}
}

// TestEveryFileHasAPath: each embedded file has its own hashed name.
func TestEveryFileHasAPath(t *testing.T) {
	seen := map[string]bool{}
	indexed()
	if len(byName) < 5 {
		t.Fatalf("%d files indexed, want the style sheet, scripts, icon and vendor", len(byName))
	}
	for name := range byName {
		p := Path(name)
		if seen[p] {
			t.Errorf("two files at %s", p)
		}
		seen[p] = true
		if w := get(t, p, nil); w.Code != http.StatusOK {
			t.Errorf("%s: %d", p, w.Code)
		}
	}
	if len(seen) < 5 {
		t.Errorf("%d files", len(seen))
	}
}
