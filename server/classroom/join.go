package classroom

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"time"

	"pigclass/server/limit"
	"pigclass/server/store"
	"pigclass/sim"
)

// The doors' limits (Room.Set): wrong codes and rejoin codes a
// guesser (a client's address) may try a minute, the joins a class takes a
// minute until its teacher lifts the cap, and one name a device in
// DeviceJoinWindow.
const (
	DefaultGuesses    = 20
	DefaultClassJoins = 60
	// DeviceJoinWindow: a device (its address; an IPv6 device's /64)
	// joins a class under one name in this window (until the teacher
	// allows more): a second name from it is refused, and the rejoin code
	// is the way to one's own name on another device.
	DeviceJoinWindow = 10 * time.Minute
	// Rejoin codes are limited apart from the wrong join codes above, so
	// that a school behind one address (a NAT), whose students mistype
	// their codes, is not shut out: wrong rejoin codes a minute for one
	// student's name (a code has 24^6 values: ten a minute find none),
	// for a class, and for an address; and rejoins with the right code a
	// minute for one student (each moves the seat to another browser).
	WrongRejoinsStudent = 10
	WrongRejoinsClass   = 100
	WrongRejoinsAddress = 300
	RejoinsStudent      = 10
)

// doors are the rate limits of joining.
type doors struct {
	guesses     *limit.Limiter // wrong codes, rejoin codes and taken names, by guesser
	classJoins  *limit.Limiter // joins, by class: a script cannot fill a class
	deviceJoins *limit.Limiter // joins, by class and device: one name a device
	perClass    int
	// Rejoin codes (see WrongRejoinsStudent): wrong ones by class and
	// name, by class and by address; right ones by student.
	wrongRejoinsStudent, wrongRejoinsClass, wrongRejoinsAddress, rejoins *limit.Limiter
}

func newDoors(guesses, classJoins int, now func() time.Time) doors {
	return doors{
		guesses:     limit.New(guesses, time.Minute, now),
		classJoins:  limit.New(classJoins, time.Minute, now),
		deviceJoins: limit.New(1, DeviceJoinWindow, now),
		perClass:    classJoins,

		wrongRejoinsStudent: limit.New(WrongRejoinsStudent, time.Minute, now),
		wrongRejoinsClass:   limit.New(WrongRejoinsClass, time.Minute, now),
		wrongRejoinsAddress: limit.New(WrongRejoinsAddress, time.Minute, now),
		rejoins:             limit.New(RejoinsStudent, time.Minute, now),
	}
}

// Policy is what a server's operator chooses of the room's rules.
type Policy struct {
	// Guesses are the wrong codes a guesser may try a minute, and
	// ClassJoins the joins a class takes a minute (0: DefaultGuesses,
	// DefaultClassJoins).
	Guesses, ClassJoins int
	// Retain is how long a class is kept after its last activity
	// (store.LastActive); 0 keeps every class until its teacher deletes
	// it.
	Retain time.Duration
	// Chance is where the room's draws come from: every match's seed,
	// the order a round pairs students in and generated names (nil:
	// sim.Crypto). Tests give a sim.Stream.
	Chance sim.Chance
}

// Set sets the room's policy. Call it before the room serves.
func (r *Room) Set(p Policy) {
	r.doors = newDoors(cmp.Or(p.Guesses, DefaultGuesses), cmp.Or(p.ClassJoins, DefaultClassJoins), r.now)
	r.retain = p.Retain
	r.chance = cmp.Or[sim.Chance](p.Chance, sim.Crypto)
}

// JoinsLastMinute returns how many students joined the class in the last
// minute, and the cap (for the teacher's dashboard).
func (r *Room) JoinsLastMinute(class *Class) (joins, limit int) {
	return r.doors.classJoins.Count(class.Code), r.doors.perClass
}

// Guess counts a guess of the guesser's (a request for a class a
// district's other instance serves, answered without the join's own
// checks), false if the guesser has no guess left this minute.
func Guess(r *Room, guesser string) bool {
	if !r.doors.guesses.Allow(guesser) {
		return false
	}
	r.doors.guesses.Hit(guesser)
	return true
}

