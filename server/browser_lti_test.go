package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pigclass/server/lti"
	"pigclass/server/store"
	"pigclass/templates/paths"
)

// TestBrowserALaunchInAFrame: a learning platform's course page, on
// another site, shows pigclass in a frame. The login initiation, the
// platform's post of the launch and the class page after it all carry
// pigclass's cookies there (SameSite=None; Secure, over HTTPS), pigclass
// lets the platform frame it, and the frame shows the learner's class
// page under the platform's name; then the instructor's dashboard.
func TestBrowserALaunchInAFrame(t *testing.T) {
	a := newApp(t)
	tool := httptest.NewUnstartedServer(a.srv.Handler())
	tool.StartTLS()
	t.Cleanup(tool.Close)
	a.srv.hosts = newHostGate("", tool.Listener.Addr().String())
	_, site, who := framingPlatform(t, a, tool.URL, "")
	ctx := newBrowser(t)()
	run(t, ctx, chromedp.Navigate(site+"/course"))
	if got := inFrame(t, ctx, `[data-testid="nickname"]`, "the learner's launch"); !strings.Contains(got, "Ana Souza") {
		t.Errorf("the framed class page names %q, want Ana Souza", got)
	}
	sts, err := a.store.Students(t.Context(), classOfLink(t, a, site))
	if err != nil || len(sts) != 1 || sts[0].Nickname != "Ana Souza" {
		t.Fatalf("the class's students: %v %v", sts, err)
	}

	*who = map[string]any{"sub": "teacher-1", "name": "Ms Rivera", lti.ClaimRoles: []string{lti.RoleInstructor}}
	run(t, ctx, chromedp.Navigate(site+"/course"))
	if got := inFrame(t, ctx, `[data-testid="join-code"]`, "the instructor's launch"); len(strings.TrimSpace(got)) < CodeLength {
		t.Errorf("the framed dashboard shows the join code %q", got)
	}
}

// classOfLink is the class the test platform's link-1 opens.
func classOfLink(t *testing.T, a *app, issuer string) int64 {
	t.Helper()
	l, err := a.store.LinkedClass(t.Context(), store.Link{Issuer: issuer, ClientID: platformClient, Deployment: platformDeployment, ResourceLink: "link-1"})
	if err != nil {
		t.Fatal(err)
	}
	return l.ClassID
}

// framingPlatform registers a platform on another site than pigclass's
// (localhost against 127.0.0.1), whose /course page frames pigclass's
// login at base; its launches are who's (a learner at first), naming
// the storage target storage ("" for none). Its /course page keeps
// pigclass's values for it when asked (Platform Storage's lti.put_data
// and lti.get_data).
func framingPlatform(t *testing.T, a *app, base, storage string) (*platform, string, *map[string]any) {
	t.Helper()
	p := newPlatform(t)
	site := strings.Replace(p.srv.URL, "127.0.0.1", "localhost", 1) // another site than pigclass's 127.0.0.1
	if _, err := a.store.SavePlatform(t.Context(), lti.Platform{Issuer: site, ClientID: platformClient, LoginURL: site + "/auth", TokenURL: site + "/token",
		KeysURL: p.srv.URL + "/jwks", Deployments: []string{platformDeployment}}); err != nil {
		t.Fatal(err)
	}
	if err := a.srv.lti.Load(t.Context()); err != nil { // as a start would: the platform may frame pigclass
		t.Fatal(err)
	}
	who := map[string]any{"sub": "user-1", "name": "Ana Souza", lti.ClaimRoles: []string{lti.RoleLearner}}
	p.storage = storage
	p.autoLaunch = func(auth url.Values) map[string]any {
		now := a.clock.now()
		c := map[string]any{
			"iss": site, "aud": platformClient, "exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "nonce": auth.Get("nonce"),
			lti.ClaimMessageType: lti.ResourceLinkRequest, lti.ClaimVersion: lti.Version, lti.ClaimDeployment: platformDeployment,
			lti.ClaimResourceLink: map[string]any{"id": "link-1"}, lti.ClaimContext: map[string]any{"id": "course-1"},
		}
		for k, v := range who {
			c[k] = v
		}
		return c
	}
	q := url.Values{"iss": {site}, "login_hint": {"hint"}, "client_id": {platformClient}, "lti_deployment_id": {platformDeployment}, "target_link_uri": {base + paths.LTILaunch.String()}}
	if storage != "" {
		q.Set("lti_storage_target", storage)
	}
	p.course = `<html><body><h1>Probability</h1><script>
var kept = {};
window.addEventListener("message", function (e) {
  var m = e.data || {};
  if (m.subject === "lti.put_data") { kept[e.origin + " " + m.key] = m.value; e.source.postMessage({subject: "lti.put_data.response", message_id: m.message_id, key: m.key, value: m.value}, e.origin); }
  if (m.subject === "lti.get_data") { e.source.postMessage({subject: "lti.get_data.response", message_id: m.message_id, key: m.key, value: kept[e.origin + " " + m.key]}, e.origin); }
});
</script><iframe id="tool" src="` + base + paths.LTILogin.String() + "?" + q.Encode() + `" style="width:900px;height:700px"></iframe></body></html>`
	return p, site, &who
}

// inFrame reads the text of sel in the page the platform's frame shows,
// waiting for it.
func inFrame(t *testing.T, ctx context.Context, sel, what string) string {
	t.Helper()
	end := time.Now().Add(30 * time.Second)
	for time.Now().Before(end) {
		if frames, err := chromedp.Run(ctx, chromedp.Nodes(q("iframe#tool"))); err == nil && len(frames) == 1 {
			tctx, cancel := context.WithTimeout(ctx, time.Second)
			text, err := chromedp.Run(tctx, chromedp.Text(q(sel), chromedp.FromNode(frames[0])))
			cancel()
			if err == nil && text != "" {
				return text
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s: the frame did not show %s within 30 s", what, sel)
	return ""
}

// TestBrowserALaunchInAFrameWithoutCookies: over plain HTTP a browser
// keeps no cookie of pigclass's in a frame of another site; a platform
// that offers its storage keeps the sign-in's state for pigclass there
// instead, the launch goes through, and the frame offers a link that
// opens the learner's class in a window of its own, once.
func TestBrowserALaunchInAFrameWithoutCookies(t *testing.T) {
	a := newApp(t)
	_, site, _ := framingPlatform(t, a, a.url, "_parent")
	ctx := newBrowser(t)()
	run(t, ctx, chromedp.Navigate(site+"/course"))
	inFrame(t, ctx, `[data-testid="lti-continue-link"]`, "the launch checked by the platform's storage")
	frames := value(t, ctx, chromedp.Nodes(q("iframe#tool")))
	href := value(t, ctx, chromedp.AttributeValue(q(`[data-testid="lti-continue-link"]`), "href", chromedp.FromNode(frames[0]))).Value
	if !strings.HasPrefix(href, paths.LTIContinue.WithKey("")) {
		t.Fatalf("the link to a window of its own is %q", href)
	}
	run(t, ctx, chromedp.Navigate(a.url+href))
	if got := textOf(t, ctx, `[data-testid="nickname"]`); !strings.Contains(got, "Ana Souza") {
		t.Errorf("the class page in a window of its own names %q", got)
	}
	// The link is good once: someone who saw it gets nothing.
	other := a.browser()
	other.get(href)
	if other.status() != http.StatusForbidden || !strings.Contains(other.body, "used already") {
		t.Errorf("the link opened again: %d", other.status())
	}
}
