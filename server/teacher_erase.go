package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// studentData is everything stored about one student of the class, for
// its teacher: one JSON file (report.StudentData).
func (s *Server) studentData(c *gin.Context) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		refuse(c, http.StatusNotFound, loc(c).T("error.nostudent_class"))
		return
	}
	s.sendStudentData(c, id)
}

// myData is everything stored about the student asking, from their page.
func (s *Server) myData(c *gin.Context) {
	_, me, ok := s.studentOf(c)
	if !ok {
		return
	}
	s.sendStudentData(c, me.ID)
}

// sendStudentData answers with the file of student id of the viewer's
// class.
func (s *Server) sendStudentData(c *gin.Context, id int64) {
	who := viewerFrom(c)
	data, err := s.reports.StudentData(c.Request.Context(), who, id, s.cfg.Now())
	if errors.Is(err, store.ErrNotFound) {
		refuse(c, http.StatusNotFound, loc(c).T("error.nostudent_class"))
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	b, _ := json.MarshalIndent(data, "", "  ")
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="pigclass-%s-student-%d.json"`, who.Class().Code, id))
	c.Data(http.StatusOK, "application/json; charset=utf-8", b)
}

// erasable finds a student of the class the teacher may erase (in the
// class or removed, not erased yet).
func erasable(class *classroom.Class, id int64) (store.Student, bool) {
	all := append(slices.Clone(class.Students), class.Removed...)
	i := slices.IndexFunc(all, func(st store.Student) bool { return st.ID == id && !st.Erased })
	if i < 0 {
		return store.Student{}, false
	}
	return all[i], true
}

// confirmErase says what erasing a student does, with their data to
// download first, and asks.
func (s *Server) confirmErase(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	st, ok := studentAsked(c, erasable)
	if !ok {
		return
	}
	id := st.ID
	render(c, http.StatusOK, templates.ConfirmView(templates.Confirm{Code: class.Code, CancelURL: paths.Teacher.For(class.Code),
		Title: l.T("confirm.erase.title", "Name", st.Nickname), Message: l.T("confirm.erase.message", "Name", st.Nickname),
		Action: paths.EraseStudent.With(class.Code, id), Button: l.T("confirm.erase.button", "Name", st.Nickname), Danger: true,
		Before: l.T("confirm.erase.download", "Name", st.Nickname), BeforeURL: paths.StudentData.With(class.Code, id)}))
}

// eraseStudent erases one student, once confirmed (Room.EraseStudent).
func (s *Server) eraseStudent(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	st, ok := studentAsked(c, erasable)
	if !ok {
		return
	}
	id := st.ID
	if !confirmed(c, paths.ConfirmErase.With(class.Code, id)) {
		return
	}
	erased, err := s.room.EraseStudent(c.Request.Context(), viewerFrom(c), id)
	if err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, l.T("notice.erased", "Name", st.Nickname, "New", erased.Nickname))
}

// studentAsked finds the student :id of the class with find, or refuses
// (404, the same words for a student that is not there as for a number
// that names nobody).
func studentAsked(c *gin.Context, find func(*classroom.Class, int64) (store.Student, bool)) (store.Student, bool) {
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	st, ok := find(classFrom(c), id)
	if !ok {
		refuse(c, http.StatusNotFound, loc(c).T("error.nostudent_class"))
	}
	return st, ok
}

// inClass finds a student still in the class.
func inClass(class *classroom.Class, id int64) (store.Student, bool) {
	i := slices.IndexFunc(class.Students, func(st store.Student) bool { return st.ID == id })
	if i < 0 {
		return store.Student{}, false
	}
	return class.Students[i], true
}

// confirmRenew says what a new rejoin code does, and asks.
func (s *Server) confirmRenew(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	st, ok := studentAsked(c, inClass)
	if !ok {
		return
	}
	id := st.ID
	render(c, http.StatusOK, templates.ConfirmView(templates.Confirm{Code: class.Code, CancelURL: paths.TeacherStudent.With(class.Code, id),
		Title: l.T("confirm.renew.title", "Name", st.Nickname), Message: l.T("confirm.renew.message", "Name", st.Nickname),
		Action: paths.RenewRejoin.With(class.Code, id), Button: l.T("confirm.renew.button")}))
}

// renewRejoin gives a student a new rejoin code, once confirmed
// (Room.RenewRejoin), and shows it on their page.
func (s *Server) renewRejoin(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	st, ok := studentAsked(c, inClass)
	if !ok {
		return
	}
	id := st.ID
	if !confirmed(c, paths.ConfirmRenew.With(class.Code, id)) {
		return
	}
	if _, err := s.room.RenewRejoin(c.Request.Context(), viewerFrom(c), id); err != nil {
		fail(c, err)
		return
	}
	doneAt(c, paths.TeacherStudent.With(class.Code, id), l.T("notice.renewed", "Name", st.Nickname))
}

// setExtraTime gives a student of the class extra seconds on each
// per-roll deadline (0 to 600; 0 takes it away): an accommodation for a
// student who needs more time (WCAG 2.2.1). It holds from their next
// look at the board.
func (s *Server) setExtraTime(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	st, ok := studentAsked(c, inClass)
	if !ok {
		return
	}
	most := int(classroom.MaxExtraTime / time.Second)
	n, err := strconv.Atoi(strings.TrimSpace(c.PostForm("seconds")))
	if err != nil || n < 0 || n > most {
		refuse(c, http.StatusBadRequest, l.T("error.extra_time", "Name", st.Nickname, "Max", l.Int(most)))
		return
	}
	if err := s.room.SetExtraTime(c.Request.Context(), viewerFrom(c), st.ID, time.Duration(n)*time.Second); err != nil {
		fail(c, err)
		return
	}
	note := l.T("notice.extra_time_none", "Name", st.Nickname)
	if n > 0 {
		note = l.N("notice.extra_time", n, "Name", st.Nickname)
	}
	doneAt(c, paths.TeacherStudent.With(class.Code, st.ID), note)
}
