package server

import (
	"cmp"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"

	"pigclass/server/lti"
	"pigclass/templates/paths"
)

// platform is a learning platform written for the tests: the other side
// of LTI 1.3 and its dynamic registration, with its own keys.
type platform struct {
	t   *testing.T
	srv *httptest.Server

	mu         sync.Mutex
	keys       map[string]*rsa.PrivateKey // published, by kid
	registered map[string]any             // the registration pigclass sent
	regAuth    string                     // its Authorization header
	keyFetches int
	auth       url.Values // the last authentication request pigclass sent
	lastToken  string     // the last id_token posted

	toolKeys   string           // pigclass's JWKS address, which client assertions are checked against
	scopes     []string         // the scopes of the access tokens given
	members    []map[string]any // the course's members (NRPS)
	scores     []map[string]any // the scores received (AGS)
	failScores int              // how many score posts to refuse first
	scoresGone bool             // score posts get no answer: the connection closes
	deepLinked map[string]any   // the claims of the deep linking response received

	// autoLaunch, if set, makes the authorization endpoint answer as a
	// real platform does: the id_token with these claims, posted back at
	// once by the browser. course is the page /course shows.
	autoLaunch func(auth url.Values) map[string]any
	course     string
	// storage is the lti_storage_target the launch names, "" for none.
	storage string
	// origin is the Origin header a launch is posted with, "" for the
	// platform's own.
	origin string
}

const (
	platformClient     = "pigclass-at-the-platform"
	platformDeployment = "deployment-1"
	platformRegToken   = "registration-token-1"
)

func newPlatform(t *testing.T) *platform {
	p := &platform{t: t, keys: map[string]*rsa.PrivateKey{"platform-key-1": rsaKey(t)}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": p.srv.URL, "authorization_endpoint": p.srv.URL + "/auth", "token_endpoint": p.srv.URL + "/token",
			"jwks_uri": p.srv.URL + "/jwks", "registration_endpoint": p.srv.URL + "/register",
		})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.regAuth = r.Header.Get("Authorization")
		if p.regAuth != "Bearer "+platformRegToken {
			http.Error(w, `{"error":"invalid_token"}`, http.StatusUnauthorized)
			return
		}
		json.NewDecoder(r.Body).Decode(&p.registered)
		json.NewEncoder(w).Encode(map[string]any{"client_id": platformClient,
			"https://purl.imsglobal.org/spec/lti-tool-configuration": map[string]any{"deployment_id": platformDeployment}})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.keyFetches++
		set := jwk.NewSet()
		for kid, k := range p.keys {
			pub, err := jwk.Import(&k.PublicKey)
			if err != nil {
				t.Error(err)
			}
			pub.Set(jwk.KeyIDKey, kid)
			pub.Set(jwk.AlgorithmKey, jwa.RS256())
			set.AddKey(pub)
		}
		json.NewEncoder(w).Encode(set)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		claims, err := p.checkAssertion(r)
		if err != nil {
			t.Errorf("the platform's token endpoint: %v", err)
			http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
			return
		}
		p.mu.Lock()
		p.scopes = append(p.scopes, r.PostFormValue("scope"))
		n := len(p.scopes)
		p.mu.Unlock()
		_ = claims
		json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("access-%d", n), "token_type": "bearer", "expires_in": 3600})
	})
	mux.HandleFunc("GET /courses/course-1/members", func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer access-") {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		// Two pages: the Link header names the second.
		half := len(p.members) / 2
		page := p.members[:half]
		if r.URL.Query().Get("page") == "2" {
			page = p.members[half:]
		} else {
			w.Header().Set("Link", "<"+p.srv.URL+"/courses/course-1/members?page=2>; rel=\"next\"")
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "m", "members": page})
	})
	mux.HandleFunc("POST /lineitems/1/scores", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer access-") || r.Header.Get("Content-Type") != "application/vnd.ims.lis.v1.score+json" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		if p.scoresGone {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close() // no answer at all
			}
			return
		}
		if p.failScores > 0 {
			p.failScores--
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		var sc map[string]any
		json.NewDecoder(r.Body).Decode(&sc)
		p.scores = append(p.scores, sc)
	})
	mux.HandleFunc("GET /lineitems/1", func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer access-") {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": p.srv.URL + "/lineitems/1", "scoreMaximum": 10, "label": "pigclass"})
	})
	mux.HandleFunc("POST /deeplinks", func(w http.ResponseWriter, r *http.Request) {
		claims, err := p.verifyTool(r.PostFormValue("JWT"))
		if err != nil {
			t.Errorf("the deep linking response: %v", err)
		}
		p.mu.Lock()
		p.deepLinked = claims
		p.mu.Unlock()
		io.WriteString(w, "<html><body>added</body></html>")
	})
	// The authorization endpoint: a real platform posts the id_token
	// back at once; this one keeps the request, and the test posts.
	mux.HandleFunc("GET /auth", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.auth = r.URL.Query()
		auto := p.autoLaunch
		p.mu.Unlock()
		if auto == nil {
			io.WriteString(w, "<html><body>signed in</body></html>")
			return
		}
		auth := r.URL.Query()
		fmt.Fprintf(w, `<html><body><form method="post" action="%s"><input type="hidden" name="id_token" value="%s"><input type="hidden" name="state" value="%s"><input type="hidden" name="lti_storage_target" value="%s"></form><script>document.forms[0].submit()</script></body></html>`,
			html.EscapeString(auth.Get("redirect_uri")), p.sign("platform-key-1", auto(auth)), html.EscapeString(auth.Get("state")), html.EscapeString(p.storage))
	})
	mux.HandleFunc("GET /course", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, p.course) })
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// verifyTool checks a token pigclass signed against its published keys,
// and returns its claims.
func (p *platform) verifyTool(token string) (map[string]any, error) {
	res, err := http.Get(p.toolKeys)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	set, err := jwk.Parse(b)
	if err != nil {
		return nil, err
	}
	payload, err := jws.Verify([]byte(token), jws.WithKeySet(set, jws.WithRequireKid(true)))
	if err != nil {
		return nil, err
	}
	var claims map[string]any
	return claims, json.Unmarshal(payload, &claims)
}

