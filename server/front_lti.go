package server

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/lti"
	"pigclass/server/store"
	"pigclass/templates"
	"pigclass/templates/paths"
)

// registerKeyOK reports whether the request's registration address holds
// the key; a wrong one is the 404 of any address that is not there.
func (s *Server) registerKeyOK(c *gin.Context) bool {
	if subtle.ConstantTimeCompare([]byte(c.Param("key")), []byte(LTIRegisterKey(s.cfg.Key))) == 1 {
		return true
	}
	refuse(c, http.StatusNotFound, loc(c).T("error.nopage"))
	return false
}

// ltiRegisterPage is what a platform opens to register pigclass (LTI
// Dynamic Registration 3.3): its configuration's address and a
// registration token in the query. It reads the configuration and asks
// the administrator to confirm.
func (s *Server) ltiRegisterPage(c *gin.Context) {
	if !s.registerKeyOK(c) {
		return
	}
	v := templates.LTIRegister{Key: c.Param("key"), ConfigURL: c.Query("openid_configuration"), Token: c.Query("registration_token")}
	if v.ConfigURL == "" {
		s.ltiAdminPage(c, v)
		return
	}
	framedBy(c, v.ConfigURL)
	cfg, err := lti.ReadConfig(c.Request.Context(), s.lti.Client, v.ConfigURL)
	if err != nil {
		v.Error = loc(c).T("lti.register.unreadable", "Why", err.Error())
		render(c, http.StatusBadGateway, templates.LTIRegisterView(v))
		return
	}
	v.Issuer = cfg.Issuer
	render(c, http.StatusOK, templates.LTIRegisterView(v))
}

// framedBy lets the platform whose configuration is at configURL show
// the registration page in a frame of its own page (as Canvas and Moodle
// do), though it is not registered yet.
func framedBy(c *gin.Context, configURL string) {
	u, err := url.Parse(configURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return
	}
	setSecurityHeaders(c.Writer.Header(), "'self' "+u.Scheme+"://"+u.Host)
}

// ltiAdminPage is the registration address opened by the administrator
// (not by a platform): the addresses to give a platform and the
// platforms registered.
func (s *Server) ltiAdminPage(c *gin.Context, v templates.LTIRegister) {
	ps, err := s.lti.List(c.Request.Context(), "")
	if err != nil {
		fail(c, err)
		return
	}
	tool := s.ltiTool(c.Request)
	v.Admin = &templates.LTIAdmin{Register: s.publicURL(c.Request) + paths.LTIRegister.WithKey(v.Key), Login: tool.LoginURL, Launch: tool.LaunchURL, Keys: tool.KeysURL}
	for _, p := range ps {
		v.Admin.Platforms = append(v.Admin.Platforms, templates.LTIPlatform{Issuer: p.Issuer, ClientID: p.ClientID, Deployments: strings.Join(p.Deployments, ", ")})
	}
	render(c, http.StatusOK, templates.LTIRegisterView(v))
}

// ltiRegister registers pigclass with the platform (Dynamic Registration
// 3.5) and keeps it, then tells the platform's window it may close.
func (s *Server) ltiRegister(c *gin.Context) {
	if !s.registerKeyOK(c) {
		return
	}
	ctx := c.Request.Context()
	v := templates.LTIRegister{Key: c.Param("key"), ConfigURL: c.PostForm("openid_configuration"), Token: c.PostForm("registration_token")}
	framedBy(c, v.ConfigURL)
	cfg, err := lti.ReadConfig(ctx, s.lti.Client, v.ConfigURL)
	var p lti.Platform
	if err == nil {
		v.Issuer = cfg.Issuer
		p, err = lti.Register(ctx, s.lti.Client, cfg, v.Token, s.ltiTool(c.Request))
	}
	if err != nil {
		v.Error = loc(c).T("lti.register.unreadable", "Why", err.Error())
		render(c, http.StatusBadGateway, templates.LTIRegisterView(v))
		return
	}
	if err := s.lti.Save(ctx, p); err != nil {
		fail(c, err)
		return
	}
	s.log.Info("lti: registered with a platform", "issuer", p.Issuer, "client_id", p.ClientID, "deployments", len(p.Deployments))
	v.ClientID, v.Done = p.ClientID, true
	render(c, http.StatusOK, templates.LTIRegisterView(v))
}

