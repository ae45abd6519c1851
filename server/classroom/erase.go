package classroom

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"slices"

	"pigclass/server/play"
	"pigclass/server/store"
)

// EraseStudent erases one student of the class, for its teacher: a student
// still in the class is removed first (their match being played ends,
// they leave a game of Skunk), then their nickname, generated name and
// device token go everywhere (store.EraseStudent). Their moves stay under
// "erased student N", so that classmates' matches replay and their
// records are issued afresh with that name. It returns the student as now
// stored.
func (r *Room) EraseStudent(ctx context.Context, v Viewer, studentID int64) (store.Student, error) {
	c, err := v.teaching()
	if err != nil {
		return store.Student{}, err
	}
	var erased store.Student
	err = c.change(func() error {
		snap := c.snap.Load()
		if slices.ContainsFunc(snap.Students, func(s store.Student) bool { return s.ID == studentID }) {
			if err := r.removeStudent(ctx, c, studentID); err != nil {
				return err
			}
		}
		st, err := r.st.EraseStudent(ctx, c.id, studentID)
		if err != nil {
			return err
		}
		erased = st
		r.hall.Reseat(func(s play.Seat) bool { return s.StudentID == st.ID }, func(s *play.Seat) {
			s.Nickname, s.AnonName, s.TokenHash = st.Nickname, st.AnonName, st.TokenHash
		})
		if k := c.skunk.Load(); k != nil {
			k.rename(st)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		c.publish(true, func(next *Class) {
			removed := slices.Clone(next.Removed)
			for i := range removed {
				if removed[i].ID == studentID {
					removed[i] = st
				}
			}
			next.Removed = removed
		})
		return nil
	})
	return erased, err
}

// rename gives the game's participant who is the student the student's
// names as now stored (an erasure's).
func (k *skunk) rename(st store.Student) {
	k.mu.Lock()
	defer k.mu.Unlock()
	p := slices.Index(k.game.Students, st.ID)
	if p < 0 {
		return
	}
	k.game.Names, k.game.Anon = slices.Clone(k.game.Names), slices.Clone(k.game.Anon)
	k.game.Names[p], k.game.Anon[p] = st.Nickname, st.AnonName
	k.publish()
}

// RenewRejoin gives a student of the class, for its teacher, a new rejoin
// code: the renewal is counted (the code is derived from it) and their
// browser's token is replaced by one nobody holds, so that the old code,
// and the browser that had the seat, no longer reach it (its next page
// says why); the
// student gets back with their nickname and the new code (on a shared
// Chromebook whose cookie is gone, or after a code was seen by others),
// at once: the name's hold after wrong codes is lifted. It returns the
// new code.
func (r *Room) RenewRejoin(ctx context.Context, v Viewer, studentID int64) (string, error) {
	c, err := v.teaching()
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(c.snap.Load().Students, func(s store.Student) bool { return s.ID == studentID }) {
		return "", store.ErrNotFound
	}
	b := make([]byte, 32)
	rand.Read(b)
	hash := HashToken(hex.EncodeToString(b))
	if err := r.retokenStudent(ctx, c.id, studentID, hash, true); err != nil {
		return "", err
	}
	snap := c.snap.Load()
	st, _ := snap.Student(hash)
	// The teacher vouched for the student: the name's hold (its wrong
	// codes this minute) ends with the old code (issue 79).
	r.doors.wrongRejoinsStudent.Forget(rejoinName(snap.Code, st.Nickname))
	return r.RejoinCode(snap, st), nil
}
