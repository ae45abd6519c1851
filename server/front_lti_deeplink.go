package server

import (
	"crypto/hmac"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"pigclass/server/classroom"
	"pigclass/server/lti"
	"pigclass/sim"
	"pigclass/sim/solve"
	"pigclass/templates"
	"pigclass/templates/i18n"
)

// Deep linking (LTI Deep Linking 2.0): an instructor adding pigclass to a
// course picks what the link opens (a lesson plan, a homework, or the
// class alone) and whether the gradebook gets a column for it; pigclass
// sends the platform the link, signed.

// deepLinkTicket is what the choosing page carries of the platform's
// request to the instructor's choice, signed with the server's key so
// that the post cannot change it: where to send the link, and the
// platform's data to send back with it.
type deepLinkTicket struct {
	Issuer     string `json:"iss"`
	ClientID   string `json:"client_id"`
	Deployment string `json:"deployment"`
	ReturnURL  string `json:"return"`
	Data       string `json:"data"`
	Expires    int64  `json:"exp"`
	// ID makes the ticket work once (a nonce used when the link is
	// sent); Browser is the hash of the deep-linking cookie given to the
	// instructor's browser that asked, "" where the launch came through
	// the platform's storage (a browser that keeps no cookie in a frame):
	// the ticket then works once, in whichever browser (issue 79).
	ID      string `json:"id"`
	Browser string `json:"browser,omitempty"`
}

// deepLinkCookie holds the instructor's side of a deep-linking ticket.
const deepLinkCookie = "pigclass_deeplink"

// deepLinkLife is how long the instructor has to choose.
const deepLinkLife = time.Hour

func (s *Server) ticketMAC(body string) string {
	return derived(s.cfg.Key, "pigclass-lti-deeplink-v1", body)
}

func (s *Server) sealTicket(t deepLinkTicket) string {
	b, _ := json.Marshal(t)
	body := base64.RawURLEncoding.EncodeToString(b)
	return body + "." + s.ticketMAC(body)
}

func (s *Server) openTicket(sealed string) (deepLinkTicket, bool) {
	var t deepLinkTicket
	body, mac, ok := strings.Cut(sealed, ".")
	if !ok || !hmac.Equal([]byte(mac), []byte(s.ticketMAC(body))) {
		return t, false
	}
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || json.Unmarshal(b, &t) != nil || s.cfg.Now().Unix() > t.Expires {
		return t, false
	}
	return t, true
}

// deepLinkPage answers a deep linking request: the instructor's choice.
func (s *Server) deepLinkPage(c *gin.Context, p lti.Platform, claims lti.Claims, stored bool) {
	if !claims.Teaches() {
		s.refuseLaunch(c, http.StatusForbidden, "role")
		return
	}
	t := deepLinkTicket{Issuer: p.Issuer, ClientID: p.ClientID, Deployment: claims.DeploymentID, ReturnURL: claims.DeepLinking.ReturnURL,
		Data: claims.DeepLinking.Data, Expires: s.cfg.Now().Add(deepLinkLife).Unix(), ID: newToken()}
	if !stored {
		mine := newToken()
		setFrameCookie(c, deepLinkCookie, mine, int(deepLinkLife.Seconds()))
		t.Browser = classroom.HashToken(mine)
	}
	v := templates.LTIDeepLink{Ticket: s.sealTicket(t), Kind: "lesson", Target: "100", Games: "5", Graded: true}
	render(c, http.StatusOK, templates.LTIDeepLinkView(s.deepLinkChoices(c, v, "", "pig", "hold:20")))
}

func (s *Server) deepLinkChoices(c *gin.Context, v templates.LTIDeepLink, lesson, game, bot string) templates.LTIDeepLink {
	l := loc(c)
	v.Lessons, v.GameChoices, v.Bots = s.views.lessonChoices(l, lesson)[1:], gameChoices(l, game), botChoices(l, bot)
	return v
}

