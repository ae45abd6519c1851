package server

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/report"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// glossary is the page that says what each column of each file means.
func (s *Server) glossary(c *gin.Context) {
	render(c, http.StatusOK, templates.GlossaryView(glossaryView(loc(c))))
}

// glossaryView is the glossary page's view of the files, in the reader's
// language; the files themselves (names, values) stay as they are.
func glossaryView(l *i18n.Localizer) templates.Glossary {
	var v templates.Glossary
	for _, f := range report.Files {
		gf := templates.GlossaryFile{Name: f.Name + ".csv", About: l.T("csv." + f.Name + ".about")}
		for _, c := range f.Columns {
			gc := templates.GlossaryColumn{Name: c.Name, Kind: l.T(c.Kind.ID()), Choices: strings.Join(c.Choices, ", "), Means: l.T(f.MeansID(c))}
			if c.Optional {
				gc.Optional = l.T("csv.optional")
			}
			gf.Columns = append(gf.Columns, gc)
		}
		v.Files = append(v.Files, gf)
	}
	return v
}
