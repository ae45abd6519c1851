package classroom

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"pigclass/server/store"
)

// Member seats a learning platform's user (LTI: the platform's user id
// and the name it gives) in the class as a student, on the browser whose
// token hash becomes newToken: the student they came in as before, whose
// seat moves to this browser, or a new one named as the platform names
// them. The browser's other seats (oldToken's) move with it only if it
// was this same user's (it holds a seat of theirs from the same
// platform); a browser that was another's, or a nickname's, is signed
// out of them all and holds this user's seat alone (issue 79: a shared
// Chromebook's next learner is not handed the last one's seats). A
// student the teacher removed is ErrRemoved. No code and no nickname are
// asked for: the platform vouched for the user. A locked class still
// takes them: the lock keeps out those who only know its code.
func (r *Room) Member(ctx context.Context, classID int64, user, name, oldToken, newToken string) (store.Student, error) {
	c, err := r.classes.load(ctx, classID)
	if err != nil {
		return store.Student{}, err
	}
	if oldToken != "" {
		same, err := r.st.HeldByMember(ctx, oldToken, user, classID)
		if err != nil {
			return store.Student{}, err
		}
		if !same {
			oldToken = "" // another's browser: its seats stay behind
		}
	}
	if err := r.rotateToken(ctx, oldToken, newToken); err != nil {
		return store.Student{}, err
	}
	var st store.Student
	err = c.save(func() error {
		st, err = r.st.MemberOf(ctx, classID, user)
		switch {
		case err == nil && st.Removed:
			return ErrRemoved
		case err == nil:
			st.TokenHash = newToken
			return r.retokenSaving(ctx, c, st.ID, newToken, false)
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		added, err := r.addMembers(ctx, c, []Newcomer{{User: user, Name: name}}, newToken)
		if err == nil {
			st = added[0]
		}
		return err
	})
	return st, err
}

// Newcomer is a platform's user to seat: their id and name there.
type Newcomer struct{ User, Name string }

// AddCourseMembers seats the course's learners a class does not hold yet
// (the platform's roster, NRPS) as students who have not started: each
// named as the platform names them, their seat taken on their first
// launch. It returns those added.
func (r *Room) AddCourseMembers(ctx context.Context, classID int64, members []Newcomer) ([]store.Student, error) {
	c, err := r.classes.load(ctx, classID)
	if err != nil {
		return nil, err
	}
	var added []store.Student
	err = c.save(func() error {
		held, err := r.st.Members(ctx, classID)
		if err != nil {
			return err
		}
		there := make(map[string]bool, len(held))
		for _, u := range held {
			there[u] = true
		}
		var fresh []Newcomer
		for _, m := range members {
			if !there[m.User] {
				there[m.User] = true
				fresh = append(fresh, m)
			}
		}
		if len(fresh) > 0 {
			added, err = r.addMembers(ctx, c, fresh, "")
		}
		return err
	})
	return added, err
}

// addMembers stores newcomers as students of c, within c.save: on the
// browser with token hash token, or ("") not started yet (an unclaimed
// token, as a class list's).
func (r *Room) addMembers(ctx context.Context, c *class, newcomers []Newcomer, token string) ([]store.Student, error) {
	snap := c.snap.Load()
	taken := make(map[string]bool, len(snap.Students)+len(newcomers))
	for _, other := range snap.Students {
		taken[other.AnonName] = true
	}
	var names []string
	sts := make([]store.Student, len(newcomers))
	users := make([]string, len(newcomers))
	for i, n := range newcomers {
		nick := freeName(snap, n.Name, names...)
		names = append(names, nick)
		sts[i] = store.Student{ClassID: c.id, Nickname: nick, AnonName: AnonName(r.chance, taken), TokenHash: token}
		taken[sts[i].AnonName] = true
		if token == "" {
			sts[i].TokenHash, sts[i].Roster = UnclaimedPrefix+r.chance.Seed().String(), true
		}
		users[i] = n.User
	}
	added, err := r.st.AddMembers(ctx, sts, users)
	if err != nil {
		return nil, err
	}
	c.seat(added)
	return added, nil
}

// freeName is the platform's name for a student as a nickname the class
// does not hold (nor one that looks like it, nor one of also): the name
// as the platform gives it (PlatformName), with " 2", " 3"... after a name
// held; "Student" for a name with nothing left to show.
func freeName(snap *Class, name string, also ...string) string {
	base := PlatformName(name)
	if base == "" {
		base = "Student"
	}
	held := looks{}
	for _, n := range also {
		held.add(lookOf(n), n)
	}
	for _, list := range [][]store.Student{snap.Students, snap.Removed} {
		for _, st := range list {
			held.add(lookOf(st.Nickname), st.Nickname)
		}
	}
	for i := 1; ; i++ {
		n := base
		if i > 1 {
			suffix := " " + strconv.Itoa(i)
			n = strings.TrimSpace(cut(base, MaxPlatformName-len(suffix))) + suffix
		}
		if held.find(lookOf(n)) == "" {
			return n
		}
	}
}

// cut is s cut to at most n runes.
func cut(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