// deepLink sends the platform the link the instructor chose, signed
// (Deep Linking 2.0, 4.5): the browser posts it to the platform.
func (s *Server) deepLink(c *gin.Context) {
	l := loc(c)
	t, ok := s.openTicket(c.PostForm("ticket"))
	if ok && t.Browser != "" {
		mine, err := c.Cookie(deepLinkCookie)
		ok = err == nil && hmac.Equal([]byte(classroom.HashToken(mine)), []byte(t.Browser))
	}
	if !ok {
		s.refuseLaunch(c, http.StatusForbidden, "ticket")
		return
	}
	v := templates.LTIDeepLink{Ticket: c.PostForm("ticket"), Kind: c.PostForm("kind"), Target: c.PostForm("target"), Games: c.PostForm("games"), Graded: c.PostForm("graded") == "on"}
	item, err := s.contentItem(l, c.Request, v, c.PostForm("lesson"), c.PostForm("game"), c.PostForm("bot"))
	if err != nil {
		v.Error = err.Error()
		render(c, http.StatusUnprocessableEntity, templates.LTIDeepLinkView(s.deepLinkChoices(c, v, c.PostForm("lesson"), c.PostForm("game"), c.PostForm("bot"))))
		return
	}
	if !s.usedOnce(c, "deeplink:"+t.ID, time.Unix(t.Expires, 0).Add(time.Minute), "ticket") {
		return // the ticket's link was sent already
	}
	setFrameCookie(c, deepLinkCookie, "", -1)
	key, err := s.lti.SigningKey(c.Request.Context())
	if err != nil {
		fail(c, err)
		return
	}
	now := s.cfg.Now()
	claims := map[string]any{
		"iss": t.ClientID, "aud": t.Issuer, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "nonce": newToken(),
		lti.ClaimDeployment: t.Deployment, lti.ClaimMessageType: lti.DeepLinkingResponse, lti.ClaimVersion: lti.Version,
		"https://purl.imsglobal.org/spec/lti-dl/claim/content_items": []any{item},
	}
	if t.Data != "" {
		claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] = t.Data
	}
	jwt, err := lti.Sign(key, claims)
	if err != nil {
		fail(c, err)
		return
	}
	render(c, http.StatusOK, templates.LTIDeepLinkReturnView(templates.LTIDeepLinkReturn{ReturnURL: t.ReturnURL, JWT: jwt, Title: item["title"].(string)}))
}

// contentItem is the link the instructor chose (a resource link to
// pigclass's launch, its custom parameters saying what it opens), with a
// gradebook line item if graded: a homework's games, or the decision
// quality out of 100. A bad field is an error that says what to fix.
func (s *Server) contentItem(l *i18n.Localizer, r *http.Request, v templates.LTIDeepLink, lesson, game, bot string) (map[string]any, error) {
	item := map[string]any{"type": "ltiResourceLink", "url": s.ltiTool(r).LaunchURL}
	custom := map[string]string{}
	maxScore := 100
	switch v.Kind {
	case "lesson":
		ls, ok := s.views.lesson(lesson)
		if !ok || lesson == "" {
			return nil, errors.New(l.T("lti.deeplink.lesson"))
		}
		custom["lesson"] = lesson
		item["title"] = ls.In(l.Lang()).Title
	case "homework":
		spec, err := homeworkSpec(l, game, v.Target, bot, v.Games, s.cfg.Now())
		if err != nil {
			return nil, err
		}
		custom["homework_game"], custom["homework_target"], custom["homework_bot"], custom["homework_games"] = game, v.Target, bot, v.Games
		item["title"] = homeworkTitle(l, spec.Variant, spec.Bot, spec.Games)
		maxScore = spec.Games
	case "class":
		item["title"] = l.T("lti.deeplink.class_title")
	default:
		return nil, errors.New(l.T("lti.deeplink.kind"))
	}
	if len(custom) > 0 {
		item["custom"] = custom
	}
	if v.Graded {
		item["lineItem"] = map[string]any{"scoreMaximum": maxScore, "label": item["title"]}
	}
	return item, nil
}

// homeworkSpec reads a homework's fields (the deep link's choice, or its
// custom parameters at launch): due a week from now.
func homeworkSpec(l *i18n.Localizer, game, target, bot, games string, now time.Time) (classroom.HomeworkSpec, error) {
	g, err := sim.ParseGame(game)
	if err != nil {
		return classroom.HomeworkSpec{}, errors.New(l.T("error.game", "Games", strings.Join(gameNamesIn(l), ", ")))
	}
	v := sim.Standard(g)
	n, err := strconv.Atoi(strings.TrimSpace(target))
	if err != nil || n < sim.MinTarget || n > solve.MaxTarget {
		return classroom.HomeworkSpec{}, errors.New(l.T("roundform.target", "Min", l.Int(sim.MinTarget), "Max", l.Int(solve.MaxTarget)))
	}
	v.Target, v.Seats = n, max(v.Seats, 2)
	if err := solve.CheckStrategy(bot, v); err != nil {
		return classroom.HomeworkSpec{}, errors.New(l.T("lti.deeplink.bot"))
	}
	k, err := strconv.Atoi(strings.TrimSpace(games))
	if err != nil || k < 1 || k > classroom.MaxHomeworkGames {
		return classroom.HomeworkSpec{}, errors.New(l.T("homework.error.games", "Max", l.Int(classroom.MaxHomeworkGames)))
	}
	return classroom.HomeworkSpec{Variant: v, Bot: bot, Games: k, Due: now.Add(7 * 24 * time.Hour)}, nil
}
