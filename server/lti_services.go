package server

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"context"

	"pigclass/server/classroom"
	"pigclass/server/lti"
	"pigclass/server/store"
)

// The platforms' services pigclass uses for a linked class: the course's
// roster (NRPS) fills the class, and each learner's score goes to the
// link's gradebook line item (AGS).

// fillRoster seats the course's learners the class does not hold yet, as
// students who have not started, and removes from the class those the
// platform says left the course. It returns how many it added.
func (s *Server) fillRoster(ctx context.Context, p lti.Platform, link store.Link, class *classroom.Class) (int, error) {
	learners, left, err := s.lti.Roster(ctx, p, link)
	if err != nil {
		return 0, err
	}
	fresh := make([]classroom.Newcomer, len(learners))
	for i, m := range learners {
		fresh[i] = classroom.Newcomer{User: m.UserID, Name: m.FullName()}
	}
	added, err := s.room.AddCourseMembers(ctx, class.ID, fresh)
	if err != nil || len(left) == 0 {
		return len(added), err
	}
	held, err := s.lti.Members(ctx, class.ID)
	if err != nil {
		return len(added), err
	}
	teacher, err := s.room.Identify(ctx, classroom.Credentials{Code: class.Code, TeacherSecret: s.ltiTeacherSecret(link)})
	if err != nil {
		return len(added), err
	}
	for _, st := range class.Students {
		if left[held[st.ID]] {
			if err := s.room.RemoveStudent(ctx, teacher, st.ID); err != nil {
				return len(added), err
			}
		}
	}
	return len(added), nil
}

// sendScores sends the scores that changed of the classes this instance
// serves (platforms.SendScores), now.
func (s *Server) sendScores(ctx context.Context) (int, error) {
	return s.lti.SendScores(ctx, s.serves())
}

// setLinkScore keeps what the gradebook column of the class's link gets
// (store.ScoreQuality or store.ScoreGames): the scores go again as that.
func (s *Server) setLinkScore(c *gin.Context) {
	class, l := classFrom(c), loc(c)
	score := c.PostForm("score")
	if score != store.ScoreQuality && score != store.ScoreGames {
		refuse(c, http.StatusUnprocessableEntity, l.T("lti.grade.pick"))
		return
	}
	if err := s.lti.SetScore(c.Request.Context(), class.ID, score); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, l.T("lti.grade.set_"+score))
}
