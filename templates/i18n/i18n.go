// Package i18n holds pigclass's words in every language it speaks and
// formats numbers the way each reader writes them.
//
// The words live in locales/LANG.toml, one file per language in
// go-i18n's format, embedded in the binary: a translator edits a file
// and needs no Go. locales/README.md says how. English is the source and
// the fallback; a test fails when a language lacks a key English has or
// has one English lacks.
//
// A request's language rides in its context (WithLocalizer); templates
// and view builders ask From(ctx) for words and numbers. Numbers,
// percentages and decimals go through golang.org/x/text's message
// printer: 53.06% in English, 53,06 % in Spanish. CSV files do not come
// here: they are data, with dot decimals and English headers.
package i18n

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

//go:embed locales/*.toml
var files embed.FS

// Lang is one language pigclass speaks.
type Lang struct {
	Code string // the tag: "en", "es", "pt-BR"
	Name string // its own name for itself, as the switcher shows it
	tag  language.Tag
}

// Langs are the languages shipped, English (the source) first.
var Langs = []Lang{
	{Code: "en", Name: "English", tag: language.English},
	{Code: "es", Name: "Español", tag: language.Spanish},
	{Code: "fr", Name: "Français", tag: language.French},
	{Code: "pt-BR", Name: "Português (Brasil)", tag: language.BrazilianPortuguese},
	{Code: "de", Name: "Deutsch", tag: language.German},
}

// Source is the language the catalog is written in, and the fallback.
const Source = "en"

var (
	bundle   = goi18n.NewBundle(language.English)
	matcher  language.Matcher
	mu       sync.RWMutex
	cache    = map[string]*Localizer{}
	pseudoOn bool
)

// loaded parses the catalogs the first time a word or a language is
// asked for, not when the program starts: a command that speaks to no
// one (pigclass version, duel) never pays for them.
var loaded = sync.OnceFunc(func() {
	bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	var tags []language.Tag
	for _, l := range Langs {
		if _, err := bundle.LoadMessageFileFS(files, "locales/"+l.Code+".toml"); err != nil {
			panic("i18n: " + err.Error())
		}
		bundle.MustAddMessages(l.tag, &formProbe)
		tags = append(tags, l.tag)
	}
	matcher = language.NewMatcher(tags)
})

// Known reports whether code names a language pigclass speaks.
func Known(code string) bool {
	_, ok := lookup(code)
	return ok
}

func lookup(code string) (Lang, bool) {
	for _, l := range Langs {
		if l.Code == code {
			return l, true
		}
	}
	if pseudoOn && code == PseudoCode {
		return Lang{Code: PseudoCode, Name: "Pseudo", tag: language.MustParse(PseudoCode)}, true
	}
	return Lang{}, false
}

// matched remembers the language of the Accept-Language headers seen
// (a class's browsers send a handful), up to a bound.
var matched sync.Map

const maxMatched = 512

var matchedN atomic.Int64

// Match picks the language for an Accept-Language header: the best of
// those shipped, English when none fits.
func Match(acceptLanguage string) string {
	if code, ok := matched.Load(acceptLanguage); ok {
		return code.(string)
	}
	code := match(acceptLanguage)
	if matchedN.Add(1) <= maxMatched {
		matched.Store(acceptLanguage, code)
	}
	return code
}

func match(acceptLanguage string) string {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return Source
	}
	if pseudoOn {
		for _, t := range tags {
			if t.String() == PseudoCode {
				return PseudoCode
			}
		}
	}
	loaded()
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return Source
	}
	return Langs[i].Code
}

// Localizer speaks one language: its words and its numbers.
// fillFields fills the messages' {{.Name}} fields (fields.go).
var fillFields fieldsParser

type Localizer struct {
	lang  Lang
	loc   *goi18n.Localizer
	p     *message.Printer
	small []string // 0 to smallInts-1 as the printer writes them: scores, turns
	// filled holds, for each plural form (forms), id → *fieldsTemplate:
	// a message's text in this language found once and its fields filled
	// from the arguments at each call, without go-i18n's look-up (a
	// language match and a map of the arguments each time: a dashboard
	// of a thousand students says tens of thousands of sentences). nil
	// is a message go-i18n's own template fills (fields.go).
	filled [len(forms)]sync.Map
	form   []uint8 // the plural form of 0 to smallInts-1, as go-i18n picks it
}

// smallInts are the whole numbers a localizer writes once and keeps.
const smallInts = 1000

