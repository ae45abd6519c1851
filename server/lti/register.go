package lti

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Tool is pigclass's addresses, as it registers them with a platform.
type Tool struct {
	Name      string
	LoginURL  string // its OIDC third-party login initiation
	LaunchURL string // where the platform posts the id_token (the redirect URI)
	KeysURL   string // its JWKS
}

// ToolAt is the tool's addresses under the public address base
// (https://pigclass.example.org).
func ToolAt(base string) Tool {
	base = strings.TrimRight(base, "/")
	return Tool{Name: "pigclass", LoginURL: base + "/lti/login", LaunchURL: base + "/lti/launch", KeysURL: base + "/lti/jwks"}
}

// PlatformConfig is what pigclass reads of a platform's OpenID
// configuration (Dynamic Registration 3.4).
type PlatformConfig struct {
	Issuer      string `json:"issuer"`
	LoginURL    string `json:"authorization_endpoint"`
	TokenURL    string `json:"token_endpoint"`
	KeysURL     string `json:"jwks_uri"`
	RegisterURL string `json:"registration_endpoint"`
}

// maxJSON bounds a platform's answers as read.
const maxJSON = 1 << 20

// ReadConfig fetches the platform's OpenID configuration from the address
// the registration was started with, and checks it as Dynamic
// Registration 3.5.1 asks: the address is under the issuer's, and every
// endpoint pigclass needs is named.
func ReadConfig(ctx context.Context, client *http.Client, configURL string) (PlatformConfig, error) {
	var cfg PlatformConfig
	u, err := url.Parse(configURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return cfg, fmt.Errorf("lti: the configuration address %q is not a web address", configURL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, configURL, nil)
	if err != nil {
		return cfg, err
	}
	if err := do(client, req, &cfg); err != nil {
		return cfg, fmt.Errorf("lti: the platform's configuration: %w", err)
	}
	if cfg.Issuer == "" || !strings.HasPrefix(configURL, strings.TrimRight(cfg.Issuer, "/")) {
		return cfg, fmt.Errorf("lti: the platform's configuration names the issuer %q, and its address %q is not under it", cfg.Issuer, configURL)
	}
	for name, v := range map[string]string{"authorization_endpoint": cfg.LoginURL, "token_endpoint": cfg.TokenURL, "jwks_uri": cfg.KeysURL, "registration_endpoint": cfg.RegisterURL} {
		if _, err := url.ParseRequestURI(v); err != nil {
			return cfg, fmt.Errorf("lti: the platform's configuration has no %s", name)
		}
	}
	return cfg, nil
}

// registration is the client registration pigclass sends (Dynamic
// Registration 3.5.2): a resource link launch and a deep linking
// request, signed in through its login initiation, its keys at its JWKS,
// the course's members and the scores of the gradebook as its scopes.
type registration struct {
	ApplicationType string     `json:"application_type"`
	ResponseTypes   []string   `json:"response_types"`
	GrantTypes      []string   `json:"grant_types"`
	LoginURL        string     `json:"initiate_login_uri"`
	RedirectURIs    []string   `json:"redirect_uris"`
	ClientName      string     `json:"client_name"`
	KeysURL         string     `json:"jwks_uri"`
	AuthMethod      string     `json:"token_endpoint_auth_method"`
	Scope           string     `json:"scope"`
	Tool            toolConfig `json:"https://purl.imsglobal.org/spec/lti-tool-configuration"`
}

type toolConfig struct {
	Domain       string    `json:"domain"`
	TargetLink   string    `json:"target_link_uri"`
	Claims       []string  `json:"claims"`
	Messages     []message `json:"messages"`
	DeploymentID string    `json:"deployment_id,omitempty"` // in the platform's answer
}

type message struct {
	Type       string `json:"type"`
	TargetLink string `json:"target_link_uri,omitempty"`
}

// registered is the platform's answer to the registration.
type registered struct {
	ClientID string     `json:"client_id"`
	Tool     toolConfig `json:"https://purl.imsglobal.org/spec/lti-tool-configuration"`
}

// Register registers the tool with the platform whose configuration is
// cfg, with the registration token the platform gave (may be empty), and
// returns the platform as pigclass then keeps it.
func Register(ctx context.Context, client *http.Client, cfg PlatformConfig, token string, tool Tool) (Platform, error) {
	launch, err := url.Parse(tool.LaunchURL)
	if err != nil {
		return Platform{}, err
	}
	body, err := json.Marshal(registration{
		ApplicationType: "web", ResponseTypes: []string{"id_token"}, GrantTypes: []string{"implicit", "client_credentials"},
		LoginURL: tool.LoginURL, RedirectURIs: []string{tool.LaunchURL}, ClientName: tool.Name, KeysURL: tool.KeysURL,
		AuthMethod: "private_key_jwt", Scope: strings.Join([]string{ScopeMembers, ScopeScore, ScopeItems}, " "),
		Tool: toolConfig{Domain: launch.Host, TargetLink: tool.LaunchURL, Claims: []string{"iss", "sub", "name", "given_name", "family_name"},
			Messages: []message{{Type: ResourceLinkRequest}, {Type: DeepLinkingRequest, TargetLink: tool.LaunchURL}}},
	})
	if err != nil {
		return Platform{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.RegisterURL, bytes.NewReader(body))
	if err != nil {
		return Platform{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	var got registered
	if err := do(client, req, &got); err != nil {
		return Platform{}, fmt.Errorf("lti: the platform refused the registration: %w", err)
	}
	if got.ClientID == "" {
		return Platform{}, errors.New("lti: the platform's answer to the registration has no client_id")
	}
	p := Platform{Issuer: cfg.Issuer, ClientID: got.ClientID, LoginURL: cfg.LoginURL, TokenURL: cfg.TokenURL, KeysURL: cfg.KeysURL}
	if got.Tool.DeploymentID != "" {
		p.Deployments = []string{got.Tool.DeploymentID}
	}
	return p, nil
}

// do sends req and reads its JSON answer into v.
func do(client *http.Client, req *http.Request, v any) error {
	_, err := doWithHeader(client, req, v)
	return err
}

// doWithHeader is do, returning the answer's header too.
func doWithHeader(client *http.Client, req *http.Request, v any) (http.Header, error) {
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxJSON))
	if err != nil {
		return nil, err
	}
	if res.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s from %s: %.200s", res.Status, req.URL.Redacted(), b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return nil, fmt.Errorf("%s answered what is not JSON: %w", req.URL.Redacted(), err)
	}
	return res.Header, nil
}

// LoginRedirect is the address the browser is sent to from the login
// initiation (Security Framework 5.1.1.1, LTI Core 5.1.1): the
// platform's authorization endpoint with pigclass's authentication
// request, its state and nonce.
func LoginRedirect(p Platform, tool Tool, loginHint, messageHint, state, nonce string) string {
	q := url.Values{
		"scope": {"openid"}, "response_type": {"id_token"}, "response_mode": {"form_post"}, "prompt": {"none"},
		"client_id": {p.ClientID}, "redirect_uri": {tool.LaunchURL}, "login_hint": {loginHint},
		"state": {state}, "nonce": {nonce},
	}
	if messageHint != "" {
		q.Set("lti_message_hint", messageHint)
	}
	sep := "?"
	if strings.Contains(p.LoginURL, "?") {
		sep = "&"
	}
	return p.LoginURL + sep + q.Encode()
}
