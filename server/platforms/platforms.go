// Package platforms is what pigclass keeps of the learning platforms it
// serves by LTI 1.3 (the protocol: server/lti), over the store: the
// platforms registered, the class each resource link opens, the
// platform's user id of each student who came from one, the nonces used,
// pigclass's own signing keys (sealed with the server's key), and the
// scores sent to the platforms' gradebooks, which it works out and sends
// itself (SendScores). The server's handlers ask it; it handles no
// request.
package platforms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"sync"
	"time"

	"pigclass/server/lti"
	"pigclass/server/store"
	"pigclass/templates/i18n"
)

// Platforms is the server's part in LTI 1.3: the store's, the platforms'
// keys fetched and kept (Keys), the access tokens got from them
// (Tokens), and the origins that may show pigclass in a frame.
type Platforms struct {
	st     *store.Store
	key    []byte // the server's: pigclass's signing keys are sealed with it
	now    func() time.Time
	log    *slog.Logger
	Keys   *lti.Keys
	Tokens *lti.Tokens
	Client *http.Client
	Stop   chan struct{} // ends the scores' loop (SendScoresEvery)
	// Making holds one resource link's class being made at a time.
	Making sync.Mutex

	frames  frames  // the origins that may frame pigclass's pages (frames.go)
	rosters rosters // the courses' rosters as last read (rosters.go)
}

// New is the platforms of the store st, for a server with key.
func New(st *store.Store, key []byte, now func() time.Time, log *slog.Logger) *Platforms {
	client := &http.Client{Timeout: 10 * time.Second}
	return &Platforms{st: st, key: key, now: now, log: log, Keys: &lti.Keys{Client: client, Now: now}, Tokens: &lti.Tokens{Client: client, Now: now},
		Client: client, Stop: make(chan struct{})}
}

// Load allows the registered platforms to frame pages.
func (l *Platforms) Load(ctx context.Context) error {
	ps, err := l.st.Platforms(ctx, "")
	for _, p := range ps {
		l.frames.allow(p.Issuer, false, p.Issuer, p.LoginURL)
	}
	return err
}

// The store's, for the handlers.

// Save keeps a platform registered (store.SavePlatform) and lets it frame
// pigclass.
func (l *Platforms) Save(ctx context.Context, p lti.Platform) error {
	if _, err := l.st.SavePlatform(ctx, p); err != nil {
		return err
	}
	l.frames.allow(p.Issuer, false, p.Issuer, p.LoginURL)
	return nil
}

// List is the platforms registered: issuer "" for all, else that issuer's.
func (l *Platforms) List(ctx context.Context, issuer string) ([]lti.Platform, error) {
	return l.st.Platforms(ctx, issuer)
}

// UseNonce records a launch's nonce as used (store.UseNonce).
func (l *Platforms) UseNonce(ctx context.Context, nonce string, expires time.Time) error {
	return l.st.UseNonce(ctx, nonce, expires)
}

// LinkedClass finds the class a resource link opens (store.LinkedClass).
func (l *Platforms) LinkedClass(ctx context.Context, link store.Link) (store.Link, error) {
	return l.st.LinkedClass(ctx, link)
}

// LinkClass ties a class to the resource link that made it: its pages
// may be framed by the link's platform.
func (l *Platforms) LinkClass(ctx context.Context, link store.Link) error {
	if err := l.st.LinkClass(ctx, link); err != nil {
		return err
	}
	l.frames.linked(link.ClassID, link.Issuer)
	return nil
}

// SetServices keeps the services' addresses a link's launch gave.
func (l *Platforms) SetServices(ctx context.Context, classID int64, members, lineItem string) error {
	return l.st.SetLinkServices(ctx, classID, members, lineItem)
}

// ClassLink is the link a class opens from (store.ErrNotFound for none).
func (l *Platforms) ClassLink(ctx context.Context, classID int64) (store.Link, error) {
	return l.st.ClassLink(ctx, classID)
}

// SetScore keeps what a link's gradebook column gets (store.ScoreQuality
// or store.ScoreGames).
func (l *Platforms) SetScore(ctx context.Context, classID int64, score string) error {
	return l.st.SetLinkScore(ctx, classID, score)
}

// Members are the platform's user ids of a class's students, by student.
func (l *Platforms) Members(ctx context.Context, classID int64) (map[int64]string, error) {
	return l.st.Members(ctx, classID)
}

// HasHomework reports whether a class has homework (a link's, made by
// deep linking: its score is the homework's).
func (l *Platforms) HasHomework(ctx context.Context, classID int64) (bool, error) {
	as, err := l.st.Assignments(ctx, classID)
	return len(as) > 0, err
}

// pigclass's own keys.

