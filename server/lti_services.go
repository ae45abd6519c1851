package server

import (
	"cmp"
	"net/http"

	"github.com/gin-gonic/gin"

	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"pigclass/server/classroom"
	"pigclass/server/lti"
	"pigclass/server/store"
	"pigclass/templates/i18n"
)

// The platforms' services pigclass uses for a linked class: the course's
// roster (NRPS) fills the class, and each learner's score goes to the
// link's gradebook line item (AGS).

// signingKey is the key pigclass signs with now (its newest published).
func (s *Server) signingKey(ctx context.Context) (lti.ToolKey, error) {
	keys, err := s.toolKeys(ctx)
	if err != nil {
		return lti.ToolKey{}, err
	}
	return keys[0], nil
}

// fillRoster seats the course's learners the class does not hold yet, as
// students who have not started, and removes from the class those the
// platform says left the course. It returns how many it added.
func (s *Server) fillRoster(ctx context.Context, p lti.Platform, link store.Link, class *classroom.Class) (int, error) {
	key, err := s.signingKey(ctx)
	if err != nil {
		return 0, err
	}
	token, err := s.lti.tokens.Token(ctx, p, key, lti.ScopeMembers)
	if err != nil {
		return 0, err
	}
	members, err := lti.Members(ctx, s.lti.client, link.Members, token)
	if err != nil {
		return 0, err
	}
	var fresh []classroom.Newcomer
	left := map[string]bool{}
	for _, m := range members {
		switch {
		case !m.Learner():
		case m.Active():
			fresh = append(fresh, classroom.Newcomer{User: m.UserID, Name: m.FullName()})
		default:
			left[m.UserID] = true
		}
	}
	added, err := s.room.AddCourseMembers(ctx, class.ID, fresh)
	if err != nil || len(left) == 0 {
		return len(added), err
	}
	held, err := s.lti.st.Members(ctx, class.ID)
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

// scoresEvery is how often the scores that changed are sent.
const scoresEvery = time.Minute

// sendScoresLoop sends the scores that changed every scoresEvery, until
// stop is closed.
func (s *Server) sendScoresLoop(stop <-chan struct{}) {
	t := time.NewTicker(scoresEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if _, err := s.sendScores(context.Background()); err != nil {
				s.log.Error("lti: scores", "err", err)
			}
		}
	}
}

// retryAfter is how long a score that could not be sent waits before it
// is tried again: a minute, doubled after each failure, at most six hours.
func retryAfter(failures int) time.Duration {
	return min(time.Minute<<min(failures-1, 10), 6*time.Hour)
}

// sendScores sends each linked class's learners' scores that changed
// since they were last sent to the link's line item: once a value, a
// failure tried again after retryAfter. On a district, an instance sends
// the scores of the classes it serves. It returns how many it sent.
func (s *Server) sendScores(ctx context.Context) (int, error) {
	links, err := s.lti.st.GradedLinks(ctx)
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, link := range links {
		if s.district != nil && !s.district.Serves(link.ClassID) {
			continue
		}
		n, err := s.sendLinkScores(ctx, link)
		sent += n
		if err != nil {
			errs = append(errs, fmt.Errorf("class %d: %w", link.ClassID, err))
		}
	}
	return sent, errors.Join(errs...)
}

