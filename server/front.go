package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/templates"
	"pigclass/templates/paths"
)

func (s *Server) front(c *gin.Context) {
	l := loc(c)
	render(c, http.StatusOK, templates.FrontView(templates.Front{Games: gameChoices(l, "pig"), Bots: botChoices(l, "hold:20"), Lessons: s.views.lessonChoices(l, ""),
		Notice: takeFlashAt(c, paths.Front.String())}))
}

// createClass starts a class in one step: a join code, a teacher secret
// (stored only as a hash) in a cookie, and the dashboard.
func (s *Server) createClass(c *gin.Context) {
	ctx := c.Request.Context()
	lesson, ok := s.views.checkLessonField(c.PostForm("lesson"))
	if !ok {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.lessonfield"))
		return
	}
	ip := clientKey(c)
	if !s.newClasses.Allow(ip) {
		refuse(c, http.StatusTooManyRequests, loc(c).T("error.classes_rate", "N", loc(c).Int(classesPerMinute)))
		return
	}
	s.newClasses.Hit(ip)
	secret := newToken()
	class, err := s.room.CreateClass(ctx, func() string { return newCode(s.cfg.Chance, s.cfg.CodePrefix) }, classroom.HashToken(secret), lesson)
	if err != nil {
		fail(c, err)
		return
	}
	if s.district != nil {
		// The class is served by the instance that started it.
		if err := s.district.ServeClass(ctx, class.ID); err != nil {
			fail(c, err)
			return
		}
	}
	setCookie(c, teacherPrefix+class.Code, secret, 365*24*3600)
	c.Redirect(http.StatusSeeOther, paths.Teacher.For(class.Code))
}