// ToolKeys are pigclass's published signing keys, the one it signs with
// first: a first one made if there is none.
func (l *Platforms) ToolKeys(ctx context.Context) ([]lti.ToolKey, error) {
	sealed, err := l.st.ToolKeys(ctx)
	if err != nil {
		return nil, err
	}
	if len(sealed) == 0 {
		if err := Rotate(ctx, l.st, l.key); err != nil {
			return nil, err
		}
		if sealed, err = l.st.ToolKeys(ctx); err != nil {
			return nil, err
		}
	}
	var keys []lti.ToolKey
	for _, k := range sealed {
		if k.Retired {
			continue
		}
		key, err := lti.OpenToolKey(k.ID, k.Sealed, l.key)
		if err != nil {
			return nil, err
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// SigningKey is the key pigclass signs with now (its newest published).
func (l *Platforms) SigningKey(ctx context.Context) (lti.ToolKey, error) {
	keys, err := l.ToolKeys(ctx)
	if err != nil {
		return lti.ToolKey{}, err
	}
	return keys[0], nil
}

// Rotate makes pigclass a new signing key for its platforms, sealed with
// the server's key, and signs with it from now on (pigclass lti rotate):
// the key before it is still published until the next rotation.
func Rotate(ctx context.Context, st *store.Store, serverKey []byte) error {
	k, err := lti.NewToolKey()
	if err != nil {
		return err
	}
	sealed, err := k.Seal(serverKey)
	if err != nil {
		return err
	}
	return st.AddToolKey(ctx, store.SealedKey{ID: k.ID, Sealed: sealed})
}

// The course's roster.

// Roster reads a link's course's members (NRPS): the learners still in
// it, and the user ids of those who left it.
func (l *Platforms) Roster(ctx context.Context, p lti.Platform, link store.Link) (learners []lti.Member, left map[string]bool, err error) {
	key, err := l.SigningKey(ctx)
	if err != nil {
		return nil, nil, err
	}
	token, err := l.Tokens.Token(ctx, p, key, lti.ScopeMembers)
	if err != nil {
		return nil, nil, err
	}
	members, err := lti.Members(ctx, l.Client, link.Members, token)
	if err != nil {
		return nil, nil, err
	}
	left = map[string]bool{}
	for _, m := range members {
		switch {
		case !m.Learner():
		case m.Active():
			learners = append(learners, m)
		default:
			left[m.UserID] = true
		}
	}
	return learners, left, nil
}

// scoresEvery is how often the scores that changed are sent.
const scoresEvery = time.Minute

// SendScoresEvery sends the scores that changed every scoresEvery, until
// Stop is closed; serves says which classes are this instance's (nil:
// all).
func (l *Platforms) SendScoresEvery(serves func(classID int64) bool) {
	t := time.NewTicker(scoresEvery)
	defer t.Stop()
	for {
		select {
		case <-l.Stop:
			return
		case <-t.C:
			if _, err := l.SendScores(context.Background(), serves); err != nil {
				l.log.Error("lti: scores", "err", err)
			}
		}
	}
}

// retryAfter is how long a score that could not be sent waits before it
// is tried again: a tick (a minute) for the first retryEvery failures, so
// that a platform back from an outage of up to that long gets each
// learner's score within a minute (issue 79); then doubled after each
// failure, at most six hours.
func retryAfter(failures int) time.Duration {
	if failures <= retryEvery {
		return scoresEvery
	}
	return min(scoresEvery<<min(failures-retryEvery, 10), 6*time.Hour)
}

// retryEvery is how many failures of a score are tried again at every tick.
const retryEvery = 15

// retryDue reports whether a score that was not sent is due again at the
// tick at now. Ticks come every scoresEvery, a little early or late: a
// retry due within half a tick goes at this one, not a whole tick later.
func retryDue(was store.ScoreSent, now time.Time) bool {
	return was.Failures == 0 || !now.Before(was.RetryAt.Add(-scoresEvery/2))
}

// SendScores sends each linked class's learners' scores that changed
// since they were last sent to the link's line item: once a value, a
// failure tried again after retryAfter; of the classes serves says (on a
// district, an instance sends those of the classes it serves). It returns how many it sent.
func (l *Platforms) SendScores(ctx context.Context, serves func(classID int64) bool) (int, error) {
	links, err := l.st.GradedLinks(ctx)
	if err != nil {
		return 0, err
	}
	sent := 0
	var errs []error
	for _, link := range links {
		if serves != nil && !serves(link.ClassID) {
			continue
		}
		n, err := l.sendLinkScores(ctx, link)
		sent += n
		if err != nil {
			errs = append(errs, fmt.Errorf("class %d: %w", link.ClassID, err))
		}
	}
	return sent, errors.Join(errs...)
}

// sendLinkScores sends one link's class's scores that changed.
func (l *Platforms) sendLinkScores(ctx context.Context, link store.Link) (int, error) {
	p, err := l.linkPlatform(ctx, link)
	if err != nil {
		return 0, err
	}
	scores, err := l.linkScores(ctx, link, p)
	if err != nil || len(scores) == 0 {
		return 0, err
	}
	before, err := l.st.ScoresSent(ctx, link.ClassID)
	if err != nil {
		return 0, err
	}
	now := l.now()
	token, sent := "", 0
	for id, sc := range scores {
		value := fmt.Sprintf("%g/%g %s", sc.ScoreGiven, sc.ScoreMaximum, sc.ActivityProgress)
		was := before[id]
		if was.Sent == value || !retryDue(was, now) {
			continue
		}
		if token == "" {
			key, err := l.SigningKey(ctx)
			if err != nil {
				return sent, err
			}
			if token, err = l.Tokens.Token(ctx, p, key, lti.ScopeScore); err != nil {
				return sent, err
			}
		}
		sc.Timestamp = now.UTC().Format(time.RFC3339Nano)
		next := store.ScoreSent{Sent: value}
		if err := lti.SendScore(ctx, l.Client, link.LineItem, token, sc); err != nil {
			l.log.Warn("lti: a score was not sent", "class", link.ClassID, "err", err)
			next = store.ScoreSent{Sent: was.Sent, Failures: was.Failures + 1}
			next.RetryAt = now.Add(retryAfter(next.Failures))
		} else {
			sent++
		}
		if err := l.st.SentScore(ctx, link.ClassID, id, next); err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// linkPlatform is the registered platform of a link.
func (l *Platforms) linkPlatform(ctx context.Context, link store.Link) (lti.Platform, error) {
	ps, err := l.st.Platforms(ctx, link.Issuer)
	if err != nil {
		return lti.Platform{}, err
	}
	for _, p := range ps {
		if p.ClientID == link.ClientID {
			return p, nil
		}
	}
	return lti.Platform{}, fmt.Errorf("lti: %s (client id %s) is registered no more", link.Issuer, link.ClientID)
}

// linkScores are the scores of a linked class's learners who came from
// the platform, by student, once they played: for a class with homework
// (the link's, made by deep linking), the games of it played of the games
// it asks; else what its teacher chose (unitScores). The comment says
// which, in the class's language.
func (l *Platforms) linkScores(ctx context.Context, link store.Link, p lti.Platform) (map[int64]lti.Score, error) {
	st := l.st
	class, err := st.ClassByID(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	members, err := st.Members(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	words := i18n.For(cmp.Or(class.Language, "en"))
	as, err := st.Assignments(ctx, link.ClassID)
	if err != nil || len(as) == 0 {
		if err != nil {
			return nil, err
		}
		return l.unitScores(ctx, link, p, members, words)
	}
	hw := as[0]
	done, err := st.Homework(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	played := map[int64]int{}
	for _, d := range done {
		if d.AssignmentID == hw.ID {
			played[d.StudentID] = d.Done
		}
	}
	out := map[int64]lti.Score{}
	for id, user := range members {
		if n := min(played[id], hw.Games); n > 0 {
			out[id] = score(user, float64(n), float64(hw.Games), n == hw.Games, words.T("lti.score.homework", "Done", words.Int(n), "Games", words.Int(hw.Games)))
		}
	}
	return out, nil
}

// unitScores are the scores of a class without homework, as its teacher
// chose: the quality of each learner's decisions, 100 minus the chance to
// win a game they gave away on average in percentage points (the
// cost_per_game_pct of students.csv); or the games they played, out of the
// line item's maximum.
func (l *Platforms) unitScores(ctx context.Context, link store.Link, p lti.Platform, members map[int64]string, words *i18n.Localizer) (map[int64]lti.Score, error) {
	stats, _, err := l.st.ClassStats(ctx, link.ClassID)
	if err != nil {
		return nil, err
	}
	most := 100.0
	if link.Score == store.ScoreGames {
		if most, err = l.lineItemMax(ctx, link, p); err != nil {
			return nil, err
		}
	}
	out := map[int64]lti.Score{}
	for id, user := range members {
		x := stats[id]
		switch {
		case x.Games == 0:
		case link.Score == store.ScoreGames:
			out[id] = score(user, min(float64(x.Games), most), most, false, words.N("lti.score.games", x.Games, "Games", words.Int(x.Games)))
		default:
			perGame := 100 * x.Cost / float64(x.Games)
			quality := math.Round(max(0, 100-perGame)*100) / 100
			out[id] = score(user, quality, 100, false, words.N("lti.score.quality", x.Games, "Lost", words.Dec(perGame, 1), "Games", words.Int(x.Games)))
		}
	}
	return out, nil
}

// score is a learner's score, graded, in progress or completed.
func score(user string, given, most float64, completed bool, comment string) lti.Score {
	sc := lti.Score{UserID: user, ScoreGiven: given, ScoreMaximum: most, ActivityProgress: "InProgress", GradingProgress: "FullyGraded", Comment: comment}
	if completed {
		sc.ActivityProgress = "Completed"
	}
	return sc
}

// lineItemMax is the maximum score of a link's line item, as the platform
// says.
func (l *Platforms) lineItemMax(ctx context.Context, link store.Link, p lti.Platform) (float64, error) {
	key, err := l.SigningKey(ctx)
	if err != nil {
		return 0, err
	}
	token, err := l.Tokens.Token(ctx, p, key, lti.ScopeItems)
	if err != nil {
		return 0, err
	}
	return lti.LineItemMax(ctx, l.Client, link.LineItem, token)
}
