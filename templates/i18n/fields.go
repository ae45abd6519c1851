package i18n

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n/template"
)

// fieldsParser is go-i18n's template parser for the messages pigclass
// writes: text with {{.Name}} fields, filled by looking the names up,
// without text/template's reflection on every call (a board says a dozen
// such sentences each time it is drawn). A message with any other
// template syntax goes to go-i18n's own text/template parser.
type fieldsParser struct{ text template.TextParser }

var fieldRE = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}`)

func (fieldsParser) Cacheable() bool { return true }

func (p fieldsParser) Parse(src, left, right string) (template.ParsedTemplate, error) {
	if left != "" && left != "{{" || right != "" && right != "}}" || strings.Contains(fieldRE.ReplaceAllString(src, ""), "{{") {
		return p.text.Parse(src, left, right)
	}
	var t fieldsTemplate
	at := 0
	for _, m := range fieldRE.FindAllStringSubmatchIndex(src, -1) {
		t.texts = append(t.texts, src[at:m[0]])
		t.fields = append(t.fields, src[m[2]:m[3]])
		at = m[1]
	}
	t.texts = append(t.texts, src[at:])
	return &t, nil
}

// fieldsTemplate is texts[0] fields[0] texts[1] ... texts[n].
type fieldsTemplate struct {
	texts  []string
	fields []string
}

func (t *fieldsTemplate) Execute(data any) (string, error) {
	m, _ := data.(map[string]any)
	return t.write(func(name string) (any, bool) {
		v, ok := m[name]
		return v, ok
	}), nil
}

// fill is the text with each field filled from args, pairs of a name and
// a value as T takes them (the last of a name wins, as in go-i18n's map
// of them).
func (t *fieldsTemplate) fill(args []any) string {
	return t.write(func(name string) (any, bool) { return arg(args, name) })
}

// write is the text with each field filled with the value value names: a
// string as it is, another value as fmt prints it, none as text/template
// says it.
func (t *fieldsTemplate) write(value func(name string) (any, bool)) string {
	if len(t.fields) == 0 {
		return t.texts[0]
	}
	var b strings.Builder
	size := 0
	for _, s := range t.texts {
		size += len(s)
	}
	b.Grow(size + 12*len(t.fields))
	for i, f := range t.fields {
		b.WriteString(t.texts[i])
		switch v, ok := value(f); {
		case !ok:
			b.WriteString("<no value>")
		case isString(v):
			b.WriteString(v.(string))
		default:
			fmt.Fprint(&b, v)
		}
	}
	b.WriteString(t.texts[len(t.texts)-1])
	return b.String()
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// arg is the value named name in args, the last pair of that name.
func arg(args []any, name string) (any, bool) {
	for i := len(args)&^1 - 2; i >= 0; i -= 2 {
		k, ok := args[i].(string)
		if !ok {
			k = fmt.Sprint(args[i])
		}
		if k == name {
			return args[i+1], true
		}
	}
	return nil, false
}

// sourceParser hands back a message's text as the catalog has it, in the
// language and plural form go-i18n chose for it, for fill. A message with
// delimiters of its own is left to go-i18n. It is not cacheable: go-i18n
// keeps one parsed template a message, which must stay fieldsParser's.
type sourceParser struct{}

func (sourceParser) Cacheable() bool { return false }

func (sourceParser) Parse(src, left, right string) (template.ParsedTemplate, error) {
	if left != "" && left != "{{" || right != "" && right != "}}" {
		return nil, fmt.Errorf("i18n: delimiters %s %s", left, right)
	}
	return sourceText(src), nil
}

type sourceText string

func (s sourceText) Execute(any) (string, error) { return string(s), nil }
