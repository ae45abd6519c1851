package server

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/store"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
	"pigclass/templates/paths"
)

// gameChoices are the games offered in forms.
func gameChoices(l *i18n.Localizer, selected string) []templates.Choice {
	var out []templates.Choice
	for _, g := range sim.Games {
		out = append(out, templates.Choice{Value: g.String(), Label: gameName(l, g), Selected: g.String() == selected})
	}
	return out
}

// botChoices are the bots offered in forms.
func botChoices(l *i18n.Localizer, selected string) []templates.Choice {
	return botChoicesHolding(l, selected, 20)
}

// botChoicesHolding is botChoices with the rule of thumb "hold at
// ruleOfThumb" (a game's own) in place of hold at 20.
func botChoicesHolding(l *i18n.Localizer, selected string, ruleOfThumb int) []templates.Choice {
	var out []templates.Choice
	for _, b := range sim.BotMenu(ruleOfThumb) {
		label := botLabel(l, b, ruleOfThumb)
		if strings.HasPrefix(b, "dice:") {
			label = l.T("bot.hog", "Bot", label)
		}
		out = append(out, templates.Choice{Value: b, Label: label, Selected: b == selected})
	}
	return out
}

func (s *Server) front(c *gin.Context) {
	l := loc(c)
	render(c, http.StatusOK, templates.FrontView(templates.Front{Games: gameChoices(l, "pig"), Bots: botChoices(l, "hold:20"), Lessons: s.lessonChoices(l),
		Notice: takeFlashAt(c, paths.Front.String())}))
}

// createClass starts a class in one step: a join code, a teacher secret
// (stored only as a hash) in a cookie, and the dashboard.
func (s *Server) createClass(c *gin.Context) {
	ctx := c.Request.Context()
	lesson, ok := s.checkLessonField(c.PostForm("lesson"))
	if !ok {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.lessonfield"))
		return
	}
	ip := clientKey(c)
	if !s.newClasses.allow(ip) {
		refuse(c, http.StatusTooManyRequests, loc(c).T("error.classes_rate", "N", loc(c).Int(classesPerMinute)))
		return
	}
	s.newClasses.hit(ip)
	secret := newToken()
	class, err := s.room.CreateClass(ctx, func() string { return newCode(s.cfg.CodePrefix) }, classroom.HashToken(secret), lesson)
	if err != nil {
		fail(c, err)
		return
	}
	setCookie(c, teacherPrefix+class.Code, secret, 365*24*3600)
	c.Redirect(http.StatusSeeOther, paths.Teacher.For(class.Code))
}

// joinPage is the join form; a browser already in the class goes straight
// to its page.
func (s *Server) joinPage(c *gin.Context) {
	code := normalizeCode(c.Param("code"))
	if validCode(code) {
		// A returning student of a class in memory goes to its page; no
		// class is read from disk for a code a stranger may have typed.
		if class, ok := s.room.InMemory(code); ok {
			if t, err := c.Cookie(playerCookie); err == nil {
				if _, ok := class.Student(classroom.HashToken(t)); ok {
					c.Redirect(http.StatusSeeOther, paths.Student.For(class.Code))
					return
				}
			}
		}
	}
	render(c, http.StatusOK, templates.JoinView(templates.Join{Code: templates.Field{Value: code}}))
}

// checkNickname reads a typed nickname (see classroom.Nickname) and says
// what is wrong with it, if anything.
func checkNickname(l *i18n.Localizer, raw string) (string, string) {
	n, err := classroom.Nickname(raw)
	if err != nil {
		var ne *classroom.NicknameError
		kind, count := "chars", 0
		if errors.As(err, &ne) {
			kind, count = ne.Kind, ne.Count
		}
		return strings.TrimSpace(raw), l.T("nickname."+kind, "Max", l.Int(classroom.MaxNickname), "N", l.Int(count))
	}
	return n, ""
}