// checkAssertion checks a token request's client assertion (RFC 7523):
// signed by pigclass, for its client id, to this token endpoint.
func (p *platform) checkAssertion(r *http.Request) (map[string]any, error) {
	if r.PostFormValue("grant_type") != "client_credentials" || r.PostFormValue("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		return nil, fmt.Errorf("a token request of %v", r.PostForm)
	}
	claims, err := p.verifyTool(r.PostFormValue("client_assertion"))
	if err != nil {
		return nil, err
	}
	if claims["iss"] != platformClient || claims["sub"] != platformClient || claims["aud"] != p.srv.URL+"/token" || claims["jti"] == "" {
		return nil, fmt.Errorf("a client assertion of %v", claims)
	}
	return claims, nil
}

func rsaKey(t *testing.T) *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// register registers the app with the platform, as its administrator
// would from the platform's page.
func (p *platform) register(a *app) {
	p.t.Helper()
	admin := a.browser()
	addr := paths.LTIRegister.WithKey(LTIRegisterKey(a.srv.cfg.Key)) + "?" + url.Values{
		"openid_configuration": {p.srv.URL + "/.well-known/openid-configuration"}, "registration_token": {platformRegToken}}.Encode()
	doc := admin.get(addr)
	if admin.status() != http.StatusOK || !strings.Contains(doc.Text(), p.srv.URL) {
		p.t.Fatalf("the registration page: %d %q", admin.status(), doc.Find("main").Text())
	}
	// The platform shows the page in a frame of its own, not registered yet.
	if csp := admin.last.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' "+p.srv.URL) {
		p.t.Errorf("the registration page cannot be framed by the platform: %s", csp)
	}
	form := url.Values{}
	doc.Find("[data-testid=lti-register] input").Each(func(_ int, s *goquery.Selection) { form.Set(s.AttrOr("name", ""), s.AttrOr("value", "")) })
	doc = admin.post(doc.Find("[data-testid=lti-register] form").AttrOr("action", ""), form)
	p.toolKeys = a.url + paths.LTIKeys.String()
	if admin.status() != http.StatusOK || doc.Find("[data-testid=lti-done][data-lti-close]").Length() != 1 {
		p.t.Fatalf("the registration: %d %q", admin.status(), doc.Find("[data-testid=lti-register]").Text())
	}
}

