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
	if len(t.fields) == 0 {
		return t.texts[0], nil
	}
	m, _ := data.(map[string]any)
	var b strings.Builder
	for i, f := range t.fields {
		b.WriteString(t.texts[i])
		if v, ok := m[f].(string); ok {
			b.WriteString(v)
		} else if v, ok := m[f]; ok {
			fmt.Fprint(&b, v)
		} else {
			b.WriteString("<no value>") // as text/template says it
		}
	}
	b.WriteString(t.texts[len(t.texts)-1])
	return b.String(), nil
}