// join adds a student to a class (POST /join/{code}). Every bad field
// comes back with a message naming it and what is allowed, and the form
// keeps what was typed.
func (s *Server) join(c *gin.Context) {
	ctx, l := c.Request.Context(), loc(c)
	v := templates.Join{Code: templates.Field{Value: c.PostForm("code")}, Nickname: templates.Field{Value: c.PostForm("nickname")},
		Rejoin: templates.Field{Value: strings.TrimSpace(c.PostForm("rejoin"))}}
	again := func(status int) { render(c, status, templates.JoinView(v)) }
	code := normalizeCode(v.Code.Value)
	if p := c.Param("code"); p != "" {
		code = normalizeCode(p)
		v.Code.Value = code
	} else if validCode(code) {
		// The form at /join goes on to /join/{code} (307 keeps the post),
		// so that a proxy routing by class code sends it to the class.
		c.Redirect(http.StatusTemporaryRedirect, paths.JoinCode.For(code))
		return
	}
	nick, problem := checkNickname(l, v.Nickname.Value)
	v.Nickname.Error = problem
	if !validCode(code) {
		v.Code.Error = l.T("joinerr.code", "Example", exampleCode)
		again(http.StatusUnprocessableEntity)
		return
	}
	ip := clientKey(c)
	if !s.joins.allow(ip) {
		v.Error = l.T("joinerr.guesses")
		again(http.StatusTooManyRequests)
		return
	}
	class, err := s.room.Class(ctx, code)
	if errors.Is(err, store.ErrNotFound) {
		s.joins.hit(ip)
		v.Code.Error = l.T("joinerr.noclass", "Code", code)
		again(http.StatusUnprocessableEntity)
		return
	}
	if err != nil {
		fail(c, err)
		return
	}
	classLanguage(c, class, false) // the code is right: the class's language
	l = loc(c)
	old := s.tokens.current(c, class.Code, nick)
	if _, ok := class.Student(hashOf(old)); ok {
		c.Redirect(http.StatusSeeOther, paths.Student.For(class.Code)) // this browser has joined already
		return
	}
	if class.WasRemoved(hashOf(old)) {
		v.Error = removedMessage(l, code)
		again(http.StatusForbidden)
		return
	}
	if v.Rejoin.Value != "" && problem == "" {
		s.rejoin(c, &v, class, nick, old, ip)
		return
	}
	s.joinNew(c, &v, class, nick, problem, old, ip)
}

// rejoin takes a student back to their own seat from another device: the
// nickname and the rejoin code from their class page. A wrong code counts
// as a guess; a removed student's own code says they were removed.
func (s *Server) rejoin(c *gin.Context, v *templates.Join, class *classroom.Class, nick, old, ip string) {
	ctx, l, code := c.Request.Context(), loc(c), class.Code
	again := func(status int) { render(c, status, templates.JoinView(*v)) }
	for _, st := range class.Students {
		if st.Nickname != nick {
			continue
		}
		if !sameRejoinCode(v.Rejoin.Value, s.rejoinCode(class.TeacherHash, st.TokenHash)) {
			break
		}
		token, err := s.tokens.fresh(c, s.room, old, class.Code, nick)
		if err != nil {
			fail(c, err)
			return
		}
		if err := s.room.Rejoin(ctx, class.ID, st.ID, classroom.HashToken(token)); err != nil {
			fail(c, err)
			return
		}
		c.Redirect(http.StatusSeeOther, paths.Student.For(class.Code))
		return
	}
	for _, st := range class.Removed {
		if st.Nickname == nick && sameRejoinCode(v.Rejoin.Value, s.rejoinCode(class.TeacherHash, st.TokenHash)) {
			v.Error = removedMessage(l, code)
			again(http.StatusForbidden)
			return
		}
	}
	s.joins.hit(ip)
	v.Rejoin.Error = l.T("joinerr.rejoin", "Name", nick, "Code", code)
	again(http.StatusUnprocessableEntity)
}

// joinNew adds a new student to the class, within its lock and its limits
// (the class's joins a minute, one device's).
func (s *Server) joinNew(c *gin.Context, v *templates.Join, class *classroom.Class, nick, problem, old, ip string) {
	ctx, l, code := c.Request.Context(), loc(c), class.Code
	again := func(status int) { render(c, status, templates.JoinView(*v)) }
	if class.Locked {
		v.Error = lockedMessage(l, code)
		again(http.StatusConflict)
		return
	}
	if problem != "" {
		again(http.StatusUnprocessableEntity)
		return
	}
	if !class.JoinsUnlimited && !s.classJoins.allow(class.Code) {
		v.Error = l.T("joinerr.cap", "Code", code, "N", l.Int(s.cfg.ClassJoins))
		again(http.StatusTooManyRequests)
		return
	}
	// This machine's own address (the teacher's laptop, a load test, a
	// proxy not named with --trusted-proxy) is not one device.
	device, oneDevice := class.Code+" "+ip, !isLoopback(ip)
	if oneDevice && !class.JoinsUnlimited && !s.deviceJoins.allow(device) {
		v.Error = l.T("joinerr.device", "Code", code)
		again(http.StatusTooManyRequests)
		return
	}
	token, err := s.tokens.fresh(c, s.room, old, class.Code, nick)
	if err != nil {
		fail(c, err)
		return
	}
	if _, err := s.room.Join(ctx, class.ID, nick, classroom.HashToken(token)); !s.joinRefused(c, v, nick, err) {
		s.classJoins.hit(class.Code)
		if oneDevice {
			s.deviceJoins.hit(device)
		}
		c.Redirect(http.StatusSeeOther, paths.Student.For(class.Code))
	}
}