// For is the localizer of a language code; an unknown code gets English.
func For(code string) *Localizer {
	mu.RLock()
	l := cache[code]
	mu.RUnlock()
	if l != nil {
		return l
	}
	lang, ok := lookup(code)
	if !ok {
		return For(Source)
	}
	loaded()
	l = &Localizer{lang: lang, loc: goi18n.NewLocalizer(bundle, lang.Code),
		p: message.NewPrinter(printerTag(lang))}
	l.small = make([]string, smallInts)
	l.form = make([]uint8, smallInts)
	for n := range l.small {
		l.small[n] = l.p.Sprint(number.Decimal(n))
		l.form[n] = l.pluralForm(n)
	}
	mu.Lock()
	cache[code] = l
	mu.Unlock()
	return l
}

func printerTag(l Lang) language.Tag {
	if l.Code == PseudoCode {
		return language.English
	}
	return l.tag
}

// Lang is the language's code, for <html lang> and the cookie.
func (l *Localizer) Lang() string { return l.lang.Code }

// T is the message id in this language. Args are pairs of a name and a
// value, filling the message's {{.Name}} placeholders; numbers among them
// should already be formatted (Int, Pct...). A missing message shows
// its id, and TestCatalogKeysExist keeps that from shipping.
func (l *Localizer) T(id string, args ...any) string {
	return l.localize(id, nil, args)
}

// N is the message id in the plural form that count takes in this
// language; {{.Count}} is the count, formatted.
func (l *Localizer) N(id string, count int, args ...any) string {
	return l.localize(id, count, append(args, "Count", l.Int(count)))
}

func (l *Localizer) localize(id string, count any, args []any) string {
	form := uint8(0) // other: a message without a count
	if n, ok := count.(int); ok {
		form = l.formOf(n)
	}
	if t, ok := l.filled[form].Load(id); ok {
		if t := t.(*fieldsTemplate); t != nil {
			return t.fill(args)
		}
		return l.goi18n(id, count, args)
	}
	src, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateParser: sourceParser{}})
	if err != nil && src == "" {
		return l.goi18n(id, count, args) // not found, or not plain text and fields
	}
	t, _ := fillFields.Parse(src, "", "")
	ft, _ := t.(*fieldsTemplate)
	l.filled[form].Store(id, ft)
	if ft == nil {
		return l.goi18n(id, count, args)
	}
	return ft.fill(args)
}

// goi18n is the message filled by go-i18n itself: one whose text is a
// template with more than fields, or that no catalog has (its id).
func (l *Localizer) goi18n(id string, count any, args []any) string {
	var data map[string]any
	if len(args) > 0 {
		data = make(map[string]any, len(args)/2)
		for i := 0; i+1 < len(args); i += 2 {
			data[fmt.Sprint(args[i])] = args[i+1]
		}
	}
	s, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count, TemplateParser: fillFields})
	if err != nil && s == "" {
		return id
	}
	return s
}

// Int is a whole number in the reader's format (12,345 or 12.345).
func (l *Localizer) Int(n int) string {
	if n >= 0 && n < len(l.small) {
		return l.small[n]
	}
	return l.p.Sprint(number.Decimal(n))
}

// Dec is a number with exactly digits decimals (53.06 or 53,06).
func (l *Localizer) Dec(x float64, digits int) string {
	return l.p.Sprint(number.Decimal(x, number.Scale(digits)))
}

// Pct is a share from 0 to 1 as a percentage with digits decimals
// (53.06% or 53,06 %).
func (l *Localizer) Pct(share float64, digits int) string {
	return l.p.Sprint(number.Percent(share, number.Scale(digits)))
}

// Clock is a time of day as the reader writes it: the layout (Go's, as
// "15:04:05") is the catalog's format.clock, so a translator sets it.
func (l *Localizer) Clock(t time.Time) string {
	layout := l
	if l.lang.Code == PseudoCode {
		layout = For(Source) // a layout, not words: the pseudo-locale keeps it
	}
	return t.Format(layout.T("format.clock"))
}

// Points is percentage points with two decimals and their unit, from a
// difference of two shares (0.0123 is "1.23 percentage points").
func (l *Localizer) Points(diff float64) string {
	return l.T("unit.points", "N", l.Dec(100*diff, 2))
}

// Sentence ends a title with a full stop where it has no stop of its own
// ("Class dice." but "Is it luck?", not "Is it luck?."), for a message
// that follows it with more words.
func Sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, "!") {
		return s
	}
	return s + "."
}

