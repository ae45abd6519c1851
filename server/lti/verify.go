package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// Platform is a learning platform pigclass is registered with: one
// client id at one issuer, and the deployments of pigclass it holds.
type Platform struct {
	ID          int64
	Issuer      string // the platform's issuer, as its id_tokens name it
	ClientID    string // pigclass's client id there
	LoginURL    string // its OIDC authorization endpoint
	TokenURL    string // its OAuth 2 token endpoint
	KeysURL     string // its JWKS
	Deployments []string
}

// Reason is why a launch was refused: the page says it in the reader's
// language (the catalogs' lti.refused.REASON).
type Reason string

// The reasons a launch is refused.
const (
	Unreadable      Reason = "unreadable"       // not a signed token pigclass can read
	UnknownKey      Reason = "unknown_key"      // signed with a key the platform does not publish
	BadSignature    Reason = "bad_signature"    // the signature is not the platform's key's
	Expired         Reason = "expired"          // past its exp, or issued in the future
	WrongAudience   Reason = "wrong_audience"   // not for pigclass's client id
	WrongNonce      Reason = "wrong_nonce"      // not the login's nonce, or used before
	WrongDeployment Reason = "wrong_deployment" // a deployment the platform did not register
	WrongMessage    Reason = "wrong_message"    // a message type or version pigclass does not take
	NoLink          Reason = "no_link"          // no resource link or no user
	BadReturn       Reason = "bad_return"       // a deep linking return address that is not http(s)
)

// Refusal is a launch refused, and why.
type Refusal struct {
	Reason Reason
	Err    error // what was wrong, for the log
}

func (r *Refusal) Error() string {
	if r.Err != nil {
		return "lti: " + string(r.Reason) + ": " + r.Err.Error()
	}
	return "lti: " + string(r.Reason)
}

func refused(why Reason, err error) *Refusal { return &Refusal{Reason: why, Err: err} }

// skew is how far the platform's clock and pigclass's may differ.
const skew = time.Minute

// Keys fetches the platforms' key sets (JWKS) and keeps them: a key id
// not in a set fetches it again at once (the platform rotated its key:
// the launch signed with the new one gets in), but at most once in
// refetchAfter a platform, so that tokens naming made-up key ids cannot
// make pigclass fetch more often than that (issue 79).
type Keys struct {
	Client *http.Client
	Now    func() time.Time

	mu   sync.Mutex
	sets map[string]keySet // by the JWKS address
}

type keySet struct {
	set     jwk.Set
	fetched time.Time
}

const refetchAfter = time.Second

// maxKeySet bounds a platform's JWKS as read.
const maxKeySet = 1 << 20

// key returns the key with id kid of the set at url.
func (k *Keys) key(ctx context.Context, url, kid string) (jwk.Key, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.sets == nil {
		k.sets = map[string]keySet{}
	}
	cached, ok := k.sets[url]
	if ok {
		if key, found := cached.set.LookupKeyID(kid); found {
			return key, nil
		}
		if k.Now().Sub(cached.fetched) < refetchAfter {
			return nil, refused(UnknownKey, fmt.Errorf("no key %q", kid))
		}
	}
	set, err := fetchSet(ctx, k.Client, url)
	if err != nil {
		return nil, err
	}
	k.sets[url] = keySet{set: set, fetched: k.Now()}
	if key, found := set.LookupKeyID(kid); found {
		return key, nil
	}
	return nil, refused(UnknownKey, fmt.Errorf("no key %q", kid))
}

func fetchSet(ctx context.Context, client *http.Client, url string) (jwk.Set, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("lti: the platform's keys: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("lti: the platform's keys at %s: %s", url, res.Status)
	}
	b, err := io.ReadAll(io.LimitReader(res.Body, maxKeySet))
	if err != nil {
		return nil, err
	}
	set, err := jwk.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("lti: the platform's keys at %s: %w", url, err)
	}
	return set, nil
}

