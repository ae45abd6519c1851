package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"pigclass/server/lti"
)

// ErrNonceUsed: a launch's nonce was used before (a replayed token).
var ErrNonceUsed = errors.New("store: the nonce was used before")

// SavePlatform keeps a platform pigclass is registered with: a new one,
// or the same issuer and client id again with its addresses as now given
// and its deployments added to those it had. It returns the platform's id.
func (s *Store) SavePlatform(ctx context.Context, p lti.Platform) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO lti_platforms (issuer, client_id, login_url, token_url, keys_url, registered_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (issuer, client_id) DO UPDATE SET login_url = excluded.login_url, token_url = excluded.token_url, keys_url = excluded.keys_url
			RETURNING id`, p.Issuer, p.ClientID, p.LoginURL, p.TokenURL, p.KeysURL, s.stamp()).Scan(&id)
		if err != nil {
			return err
		}
		for _, d := range p.Deployments {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lti_deployments (platform_id, deployment_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, id, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: save platform: %w", err)
	}
	return id, nil
}

// Platforms are the platforms pigclass is registered with, with their
// deployments; issuer "" for all of them, else those of that issuer.
func (s *Store) Platforms(ctx context.Context, issuer string) ([]lti.Platform, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT p.id, p.issuer, p.client_id, p.login_url, p.token_url, p.keys_url, COALESCE(d.deployment_id, '')
		FROM lti_platforms p LEFT JOIN lti_deployments d ON d.platform_id = p.id
		WHERE ? = '' OR p.issuer = ? ORDER BY p.id, d.deployment_id`, issuer, issuer)
	if err != nil {
		return nil, fmt.Errorf("store: platforms: %w", err)
	}
	defer rows.Close()
	var out []lti.Platform
	for rows.Next() {
		var p lti.Platform
		var d string
		if err := rows.Scan(&p.ID, &p.Issuer, &p.ClientID, &p.LoginURL, &p.TokenURL, &p.KeysURL, &d); err != nil {
			return nil, err
		}
		if n := len(out); n == 0 || out[n-1].ID != p.ID {
			out = append(out, p)
		}
		if d != "" {
			last := &out[len(out)-1]
			last.Deployments = append(last.Deployments, d)
		}
	}
	return out, rows.Err()
}

// UseNonce records a launch's nonce as used until expires, when its token
// expires (and the records of nonces past theirs go): ErrNonceUsed if it
// was used before.
func (s *Store) UseNonce(ctx context.Context, nonce string, expires time.Time) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM lti_nonces WHERE expires_at < ?`, s.stamp()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO lti_nonces (nonce, expires_at) VALUES (?, ?)`, nonce, expires.UTC().Format(time.RFC3339Nano))
		return err
	})
	if isUnique(err) {
		return ErrNonceUsed
	}
	if err != nil {
		return fmt.Errorf("store: use nonce: %w", err)
	}
	return nil
}

// Link is a platform's resource link, and the class it opens: the
// course's members' address (NRPS) and the link's line item's (AGS), as
// its last launch gave them.
type Link struct {
	ClassID                      int64
	Issuer, ClientID, Deployment string
	Context, ResourceLink        string
	Members, LineItem            string
	// Score is what goes to the line item for a class without homework:
	// ScoreQuality or ScoreGames, as its teacher chose.
	Score string
}

// The scores a teacher chooses from for a class without homework.
const (
	ScoreQuality = "quality" // 100 minus the chance to win a game given away on average
	ScoreGames   = "games"   // the games played
)

const linkColumns = `class_id, issuer, client_id, deployment_id, context_id, resource_link_id, memberships_url, lineitem_url, score`

func scanLink(row interface{ Scan(...any) error }) (Link, error) {
	var l Link
	err := row.Scan(&l.ClassID, &l.Issuer, &l.ClientID, &l.Deployment, &l.Context, &l.ResourceLink, &l.Members, &l.LineItem, &l.Score)
	return l, err
}