// Guessers returns how many guessers the room remembers (a bounded number).
func (r *Room) Guessers() int { return r.doors.guesses.Size() }

// A Knock is what a browser presents at a class's door, as the join form
// sends it.
type Knock struct {
	Code     string // the join code, in its normal form
	Nickname string // as typed
	Rejoin   string // the rejoin code typed, "" to join as a new student
	// TokenHash is the hash of the browser's player token, "" for none;
	// NewTokenHash that of the fresh token it takes if it gets as far as
	// taking a seat (never its old one: see rotateToken).
	TokenHash, NewTokenHash string
	// Guesser counts the wrong guesses (the client's address); Device is
	// the device for the limit of one name a device, "" for this machine
	// (the teacher's laptop, a proxy not named as one), which has none.
	Guesser, Device string
}

// Entry is where a knock led.
type Entry struct {
	// Class is the class of the code, when there is one (its language
	// answers), refused or not.
	Class *Class
	// Student is the browser's student in the class, when it got in.
	Student store.Student
	// Already says the browser was a student of the class: nothing changed.
	Already bool
	// TookToken says the browser's identities moved to NewTokenHash: it
	// must take that token (its cookie), refused or not.
	TookToken bool
}

// A JoinRefusal says why a knock was refused and what to fix.
type JoinRefusal struct {
	Reason JoinReason
	// Nickname is the nickname as read; for LooksTaken, Like is the
	// student's name it looks like; for BadNickname, Problem says what is
	// wrong with it; for ClassBusy, Limit is the joins a minute.
	Nickname, Like string
	Problem        *NicknameError
	Limit          int
}

// JoinReason is why a join was refused.
type JoinReason int

// The reasons a join is refused.
const (
	TooManyGuesses JoinReason = iota + 1 // the guesser's wrong guesses this minute
	NoClass                              // no class has the code
	Removed                              // the teacher removed this browser (or the name of the rejoin code)
	Locked                               // the class takes no new students
	BadNickname                          // see Problem
	WrongRejoin                          // no student of that name has that rejoin code
	TooManyRejoins                       // too many tries of that name's rejoin code this minute
	ClassBusy                            // the class's joins a minute
	DeviceHasName                        // the device joined the class under another name lately
	NicknameTaken                        // a student has the name
	LooksTaken                           // a student has a name that looks the same (see Like)
	PlatformOnly                         // a learning platform's class, not opened to codes: its launches only
)

var joinReasons = [...]string{"", "too many guesses", "no such class", "removed", "locked", "bad nickname", "wrong rejoin code", "too many rejoin tries",
	"too many joins a minute", "one name a device", "nickname taken", "nickname looks taken", "a platform's class"}

func (e *JoinRefusal) Error() string { return "join refused: " + joinReasons[e.Reason] }

func refused(reason JoinReason, nick string) *JoinRefusal {
	return &JoinRefusal{Reason: reason, Nickname: nick}
}

// Enter takes a browser through a class's door: into its seat if it is a
// student already, back to its own name with a rejoin code, or in as a new
// student, within the class's lock and the doors' limits. A refusal is a
// *JoinRefusal; Entry.Class is set once the code is right, refused or not.
func (r *Room) Enter(ctx context.Context, k Knock) (Entry, error) {
	if !r.doors.guesses.Allow(k.Guesser) {
		return Entry{}, refused(TooManyGuesses, k.Nickname)
	}
	c, err := r.classes.byCode(ctx, k.Code)
	if errors.Is(err, store.ErrNotFound) {
		r.doors.guesses.Hit(k.Guesser)
		return Entry{}, refused(NoClass, k.Nickname)
	}
	if err != nil {
		return Entry{}, err
	}
	snap := c.snap.Load()
	e := Entry{Class: snap}
	if st, ok := snap.Student(k.TokenHash); ok && k.TokenHash != "" {
		e.Student, e.Already = st, true
		return e, nil
	}
	if k.TokenHash != "" && snap.WasRemoved(k.TokenHash) {
		return e, refused(Removed, k.Nickname)
	}
	if snap.Platform && !snap.CodesOpen {
		// The course's class: its learners come from the platform,
		// vouched for by it; a code alone (on every learner's page)
		// seats no one, new or by a rejoin code (issue 79).
		return e, refused(PlatformOnly, k.Nickname)
	}
	nick, bad := Nickname(k.Nickname)
	if bad != nil {
		nick = strings.TrimSpace(k.Nickname)
	}
	if k.Rejoin != "" && bad == nil {
		return r.rejoin(ctx, e, k, nick)
	}
	if snap.Locked {
		return e, refused(Locked, nick)
	}
	if bad != nil {
		ref := refused(BadNickname, nick)
		if !errors.As(bad, &ref.Problem) {
			ref.Problem = &NicknameError{Kind: "chars", text: bad.Error()}
		}
		return e, ref
	}
	return r.joinNew(ctx, e, k, nick)
}

