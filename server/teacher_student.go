package server

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/play"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// teacherStudent is one student's matches for their teacher: the review
// of one (?match=, else the latest) from the student's seat, every
// decision beside hold-at-20 and perfect play, and the list of the others.
func (s *Server) teacherStudent(c *gin.Context) {
	ctx, class, l, who := c.Request.Context(), classFrom(c), loc(c), viewerFrom(c)
	id, _ := strconv.ParseInt(c.Param("id"), 10, 64)
	everyone := append(slices.Clone(class.Students), class.Removed...)
	i := slices.IndexFunc(everyone, func(st store.Student) bool { return st.ID == id })
	if i < 0 {
		refuse(c, http.StatusNotFound, l.T("error.nostudent_class"))
		return
	}
	student := everyone[i]
	ms, err := s.reports.StudentMatches(ctx, who, id)
	if err != nil {
		fail(c, err)
		return
	}
	if len(ms) == 0 {
		render(c, http.StatusOK, templates.TeacherStudentView(templates.TeacherStudent{Name: student.Nickname, BackURL: paths.Teacher.For(class.Code), Admin: s.studentAdmin(c, class, student)}))
		return
	}
	shown := ms[len(ms)-1]
	if asked, err := strconv.ParseInt(c.Query("match"), 10, 64); err == nil {
		if j := slices.IndexFunc(ms, func(m play.Match) bool { return m.ID == asked }); j >= 0 {
			shown = ms[j]
		}
	}
	m, err := s.see(ctx, who, shown.ID, true)
	if err != nil {
		fail(c, err)
		return
	}
	seat := -1
	for _, st := range shown.Seats {
		if st.StudentID == id {
			seat = st.Seat
		}
	}
	// The board as the class sees it (no seat is "you": the teacher reads
	// "Ana won", not "You won"); the review from the student's seat.
	m.Seat = -1
	mv := s.drawMatch(c, m)
	mv.Seat, mv.board.NextURL, mv.teacher = seat, "", true
	v := s.views.reviewView(l, mv)
	v.Student, v.BackURL = student.Nickname, paths.Teacher.For(class.Code)
	if !student.Erased {
		admin := s.studentAdmin(c, class, student)
		v.Admin = &admin
	}
	for j := len(ms) - 1; j >= 0; j-- {
		v.Others = append(v.Others, templates.HistoryRow{
			URL:    paths.Query(paths.TeacherStudent.With(class.Code, id), "match", strconv.FormatInt(ms[j].ID, 10)),
			Title:  matchTitle(l, ms[j]),
			Result: pick(ms[j].ID == shown.ID, l.T("teacher.student.shown"), historyResult(l, ms[j], id)),
		})
	}
	render(c, http.StatusOK, templates.ReviewView(v))
}

// studentAdmin is what the teacher may do about a student: a student
// still in the class has their rejoin code shown, and renewable (a
// Chromebook whose cookie is gone gets back through it); anyone not
// erased has their data and their erasure.
func (s *Server) studentAdmin(c *gin.Context, class *classroom.Class, st store.Student) templates.StudentAdmin {
	v := templates.StudentAdmin{Notice: takeFlashAt(c, paths.TeacherStudent.With(class.Code, st.ID)), Name: st.Nickname, DataURL: paths.StudentData.With(class.Code, st.ID), EraseURL: paths.EraseStudent.With(class.Code, st.ID)}
	if !st.Removed {
		v.RejoinCode, v.RenewURL = s.room.RejoinCode(class, st), paths.RenewRejoin.With(class.Code, st.ID)
		v.ExtraURL, v.ExtraSeconds = paths.ExtraTime.With(class.Code, st.ID), st.ExtraSeconds
	}
	if p, err := s.reports.StudentProgress(c.Request.Context(), viewerFrom(c), st.ID); err == nil {
		v.Progress = progressWords(loc(c), p, st.Nickname)
	} else {
		c.Error(err) // the page is drawn without it; the log says why
	}
	return v
}
