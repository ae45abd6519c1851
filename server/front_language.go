package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/templates/i18n"
)

// pickLanguage is the switcher: it remembers the reader's language for a
// year and goes back to the page.
func (s *Server) pickLanguage(c *gin.Context) {
	lang := c.PostForm("lang")
	if !i18n.Known(lang) {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("lang.unknown", "Langs", langNames()))
		return
	}
	setCookie(c, langCookie, lang, 365*24*3600)
	c.Redirect(http.StatusSeeOther, backPath(c.PostForm("back")))
}

// setClassLanguage is the teacher's choice of the class's language.
func (s *Server) setClassLanguage(c *gin.Context) {
	class := classFrom(c)
	lang := c.PostForm("lang")
	if lang != "" && !i18n.Known(lang) {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("lang.unknown", "Langs", langNames()))
		return
	}
	if err := s.room.SetLanguage(c.Request.Context(), viewerFrom(c), lang); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, loc(c).T("notice.language"))
}