// launch is one user's launch from the platform: the login initiation
// through b, then the id_token with claims (the defaults of a resource
// link launch, changed by change), signed with the platform's key kid.
func (p *platform) launch(b *browser, kid string, change func(map[string]any)) *goquery.Document {
	p.t.Helper()
	b.get(paths.LTILogin.String() + "?" + url.Values{"iss": {p.srv.URL}, "login_hint": {"hint"}, "target_link_uri": {b.app.url + "/lti/launch"},
		"client_id": {platformClient}, "lti_deployment_id": {platformDeployment}}.Encode())
	p.mu.Lock()
	auth := p.auth
	p.mu.Unlock()
	if b.status() != http.StatusOK || auth.Get("redirect_uri") != b.app.url+paths.LTILaunch.String() || auth.Get("client_id") != platformClient ||
		auth.Get("response_mode") != "form_post" || auth.Get("scope") != "openid" || auth.Get("nonce") == "" || auth.Get("state") == "" {
		p.t.Fatalf("the login initiation sent the platform %d %v", b.status(), auth)
	}
	now := b.app.clock.now()
	claims := map[string]any{
		"iss": p.srv.URL, "aud": platformClient, "sub": "user-1", "exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(),
		"nonce": auth.Get("nonce"), "name": "Ana Souza",
		lti.ClaimMessageType: lti.ResourceLinkRequest, lti.ClaimVersion: lti.Version, lti.ClaimDeployment: platformDeployment,
		lti.ClaimResourceLink: map[string]any{"id": "link-1", "title": "Pig"},
		lti.ClaimContext:      map[string]any{"id": "course-1", "title": "Probability"},
		lti.ClaimRoles:        []string{lti.RoleLearner},
	}
	if change != nil {
		change(claims)
	}
	token := p.sign(kid, claims)
	p.lastToken = token
	return b.post(paths.LTILaunch.String(), url.Values{"id_token": {token}, "state": {auth.Get("state")}}, "Origin", cmp.Or(p.origin, p.srv.URL))
}