// ltiStateCookie holds a login's state until its launch comes back.
const ltiStateCookie = "pigclass_lti_state"

// ltiNonce is the nonce of the login whose state is state: derived, so
// that the launch checks it without keeping it.
func (s *Server) ltiNonce(state string) string {
	return derived(s.cfg.Key, "pigclass-lti-nonce-v1", state)
}

// ltiLogin is the OIDC third-party login initiation (LTI Core 5.1.1,
// Security Framework 5.1.1.1): the platform names itself, pigclass sends
// the browser back to it with an authentication request, and a state
// this browser keeps.
func (s *Server) ltiLogin(c *gin.Context) {
	c.Request.ParseForm()
	form := c.Request.Form
	p, err := s.platformFor(c, form.Get("iss"), form.Get("client_id"))
	if err != nil {
		return
	}
	if d := form.Get("lti_deployment_id"); d != "" && !slices.Contains(p.Deployments, d) {
		s.refuseLaunch(c, http.StatusForbidden, string(lti.WrongDeployment))
		return
	}
	state := newToken()
	setFrameCookie(c, ltiStateCookie, state, 600)
	next := lti.LoginRedirect(p, s.ltiTool(c.Request), form.Get("login_hint"), form.Get("lti_message_hint"), state, s.ltiNonce(state))
	if target := form.Get("lti_storage_target"); target != "" {
		s.storeStatePage(c, p, state, target, next)
		return
	}
	c.Redirect(http.StatusFound, next)
}

