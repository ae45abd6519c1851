package server

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/sim"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// skunkBack is where the teacher's Skunk controls return: the projector
// they were pressed on, or the dashboard.
func skunkBack(c *gin.Context, code string) string {
	if c.PostForm("back") == "projector" {
		return paths.TeacherProjector.Page.For(code)
	}
	return paths.Teacher.For(code)
}

// skunkPoll is a Skunk board's poll address, with the version it shows.
func skunkPoll(path string, k *classroom.Skunk, class *classroom.Class) string {
	return fmt.Sprintf("%s?v=%d.%d", path, k.Version, class.Version)
}

// unchanged answers 204 when a Skunk poll's ?v= is the version now.
func unchanged(c *gin.Context, k *classroom.Skunk, class *classroom.Class) bool {
	if v := c.Query("v"); v != "" && v == fmt.Sprintf("%d.%d", k.Version, class.Version) {
		c.Status(http.StatusNoContent)
		return true
	}
	return false
}

// skunkBoard is the board for a viewer: studentID for a student's own
// view, teacher for the roll button; shared screens get generated names in
// anonymous mode. poll is the address the board polls.
func (w *views) skunkBoard(l *i18n.Localizer, class *classroom.Class, k *classroom.Skunk, studentID int64, teacher bool, poll string) templates.SkunkBoard {
	names := k.Game.Names
	if class.Anonymous && !teacher {
		names = make([]string, len(k.Game.Anon))
		for i, n := range k.Game.Anon {
			names[i] = anonIn(l, n)
		}
	}
	v := templates.SkunkBoard{Code: class.Code, Round: min(k.Round+1, k.Rounds), Rounds: k.Rounds, RoundTotal: k.RoundTotal,
		Over: k.Over, Rolls: k.Rolls, Moment: k.Moment, Teacher: teacher, PollURL: skunkPoll(poll, k, class)}
	letters := strings.Repeat(sim.SkunkLetters, (k.Rounds+4)/5)
	for r := range k.Rounds {
		v.Letters = append(v.Letters, templates.SkunkLetter{Char: letters[r : r+1], Done: r < k.Round})
	}
	if k.HasRoll {
		v.LastFaces = k.LastRoll.Ints()
		v.Announce = skunkAnnounce(l, k.LastRoll)
	}
	for p, standing := range k.Standing {
		if k.Left[p] {
			continue // removed from the class: out of the game, on every screen
		}
		if standing {
			v.Standing = append(v.Standing, names[p])
		} else {
			v.Sitting++
		}
		if k.Game.Students[p] == studentID {
			v.You = &templates.SkunkYou{Standing: standing, Score: k.Scores[p], SitURL: paths.SkunkSit.For(class.Code)}
		}
	}
	var order []int // those still in the game: one who left is on no list
	for p := range k.Scores {
		if !k.Left[p] {
			order = append(order, p)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return k.Scores[order[a]] > k.Scores[order[b]] })
	for _, p := range order[:min(5, len(order))] {
		v.Leaders = append(v.Leaders, templates.SkunkScore{Name: names[p], Score: k.Scores[p]})
	}
	if k.Over || k.Ended {
		v.RecordURL = paths.SkunkRecord.With(class.Code, k.Game.ID)
	}
	if k.Over && len(k.Winners) > 0 {
		var w []string
		for _, p := range k.Winners {
			w = append(w, "\u2068"+names[p]+"\u2069") // isolated in the sentence (FSI ... PDI)
		}
		v.Winners = l.N("skunk.winners", len(w), "Names", strings.Join(w, ", "), "Points", l.Int(k.Scores[k.Winners[0]]))
		if k.Scores[k.Winners[0]] == 0 {
			v.Winners = l.T("skunk.noscore") // ended before anyone banked a point
		}
		if k.Ended {
			v.Winners = l.T("skunk.final") + " " + v.Winners
		}
		v.Leaders = nil
		for _, p := range order {
			v.Leaders = append(v.Leaders, templates.SkunkScore{Name: names[p], Score: k.Scores[p]})
		}
	}
	return v
}

// skunkAnnounce tells a roll in words.
func skunkAnnounce(l *i18n.Localizer, f sim.Faces) string {
	faces := f.String()
	switch {
	case faces == "1 1":
		return l.T("skunk.double")
	case f.Ones() > 0:
		return l.T("skunk.single", "Faces", faces)
	}
	return l.T("skunk.rolled", "Faces", faces)
}