// graded makes a launch one of the resource link link-9, which has a
// gradebook column (its line item, with the scopes to post scores).
func (p *platform) graded(c map[string]any) {
	c[lti.ClaimResourceLink] = map[string]any{"id": "link-9"}
	c["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = map[string]any{"scope": []string{lti.ScopeScore, lti.ScopeItems}, "lineitem": p.srv.URL + "/lineitems/1"}
}

// sign signs claims with the platform's key kid, or with a key of no one's
// under that kid if the platform has none by it.
func (p *platform) sign(kid string, claims map[string]any) string {
	p.mu.Lock()
	key := p.keys[kid]
	p.mu.Unlock()
	if key == nil {
		key = rsaKey(p.t)
	}
	payload, _ := json.Marshal(claims)
	hdr := jws.NewHeaders()
	hdr.Set(jws.KeyIDKey, kid)
	token, err := jws.Sign(payload, jws.WithKey(jwa.RS256(), key, jws.WithProtectedHeaders(hdr)))
	if err != nil {
		p.t.Fatal(err)
	}
	return string(token)
}

func instructor(c map[string]any) {
	c["sub"], c["name"] = "teacher-1", "Ms Rivera"
	c[lti.ClaimRoles] = []string{lti.RoleInstructor}
}

// TestALearningPlatformRegistersAndLaunches: a platform registers
// pigclass dynamically; its instructor's launch makes the link's class
// and opens its dashboard; two learners (of one name) come in under their
// own names, without a code or a nickname; a learner's launch from
// another browser finds their seat.
func TestALearningPlatformRegistersAndLaunches(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	reg := p.registered
	tool := reg["https://purl.imsglobal.org/spec/lti-tool-configuration"].(map[string]any)
	if reg["initiate_login_uri"] != a.url+"/lti/login" || reg["jwks_uri"] != a.url+"/lti/jwks" ||
		reg["redirect_uris"].([]any)[0] != a.url+"/lti/launch" || tool["target_link_uri"] != a.url+"/lti/launch" ||
		reg["token_endpoint_auth_method"] != "private_key_jwt" {
		t.Errorf("pigclass registered itself as %v", reg)
	}
	if platforms, _ := a.store.Platforms(t.Context(), ""); len(platforms) != 1 || platforms[0].ClientID != platformClient ||
		len(platforms[0].Deployments) != 1 || platforms[0].Deployments[0] != platformDeployment || platforms[0].KeysURL != p.srv.URL+"/jwks" {
		t.Fatalf("the platforms kept: %+v", platforms)
	}

	// Opened by the administrator, the registration address says what to
	// give a platform and which platforms are registered.
	admin := a.browser()
	doc := admin.get(paths.LTIRegister.WithKey(LTIRegisterKey(a.srv.cfg.Key)))
	if addrs := doc.Find("[data-testid=lti-addresses] code").Text(); !strings.Contains(addrs, a.url+"/lti/login") || !strings.Contains(addrs, a.url+"/lti/jwks") ||
		!strings.Contains(addrs, a.url+paths.LTIRegister.WithKey(LTIRegisterKey(a.srv.cfg.Key))) {
		t.Errorf("the administrator's page gives the addresses %q", addrs)
	}
	if got := doc.Find("[data-testid=lti-platforms] li").Text(); got != p.srv.URL+": client id "+platformClient+", deployments "+platformDeployment {
		t.Errorf("the administrator's page lists the platforms %q", got)
	}

	// The registration address without its key is no page.
	stranger := a.browser()
	stranger.get(paths.LTIRegister.WithKey(strings.Repeat("0", 32)) + "?openid_configuration=" + url.QueryEscape(p.srv.URL+"/.well-known/openid-configuration"))
	if stranger.status() != http.StatusNotFound {
		t.Errorf("the registration address with a wrong key: %d", stranger.status())
	}

	teacher := a.browser()
	p.launch(teacher, "platform-key-1", instructor)
	code := strings.TrimPrefix(teacher.path(), "/t/")
	if teacher.status() != http.StatusOK || len(code) != CodeLength {
		t.Fatalf("the instructor's launch ended at %d %s", teacher.status(), teacher.path())
	}
	if csp := teacher.last.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' "+p.srv.URL) {
		t.Errorf("a platform's page cannot frame pigclass: %s", csp)
	}

	ana := a.browser()
	p.launch(ana, "platform-key-1", nil)
	if ana.status() != http.StatusOK || ana.path() != paths.Student.For(code) {
		t.Fatalf("the learner's launch ended at %d %s", ana.status(), ana.path())
	}
	other := a.browser()
	p.launch(other, "platform-key-1", func(c map[string]any) { c["sub"] = "user-2" })
	if other.path() != paths.Student.For(code) {
		t.Fatalf("the second learner's launch ended at %s", other.path())
	}
	// Ana again, on the classroom's computer: her seat, not a third.
	again := a.browser()
	p.launch(again, "platform-key-1", nil)
	students, err := a.store.Students(t.Context(), mustClassID(t, a, code))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, st := range students {
		names = append(names, st.Nickname)
	}
	if strings.Join(names, ", ") != "Ana Souza, Ana Souza 2" {
		t.Errorf("the class's students are %q, want Ana Souza and Ana Souza 2", names)
	}
	if st, err := a.store.MemberOf(t.Context(), students[0].ClassID, "user-1"); err != nil || st.ID != students[0].ID {
		t.Errorf("user-1 is student %d (%v), want %d", st.ID, err, students[0].ID)
	}
	if doc := teacher.get(paths.Teacher.For(code)); !strings.Contains(doc.Text(), "Ana Souza 2") {
		t.Errorf("the dashboard does not list the learners")
	}
	// A second platform, whose course has a link of the same id: its own
	// class.
	p2 := newPlatform(t)
	p2.register(a)
	other2 := a.browser()
	p2.launch(other2, "platform-key-1", instructor)
	if code2 := strings.TrimPrefix(other2.path(), "/t/"); len(code2) != CodeLength || code2 == code {
		t.Errorf("the second platform's link opened %s (the first's: %s)", other2.path(), code)
	}

	// pigclass's own key is published for the platform.
	teacher.get(paths.LTIKeys.String())
	set, err := jwk.Parse([]byte(teacher.body))
	if err != nil || set.Len() != 1 {
		t.Fatalf("pigclass's JWKS: %v %s", err, teacher.body)
	}
	if k, _ := set.Key(0); k.KeyType() != jwa.RSA() {
		t.Errorf("pigclass's key is %v", k.KeyType())
	}
}

