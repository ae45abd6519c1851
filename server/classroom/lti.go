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
// token hash becomes newToken (its other identities move from oldToken,
// as on every join): the student they came in as before, whose seat moves
// to this browser, or a new one named as the platform names them. A
// student the teacher removed is ErrRemoved. No code and no nickname are
// asked for: the platform vouched for the user. A locked class still
// takes them: the lock keeps out those who only know its code.
func (r *Room) Member(ctx context.Context, classID int64, user, name, oldToken, newToken string) (store.Student, error) {
	c, err := r.classes.load(ctx, classID)
	if err != nil {
		return store.Student{}, err
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
		snap := c.snap.Load()
		taken := make(map[string]bool, len(snap.Students))
		for _, other := range snap.Students {
			taken[other.AnonName] = true
		}
		fresh := store.Student{ClassID: classID, Nickname: freeName(snap, name), AnonName: AnonName(r.chance, taken), TokenHash: newToken}
		if st, err = r.st.AddMember(ctx, fresh, user); err != nil {
			return err
		}
		c.seat([]store.Student{st})
		return nil
	})
	return st, err
}

// freeName is the platform's name for a student as a nickname the class
// does not hold (nor one that looks like it): the name as the nickname
// rules prepare it, cut to their length, with " 2", " 3"... after a name
// held; "Student" for a name the rules refuse.
func freeName(snap *Class, name string) string {
	base, err := Nickname(cut(name, MaxNickname))
	if err != nil {
		base = "Student"
	}
	held := map[string]bool{}
	for _, list := range [][]store.Student{snap.Students, snap.Removed} {
		for _, st := range list {
			held[skeleton(st.Nickname)] = true
		}
	}
	for i := 1; ; i++ {
		n := base
		if i > 1 {
			suffix := " " + strconv.Itoa(i)
			n = strings.TrimSpace(cut(base, MaxNickname-len(suffix))) + suffix
		}
		if !held[skeleton(n)] {
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