// rejoin takes a student back to their own name from another device: the
// nickname and the rejoin code from their class page. Wrong codes count
// for the name, the class and the address (not as the address's guesses
// of join codes: a school behind one address keeps joining), and once
// too many, no code for the name is tried this minute; right ones count
// for the student. A removed student's own code says they were removed.
func (r *Room) rejoin(ctx context.Context, e Entry, k Knock, nick string) (Entry, error) {
	snap := e.Class
	d := &r.doors
	name := rejoinName(snap.Code, nick)
	if !d.wrongRejoinsStudent.Allow(name) || !d.wrongRejoinsClass.Allow(snap.Code) || !d.wrongRejoinsAddress.Allow(k.Guesser) {
		return e, refused(TooManyRejoins, nick)
	}
	for _, st := range snap.Students {
		if st.Nickname != nick {
			continue
		}
		if !SameRejoinCode(k.Rejoin, r.RejoinCode(snap, st)) {
			break
		}
		if !d.rejoins.Allow(name) {
			return e, refused(TooManyRejoins, nick)
		}
		d.rejoins.Hit(name)
		if err := r.rotateToken(ctx, k.TokenHash, k.NewTokenHash); err != nil {
			return e, err
		}
		e.TookToken = true
		if err := r.retokenStudent(ctx, snap.ID, st.ID, k.NewTokenHash, false); err != nil {
			return e, err
		}
		st.TokenHash = k.NewTokenHash
		e.Student = st
		return e, nil
	}
	for _, st := range snap.Removed {
		if st.Nickname == nick && SameRejoinCode(k.Rejoin, r.RejoinCode(snap, st)) {
			return e, refused(Removed, nick)
		}
	}
	d.wrongRejoinsStudent.Hit(name)
	d.wrongRejoinsClass.Hit(snap.Code)
	d.wrongRejoinsAddress.Hit(k.Guesser)
	return e, refused(WrongRejoin, nick)
}

// rejoinName is the key a name's rejoin codes are counted by.
func rejoinName(code, nick string) string { return code + "\x00" + nick }

// joinNew adds a new student to the class within its limits (the class's
// joins a minute, one device's).
func (r *Room) joinNew(ctx context.Context, e Entry, k Knock, nick string) (Entry, error) {
	snap := e.Class
	if !snap.JoinsUnlimited && !r.doors.classJoins.Allow(snap.Code) {
		ref := refused(ClassBusy, nick)
		ref.Limit = r.doors.perClass
		return e, ref
	}
	device := snap.Code + " " + k.Device
	if k.Device != "" && !snap.JoinsUnlimited && !r.doors.deviceJoins.Allow(device) {
		return e, refused(DeviceHasName, nick)
	}
	if err := r.rotateToken(ctx, k.TokenHash, k.NewTokenHash); err != nil {
		return e, err
	}
	e.TookToken = true
	st, err := r.Join(ctx, snap.ID, nick, k.NewTokenHash)
	var ref *JoinRefusal
	switch {
	case errors.Is(err, store.ErrNicknameTaken):
		ref = refused(NicknameTaken, nick)
	case errors.Is(err, ErrLooksTaken):
		ref = refused(LooksTaken, nick)
		_, ref.Like, _ = strings.Cut(err.Error(), ": ")
	case errors.Is(err, ErrRemoved):
		ref = refused(Removed, nick)
	case errors.Is(err, ErrLocked):
		ref = refused(Locked, nick)
	case err != nil:
		return e, err
	}
	if ref != nil {
		if ref.Reason == NicknameTaken || ref.Reason == LooksTaken {
			// An answer that a name is taken tells a name of the class:
			// it counts as a guess, so that a code holder cannot list the
			// class's names (in anonymous mode above all).
			r.doors.guesses.Hit(k.Guesser)
		}
		return e, ref
	}
	r.doors.classJoins.Hit(snap.Code)
	if k.Device != "" {
		r.doors.deviceJoins.Hit(device)
		if !snap.JoinsUnlimited {
			r.sawDevice(ctx, snap.ID, k.Device, st.ID)
		}
	}
	e.Student = st
	return e, nil
}