// platformFor is the registered platform of the issuer (with client id
// clientID, if given), or a refusal already answered.
func (s *Server) platformFor(c *gin.Context, issuer, clientID string) (lti.Platform, error) {
	ps, err := s.lti.List(c.Request.Context(), issuer)
	if err != nil {
		fail(c, err)
		return lti.Platform{}, err
	}
	var found []lti.Platform
	for _, p := range ps {
		if issuer != "" && (clientID == "" || p.ClientID == clientID) {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		s.refuseLaunch(c, http.StatusForbidden, "platform")
		return lti.Platform{}, errors.New("lti: no platform")
	}
	return found[0], nil
}

// ltiLaunch is the platform's post of a launch's id_token (LTI Core 5.1.2,
// 5.3): checked (lti.Keys.Verify), its nonce used once, then the class
// the resource link opens (made on its first launch), where an instructor
// gets the dashboard and a learner their seat under their own name.
func (s *Server) ltiLaunch(c *gin.Context) {
	state, token := c.PostForm("state"), c.PostForm("id_token")
	kept, err := c.Cookie(ltiStateCookie)
	if err != nil || state == "" || subtle.ConstantTimeCompare([]byte(kept), []byte(state)) != 1 {
		if target := c.PostForm("lti_storage_target"); target != "" && state != "" {
			// No cookie came back (a browser that keeps none in a frame
			// of another site): the platform's storage may hold the state.
			s.storedStatePage(c, token, state, target)
			return
		}
		s.refuseLaunch(c, http.StatusBadRequest, "state")
		return
	}
	s.launch(c, token, state, false)
}

// ltiLaunchStored is the launch posted again by pigclass's own page once
// the platform's storage held its state (the cross-origin check refuses
// it from any other site's page).
func (s *Server) ltiLaunchStored(c *gin.Context) {
	state, token := c.PostForm("state"), c.PostForm("id_token")
	if state == "" {
		s.refuseLaunch(c, http.StatusBadRequest, "state")
		return
	}
	s.launch(c, token, state, true)
}

// launch checks a launch's id_token, whose login's state this browser
// showed (its cookie, or the platform's storage: stored), and opens what
// it asks.
func (s *Server) launch(c *gin.Context, token, state string, stored bool) {
	ctx := c.Request.Context()
	p, err := s.tokenPlatform(c, token)
	if err != nil {
		return
	}
	claims, err := s.lti.Keys.Verify(ctx, p, token, s.ltiNonce(state))
	var no *lti.Refusal
	switch {
	case errors.As(err, &no):
		s.log.Info("lti: launch refused", "issuer", p.Issuer, "why", no.Error())
		s.refuseLaunch(c, http.StatusForbidden, string(no.Reason))
		return
	case err != nil:
		fail(c, err)
		return
	}
	if !s.usedOnce(c, claims.Nonce, time.Unix(claims.Expires, 0).Add(time.Minute), string(lti.WrongNonce)) {
		return
	}
	setFrameCookie(c, ltiStateCookie, "", -1)
	// The launch's answer is framed by its platform alone, with the
	// origins its signed claims name; never a header's (issue 79).
	s.lti.Launched(p, claims)
	setSecurityHeaders(c.Writer.Header(), s.lti.PlatformFrames(p))
	if claims.MessageType == lti.DeepLinkingRequest {
		s.deepLinkPage(c, p, claims, stored)
		return
	}
	s.launchInto(c, p, claims, stored)
}

// launchInto opens the class of a checked launch's resource link.
func (s *Server) launchInto(c *gin.Context, p lti.Platform, claims lti.Claims, stored bool) {
	if !claims.Teaches() && !claims.Learns() {
		s.refuseLaunch(c, http.StatusForbidden, "role")
		return
	}
	link := store.Link{Issuer: p.Issuer, ClientID: p.ClientID, Deployment: claims.DeploymentID, Context: claims.Context.ID, ResourceLink: claims.ResourceLink.ID}
	class, err := s.linkedClass(c, link, claims)
	var other *otherCourse
	switch {
	case errors.As(err, &other):
		s.refuseLaunch(c, http.StatusForbidden, "course")
		return
	case err != nil:
		fail(c, err)
		return
	}
	if claims.Members.URL != "" || claims.Grades.LineItem != "" {
		if err := s.lti.SetServices(c.Request.Context(), class.ID, claims.Members.URL, claims.Grades.LineItem); err != nil {
			fail(c, err)
			return
		}
	}
	if claims.Teaches() {
		if link.Members = claims.Members.URL; link.Members != "" {
			// The course's learners, seated before they come: a learner
			// who never launched shows as not started.
			if n, err := s.fillRoster(c.Request.Context(), p, link, class); err != nil {
				s.log.Warn("lti: the course's roster", "issuer", p.Issuer, "err", err)
			} else if n > 0 {
				s.log.Info("lti: learners seated from the course's roster", "code", class.Code, "added", n)
			}
		}
		s.enterFrom(c, stored, teacherPrefix+class.Code, s.ltiTeacherSecret(link), paths.Teacher.For(class.Code))
		return
	}
	// A learner the course's roster does not list as Active is refused,
	// before anything is stored (issue 79).
	link, err = s.lti.ClassLink(c.Request.Context(), class.ID)
	if err != nil {
		fail(c, err)
		return
	}
	switch listed, err := s.lti.Listed(c.Request.Context(), p, link, claims.Subject); {
	case err != nil:
		fail(c, err)
		return
	case !listed:
		s.log.Info("lti: a learner the course's roster does not list", "issuer", p.Issuer, "code", class.Code)
		s.refuseLaunch(c, http.StatusForbidden, "not_listed")
		return
	}
	old, _ := c.Cookie(playerCookie)
	if len(old) != 64 {
		old = ""
	}
	token := newToken()
	_, err = s.room.Member(c.Request.Context(), class.ID, claims.Subject, claims.FullName(), hashOf(old), classroom.HashToken(token))
	switch {
	case errors.Is(err, classroom.ErrRemoved):
		s.refuseLaunch(c, http.StatusForbidden, "removed")
		return
	case err != nil:
		fail(c, err)
		return
	}
	s.enterFrom(c, stored, playerCookie, token, paths.Student.For(class.Code))
}

// otherCourse: the resource link opens a class of another course.
type otherCourse struct{ link store.Link }

func (o *otherCourse) Error() string { return "lti: the resource link opens a class of another course" }

// linkedClass is the class the resource link opens: made on its first
// launch (its teacher's secret derived from the link: ltiTeacherSecret),
// with the lesson a custom parameter "lesson" names. A link whose class
// was made in another course is an *otherCourse.
func (s *Server) linkedClass(c *gin.Context, link store.Link, claims lti.Claims) (*classroom.Class, error) {
	ctx := c.Request.Context()
	s.lti.Making.Lock()
	defer s.lti.Making.Unlock()
	for range 2 {
		found, err := s.lti.LinkedClass(ctx, link)
		switch {
		case err == nil && found.Context != link.Context:
			return nil, &otherCourse{link: found}
		case err == nil:
			return s.room.ClassByID(ctx, found.ClassID)
		case !errors.Is(err, store.ErrNotFound):
			return nil, err
		}
		lesson, _ := s.views.checkLessonField(claims.Custom["lesson"])
		class, err := s.room.CreateClass(ctx, func() string { return newCode(s.cfg.Chance, s.cfg.CodePrefix) }, classroom.HashToken(s.ltiTeacherSecret(link)), lesson)
		if err != nil {
			return nil, err
		}
		link.ClassID = class.ID
		switch err := s.lti.LinkClass(ctx, link); {
		case errors.Is(err, store.ErrLinkTaken):
			// Another instance of a district made the link's class first:
			// it is found again, and this one, empty and linked to
			// nothing, goes with the abandoned classes (--retain).
			s.log.Warn("lti: two instances made a resource link's class at once", "issuer", link.Issuer, "unused", class.Code)
			continue
		case err != nil:
			return nil, err
		}
		if err := s.room.Linked(ctx, class.ID); err != nil {
			return nil, err
		}
		if s.district != nil {
			if err := s.district.ServeClass(ctx, class.ID); err != nil {
				return nil, err
			}
		}
		if err := s.linkHomework(c, class, link, claims.Custom); err != nil {
			return nil, err
		}
		s.log.Info("lti: a resource link's class made", "issuer", link.Issuer, "code", class.Code)
		return class, nil
	}
	return nil, errors.New("lti: the resource link's class was made and lost twice")
}

// ltiKeys publishes pigclass's public keys (JWKS), making its first key
// if it has none.
func (s *Server) ltiKeys(c *gin.Context) {
	keys, err := s.lti.ToolKeys(c.Request.Context())
	if err != nil {
		fail(c, err)
		return
	}
	b, err := lti.JWKS(keys)
	if err != nil {
		fail(c, err)
		return
	}
	c.Header("Cache-Control", "max-age=300")
	c.Data(http.StatusOK, "application/json", b)
}

// linkHomework sets the homework a deep link chose (its custom
// parameters homework_game, _target, _bot and _games) in the class the
// link made, due a week later; a link with none sets none, and one that
// no longer reads (a game since renamed) is logged and set none.
func (s *Server) linkHomework(c *gin.Context, class *classroom.Class, link store.Link, custom map[string]string) error {
	if custom["homework_game"] == "" {
		return nil
	}
	spec, err := homeworkSpec(loc(c), custom["homework_game"], custom["homework_target"], custom["homework_bot"], custom["homework_games"], s.cfg.Now())
	if err != nil {
		s.log.Warn("lti: a link's homework does not read", "code", class.Code, "err", err)
		return nil
	}
	teacher, err := s.room.Identify(c.Request.Context(), classroom.Credentials{Code: class.Code, TeacherSecret: s.ltiTeacherSecret(link)})
	if err != nil {
		return err
	}
	_, err = s.room.SetHomework(c.Request.Context(), teacher, spec)
	return err
}
