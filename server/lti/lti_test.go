package lti

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// TestASealedKeyOpensWithItsServersKeyAlone: pigclass's signing key, as
// stored, opens with the server's key it was sealed with and no other,
// saying what may have happened.
func TestASealedKeyOpensWithItsServersKeyAlone(t *testing.T) {
	k, err := NewToolKey()
	if err != nil {
		t.Fatal(err)
	}
	server := []byte(strings.Repeat("k", 32))
	sealed, err := k.Seal(server)
	if err != nil {
		t.Fatal(err)
	}
	back, err := OpenToolKey(k.ID, sealed, server)
	if err != nil || back.ID != k.ID || !back.Key.Equal(k.Key) {
		t.Fatalf("the key opened as %s (%v), want %s", back.ID, err, k.ID)
	}
	if _, err := OpenToolKey(k.ID, sealed, []byte(strings.Repeat("x", 32))); err == nil || !strings.Contains(err.Error(), "does not open with this server's key") {
		t.Errorf("another server's key: %v", err)
	}
	if _, err := OpenToolKey("another-id", sealed, server); err == nil {
		t.Error("a sealed key opened under another id")
	}
	set, err := JWKS([]ToolKey{k})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal(set, &got); err != nil || len(got.Keys) != 1 || got.Keys[0]["kid"] != k.ID || got.Keys[0]["alg"] != "RS256" ||
		got.Keys[0]["use"] != "sig" || got.Keys[0]["d"] != nil {
		t.Errorf("the JWKS is %s", set)
	}
}

// TestClaimsRead: the audience as one string or several, the roles that
// teach and learn (their short forms too), a name from its parts.
func TestClaimsRead(t *testing.T) {
	var one, many Claims
	json.Unmarshal([]byte(`{"aud":"a","roles":[]}`), &one)
	json.Unmarshal([]byte(`{"aud":["a","b"],"given_name":" Ana ","family_name":"Souza","https://purl.imsglobal.org/spec/lti/claim/roles":["Instructor"]}`), &many)
	if len(one.Audience) != 1 || one.Audience[0] != "a" || len(many.Audience) != 2 {
		t.Errorf("audiences %q and %q", one.Audience, many.Audience)
	}
	if !many.Teaches() || many.Learns() || many.FullName() != "Ana Souza" {
		t.Errorf("teaches %v, learns %v, name %q", many.Teaches(), many.Learns(), many.FullName())
	}
	ta := Claims{Roles: []string{RoleLearner, roleMembership + "Instructor#TeachingAssistant"}}
	if !ta.Teaches() || !ta.Learns() {
		t.Error("a teaching assistant who learns too")
	}
	m := Member{Roles: []string{RoleLearner}, Status: "Inactive"}
	if !m.Learner() || m.Active() {
		t.Errorf("an inactive learner: learner %v, active %v", m.Learner(), m.Active())
	}
}

// TestLoginRedirect: the authentication request names pigclass's client
// id, its launch address, the state and the nonce, and keeps a query the
// platform's address has.
func TestLoginRedirect(t *testing.T) {
	p := Platform{ClientID: "c", LoginURL: "https://lms.example/auth?tenant=1"}
	u, err := url.Parse(LoginRedirect(p, ToolAt("https://pig.example/"), "hint", "mh", "s1", "n1"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if q.Get("tenant") != "1" || q.Get("client_id") != "c" || q.Get("redirect_uri") != "https://pig.example/lti/launch" || q.Get("state") != "s1" ||
		q.Get("nonce") != "n1" || q.Get("login_hint") != "hint" || q.Get("lti_message_hint") != "mh" || q.Get("response_mode") != "form_post" || q.Get("prompt") != "none" {
		t.Errorf("the authentication request: %s", u)
	}
}