// LinkedClass finds the class a resource link opens (with the context
// it was made in): ErrNotFound if it opens none yet.
func (s *Store) LinkedClass(ctx context.Context, l Link) (Link, error) {
	found, err := scanLink(s.rd.QueryRowContext(ctx, `SELECT `+linkColumns+` FROM lti_links WHERE issuer = ? AND client_id = ? AND deployment_id = ? AND resource_link_id = ?`,
		l.Issuer, l.ClientID, l.Deployment, l.ResourceLink))
	if errors.Is(err, sql.ErrNoRows) {
		return l, ErrNotFound
	}
	if err != nil {
		return l, fmt.Errorf("store: linked class: %w", err)
	}
	return found, nil
}

// ClassLink is the link a class opens from: ErrNotFound for a class no
// platform's link opens.
func (s *Store) ClassLink(ctx context.Context, classID int64) (Link, error) {
	l, err := scanLink(s.rd.QueryRowContext(ctx, `SELECT `+linkColumns+` FROM lti_links WHERE class_id = ?`, classID))
	if errors.Is(err, sql.ErrNoRows) {
		return l, ErrNotFound
	}
	if err != nil {
		return l, fmt.Errorf("store: class link: %w", err)
	}
	return l, nil
}

// SetLinkScore keeps the score its teacher chose for a class's link
// (ScoreQuality or ScoreGames).
func (s *Store) SetLinkScore(ctx context.Context, classID int64, score string) error {
	if _, err := s.exec(ctx, `UPDATE lti_links SET score = ? WHERE class_id = ?`, score, classID); err != nil {
		return fmt.Errorf("store: link score: %w", err)
	}
	return nil
}

// GradedLinks are the links whose launches gave a line item: the classes
// whose scores go to a gradebook.
func (s *Store) GradedLinks(ctx context.Context) ([]Link, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT `+linkColumns+` FROM lti_links WHERE lineitem_url <> '' ORDER BY class_id`)
	if err != nil {
		return nil, fmt.Errorf("store: graded links: %w", err)
	}
	defer rows.Close()
	var out []Link
	for rows.Next() {
		l, err := scanLink(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// SetLinkServices keeps the services' addresses a link's launch gave
// (an address not given keeps the one before).
func (s *Store) SetLinkServices(ctx context.Context, classID int64, members, lineItem string) error {
	_, err := s.exec(ctx, `UPDATE lti_links SET memberships_url = CASE WHEN ? = '' THEN memberships_url ELSE ? END,
		lineitem_url = CASE WHEN ? = '' THEN lineitem_url ELSE ? END WHERE class_id = ?`, members, members, lineItem, lineItem, classID)
	if err != nil {
		return fmt.Errorf("store: link services: %w", err)
	}
	return nil
}

// LinkClass ties a class to the resource link that made it.
func (s *Store) LinkClass(ctx context.Context, l Link) error {
	_, err := s.exec(ctx, `INSERT INTO lti_links (`+linkColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ClassID, l.Issuer, l.ClientID, l.Deployment, l.Context, l.ResourceLink, l.Members, l.LineItem, cmp.Or(l.Score, ScoreQuality))
	if isUnique(err) {
		return ErrLinkTaken
	}
	if err != nil {
		return fmt.Errorf("store: link class: %w", err)
	}
	return nil
}

// ErrLinkTaken: another launch tied the resource link to a class first.
var ErrLinkTaken = errors.New("store: the resource link opens another class")

// MemberOf finds the student of a class the platform's user came in as:
// ErrNotFound if they have not launched into it.
func (s *Store) MemberOf(ctx context.Context, classID int64, user string) (Student, error) {
	st, err := scanStudent(s.rd.QueryRowContext(ctx, `SELECT `+studentColumns+` FROM students WHERE id = (SELECT student_id FROM lti_members WHERE class_id = ? AND user_id = ?)`, classID, user))
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrNotFound
	}
	if err != nil {
		return st, fmt.Errorf("store: member: %w", err)
	}
	return st, nil
}

// HeldByMember reports whether the browser whose token hash is token
// holds a seat of the platform's user user: a seat that came from a
// launch of the same platform (the issuer of class classID's link) for
// the same user id, in any class.
func (s *Store) HeldByMember(ctx context.Context, token, user string, classID int64) (bool, error) {
	var n int
	err := s.rd.QueryRowContext(ctx, `SELECT COUNT(*) FROM students s JOIN lti_members m ON m.student_id = s.id JOIN lti_links l ON l.class_id = s.class_id
		WHERE s.token_hash = ? AND m.user_id = ? AND l.issuer = (SELECT issuer FROM lti_links WHERE class_id = ?)`, token, user, classID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store: held by member: %w", err)
	}
	return n > 0, nil
}

// AddMembers stores students who came from a platform (a launch, or the
// course's roster), each with the platform's user id (users[i] is
// sts[i]'s), in one write: ErrNicknameTaken for a name the class holds.
func (s *Store) AddMembers(ctx context.Context, sts []Student, users []string) ([]Student, error) {
	return s.addStudents(ctx, sts, users)
}

// Members are the platform's user ids of a class's students who came
// from it, by student.
func (s *Store) Members(ctx context.Context, classID int64) (map[int64]string, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT student_id, user_id FROM lti_members WHERE class_id = ?`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: members: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var user string
		if err := rows.Scan(&id, &user); err != nil {
			return nil, err
		}
		out[id] = user
	}
	return out, rows.Err()
}