// sendLinkScores sends one link's class's scores that changed.
func (s *Server) sendLinkScores(ctx context.Context, link store.Link) (int, error) {
	p, err := s.linkPlatform(ctx, link)
	if err != nil {
		return 0, err
	}
	scores, err := s.linkScores(ctx, link, p)
	if err != nil || len(scores) == 0 {
		return 0, err
	}
	before, err := s.lti.st.ScoresSent(ctx, link.ClassID)
	if err != nil {
		return 0, err
	}
	now := s.cfg.Now()
	token, sent := "", 0
	for id, sc := range scores {
		value := fmt.Sprintf("%g/%g %s", sc.ScoreGiven, sc.ScoreMaximum, sc.ActivityProgress)
		was := before[id]
		if was.Sent == value || (was.Failures > 0 && now.Before(was.RetryAt)) {
			continue
		}
		if token == "" {
			key, err := s.signingKey(ctx)
			if err != nil {
				return sent, err
			}
			if token, err = s.lti.tokens.Token(ctx, p, key, lti.ScopeScore); err != nil {
				return sent, err
			}
		}
		sc.Timestamp = now.UTC().Format(time.RFC3339Nano)
		next := store.ScoreSent{Sent: value}
		if err := lti.SendScore(ctx, s.lti.client, link.LineItem, token, sc); err != nil {
			s.log.Warn("lti: a score was not sent", "class", link.ClassID, "err", err)
			next = store.ScoreSent{Sent: was.Sent, Failures: was.Failures + 1}
			next.RetryAt = now.Add(retryAfter(next.Failures))
		} else {
			sent++
		}
		if err := s.lti.st.SentScore(ctx, link.ClassID, id, next); err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// linkPlatform is the registered platform of a link.
func (s *Server) linkPlatform(ctx context.Context, link store.Link) (lti.Platform, error) {
	ps, err := s.lti.st.Platforms(ctx, link.Issuer)
	if err != nil {
		return lti.Platform{}, err
	}
	for _, p := range ps {
		if p.ClientID == link.ClientID {
			return p, nil
		}
	}
	return lti.Platform{}, fmt.Errorf("lti: %s (client id %s) is registered no more", link.Issuer, link.ClientID)
}

// linkScores are the scores of a linked class's learners who came from
// the platform, by student, once they played: for a class with homework
// (the link's, made by deep linking), the games of it played of the games
// it asks; else what its teacher chose (unitScores). The comment says
// which, in the class's language.
func (s *Server) linkScores(ctx context.Context, link store.Link, p lti.Platform) (map[int64]lti.Score, error) {
	st := s.lti.st
	class, err := st.ClassByID(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	members, err := st.Members(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	l := i18n.For(cmp.Or(class.Language, "en"))
	as, err := st.Assignments(ctx, link.ClassID)
	if err != nil || len(as) == 0 {
		if err != nil {
			return nil, err
		}
		return s.unitScores(ctx, link, p, members, l)
	}
	hw := as[0]
	done, err := st.Homework(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	played := map[int64]int{}
	for _, d := range done {
		if d.AssignmentID == hw.ID {
			played[d.StudentID] = d.Done
		}
	}
	out := map[int64]lti.Score{}
	for id, user := range members {
		if n := min(played[id], hw.Games); n > 0 {
			out[id] = score(user, float64(n), float64(hw.Games), n == hw.Games, l.T("lti.score.homework", "Done", l.Int(n), "Games", l.Int(hw.Games)))
		}
	}
	return out, nil
}

// unitScores are the scores of a class without homework, as its teacher
// chose: the quality of each learner's decisions, 100 minus the chance to
// win a game they gave away on average in percentage points (the
// cost_per_game_pct of students.csv); or the games they played, out of the
// line item's maximum.
func (s *Server) unitScores(ctx context.Context, link store.Link, p lti.Platform, members map[int64]string, l *i18n.Localizer) (map[int64]lti.Score, error) {
	stats, _, err := s.lti.st.ClassStats(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	most := 100.0
	if link.Score == store.ScoreGames {
		if most, err = s.lineItemMax(ctx, link, p); err != nil {
			return nil, err
		}
	}
	out := map[int64]lti.Score{}
	for id, user := range members {
		x := stats[id]
		switch {
		case x.Games == 0:
		case link.Score == store.ScoreGames:
			out[id] = score(user, min(float64(x.Games), most), most, false, l.N("lti.score.games", x.Games, "Games", l.Int(x.Games)))
		default:
			perGame := 100 * x.Cost / float64(x.Games)
			quality := math.Round(max(0, 100-perGame)*100) / 100
			out[id] = score(user, quality, 100, false, l.N("lti.score.quality", x.Games, "Lost", l.Dec(perGame, 1), "Games", l.Int(x.Games)))
		}
	}
	return out, nil
}

// score is a learner's score, graded, in progress or completed.
func score(user string, given, most float64, completed bool, comment string) lti.Score {
	sc := lti.Score{UserID: user, ScoreGiven: given, ScoreMaximum: most, ActivityProgress: "InProgress", GradingProgress: "FullyGraded", Comment: comment}
	if completed {
		sc.ActivityProgress = "Completed"
	}
	return sc
}

// lineItemMax is the maximum score of a link's line item, as the platform
// says.
func (s *Server) lineItemMax(ctx context.Context, link store.Link, p lti.Platform) (float64, error) {
	key, err := s.signingKey(ctx)
	if err != nil {
		return 0, err
	}
	token, err := s.lti.tokens.Token(ctx, p, key, lti.ScopeItems)
	if err != nil {
		return 0, err
	}
	return lti.LineItemMax(ctx, s.lti.client, link.LineItem, token)
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
	if err := s.lti.st.SetLinkScore(c.Request.Context(), class.ID, score); err != nil {
		fail(c, err)
		return
	}
	done(c, class.Code, l.T("lti.grade.set_"+score))
}