// Unverified reads a token's issuer and audience before it is checked,
// to find its platform (which then checks it): nothing else of it is
// believed.
func Unverified(token string) (issuer string, aud []string, err error) {
	msg, err := jws.ParseString(token)
	if err != nil || len(msg.Signatures()) != 1 {
		return "", nil, refused(Unreadable, err)
	}
	var c Claims
	if err := json.Unmarshal(msg.Payload(), &c); err != nil {
		return "", nil, refused(Unreadable, err)
	}
	return c.Issuer, c.Audience, nil
}

// Verify checks a launch's id_token as the Security Framework (5.1.3)
// and LTI Core (5.3) ask: signed (RS256) with a key the platform
// publishes, by the platform for pigclass's client id, unexpired, with
// the nonce of the login that led to it, from a deployment the platform
// registered, a resource link launch of LTI 1.3.0 with a user and a link
// or a deep linking request with its return address.
// A refusal is a *Refusal.
func (k *Keys) Verify(ctx context.Context, p Platform, token, nonce string) (Claims, error) {
	msg, err := jws.ParseString(token)
	if err != nil || len(msg.Signatures()) != 1 {
		return Claims{}, refused(Unreadable, err)
	}
	kid, _ := msg.Signatures()[0].ProtectedHeaders().KeyID()
	key, err := k.key(ctx, p.KeysURL, kid)
	if err != nil {
		return Claims{}, err
	}
	payload, err := jws.Verify([]byte(token), jws.WithKey(rs256, key))
	if err != nil {
		return Claims{}, refused(BadSignature, err)
	}
	var c Claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return Claims{}, refused(Unreadable, err)
	}
	return c, k.check(p, c, nonce)
}

// check holds a signed token's claims to what the launch needs.
func (k *Keys) check(p Platform, c Claims, nonce string) error {
	now := k.Now()
	switch {
	case c.Issuer != p.Issuer:
		return refused(WrongAudience, fmt.Errorf("issuer %q, not %q", c.Issuer, p.Issuer))
	case !slices.Contains(c.Audience, p.ClientID):
		return refused(WrongAudience, fmt.Errorf("audience %q, not %q", c.Audience, p.ClientID))
	case len(c.Audience) > 1 && c.AuthorizedParty != p.ClientID:
		return refused(WrongAudience, fmt.Errorf("azp %q, not %q", c.AuthorizedParty, p.ClientID))
	case c.Expires == 0 || now.After(time.Unix(c.Expires, 0).Add(skew)):
		return refused(Expired, fmt.Errorf("expired at %d", c.Expires))
	case time.Unix(c.IssuedAt, 0).After(now.Add(skew)):
		return refused(Expired, fmt.Errorf("issued at %d, in the future", c.IssuedAt))
	case nonce == "" || c.Nonce != nonce:
		return refused(WrongNonce, errors.New("not the login's nonce"))
	case !slices.Contains(p.Deployments, c.DeploymentID):
		return refused(WrongDeployment, fmt.Errorf("deployment %q", c.DeploymentID))
	case c.Version != Version || (c.MessageType != ResourceLinkRequest && c.MessageType != DeepLinkingRequest):
		return refused(WrongMessage, fmt.Errorf("%q version %q", c.MessageType, c.Version))
	case c.Subject == "":
		return refused(NoLink, errors.New("no sub"))
	case c.MessageType == ResourceLinkRequest && c.ResourceLink.ID == "":
		return refused(NoLink, errors.New("no resource link"))
	case c.MessageType == DeepLinkingRequest && c.DeepLinking.ReturnURL == "":
		return refused(NoLink, errors.New("no deep_link_return_url"))
	case c.MessageType == DeepLinkingRequest && !webAddress(c.DeepLinking.ReturnURL):
		// It becomes a form's action: a javascript: one would run in
		// pigclass's page (issue 79).
		return refused(BadReturn, errors.New("the deep_link_return_url is not an http(s) address"))
	}
	return nil
}

// webAddress reports whether a is an absolute http(s) address with a host.
func webAddress(a string) bool {
	u, err := url.Parse(a)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
