package classroom

import (
	"context"
	"errors"
	"time"

	"pigclass/server/store"
)

// What nobody uses expires (cmd/pigclass's guide, "How long a class is kept"): a practice match (or
// a game of homework) without a move for PracticeIdle ends and leaves
// memory, and PracticeKept
// after it ended is deleted with its events (and its player, once they
// have no match left); a class that no student joined within
// AbandonedClass of its start is deleted.
const (
	PracticeIdle   = time.Hour
	PracticeKept   = 24 * time.Hour
	AbandonedClass = 24 * time.Hour
)

// sweepEvery is how often the watcher sweeps.
const sweepEvery = time.Minute

// Sweep ends idle practice matches, deletes those that ended a day ago,
// and deletes abandoned classes.
func (r *Room) Sweep(ctx context.Context) error {
	now := r.now()
	if err := r.hall.EndIdle(PracticeIdle, func(id int64) error { return r.st.EndMatch(ctx, id) }); err != nil {
		return err
	}
	if _, err := r.st.DeletePractice(ctx, now.Add(-PracticeKept)); err != nil {
		return err
	}
	if err := r.retainOnly(ctx, now); err != nil {
		return err
	}
	ids, err := r.st.DeleteAbandonedClasses(ctx, now.Add(-AbandonedClass))
	if err != nil {
		return err
	}
	r.classes.drop(ids...)
	return nil
}

// retainEvery is how often the sweep looks for classes past their time.
const retainEvery = time.Hour

// Retention is how long a class is kept after its last activity (0:
// until its teacher deletes it).
func (r *Room) Retention() time.Duration { return r.retain }

// retainOnly erases, at most once every retainEvery, each class whose last
// activity is r.retain ago or more: the same erasure as "Delete the class"
// (its matches being played ended, its rows overwritten: secure_delete).
func (r *Room) retainOnly(ctx context.Context, now time.Time) error {
	if r.retain <= 0 || now.Sub(r.retained) < retainEvery {
		return nil
	}
	ids, err := r.st.IdleClasses(ctx, now.Add(-r.retain))
	if err != nil {
		return err
	}
	for _, id := range ids {
		c, err := r.classes.load(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue // deleted meanwhile
		}
		if err != nil {
			return err
		}
		if err := r.erase(ctx, c); err != nil {
			return err
		}
		r.log.Info("class erased after its time", "class", id, "days", r.retain.Hours()/24)
	}
	r.retained = now
	return nil
}
