// Package lti is pigclass's side of 1EdTech's LTI 1.3 (LTI Core 1.3,
// https://www.imsglobal.org/spec/lti/v1p3/, and the 1EdTech Security
// Framework 1.0, https://www.imsglobal.org/spec/security/v1p0/) and of
// LTI Dynamic Registration 1.0
// (https://www.imsglobal.org/spec/lti-dr/v1p0/): a launch's id_token
// checked against its platform's keys, the platform's OpenID
// configuration read and pigclass registered with it, and pigclass's own
// signing key. What a launch does in a class is the server's; what is
// stored, the store's. It holds no state but the platforms' keys, cached.
package lti

import (
	"encoding/json"
	"slices"
	"strings"
)

// The claims' names (LTI Core 1.3, section 5).
const (
	claim             = "https://purl.imsglobal.org/spec/lti/claim/"
	ClaimMessageType  = claim + "message_type"
	ClaimVersion      = claim + "version"
	ClaimDeployment   = claim + "deployment_id"
	ClaimResourceLink = claim + "resource_link"
	ClaimContext      = claim + "context"
	ClaimRoles        = claim + "roles"
	ClaimCustom       = claim + "custom"
)

// Message types and the version pigclass speaks.
const (
	ResourceLinkRequest = "LtiResourceLinkRequest"
	DeepLinkingRequest  = "LtiDeepLinkingRequest"
	DeepLinkingResponse = "LtiDeepLinkingResponse"
	Version             = "1.3.0"
)

// Roles of a context's member (LTI Core 1.3, appendix A.2): the
// instructor's roles put them on the class's dashboard; a learner plays.
const (
	roleMembership = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
	RoleInstructor = roleMembership + "Instructor"
	RoleLearner    = roleMembership + "Learner"
)

// teaching are the roles that teach a context: its instructor, an
// administrator of it, a teaching assistant (a sub-role of Instructor).
var teaching = []string{
	RoleInstructor,
	roleMembership + "Administrator",
	roleMembership + "ContentDeveloper",
	roleMembership + "Instructor#TeachingAssistant",
}

// Claims are what pigclass reads of a launch's id_token.
type Claims struct {
	Issuer          string   `json:"iss"`
	Subject         string   `json:"sub"`
	Audience        audience `json:"aud"`
	AuthorizedParty string   `json:"azp"`
	Expires         int64    `json:"exp"`
	IssuedAt        int64    `json:"iat"`
	Nonce           string   `json:"nonce"`
	Name            string   `json:"name"`
	GivenName       string   `json:"given_name"`
	FamilyName      string   `json:"family_name"`

	MessageType  string            `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version      string            `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	DeploymentID string            `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	ResourceLink Link              `json:"https://purl.imsglobal.org/spec/lti/claim/resource_link"`
	Context      Link              `json:"https://purl.imsglobal.org/spec/lti/claim/context"`
	Roles        []string          `json:"https://purl.imsglobal.org/spec/lti/claim/roles"`
	Custom       map[string]string `json:"https://purl.imsglobal.org/spec/lti/claim/custom"`

	Members     MembersService   `json:"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"`
	Grades      GradesService    `json:"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"`
	DeepLinking DeepLinkSettings `json:"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"`

	// Where the platform shows the tool (LTI Core 1.3, 5.4.4 and
	// 5.4.2): the origins of these may frame the class's pages.
	Presentation Presentation `json:"https://purl.imsglobal.org/spec/lti/claim/launch_presentation"`
	ToolPlatform ToolPlatform `json:"https://purl.imsglobal.org/spec/lti/claim/tool_platform"`
}

// Presentation is a launch's launch_presentation claim: where the
// platform takes the user back to.
type Presentation struct {
	ReturnURL string `json:"return_url"`
}

// ToolPlatform is a launch's tool_platform claim: the platform's own
// address (a school's domain, where the issuer is the vendor's).
type ToolPlatform struct {
	URL string `json:"url"`
}

// MembersService is the names and roles service of a launch's course
// (NRPS 2.0, 3.6.1): where its members are listed.
type MembersService struct {
	URL string `json:"context_memberships_url"`
}

// GradesService is the assignment and grade service of a launch (AGS
// 2.0, 3.1): the scopes the platform grants and the link's line item,
// where its scores go.
type GradesService struct {
	Scope     []string `json:"scope"`
	LineItems string   `json:"lineitems"`
	LineItem  string   `json:"lineitem"`
}

// DeepLinkSettings are a deep linking request's (Deep Linking 2.0,
// 4.4.1): where to send the content chosen, what the platform takes, and
// its data to send back.
type DeepLinkSettings struct {
	ReturnURL   string   `json:"deep_link_return_url"`
	AcceptTypes []string `json:"accept_types"`
	Data        string   `json:"data"`
}

// Link is a resource link or a context: its id (stable, opaque) and its
// title as the platform shows it.
type Link struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Label string `json:"label"`
}

// audience is the aud claim: one string or several.
type audience []string

func (a *audience) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*a = audience{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*a = many
	return nil
}

// Teaches reports whether the launch is by someone who teaches the
// context (an instructor, an administrator of the course, a teaching
// assistant). A role in its short form ("Instructor"), which LTI 1.3
// deprecates but some platforms still send, counts.
func (c Claims) Teaches() bool {
	for _, r := range c.Roles {
		if slices.Contains(teaching, r) || r == "Instructor" || r == "Administrator" {
			return true
		}
	}
	return false
}

// Learns reports whether the launch is by a learner of the context.
func (c Claims) Learns() bool {
	return slices.Contains(c.Roles, RoleLearner) || slices.Contains(c.Roles, "Learner")
}

// FullName is the launching user's name as the platform gives it: name,
// else given and family name, else "".
func (c Claims) FullName() string {
	if n := strings.TrimSpace(c.Name); n != "" {
		return n
	}
	return strings.TrimSpace(strings.TrimSpace(c.GivenName) + " " + strings.TrimSpace(c.FamilyName))
}