// sawDevice notes that a student joined the class from device.
func (r *Room) sawDevice(ctx context.Context, classID int64, device string, studentID int64) {
	c, err := r.classes.load(ctx, classID)
	if err != nil {
		return // the class is gone: nothing to tell its teacher
	}
	c.devMu.Lock()
	defer c.devMu.Unlock()
	if c.devices == nil {
		c.devices = map[string][]int64{}
	}
	c.devices[device] = append(c.devices[device], studentID)
}

// SharedDevices tells the class's teacher, for each student who joined
// from a device another name of the class joined from (one name a device:
// the class did not take every name from one address), the others of
// that device in join order. Only joins since the server started are
// known: the devices are never stored.
func (v Viewer) SharedDevices() map[int64][]int64 {
	if !v.teacher || v.cls == nil {
		return nil
	}
	c := v.cls
	c.devMu.Lock()
	defer c.devMu.Unlock()
	out := map[int64][]int64{}
	for _, ids := range c.devices {
		if len(ids) < 2 {
			continue
		}
		for _, id := range ids {
			for _, other := range ids {
				if other != id {
					out[id] = append(out[id], other)
				}
			}
		}
	}
	return out
}

// RejoinCode is a student's personal code for getting back to their seat
// on another device: shown on their own page (and to their teacher) only,
// derived with the server's own key (never in the database) from the
// class's secret's hash, the student and the count of the teacher's
// renewals: it stays the same, used or not, until the teacher renews it.
func (r *Room) RejoinCode(class *Class, st store.Student) string {
	mac := hmac.New(sha256.New, r.key)
	mac.Write([]byte(fmt.Sprintf("pigclass-rejoin-v3\x00%s\x00%d\x00%d", class.TeacherHash, st.ID, st.RejoinEpoch)))
	sum := mac.Sum(nil)
	b := make([]byte, 8)
	for i := range b {
		b[i] = CodeAlphabet[int(sum[i])%len(CodeAlphabet)]
	}
	return string(b[:4]) + "-" + string(b[4:])
}

// CodeAlphabet is the characters of join and rejoin codes: none that look
// alike (no 0/O/Q/D, 1/I/L, 2/Z, 5/S, 6/G, 8/B, U/V).
const CodeAlphabet = "ACEFHJKMNPRTWXY3479"

// NormalizeCode reads a typed code: case, spaces and dashes do not matter.
func NormalizeCode(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.ToUpper(s))
}

// SameRejoinCode compares a typed rejoin code with the student's, in
// constant time.
func SameRejoinCode(typed, want string) bool {
	return subtle.ConstantTimeCompare([]byte(NormalizeCode(typed)), []byte(NormalizeCode(want))) == 1
}

// Moved reports whether a browser token's hash held a seat of class code
// that moved to another device (a rejoin there, or the teacher's
// renewal of the rejoin code): its next page says so.
func (r *Room) Moved(ctx context.Context, code, tokenHash string) bool {
	c, err := r.classes.byCode(ctx, code)
	if err != nil || tokenHash == "" {
		return false
	}
	moved, err := r.st.WasMoved(ctx, c.id, tokenHash)
	return err == nil && moved
}
