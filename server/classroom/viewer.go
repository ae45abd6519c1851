package classroom

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"

	"pigclass/server/play"
	"pigclass/server/store"
)

// # Who may see what
//
// Every read and operation of a class's things takes a Viewer: who is
// asking, as the room found them from the credentials their browser
// showed (Identify). The room checks the viewer first, before it does or
// says anything else, and a viewer who may not see a thing gets the same
// refusal as for a thing that does not exist (play.ErrNotSeated for a match):
// no redirect, no "not playing", no board, and no class language.

// Credentials are what a browser showed, not yet checked: the class code
// of the address (empty on addresses without one, such as a practice
// match's), the hash of its player token, and the teacher's secret and
// projector key it holds for that class.
type Credentials struct {
	Code          string
	TokenHash     string
	TeacherSecret string
	ProjectorKey  string
	// InMemory looks the class up only among those in memory: for a page
	// a stranger can reach, which must not load a class (nor time itself
	// by one) for a code it was merely shown.
	InMemory bool
}

// Viewer is who is asking, checked: a stranger (the zero value), a
// browser with a player token (its own practice matches), a student of a
// class, the class's teacher or its projector. Only Identify makes one
// with a class.
type Viewer struct {
	code      string // the class code of the address, "" for none
	cls       *class // the class of the address, when the viewer is in it
	token     string // the player token's hash, "" if none
	student   int64  // the student of cls this browser is, or 0
	teacher   bool   // holds cls's teacher secret
	projector bool   // holds cls's projector key (or the teacher's secret)
	removed   bool   // the player token was a student of the code's class, removed by its teacher
}

// Stranger is a viewer the room knows nothing of.
var Stranger = Viewer{}

// Identify checks credentials and returns who they make the browser. An
// unknown code, or a code whose class the browser is not in, gives a
// viewer of no class: as a stranger to every class, whichever it was.
func (r *Room) Identify(ctx context.Context, cr Credentials) (Viewer, error) {
	v := Viewer{token: cr.TokenHash, code: cr.Code}
	if cr.Code == "" {
		return v, nil
	}
	var c *class
	var err error
	if cr.InMemory {
		if c = r.classes.inMemory(cr.Code); c == nil {
			return v, nil
		}
	} else if c, err = r.classes.byCode(ctx, cr.Code); errors.Is(err, store.ErrNotFound) {
		return v, nil
	}
	if err != nil {
		return Stranger, err
	}
	snap := c.snap.Load()
	v.teacher = SameHash(cr.TeacherSecret, snap.TeacherHash)
	v.projector = v.teacher || cr.ProjectorKey != "" && hmac.Equal([]byte(cr.ProjectorKey), []byte(r.ProjectorKey(snap)))
	if st, ok := snap.Student(cr.TokenHash); ok && cr.TokenHash != "" {
		v.student = st.ID
	}
	v.removed = cr.TokenHash != "" && v.student == 0 && snap.WasRemoved(cr.TokenHash)
	if v.teacher || v.projector || v.student != 0 {
		v.cls = c
	}
	return v, nil
}

// Operator returns the teacher of the class with the code as the
// machine's own operator sees it: for the command line and for tests that
// drive the room directly, never for a request (a test of package server
// holds its handlers to that).
func (r *Room) Operator(ctx context.Context, code string) (Viewer, error) {
	c, err := r.classes.byCode(ctx, code)
	if err != nil {
		return Stranger, err
	}
	return Viewer{code: code, cls: c, teacher: true, projector: true}, nil
}

// Class returns the class the viewer is in (as its student, teacher or
// projector), as last changed, or nil.
func (v Viewer) Class() *Class {
	if v.cls == nil {
		return nil
	}
	return v.cls.snap.Load()
}

// Teacher reports whether the viewer is the class's teacher.
func (v Viewer) Teacher() bool { return v.teacher }

// Projector reports whether the viewer may see the class's projector (its
// read-only key, or the teacher's secret).
func (v Viewer) Projector() bool { return v.projector }

// Removed reports whether the browser was a student of the address's
// class whom its teacher removed: they alone may be told so.
func (v Viewer) Removed() bool { return v.removed }

// Student returns the viewer's student in the class, if they are one.
func (v Viewer) Student() (store.Student, bool) {
	if v.cls == nil || v.student == 0 {
		return store.Student{}, false
	}
	return v.cls.snap.Load().Student(v.token)
}

// Seer is the viewer as the hall sees who asks for a match
// (play.Hall.See): their token, the address's code, the class they are in
// there and whether they teach it.
func (v Viewer) Seer() play.Seer {
	s := play.Seer{Token: v.token, Code: v.code, Teacher: v.teacher}
	if v.cls != nil {
		s.ClassID = v.cls.id
	}
	return s
}

// Refusals of the class operations, the same whether the class exists or
// not.
var (
	ErrNotTeacher = errors.New("only the class's teacher may do this")
	ErrNotStudent = errors.New("only a student of the class may do this")
)