func mustClassID(t *testing.T, a *app, code string) int64 {
	t.Helper()
	c, err := a.store.ClassByCode(t.Context(), code)
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// TestALaunchThatIsNotRightIsRefused: each launch wrong in one way is
// refused with a page that says so, and lets no one in.
func TestALaunchThatIsNotRightIsRefused(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	first := a.browser()
	p.launch(first, "platform-key-1", instructor)
	code := strings.TrimPrefix(first.path(), "/t/")
	cases := []struct {
		name   string
		kid    string
		change func(map[string]any)
		status int
		says   string
	}{
		{"a key the platform does not publish", "platform-key-9", nil, http.StatusForbidden, "does not publish"},
		{"a key not the platform's under its kid", "", nil, http.StatusForbidden, "not your learning platform's"},
		{"an expired token", "platform-key-1", func(c map[string]any) { c["exp"] = a.clock.now().Add(-2 * time.Minute).Unix() }, http.StatusForbidden, "expired"},
		{"a token for another tool", "platform-key-1", func(c map[string]any) { c["aud"] = "another-tool" }, http.StatusForbidden, "not registered"},
		{"another deployment", "platform-key-1", func(c map[string]any) { c[lti.ClaimDeployment] = "deployment-9" }, http.StatusForbidden, "deployment"},
		{"another nonce", "platform-key-1", func(c map[string]any) { c["nonce"] = "made-up" }, http.StatusForbidden, "used already"},
		{"a learner of another course", "platform-key-1", func(c map[string]any) {
			c[lti.ClaimContext] = map[string]any{"id": "course-2"}
		}, http.StatusForbidden, "another course"},
		{"a message pigclass does not take", "platform-key-1", func(c map[string]any) { c[lti.ClaimMessageType] = "LtiSubmissionReviewRequest" }, http.StatusForbidden, "resource link"},
		{"a deep link with nowhere to send it", "platform-key-1", func(c map[string]any) { instructor(c); c[lti.ClaimMessageType] = lti.DeepLinkingRequest }, http.StatusForbidden, "no course link"},
		{"a guest", "platform-key-1", func(c map[string]any) {
			c[lti.ClaimRoles] = []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"}
		}, http.StatusForbidden, "neither"},
	}
	// The platform's keys were fetched a moment ago: an unknown kid
	// fetches them again only after a while.
	a.clock.add(11 * time.Second)
	for _, tc := range cases {
		b := a.browser()
		kid := tc.kid
		if kid == "" {
			kid = "platform-key-1"
			p.mu.Lock()
			real := p.keys[kid]
			p.keys[kid] = rsaKey(t) // signed with a key the platform does not publish under it
			p.mu.Unlock()
			doc := p.launch(b, kid, tc.change)
			p.mu.Lock()
			p.keys[kid] = real
			p.mu.Unlock()
			checkRefused(t, tc.name, b, doc, tc.status, tc.says)
			continue
		}
		checkRefused(t, tc.name, b, p.launch(b, kid, tc.change), tc.status, tc.says)
	}
	// The same token again, with the state its login left: used once.
	b := a.browser()
	p.launch(b, "platform-key-1", nil)
	if b.path() != paths.Student.For(code) {
		t.Fatalf("a learner's launch ended at %s", b.path())
	}
	state := p.auth.Get("state")
	replay := a.browser()
	u, _ := url.Parse(a.url)
	replay.c.Jar.SetCookies(u, []*http.Cookie{{Name: ltiStateCookie, Value: state, Path: "/"}})
	doc := replay.post(paths.LTILaunch.String(), url.Values{"id_token": {p.lastToken}, "state": {state}}, "Origin", p.srv.URL)
	checkRefused(t, "a token posted again", replay, doc, http.StatusForbidden, "used already")
	// The platform rotates its key: a launch signed with the new one
	// fetches the keys again and is let in.
	p.mu.Lock()
	p.keys["platform-key-2"] = rsaKey(t)
	p.mu.Unlock()
	a.clock.add(11 * time.Second)
	rotated := a.browser()
	p.launch(rotated, "platform-key-2", func(c map[string]any) { c["sub"] = "user-2" })
	if rotated.path() != paths.Student.For(code) {
		t.Errorf("a launch signed with the platform's new key ended at %d %s", rotated.status(), rotated.path())
	}
	p.mu.Lock()
	fetches := p.keyFetches
	p.mu.Unlock()
	if fetches != 3 {
		t.Errorf("pigclass fetched the platform's keys %d times, want 3: once, once for the unknown kid, once for the new key", fetches)
	}
	// No state in the browser: a launch not started at pigclass's login.
	forged := a.browser()
	doc = forged.post(paths.LTILaunch.String(), url.Values{"id_token": {p.sign("platform-key-1", map[string]any{"iss": p.srv.URL})}, "state": {"x"}})
	checkRefused(t, "a launch with no login", forged, doc, http.StatusBadRequest, "did not start")
	// The launch posted again from the platform's storage page is taken
	// from pigclass's own page alone; a continuation link not sealed by
	// this server opens nothing.
	cross := a.browser()
	cross.post(paths.LTILaunchStored.String(), url.Values{"id_token": {p.lastToken}, "state": {state}}, "Sec-Fetch-Site", "cross-site", "Origin", p.srv.URL)
	if cross.status() != http.StatusForbidden {
		t.Errorf("the stored launch posted from another site: %d", cross.status())
	}
	doc = cross.get(paths.LTIContinue.WithKey("bm90LXNlYWxlZA"))
	checkRefused(t, "a made-up continuation", cross, doc, http.StatusForbidden, "used already or has expired")
	students, _ := a.store.Students(t.Context(), mustClassID(t, a, code))
	if len(students) != 2 {
		t.Errorf("the refused launches seated %d students, want the two let in", len(students))
	}
}

func checkRefused(t *testing.T, name string, b *browser, doc *goquery.Document, status int, says string) {
	t.Helper()
	if b.status() != status || !strings.Contains(doc.Find("[data-testid=error]").Text(), says) {
		t.Errorf("%s: %d %q, want %d saying %q", name, b.status(), strings.TrimSpace(doc.Find("[data-testid=error]").Text()), status, says)
	}
	if strings.HasPrefix(b.path(), "/t/") || strings.HasPrefix(b.path(), "/c/") {
		t.Errorf("%s: let in at %s", name, b.path())
	}
}

// TestADeepLinkedHomeworkIsGraded: an instructor adding pigclass picks a
// homework with a gradebook column (a bad number of games is refused,
// saying what to type); the platform gets the link, signed by pigclass;
// the link's first launch makes a class with that homework, seats the
// course's learners from its roster (one who left the course is not);
// a learner's launch takes their seat; each game they play sends their
// score to the line item once, a refused send tried again after a while.
func TestADeepLinkedHomeworkIsGraded(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	teacher := a.browser()
	page := p.launch(teacher, "platform-key-1", func(c map[string]any) {
		instructor(c)
		c[lti.ClaimMessageType] = lti.DeepLinkingRequest
		delete(c, lti.ClaimResourceLink)
		c["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"] = map[string]any{
			"deep_link_return_url": p.srv.URL + "/deeplinks", "accept_types": []string{"ltiResourceLink"}, "data": "opaque-42"}
	})
	ticket := page.Find(`[data-testid=lti-deeplink] input[name=ticket]`).AttrOr("value", "")
	if teacher.status() != http.StatusOK || ticket == "" {
		t.Fatalf("the deep linking request: %d %q", teacher.status(), page.Find("main").Text())
	}
	choice := url.Values{"ticket": {ticket}, "kind": {"homework"}, "game": {"pig"}, "target": {"30"}, "bot": {"hold:20"}, "games": {"0"}, "graded": {"on"}}
	if page = teacher.post(paths.LTIDeepLink.String(), choice); teacher.status() != http.StatusUnprocessableEntity ||
		page.Find("[data-testid=lti-error]").Text() != "A number of games from 1 to 20." {
		t.Errorf("0 games: %d %q", teacher.status(), page.Find("[data-testid=lti-error]").Text())
	}
	choice.Set("games", "2")
	page = teacher.post(paths.LTIDeepLink.String(), choice)
	back := page.Find("form[data-autosubmit]")
	if back.AttrOr("action", "") != p.srv.URL+"/deeplinks" {
		t.Fatalf("the chosen link goes to %q", back.AttrOr("action", ""))
	}
	if _, err := http.PostForm(back.AttrOr("action", ""), url.Values{"JWT": {back.Find("input[name=JWT]").AttrOr("value", "")}}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	got := p.deepLinked
	p.mu.Unlock()
	items, _ := got["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"].([]any)
	if got["aud"] != p.srv.URL || got["iss"] != platformClient || got[lti.ClaimMessageType] != lti.DeepLinkingResponse ||
		got["https://purl.imsglobal.org/spec/lti-dl/claim/data"] != "opaque-42" || len(items) != 1 {
		t.Fatalf("the platform received %v", got)
	}
	item := items[0].(map[string]any)
	custom := item["custom"].(map[string]any)
	if item["url"] != a.url+"/lti/launch" || item["lineItem"].(map[string]any)["scoreMaximum"] != 2.0 ||
		custom["homework_game"] != "pig" || custom["homework_target"] != "30" || custom["homework_bot"] != "hold:20" || custom["homework_games"] != "2" {
		t.Fatalf("the link chosen is %v", item)
	}

	// The platform makes the link, with its line item, and knows its
	// course's members.
	p.members = []map[string]any{
		{"user_id": "user-1", "name": "Ana Souza", "roles": []string{lti.RoleLearner}},
		{"user_id": "teacher-1", "name": "Ms Rivera", "roles": []string{lti.RoleInstructor}},
		{"user_id": "user-2", "given_name": "Bo", "family_name": "Reis", "roles": []string{lti.RoleLearner}, "status": "Active"},
		{"user_id": "user-4", "name": "Cy Gone", "roles": []string{lti.RoleLearner}, "status": "Inactive"},
		{"user_id": "user-3", "name": "Bea Lima", "roles": []string{lti.RoleLearner}},
	}
	link := func(c map[string]any) {
		c[lti.ClaimResourceLink] = map[string]any{"id": "link-7"}
		c[lti.ClaimCustom] = custom
		c["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"] = map[string]any{"context_memberships_url": p.srv.URL + "/courses/course-1/members", "service_versions": []string{"2.0"}}
		c["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = map[string]any{"scope": []string{lti.ScopeScore}, "lineitem": p.srv.URL + "/lineitems/1"}
	}
	p.launch(teacher, "platform-key-1", func(c map[string]any) { instructor(c); link(c) })
	code := strings.TrimPrefix(teacher.path(), "/t/")
	classID := mustClassID(t, a, code)
	names := func() string {
		sts, _ := a.store.Students(t.Context(), classID)
		var out []string
		for _, st := range sts {
			out = append(out, st.Nickname)
		}
		return strings.Join(out, ", ")
	}
	if got := names(); got != "Ana Souza, Bo Reis, Bea Lima" {
		t.Errorf("the course's roster seated %q", got)
	}
	statuses := map[string]string{}
	teacher.get(paths.TeacherLive.For(code)).Find(`[data-testid="student-row"]`).Each(func(_ int, r *goquery.Selection) {
		statuses[r.Find(".name").Text()] = r.Find(`[data-testid="student-status"]`).Text()
	})
	if !strings.HasPrefix(statuses["Bea Lima"], "not started") || !strings.HasPrefix(statuses["Ana Souza"], "not started") {
		t.Errorf("before anyone launched, the dashboard says %v", statuses)
	}
	if as, _ := a.store.Assignments(t.Context(), classID); len(as) != 1 || as[0].Games != 2 || as[0].Variant.Target != 30 || as[0].Bot != "hold:20" {
		t.Fatalf("the link's class has the homework %+v", as)
	}
	ana := &student{b: a.browser(), nick: "Ana Souza", holdAt: 20}
	p.launch(ana.b, "platform-key-1", link)
	if ana.b.path() != paths.Student.For(code) || names() != "Ana Souza, Bo Reis, Bea Lima" {
		t.Fatalf("Ana's launch: %s, the class %q", ana.b.path(), names())
	}
	playHomework := func() {
		t.Helper()
		form := ana.b.get(paths.Student.For(code)).Find(`[data-testid="student-assignment"] form`)
		ana.b.post(form.AttrOr("action", ""), nil)
		ana.playAt(t, ana.b.path())
	}
	send := func(want int) {
		t.Helper()
		if n, err := a.srv.sendScores(t.Context()); n != want {
			t.Errorf("%d scores sent (%v), want %d", n, err, want)
		}
	}
	playHomework()
	send(1)
	send(0) // the same value: never twice
	p.failScores = 1
	playHomework()
	send(0) // refused by the platform
	send(0) // not tried again yet
	a.clock.add(61 * time.Second)
	send(1)
	p.mu.Lock()
	want := []string{"user-1 1/2 InProgress Games of the homework played: 1 of 2.", "user-1 2/2 Completed Games of the homework played: 2 of 2."}
	var scores []string
	for _, sc := range p.scores {
		scores = append(scores, fmt.Sprintf("%v %v/%v %v %v", sc["userId"], sc["scoreGiven"], sc["scoreMaximum"], sc["activityProgress"], sc["comment"]))
	}
	if strings.Join(scores, "\n") != strings.Join(want, "\n") {
		t.Errorf("the line item received:\n%s\nwant:\n%s", strings.Join(scores, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(p.scopes, ",") != lti.ScopeMembers+","+lti.ScopeScore {
		t.Errorf("pigclass asked for the access tokens %q, want one for the members and one for the scores", p.scopes)
	}
	p.mu.Unlock()

	// students.csv names the platform's user ids only when asked.
	ids := map[string]string{}
	for _, r := range teacher.csvRows(paths.StudentsCSV.For(code) + "?platform=ids&names=real") {
		ids[r["student"]] = r["platform_user"]
	}
	if ids["Ana Souza"] != "user-1" || ids["Bea Lima"] != "user-3" {
		t.Errorf("students.csv?platform=ids: %v", ids)
	}
	for _, r := range teacher.csvRows(paths.StudentsCSV.For(code)) {
		if r["platform_user"] != "" {
			t.Errorf("students.csv names %s's platform id unasked", r["student"])
		}
	}
	if teacher.get(paths.Teacher.For(code)).Find(`[data-testid=platform-ids] a`).Length() != 1 {
		t.Error("the dashboard of a platform's class offers no students.csv with the platform's ids")
	}

	// Bo leaves the course: the next instructor's launch takes him out of
	// the class, and his launch is refused.
	p.mu.Lock()
	p.members[2]["status"] = "Deleted"
	p.mu.Unlock()
	p.launch(teacher, "platform-key-1", func(c map[string]any) { instructor(c); link(c) })
	bo := a.browser()
	doc := p.launch(bo, "platform-key-1", func(c map[string]any) { link(c); c["sub"] = "user-2" })
	// The course's roster no longer lists him: that refuses him first
	// (issue 79), in its own words.
	checkRefused(t, "a learner who left the course", bo, doc, http.StatusForbidden, "does not show you as taking part")
	if got := names(); got != "Ana Souza, Bea Lima" {
		t.Errorf("after Bo left the course, the class is %q", got)
	}
}

// TestAClassLinkSendsTheScoreItsTeacherChose: a graded link to a class
// without homework sends the quality of each learner's decisions (100
// minus students.csv's cost a game) until its teacher chooses the games
// played instead, out of the line item's maximum.
func TestAClassLinkSendsTheScoreItsTeacherChose(t *testing.T) {
	a := newApp(t)
	p := newPlatform(t)
	p.register(a)
	graded := p.graded
	teacher := a.browser()
	p.launch(teacher, "platform-key-1", func(c map[string]any) { instructor(c); graded(c) })
	code := strings.TrimPrefix(teacher.path(), "/t/")
	ana := &student{b: a.browser(), nick: "Ana Souza", holdAt: 20}
	p.launch(ana.b, "platform-key-1", graded)
	if teacher.post(paths.Rounds.For(code), url.Values{"game": {"pig"}, "target": {"30"}, "mode": {"bot"}, "bot": {"hold:20"}, "seats": {"2"}}); teacher.status() != http.StatusOK {
		t.Fatalf("starting a round: %d", teacher.status())
	}
	playRound(t, code, []*student{ana})
	if n, err := a.srv.sendScores(t.Context()); n != 1 || err != nil {
		t.Fatalf("%d scores sent (%v), want Ana's", n, err)
	}
	var cost float64
	for _, r := range teacher.csvRows(paths.StudentsCSV.For(code)) {
		cost, _ = strconv.ParseFloat(r["cost_per_game_pct"], 64)
	}
	p.mu.Lock()
	first := p.scores[0]
	p.mu.Unlock()
	if want := math.Round((100-cost)*100) / 100; first["scoreGiven"] != want || first["scoreMaximum"] != 100.0 ||
		!strings.HasPrefix(first["comment"].(string), "Decision quality: 100 minus") || !strings.HasSuffix(first["comment"].(string), "over 1 game.") {
		t.Errorf("the quality sent: %v, want %v of 100 (students.csv's cost a game %v)", first, want, cost)
	}

	dash := teacher.get(paths.Teacher.For(code))
	if dash.Find(`[data-testid=grade-choice] input[value=quality][checked]`).Length() != 1 {
		t.Fatal("the dashboard offers no choice of the gradebook's score, quality chosen")
	}
	if teacher.post(paths.LTIScore.For(code), url.Values{"score": {"wins"}}); teacher.status() != http.StatusUnprocessableEntity {
		t.Errorf("a score of wins: %d", teacher.status())
	}
	if doc := teacher.post(paths.LTIScore.For(code), url.Values{"score": {"games"}}); !strings.Contains(doc.Find(".notice").Text(), "games each learner played") {
		t.Errorf("choosing the games played: %q", doc.Find(".notice").Text())
	}
	if n, err := a.srv.sendScores(t.Context()); n != 1 || err != nil {
		t.Fatalf("%d scores sent after the choice (%v), want Ana's", n, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if got := p.scores[1]; got["scoreGiven"] != 1.0 || got["scoreMaximum"] != 10.0 || got["comment"] != "Games played: 1." {
		t.Errorf("the games sent: %v, want 1 of the line item's 10", got)
	}
}
