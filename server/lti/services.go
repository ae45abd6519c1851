package lti

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jws"
)

// The services' scopes pigclass asks for: the course's members (Names
// and Role Provisioning Services 2.0) and the scores it sends to a
// gradebook's line item (Assignment and Grade Services 2.0).
const (
	ScopeMembers = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	ScopeScore   = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
	ScopeItems   = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
)

// Tokens gets access tokens from the platforms' token endpoints (the
// Security Framework's client credentials grant, 4.1, with a client
// assertion signed by pigclass's key, JWT bearer: RFC 7523), and keeps
// each until shortly before it expires.
type Tokens struct {
	Client *http.Client
	Now    func() time.Time

	mu   sync.Mutex
	kept map[string]accessToken // by token URL, client id and scope
}

type accessToken struct {
	token   string
	expires time.Time
}

// Token is an access token of the platform's for scope, signed for with
// key.
func (t *Tokens) Token(ctx context.Context, p Platform, key ToolKey, scope string) (string, error) {
	name := p.TokenURL + "\x00" + p.ClientID + "\x00" + scope
	t.mu.Lock()
	if k, ok := t.kept[name]; ok && t.Now().Before(k.expires) {
		t.mu.Unlock()
		return k.token, nil
	}
	t.mu.Unlock()
	assertion, err := t.assertion(p, key)
	if err != nil {
		return "", err
	}
	form := url.Values{
		"grant_type":            {"client_credentials"},
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {assertion},
		"scope":                 {scope},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var got struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := do(t.Client, req, &got); err != nil {
		return "", fmt.Errorf("lti: the platform's access token: %w", err)
	}
	if got.AccessToken == "" {
		return "", fmt.Errorf("lti: the platform's token endpoint %s gave no access token", p.TokenURL)
	}
	life := time.Duration(max(got.ExpiresIn, 60)) * time.Second
	t.mu.Lock()
	if t.kept == nil {
		t.kept = map[string]accessToken{}
	}
	t.kept[name] = accessToken{token: got.AccessToken, expires: t.Now().Add(life - 30*time.Second)}
	t.mu.Unlock()
	return got.AccessToken, nil
}

// assertion is the client assertion of a token request: pigclass's client
// id as issuer and subject, the token endpoint as audience, for five
// minutes, once (jti).
func (t *Tokens) assertion(p Platform, key ToolKey) (string, error) {
	now := t.Now()
	jti := make([]byte, 16)
	rand.Read(jti)
	return Sign(key, map[string]any{
		"iss": p.ClientID, "sub": p.ClientID, "aud": p.TokenURL,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "jti": hex.EncodeToString(jti),
	})
}

// Sign signs claims with pigclass's key (RS256, its kid in the header).
func Sign(key ToolKey, claims map[string]any) (string, error) {
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	hdr := jws.NewHeaders()
	if err := hdr.Set(jws.KeyIDKey, key.ID); err != nil {
		return "", err
	}
	if err := hdr.Set(jws.TypeKey, "JWT"); err != nil {
		return "", err
	}
	b, err := jws.Sign(payload, jws.WithKey(rs256, key.Key, jws.WithProtectedHeaders(hdr)))
	return string(b), err
}

// Member is one member of a course, as the platform's names and roles
// service lists them.
type Member struct {
	UserID     string   `json:"user_id"`
	Name       string   `json:"name"`
	GivenName  string   `json:"given_name"`
	FamilyName string   `json:"family_name"`
	Roles      []string `json:"roles"`
	Status     string   `json:"status"` // Active (also when absent), Inactive or Deleted
}

// Learner reports whether the member is a learner of the course.
func (m Member) Learner() bool {
	return Claims{Roles: m.Roles}.Learns() && !Claims{Roles: m.Roles}.Teaches()
}

// Active reports whether the member is still in the course.
func (m Member) Active() bool { return m.Status == "" || m.Status == "Active" }

// FullName is the member's name as the platform gives it.
func (m Member) FullName() string {
	return Claims{Name: m.Name, GivenName: m.GivenName, FamilyName: m.FamilyName}.FullName()
}

// maxMemberPages bounds the pages of a course's members read (a page
// holds what the platform chooses, often 100 or more).
const maxMemberPages = 50

var nextLink = regexp.MustCompile(`<([^>]+)>\s*;\s*rel="?next"?`)

// Members lists a course's members from its memberships address
// (NRPS 2.0), page by page (the Link header's rel="next").
func Members(ctx context.Context, client *http.Client, address, token string) ([]Member, error) {
	var out []Member
	for page := 0; address != "" && page < maxMemberPages; page++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/vnd.ims.lti-nrps.v2.membershipcontainer+json")
		req.Header.Set("Authorization", "Bearer "+token)
		var got struct {
			Members []Member `json:"members"`
		}
		res, err := doWithHeader(client, req, &got)
		if err != nil {
			return nil, fmt.Errorf("lti: the course's members: %w", err)
		}
		out = append(out, got.Members...)
		address = ""
		if m := nextLink.FindStringSubmatch(res.Get("Link")); m != nil {
			address = m[1]
		}
	}
	return out, nil
}

// LineItemMax is a line item's maximum score (AGS 2.0, 3.2), read with an
// access token of ScopeItems.
func LineItemMax(ctx context.Context, client *http.Client, lineItem, token string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, lineItem, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/vnd.ims.lis.v2.lineitem+json")
	req.Header.Set("Authorization", "Bearer "+token)
	var got struct {
		ScoreMaximum float64 `json:"scoreMaximum"`
	}
	if err := do(client, req, &got); err != nil {
		return 0, fmt.Errorf("lti: the line item: %w", err)
	}
	if got.ScoreMaximum <= 0 {
		return 0, fmt.Errorf("lti: the line item %s has no scoreMaximum", lineItem)
	}
	return got.ScoreMaximum, nil
}

// Score is a learner's result sent to a line item (AGS 2.0, 3.4).
type Score struct {
	UserID           string  `json:"userId"`
	ScoreGiven       float64 `json:"scoreGiven"`
	ScoreMaximum     float64 `json:"scoreMaximum"`
	Comment          string  `json:"comment,omitempty"`
	Timestamp        string  `json:"timestamp"`
	ActivityProgress string  `json:"activityProgress"` // InProgress or Completed
	GradingProgress  string  `json:"gradingProgress"`  // FullyGraded
}

// SendScore posts a score to a line item's scores.
func SendScore(ctx context.Context, client *http.Client, lineItem, token string, s Score) error {
	u, err := url.Parse(lineItem)
	if err != nil {
		return err
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/scores" // the line item's address may carry a query
	body, err := json.Marshal(s)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/vnd.ims.lis.v1.score+json")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("lti: a score: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("lti: a score: %s from %s", res.Status, u.Redacted())
	}
	return nil
}