// teaching returns the class of a viewer who is its teacher.
func (v Viewer) teaching() (*class, error) {
	if v.cls == nil || !v.teacher {
		return nil, ErrNotTeacher
	}
	return v.cls, nil
}

// studying returns the class of a viewer who is its student, and who.
func (v Viewer) studying() (*class, int64, error) {
	if v.cls == nil || v.student == 0 {
		return nil, 0, ErrNotStudent
	}
	return v.cls, v.student, nil
}

// HashToken is how secrets are stored: SHA-256, hex.
func HashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}

// SameHash compares a secret with a stored hash in constant time.
func SameHash(secret, hash string) bool {
	return secret != "" && subtle.ConstantTimeCompare([]byte(HashToken(secret)), []byte(hash)) == 1
}

// ProjectorKey is a class's read-only projector key, derived with the
// server's own key (never stored in the database) from the teacher's
// secret's stored hash: a copy of the database cannot give it away, it
// cannot be turned back into the secret, and it is the same after a
// restart.
func (r *Room) ProjectorKey(class *Class) string {
	mac := hmac.New(sha256.New, r.key)
	mac.Write([]byte("pigclass-projector-v2\x00" + class.TeacherHash))
	return hex.EncodeToString(mac.Sum(nil))[:32]
}

// Playing returns the viewer student's match in the class's open round
// (being played, or finished), or nil.
func (v Viewer) Playing() *play.Match {
	c, student, err := v.studying()
	if err != nil {
		return nil
	}
	return c.playing(student)
}

// Showing returns the viewer student's match in the class's open round as
// their screen is about to show it: if it is their move, the deadline
// counts from this first showing (see shownTo).
func (r *Room) Showing(v Viewer) *play.Match {
	m := v.Playing()
	if m == nil {
		return nil
	}
	if seat := m.SeatOf(v.student); seat >= 0 {
		return r.hall.Showing(m, seat)
	}
	return m
}

// Skunk returns the class's game of Skunk for any of its members (being
// played, or ended and still shown), or nil.
func (v Viewer) Skunk() *Skunk {
	if v.cls == nil {
		return nil
	}
	if k := v.cls.skunk.Load(); k != nil {
		return k.snap.Load()
	}
	return nil
}

// Matches returns the class's matches of the open round, in ID order, for
// its teacher.
func (v Viewer) Matches() []*play.Match {
	c, err := v.teaching()
	if err != nil {
		return nil
	}
	return c.matches()
}

// Stats returns a copy of every student's totals in the class, and the
// number of decisions (of anyone) in it, for its teacher.
func (v Viewer) Stats() (map[int64]store.StudentStats, int) {
	c, err := v.teaching()
	if err != nil {
		return nil, 0
	}
	return c.statsCopy()
}

// HomeworkVersion moves whenever the class's assignments change (one is
// set, closed, reopened or moved): a page that lists them asks for it
// again when it moved.
func (v Viewer) HomeworkVersion() int64 {
	if v.cls == nil {
		return 0
	}
	return v.cls.hwVer.Load()
}

// MyStats are the viewer student's totals in the class (the unit's),
// from memory: false for anyone who is not a student of it.
func (v Viewer) MyStats() (store.StudentStats, bool) {
	c, student, err := v.studying()
	if err != nil {
		return store.StudentStats{}, false
	}
	c.statsMu.Lock()
	defer c.statsMu.Unlock()
	return c.stats[student], true
}

// Activity is the class's change counter for its members: it moves
// whenever anything in the class does, a move in any of its matches
// included.
func (v Viewer) Activity() int64 {
	if v.cls == nil {
		return 0
	}
	return v.cls.activity.Load()
}

// RoundProgress counts the open round's matches being played and those
// no longer played (finished, or ended by the teacher: Match.Over, as the
// dashboard counts them), for whoever may see the class's projector.
func (v Viewer) RoundProgress() (playing, finished int) {
	if v.cls == nil || !v.Projector() {
		return 0, 0
	}
	for _, m := range v.cls.matches() {
		if m.Over() {
			finished++
		} else {
			playing++
		}
	}
	return playing, finished
}

// ClassOf returns the class in memory the browser with this token hash is
// a student of, for a page that is not a class's (the front page's
// practice): the one with a round open, else the latest; false if none.
// A class on disk alone has no round being played.
func (r *Room) ClassOf(tokenHash string) (*Class, bool) {
	if tokenHash == "" {
		return nil, false
	}
	var best *Class
	for _, c := range r.classes.all() {
		snap := c.snap.Load()
		if _, ok := snap.byToken[tokenHash]; !ok {
			continue
		}
		if best == nil || (snap.Round != nil) != (best.Round != nil) && snap.Round != nil ||
			(snap.Round != nil) == (best.Round != nil) && snap.ID > best.ID {
			best = snap
		}
	}
	return best, best != nil
}