// Own is a text translated outside the catalog (a lesson plan's own
// translation) as this language shows it: itself, but wrapped in the
// pseudo-locale as the catalog's words are, so that the pseudo-locale
// test sees it is translatable.
func (l *Localizer) Own(s string) string {
	if l.lang.Code == PseudoCode {
		return Pseudo(s)
	}
	return s
}

type ctxKey struct{}

// WithLocalizer is ctx carrying l, for templates and view builders.
func WithLocalizer(ctx context.Context, l *Localizer) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From is the localizer ctx carries; English when none.
func From(ctx context.Context) *Localizer {
	if l, ok := ctx.Value(ctxKey{}).(*Localizer); ok {
		return l
	}
	return For(Source)
}

// T is From(ctx).T, short for templates.
func T(ctx context.Context, id string, args ...any) string { return From(ctx).T(id, args...) }

// Catalog is every message id of a language with its forms (other, one,
// ...), read from its file: for the tests that keep the languages
// together.
func Catalog(code string) (map[string]map[string]string, error) {
	buf, err := fs.ReadFile(files, path.Join("locales", code+".toml"))
	if err != nil {
		return nil, err
	}
	mf, err := goi18n.ParseMessageFileBytes(buf, code+".toml", map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal})
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for _, m := range mf.Messages {
		forms := map[string]string{}
		for k, v := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
			if v != "" {
				forms[k] = v
			}
		}
		out[m.ID] = forms
	}
	return out, nil
}

// PseudoCode is the pseudo-locale (en-XA, as Android and Chrome name
// theirs): every message wrapped and lengthened, for tests that look
// for words that did not come from the catalog and for layouts that
// break on longer words. It exists only once EnablePseudo is called.
const PseudoCode = "en-XA"

// EnablePseudo adds the pseudo-locale: "[!! Roll ~~~ !!]" for "Roll".
// Tests call it; the app never does.
func EnablePseudo() {
	loaded()
	mu.Lock()
	defer mu.Unlock()
	if pseudoOn {
		return
	}
	en, err := Catalog(Source)
	if err != nil {
		panic(err)
	}
	tag := language.MustParse(PseudoCode)
	for id, forms := range en {
		m := &goi18n.Message{ID: id}
		for k, v := range forms {
			p := Pseudo(v)
			switch k {
			case "zero":
				m.Zero = p
			case "one":
				m.One = p
			case "two":
				m.Two = p
			case "few":
				m.Few = p
			case "many":
				m.Many = p
			default:
				m.Other = p
			}
		}
		bundle.MustAddMessages(tag, m)
	}
	bundle.MustAddMessages(tag, &formProbe)
	pseudoOn = true
	matched.Clear() // a header may now pick the pseudo-locale
	matchedN.Store(0)
}

// Pseudo is the pseudo-locale's form of an English text: wrapped in
// "[!! " and " !!]" and about 40% longer, the padding in short words as
// a longer language's would be.
func Pseudo(s string) string {
	n := (len([]rune(s))*2 + 4) / 5 // the padding, in groups of four
	pad := strings.TrimSpace(strings.Repeat("~~~~ ", n/5) + strings.Repeat("~", n%5))
	return "[!! " + s + " " + pad + " !!]"
}

// AddWords adds words to a language's catalog while the program runs,
// for a test's game of its own (a game of the product has its words in
// the files); other languages fall back to English for them. Nothing may
// read the words while it runs.
func AddWords(code string, words map[string]string) error {
	lang, ok := lookup(code)
	if !ok {
		return fmt.Errorf("i18n: no language %q", code)
	}
	loaded()
	for id, text := range words {
		if err := bundle.AddMessages(lang.tag, &goi18n.Message{ID: id, Other: text}); err != nil {
			return fmt.Errorf("i18n: %s: %w", id, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, l := range cache { // another language may have found English's
		for i := range l.filled {
			l.filled[i].Clear()
		}
	}
	return nil
}

// forms are CLDR's plural forms, other first (a message without a count);
// formProbe is a message that says its form, in every language, for
// go-i18n to tell a localizer which form a count takes there.
var (
	forms     = [...]string{"other", "zero", "one", "two", "few", "many"}
	formProbe = goi18n.Message{ID: "\x00plural form", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
)

// formOf is the plural form (an index of forms) count n takes here.
func (l *Localizer) formOf(n int) uint8 {
	if n >= 0 && n < len(l.form) {
		return l.form[n]
	}
	return l.pluralForm(n)
}

func (l *Localizer) pluralForm(n int) uint8 {
	s, _ := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: formProbe.ID, PluralCount: n})
	for i, f := range forms {
		if f == s {
			return uint8(i)
		}
	}
	return 0
}