// ScoreSent is what was last sent of a student's score, or tried.
type ScoreSent struct {
	Sent     string // the score last sent ("" for none yet)
	Failures int    // tries that failed since
	RetryAt  time.Time
}

// ScoresSent are the scores sent of a class's students, by student.
func (s *Store) ScoresSent(ctx context.Context, classID int64) (map[int64]ScoreSent, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT student_id, sent, failures, COALESCE(retry_at, '') FROM lti_scores WHERE class_id = ?`, classID)
	if err != nil {
		return nil, fmt.Errorf("store: scores sent: %w", err)
	}
	defer rows.Close()
	out := map[int64]ScoreSent{}
	for rows.Next() {
		var id int64
		var ss ScoreSent
		var retry string
		if err := rows.Scan(&id, &ss.Sent, &ss.Failures, &retry); err != nil {
			return nil, err
		}
		if retry != "" {
			ss.RetryAt = parseTime(retry)
		}
		out[id] = ss
	}
	return out, rows.Err()
}

// SentScore records a score sent to the gradebook (failures 0), or a try
// that failed (sent is then the score last sent, failures counted, and
// retry when to try again).
func (s *Store) SentScore(ctx context.Context, classID, studentID int64, ss ScoreSent) error {
	var retry any
	if !ss.RetryAt.IsZero() {
		retry = ss.RetryAt.UTC().Format(time.RFC3339Nano)
	}
	_, err := s.exec(ctx, `INSERT INTO lti_scores (student_id, class_id, sent, sent_at, failures, retry_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (student_id) DO UPDATE SET sent = excluded.sent, sent_at = CASE WHEN excluded.failures = 0 THEN excluded.sent_at ELSE lti_scores.sent_at END,
		failures = excluded.failures, retry_at = excluded.retry_at`, studentID, classID, ss.Sent, s.stamp(), ss.Failures, retry)
	if err != nil {
		return fmt.Errorf("store: sent score: %w", err)
	}
	return nil
}

// SealedKey is one of pigclass's signing keys as stored (lti.ToolKey).
type SealedKey struct {
	ID      string
	Sealed  string // lti.ToolKey.Seal's
	Retired bool
}

// ToolKeys are pigclass's signing keys, the newest first.
func (s *Store) ToolKeys(ctx context.Context) ([]SealedKey, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT kid, sealed, retired_at IS NOT NULL FROM lti_keys ORDER BY created_at DESC, kid`)
	if err != nil {
		return nil, fmt.Errorf("store: tool keys: %w", err)
	}
	defer rows.Close()
	var out []SealedKey
	for rows.Next() {
		var k SealedKey
		if err := rows.Scan(&k.ID, &k.Sealed, &k.Retired); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// AddToolKey keeps a new signing key, the one signed with from now on;
// the one before it is still published until the next (a platform may
// hold a token it signed), and any older is retired.
func (s *Store) AddToolKey(ctx context.Context, k SealedKey) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE lti_keys SET retired_at = ? WHERE retired_at IS NULL AND kid <> (SELECT kid FROM lti_keys ORDER BY created_at DESC, kid LIMIT 1)`, s.stamp()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO lti_keys (kid, sealed, created_at) VALUES (?, ?, ?)`, k.ID, k.Sealed, s.stamp())
		return err
	})
	if err != nil {
		return fmt.Errorf("store: add tool key: %w", err)
	}
	return nil
}
