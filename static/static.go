// Package static embeds the files the browser loads: the style sheet, the
// app's small scripts, and the vendored htmx and ECharts (from the npm
// packages htmx.org and echarts, see vendor/). The app serves them itself,
// so it works on a school network without internet.
//
// Each file is served under a content-hashed name (app.3f9a2c1b04.css),
// which Path gives, with a year's Cache-Control: a Chromebook downloads
// ECharts once per version. Files are sent gzipped to browsers that accept
// it (compressed once, on first request). The plain names still answer, for
// bookmarks and old pages, but must be revalidated.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Files holds app.css, app.js, charts.js, help/ (the teacher's guide's
// pictures of the screens) and vendor/ (htmx, ECharts 5.4.3,
// the version go-echarts v2.6 targets).
//
//go:embed app.css app.js charts.js icon.svg vendor help
var Files embed.FS

// Prefix is where the files are served.
const Prefix = "/static/"

// asset is one file, with its hashed name and (once asked for) gzip form.
type asset struct {
	name   string // as embedded: "vendor/htmx.min.js"
	hashed string // "vendor/htmx.min.0123456789.js"
	etag   string
	body   []byte
	ctype  string

	gzOnce sync.Once
	gz     []byte // nil when gzip does not make it smaller
}

var (
	byName   = map[string]*asset{} // embedded name -> asset
	byHashed = map[string]*asset{} // hashed name -> asset
)

// indexed hashes the files the first time a page or a request asks for
// one, not when the program starts: a command that serves nothing never
// pays for it.
var indexed = sync.OnceFunc(func() {
	err := fs.WalkDir(Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := Files.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		h := hex.EncodeToString(sum[:])[:10]
		ext := path.Ext(p)
		a := &asset{name: p, hashed: strings.TrimSuffix(p, ext) + "." + h + ext, etag: `"` + h + `"`, body: body, ctype: mime.TypeByExtension(ext)}
		if a.ctype == "" {
			a.ctype = "text/plain; charset=utf-8"
		}
		byName[p], byHashed[a.hashed] = a, a
		return nil
	})
	if err != nil {
		panic("static: " + err.Error())
	}
})

// Path returns the address of an embedded file under its content-hashed
// name, for pages to link. An unknown name panics: it is a bug in a
// template, caught by any test that renders it.
func Path(name string) string {
	indexed()
	a, ok := byName[name]
	if !ok {
		panic("static: no file " + name)
	}
	return Prefix + a.hashed
}

// gzipped returns the file's gzip form, or nil when it is not worth it.
func (a *asset) gzipped() []byte {
	a.gzOnce.Do(func() {
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		w.Write(a.body)
		w.Close()
		if b.Len() < len(a.body)*9/10 {
			a.gz = b.Bytes()
		}
	})
	return a.gz
}

// Handler serves the files under Prefix. A hashed name never changes, so
// it is cached for a year; a plain name is revalidated with its ETag.
// Directories are not listed.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		indexed()
		name := strings.TrimPrefix(r.URL.Path, Prefix)
		a, immutable := byHashed[name]
		if !immutable {
			a = byName[name]
		}
		if a == nil {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.ctype)
		h.Set("ETag", a.etag)
		h.Set("Vary", "Accept-Encoding")
		if immutable {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		body := a.body
		if AcceptsGzip(r) && r.Header.Get("Range") == "" {
			if gz := a.gzipped(); gz != nil {
				h.Set("Content-Encoding", "gzip")
				body = gz
			}
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// AcceptsGzip reports whether the request's Accept-Encoding allows gzip.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(enc), "gzip") {
			continue
		}
		q, ok := strings.CutPrefix(strings.TrimSpace(params), "q=")
		if !ok {
			return true
		}
		v, err := strconv.ParseFloat(q, 64)
		return err == nil && v > 0
	}
	return false
}