// joinRefused answers a refused join with its message, and reports
// whether it was refused.
func (s *Server) joinRefused(c *gin.Context, v *templates.Join, nick string, err error) bool {
	l, code := loc(c), normalizeCode(v.Code.Value)
	again := func(status int) { render(c, status, templates.JoinView(*v)) }
	switch {
	case errors.Is(err, store.ErrNicknameTaken):
		v.Nickname.Error = l.T("nickname.taken", "Name", nick)
		again(http.StatusUnprocessableEntity)
	case errors.Is(err, classroom.ErrLooksTaken):
		v.Nickname.Error = l.T("nickname.looks", "Name", nick)
		again(http.StatusUnprocessableEntity)
	case errors.Is(err, classroom.ErrRemoved):
		v.Error = removedMessage(l, code)
		again(http.StatusForbidden)
	case errors.Is(err, classroom.ErrLocked):
		v.Error = lockedMessage(l, code)
		again(http.StatusConflict)
	case err != nil:
		fail(c, err)
	default:
		return false
	}
	return true
}

func removedMessage(l *i18n.Localizer, code string) string {
	return l.T("joinerr.removed", "Code", code)
}

func lockedMessage(l *i18n.Localizer, code string) string {
	return l.T("joinerr.locked", "Code", code)
}

// exampleCode shows the form of a join code.
const exampleCode = "K7RXM4"

// startPractice starts a match against a bot for anyone, without a class.
func (s *Server) startPractice(c *gin.Context) {
	ctx := c.Request.Context()
	g, err := sim.ParseGame(c.PostForm("game"))
	if err != nil {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.game", "Games", strings.Join(gameNamesIn(loc(c)), ", ")))
		return
	}
	v := sim.Standard(g)
	// The front page offers one list of bots for every game: a Pig bot
	// chosen for Hog, or a Hog bot for Pig, plays perfectly instead.
	bot := c.PostForm("bot")
	if otherGamesBot(g, bot) {
		bot = sim.PerfectBot
	}
	if err := solve.CheckStrategy(bot, v); err != nil {
		refuse(c, http.StatusUnprocessableEntity, loc(c).T("error.bot"))
		return
	}
	ip := clientKey(c)
	if !s.practices.allow(ip) {
		refuse(c, http.StatusTooManyRequests, loc(c).T("error.practice_rate"))
		return
	}
	s.practices.hit(ip)
	m, err := s.room.Practice(ctx, classroom.HashToken(playerToken(c)), v, bot)
	if err != nil {
		fail(c, err)
		return
	}
	// Practice started from a class's page keeps an eye on the class: its
	// page moves to the student's next match there by itself.
	to := paths.Match("", m.ID)
	if code := normalizeCode(c.PostForm("class")); validCode(code) {
		after, _ := strconv.ParseInt(c.PostForm("after"), 10, 64)
		to += "?" + url.Values{"class": {code}, "after": {strconv.FormatInt(max(after, 0), 10)}}.Encode()
	}
	c.Redirect(http.StatusSeeOther, to)
}

// otherGamesBot reports whether bot is a bot of another kind of game than
// g: one that rolls and holds for a game of one throw of chosen dice, or
// one that throws dice (or keeps pace) for a game of many rolls.
func otherGamesBot(g sim.Game, bot string) bool {
	holds := strings.HasPrefix(bot, "hold:") || bot == sim.KeepPaceBot
	switch {
	case g.ChoosesDice():
		return holds
	case bot == sim.KeepPaceBot:
		return !g.Rules().KeepPace
	}
	return strings.HasPrefix(bot, "dice:")
}

// gameNamesIn lists the games by name in the reader's language.
func gameNamesIn(l *i18n.Localizer) []string {
	var out []string
	for _, g := range sim.Games {
		out = append(out, gameName(l, g))
	}
	return out
}
