package classroom

import (
	"context"
	"errors"
	"slices"
	"strings"

	"pigclass/server/store"
)

// A class list (issue 61, item 6): the teacher uploads the class's names
// (server/roster reads the files); each name that may be a nickname of
// the class and is new to it becomes a student who has not taken their
// seat yet: no browser has their token (UnclaimedPrefix), rounds and
// Skunk leave them out, and they take their seat from the join page by
// picking their name and typing their rejoin code (Enter, as a rejoin),
// or from their login card. An upload again adds the newcomers and
// changes no one already there.

// UnclaimedPrefix begins the token hash of a student of the class list who
// has not taken their seat: no browser's token hashes to it (a hash is
// hex), so no page finds them by a cookie until they rejoin.
const UnclaimedPrefix = "unclaimed:"

// Unclaimed says a student of the class list has not taken their seat.
func Unclaimed(st store.Student) bool { return strings.HasPrefix(st.TokenHash, UnclaimedPrefix) }

// Present are the students who have taken their seats: the ones a round
// or a game of Skunk seats.
func (c *Class) Present() []store.Student {
	out := make([]store.Student, 0, len(c.Students))
	for _, st := range c.Students {
		if !Unclaimed(st) {
			out = append(out, st)
		}
	}
	return out
}

// RosterNames are the names the join page offers to pick: the students of
// the class list, in alphabetical order (none when the class has no list).
func (c *Class) RosterNames() []string {
	var out []string
	for _, st := range c.Students {
		if st.Roster {
			out = append(out, st.Nickname)
		}
	}
	slices.Sort(out)
	return out
}

// RosterStatus is what adding one name of a class list does.
type RosterStatus int

// What adding a name does.
const (
	RosterNew     RosterStatus = iota + 1 // a new student of the class
	RosterThere                           // the class has a student of the name: left as they are
	RosterTwice                           // an earlier row of the list has the name
	RosterLooks                           // looks like a name of the class or of an earlier row (Like)
	RosterBad                             // not a nickname (Problem)
	RosterRemoved                         // a student the teacher removed has the name
)

// A RosterRow is one name of a class list and what adding it does.
type RosterRow struct {
	// Name is the name as a nickname reads it (as given, when it cannot
	// be one).
	Name    string
	Status  RosterStatus
	Like    string
	Problem *NicknameError
}

// RosterRows says what adding names would do, row by row, as the class is
// now: the preview of an upload. Only the teacher may ask.
func (v Viewer) RosterRows(names []string) ([]RosterRow, error) {
	c, err := v.teaching()
	if err != nil {
		return nil, err
	}
	return rosterRows(c.snap.Load(), names), nil
}

func rosterRows(snap *Class, names []string) []RosterRow {
	there, removed := map[string]bool{}, map[string]bool{}
	held := looks{}
	for _, st := range snap.Students {
		there[st.Nickname] = true
		held.add(lookOf(st.Nickname), st.Nickname)
	}
	for _, st := range snap.Removed {
		removed[st.Nickname] = true
	}
	seen := map[string]bool{}
	rows := make([]RosterRow, 0, len(names))
	for _, raw := range names {
		nick, bad := Nickname(raw)
		row := RosterRow{Name: nick}
		k := lookOf(nick)
		like := held.find(k)
		switch {
		case bad != nil:
			row.Name, row.Status = strings.TrimSpace(raw), RosterBad
			if !errors.As(bad, &row.Problem) {
				row.Problem = &NicknameError{Kind: "chars", text: bad.Error()}
			}
		case there[nick]:
			row.Status = RosterThere
		case removed[nick]:
			row.Status = RosterRemoved
		case seen[nick]:
			row.Status = RosterTwice
		case like != "":
			row.Status, row.Like = RosterLooks, like
		default:
			row.Status = RosterNew
			held.add(k, nick)
		}
		seen[nick] = true
		rows = append(rows, row)
	}
	return rows
}

// AddRoster adds the new names of a class list to the class, as
// RosterRows says (the class as it is when they are added): students who
// have not taken their seats. It returns each row's status and the
// students added. Only the teacher may add them; a locked class takes
// them too (the teacher is adding them), and so does a class at its joins
// a minute.
func (r *Room) AddRoster(ctx context.Context, v Viewer, names []string) ([]RosterRow, []store.Student, error) {
	c, err := v.teaching()
	if err != nil {
		return nil, nil, err
	}
	var rows []RosterRow
	var stored []store.Student
	err = c.save(func() error {
		snap := c.snap.Load()
		rows = rosterRows(snap, names)
		taken := make(map[string]bool, len(snap.Students)+len(names))
		for _, st := range snap.Students {
			taken[st.AnonName] = true
		}
		var fresh []store.Student
		for _, row := range rows {
			if row.Status != RosterNew {
				continue
			}
			st := store.Student{ClassID: c.id, Nickname: row.Name, AnonName: AnonName(r.chance, taken), TokenHash: UnclaimedPrefix + r.chance.Seed().String(), Roster: true}
			taken[st.AnonName] = true
			fresh = append(fresh, st)
		}
		if len(fresh) == 0 {
			return nil
		}
		if stored, err = r.st.AddStudents(ctx, fresh); err != nil {
			return err
		}
		c.seat(stored)
		return nil
	})
	return rows, stored, err
}

// RosterFor is the names the join page of the class with code offers to
// pick, for a browser that may not be its student yet: none when the
// class has no list. Looking a class up this way tells whether a code is
// right, so it counts as the join form's guesses do: a wrong code is a
// guess of the guesser's, and one who has no guess left this minute is
// offered no names.
// ErrListHidden: the teacher keeps the class list's names off the join
// page (RosterFor): its students type their name and their card's code.
var ErrListHidden = errors.New("classroom: the class list's names are not shown")

func (r *Room) RosterFor(ctx context.Context, code, guesser string) ([]string, error) {
	if !r.doors.guesses.Allow(guesser) {
		return nil, nil
	}
	c, err := r.classes.byCode(ctx, code)
	if errors.Is(err, store.ErrNotFound) {
		r.doors.guesses.Hit(guesser)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	snap := c.snap.Load()
	if snap.Platform && !snap.CodesOpen {
		return nil, nil // the course's names are for its launches, not for a code (issue 79)
	}
	if snap.ListHidden {
		return nil, ErrListHidden
	}
	return snap.RosterNames(), nil
}
