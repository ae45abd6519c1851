package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Class is one class session.
type Class struct {
	ID          int64
	Code        string
	TeacherHash string
	Locked      bool // joining is closed
	Paused      bool // all play is paused
	Anonymous   bool // shared screens show generated names
	CreatedAt   time.Time
	Projector   string // the chart the projector shows ("" for none)
	Lesson      string // the lesson plan the class follows ("" for none)
	Phase       int    // the lesson's current phase, from 0
	Language    string // the class's language ("" for each reader's own)
	// OffLesson says the class left its lesson for a round of the
	// teacher's own, until a phase starts again (SetPhase).
	OffLesson bool
	// Countdown is when the countdown the teacher set for the lesson's
	// phase ends (zero: none); a new phase clears it (SetPhase).
	Countdown time.Time
	// Lab is the question the teacher poses the class's lab (JSON, ""
	// for none); LabRevealed says its exact answer is shown.
	Lab         string
	LabRevealed bool
	// Platform says a learning platform's link opened the class (LTI):
	// it takes its platform's launches, and joins by its code only when
	// CodesOpen (its teacher's switch).
	Platform  bool
	CodesOpen bool
	// ListHidden: the teacher keeps the class list's names off the join
	// page ("I am on the class list" lists none).
	ListHidden bool
}

// InPhase reports whether the class is at a started phase of its lesson:
// a lesson chosen, its first phase started (Phase -1 until then), and the
// class not off it for a round of the teacher's own.
func (c Class) InPhase() bool { return c.Lesson != "" && c.Phase >= 0 && !c.OffLesson }

// CreateClass stores a new class. A code already in use returns an error
// wrapping ErrNicknameTaken's sibling: the caller draws another code.
func (s *Store) CreateClass(ctx context.Context, code, teacherHash string) (Class, error) {
	c := Class{Code: code, TeacherHash: teacherHash, CreatedAt: s.now()}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		c.ID, err = insertID(ctx, tx, `INSERT INTO classes (code, teacher_hash, created_at) VALUES (?, ?, ?)`, code, teacherHash, c.CreatedAt.Format(time.RFC3339Nano))
		return err
	})
	if isUnique(err) {
		return c, fmt.Errorf("store: create class: code %s: %w", code, ErrCodeTaken)
	}
	if err != nil {
		return c, fmt.Errorf("store: create class: %w", err)
	}
	return c, nil
}

// ErrCodeTaken says a join code is already in use.
var ErrCodeTaken = errors.New("code taken")

const classColumns = `id, code, teacher_hash, locked, paused, anonymous, created_at, projector_chart, lesson, phase, language, off_lesson, countdown, lab, lab_revealed,
	EXISTS (SELECT 1 FROM lti_links WHERE lti_links.class_id = classes.id), codes_open, list_hidden`

func scanClass(row interface{ Scan(...any) error }) (Class, error) {
	var c Class
	var created, countdown string
	err := row.Scan(&c.ID, &c.Code, &c.TeacherHash, &c.Locked, &c.Paused, &c.Anonymous, &created, &c.Projector, &c.Lesson, &c.Phase, &c.Language, &c.OffLesson, &countdown, &c.Lab, &c.LabRevealed,
		&c.Platform, &c.CodesOpen, &c.ListHidden)
	c.CreatedAt, c.Countdown = parseTime(created), parseTime(countdown)
	return c, err
}

// ClassByCode finds a class by its join code.
func (s *Store) ClassByCode(ctx context.Context, code string) (Class, error) {
	c, err := scanClass(s.rd.QueryRowContext(ctx, `SELECT `+classColumns+` FROM classes WHERE code = ?`, code))
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		// Not the code: an error may reach the log, which names no class.
		return c, fmt.Errorf("store: class by its code: %w", err)
	}
	return c, nil
}

// Switches are the switches a teacher turns.
type Switches struct{ Locked, Paused, Anonymous, CodesOpen, ListHidden bool }

// SetSwitches stores a class's switches.
func (s *Store) SetSwitches(ctx context.Context, id int64, f Switches) error {
	_, err := s.exec(ctx, `UPDATE classes SET locked = ?, paused = ?, anonymous = ?, codes_open = ?, list_hidden = ? WHERE id = ?`, f.Locked, f.Paused, f.Anonymous, f.CodesOpen, f.ListHidden, id)
	if err != nil {
		return fmt.Errorf("store: set class flags: %w", err)
	}
	return nil
}

// SetProjector chooses the chart the projector shows.
func (s *Store) SetProjector(ctx context.Context, id int64, chart string) error {
	if _, err := s.exec(ctx, `UPDATE classes SET projector_chart = ? WHERE id = ?`, chart, id); err != nil {
		return fmt.Errorf("store: set projector: %w", err)
	}
	return nil
}

// SetLanguage sets the class's language ("" for each reader's own).
func (s *Store) SetLanguage(ctx context.Context, id int64, lang string) error {
	if _, err := s.exec(ctx, `UPDATE classes SET language = ? WHERE id = ?`, lang, id); err != nil {
		return fmt.Errorf("store: set language: %w", err)
	}
	return nil
}

// SetLesson sets the lesson a class follows and its phase.
func (s *Store) SetLesson(ctx context.Context, id int64, lesson string, phase int) error {
	if _, err := s.exec(ctx, `UPDATE classes SET lesson = ?, phase = ? WHERE id = ?`, lesson, phase, id); err != nil {
		return fmt.Errorf("store: set lesson: %w", err)
	}
	return nil
}

// SetPhase sets the lesson's phase and the projector's chart in one write;
// the class is back in its lesson, the last phase's countdown gone.
func (s *Store) SetPhase(ctx context.Context, id int64, lesson string, phase int, chart string) error {
	if _, err := s.exec(ctx, `UPDATE classes SET lesson = ?, phase = ?, projector_chart = ?, off_lesson = 0, countdown = '' WHERE id = ?`, lesson, phase, chart, id); err != nil {
		return fmt.Errorf("store: set phase: %w", err)
	}
	return nil
}

// SetCountdown sets when the countdown of the class's phase ends (zero:
// none).
func (s *Store) SetCountdown(ctx context.Context, id int64, ends time.Time) error {
	at := ""
	if !ends.IsZero() {
		at = ends.UTC().Format(time.RFC3339Nano)
	}
	if _, err := s.exec(ctx, `UPDATE classes SET countdown = ? WHERE id = ?`, at, id); err != nil {
		return fmt.Errorf("store: set the countdown: %w", err)
	}
	return nil
}

// SetExtraTime sets a student's extra seconds on each per-roll deadline.
func (s *Store) SetExtraTime(ctx context.Context, studentID int64, seconds int) error {
	if _, err := s.exec(ctx, `UPDATE students SET extra_seconds = ? WHERE id = ?`, seconds, studentID); err != nil {
		return fmt.Errorf("store: set extra time: %w", err)
	}
	return nil
}

// LeaveLesson marks the class off its lesson (a round of the teacher's
// own) and clears the projector's chart, the phase's, in one write.
func (s *Store) LeaveLesson(ctx context.Context, id int64) error {
	if _, err := s.exec(ctx, `UPDATE classes SET off_lesson = 1, projector_chart = '' WHERE id = ?`, id); err != nil {
		return fmt.Errorf("store: leave the lesson: %w", err)
	}
	return nil
}

// DeleteClass deletes a class and every row that belongs to it: students,
// rounds, matches, seats, events.
//
// What is deleted is overwritten in the database file (secure_delete),
// and the WAL is copied in and truncated (Scrub), so no old page keeps a
// copy while the server runs.
func (s *Store) DeleteClass(ctx context.Context, id int64) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM classes WHERE id = ?`, id); err != nil {
			return fmt.Errorf("store: delete class: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.Scrub(ctx)
}

// Student is one player: in a class, or practising alone (ClassID 0).
type Student struct {
	ID        int64
	ClassID   int64
	Nickname  string
	AnonName  string
	TokenHash string
	Removed   bool
	JoinedAt  time.Time
	// Erased: the teacher erased the student (EraseStudent); Nickname and
	// AnonName are then "erased student N", and the token is gone.
	Erased bool
	// RejoinEpoch counts the teacher's renewals of the student's rejoin
	// code (the code is derived from it: MoveStudent).
	RejoinEpoch int
	// ExtraSeconds is the time the teacher adds to each of the student's
	// per-roll deadlines (an accommodation), 0 for none.
	ExtraSeconds int
	// Roster: the student came from the class list the teacher uploaded
	// (their name is offered on the join page); until they take their seat
	// their TokenHash is an unclaimed one no browser has.
	Roster bool
}

// AddStudent stores a student. A nickname already used in the class returns
// ErrNicknameTaken.
func (s *Store) AddStudent(ctx context.Context, st Student) (Student, error) {
	st.JoinedAt = s.now()
	var class any
	if st.ClassID != 0 {
		class = st.ClassID
	}
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		st.ID, err = insertID(ctx, tx, `INSERT INTO students (class_id, nickname, anon_name, token_hash, joined_at) VALUES (?, ?, ?, ?, ?)`,
			class, st.Nickname, st.AnonName, st.TokenHash, st.JoinedAt.Format(time.RFC3339Nano))
		return err
	})
	if isUnique(err) {
		return st, ErrNicknameTaken
	}
	if err != nil {
		return st, fmt.Errorf("store: add student: %w", err)
	}
	return st, nil
}

// AddStudents stores new students of a class in one write (a whole class
// joining at once shares a commit) and returns them with their IDs. A
// nickname the class holds already refuses them all (ErrNicknameTaken).
func (s *Store) AddStudents(ctx context.Context, sts []Student) ([]Student, error) {
	return s.addStudents(ctx, sts, nil)
}

// addStudents is AddStudents; users, if given, are the learning
// platform's user ids of the students (users[i] is sts[i]'s), kept in the
// same write (AddMembers).
func (s *Store) addStudents(ctx context.Context, sts []Student, users []string) ([]Student, error) {
	now := s.now()
	out := slices.Clone(sts)
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for i := range out {
			st := &out[i]
			st.JoinedAt = now
			var err error
			st.ID, err = insertID(ctx, tx, `INSERT INTO students (class_id, nickname, anon_name, token_hash, joined_at, roster) VALUES (?, ?, ?, ?, ?, ?)`,
				nullID(st.ClassID), st.Nickname, st.AnonName, st.TokenHash, now.Format(time.RFC3339Nano), st.Roster)
			if err != nil {
				return err
			}
			if users != nil {
				if _, err := tx.ExecContext(ctx, `INSERT INTO lti_members (student_id, class_id, user_id) VALUES (?, ?, ?)`, st.ID, st.ClassID, users[i]); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if isUnique(err) {
		return nil, ErrNicknameTaken
	}
	if err != nil {
		return nil, fmt.Errorf("store: add students: %w", err)
	}
	return out, nil
}

const studentColumns = `id, COALESCE(class_id, 0), nickname, anon_name, token_hash, removed, joined_at, erased_at IS NOT NULL, rejoin_epoch, extra_seconds, roster`

func scanStudent(row interface{ Scan(...any) error }) (Student, error) {
	var st Student
	var joined string
	err := row.Scan(&st.ID, &st.ClassID, &st.Nickname, &st.AnonName, &st.TokenHash, &st.Removed, &joined, &st.Erased, &st.RejoinEpoch, &st.ExtraSeconds, &st.Roster)
	st.JoinedAt = parseTime(joined)
	return st, err
}

// StudentByToken finds the student of a browser token in a class (classID
// 0: the practice player).
func (s *Store) StudentByToken(ctx context.Context, classID int64, tokenHash string) (Student, error) {
	st, err := scanStudent(s.rd.QueryRowContext(ctx, `SELECT `+studentColumns+` FROM students
		WHERE token_hash = ? AND COALESCE(class_id, 0) = ? AND removed = 0`, tokenHash, classID))
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrNotFound
	}
	if err != nil {
		return st, fmt.Errorf("store: student: %w", err)
	}
	return st, nil
}

// StudentByID finds a student.
func (s *Store) StudentByID(ctx context.Context, id int64) (Student, error) {
	st, err := scanStudent(s.rd.QueryRowContext(ctx, `SELECT `+studentColumns+` FROM students WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return st, ErrNotFound
	}
	return st, err
}

// Students lists a class's students who have not been removed, in the order
// they joined.
func (s *Store) Students(ctx context.Context, classID int64) ([]Student, error) {
	return s.studentsOf(ctx, classID, false)
}

// RemovedStudents lists a class's removed students, in the order they
// joined: their browsers may not join again until the teacher lets them.
func (s *Store) RemovedStudents(ctx context.Context, classID int64) ([]Student, error) {
	return s.studentsOf(ctx, classID, true)
}

// studentsOf lists a class's students, removed or not, in join order.
func (s *Store) studentsOf(ctx context.Context, classID int64, removed bool) ([]Student, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT `+studentColumns+` FROM students WHERE class_id = ? AND removed = ? ORDER BY id`, classID, removed)
	if err != nil {
		return nil, fmt.Errorf("store: students: %w", err)
	}
	defer rows.Close()
	var out []Student
	for rows.Next() {
		st, err := scanStudent(rows)
		if err != nil {
			return nil, fmt.Errorf("store: students: %w", err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// ReadmitStudent lets a removed student back into the class. Their
// nickname taken meanwhile by another is ErrNicknameTaken.
func (s *Store) ReadmitStudent(ctx context.Context, classID, studentID int64) error {
	res, err := s.exec(ctx, `UPDATE students SET removed = 0 WHERE id = ? AND class_id = ? AND removed = 1 AND erased_at IS NULL`, studentID, classID)
	if isUnique(err) {
		return ErrNicknameTaken
	}
	if err != nil {
		return fmt.Errorf("store: readmit student: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// RemoveStudent takes a student out of the class; their past decisions stay
// in the exports.
func (s *Store) RemoveStudent(ctx context.Context, classID, studentID int64) error {
	res, err := s.exec(ctx, `UPDATE students SET removed = 1 WHERE id = ? AND class_id = ?`, studentID, classID)
	if err != nil {
		return fmt.Errorf("store: remove student: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// ErasedName is the name an erased student's moves stay under: "erased
// student" and their number among the class's erased students.
func ErasedName(n int) string { return fmt.Sprintf("erased student %d", n) }

// EraseStudent erases a student of a class: their nickname, generated
// name, device token, the platform's user id and score sent (lti_members,
// lti_scores) go (overwritten in the file: secure_delete, and
// the WAL scrubbed: Scrub), replaced by ErasedName; the student stays removed, and their matches,
// moves and guesses stay under that name. It returns the student as now
// stored; ErrNotFound for no such student, or one erased already.
func (s *Store) EraseStudent(ctx context.Context, classID, studentID int64) (Student, error) {
	var st Student
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM students WHERE class_id = ? AND erased_at IS NOT NULL`, classID).Scan(&n); err != nil {
			return err
		}
		name := ErasedName(n + 1)
		res, err := tx.ExecContext(ctx, `UPDATE students SET nickname = ?, anon_name = ?, token_hash = '', removed = 1, erased_at = ?
			WHERE id = ? AND class_id = ? AND erased_at IS NULL`, name, name, s.stamp(), studentID, classID)
		if err != nil {
			return err
		}
		for _, q := range []string{`DELETE FROM moved_tokens WHERE student_id = ?`, `DELETE FROM lti_members WHERE student_id = ?`, `DELETE FROM lti_scores WHERE student_id = ?`} {
			if _, err := tx.ExecContext(ctx, q, studentID); err != nil {
				return err
			}
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		st, err = scanStudent(tx.QueryRowContext(ctx, `SELECT `+studentColumns+` FROM students WHERE id = ?`, studentID))
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return st, fmt.Errorf("store: erase student: %w", err)
	}
	if err != nil {
		return st, err
	}
	return st, s.Scrub(ctx)
}

// ClassByID finds a class by its ID.
func (s *Store) ClassByID(ctx context.Context, id int64) (Class, error) {
	c, err := scanClass(s.rd.QueryRowContext(ctx, `SELECT `+classColumns+` FROM classes WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("store: class %d: %w", id, err)
	}
	return c, nil
}

// DeleteAbandonedClasses deletes the classes created before cut that no
// student ever joined, and returns their IDs.
func (s *Store) DeleteAbandonedClasses(ctx context.Context, cut time.Time) ([]int64, error) {
	var ids []int64
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `DELETE FROM classes WHERE created_at < ?
			AND NOT EXISTS (SELECT 1 FROM students WHERE students.class_id = classes.id) RETURNING id`, cut.UTC().Format(time.RFC3339Nano))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: delete abandoned classes: %w", err)
	}
	if len(ids) > 0 {
		return ids, s.Scrub(ctx)
	}
	return ids, nil
}

// RotateToken moves every student (in every class, and the practice
// player) of the browser with token hash old to token hash new.
func (s *Store) RotateToken(ctx context.Context, old, new string) error {
	if _, err := s.exec(ctx, `UPDATE students SET token_hash = ? WHERE token_hash = ?`, new, old); err != nil {
		return fmt.Errorf("store: rotate token: %w", err)
	}
	return nil
}

// MoveStudent gives a student a new browser token (its hash): the student
// rejoined on another device, or the teacher renewed their rejoin code
// (renew: the renewal is counted, which changes the code). The old
// browser is signed out; its token's hash is kept as moved (WasMoved), so
// that its next page says why.
func (s *Store) MoveStudent(ctx context.Context, classID, studentID int64, tokenHash string, renew bool) error {
	err := s.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT token_hash FROM students WHERE id = ? AND class_id = ? AND removed = 0`, studentID, classID).Scan(&old)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if old != "" && old != tokenHash {
			// The browser the seat left last is told why; one a student
			// left before it is only signed out: the rows stay one a
			// student, however often they rejoin.
			if _, err := tx.ExecContext(ctx, `DELETE FROM moved_tokens WHERE student_id = ?`, studentID); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO moved_tokens (token_hash, class_id, student_id) VALUES (?, ?, ?)
				ON CONFLICT (token_hash) DO UPDATE SET class_id = excluded.class_id, student_id = excluded.student_id`, old, classID, studentID); err != nil {
				return err
			}
		}
		renewed := 0
		if renew {
			renewed = 1
		}
		_, err = tx.ExecContext(ctx, `UPDATE students SET token_hash = ?, rejoin_epoch = rejoin_epoch + ? WHERE id = ?`, tokenHash, renewed, studentID)
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("store: move student: %w", err)
	}
	return err
}

// WasMoved reports whether a browser token's hash held a seat of class
// classID that moved to another device (MoveStudent).
func (s *Store) WasMoved(ctx context.Context, classID int64, tokenHash string) (bool, error) {
	var moved bool
	err := s.rd.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM moved_tokens WHERE token_hash = ? AND class_id = ?)`, tokenHash, classID).Scan(&moved)
	if err != nil {
		return false, fmt.Errorf("store: was moved: %w", err)
	}
	return moved, nil
}
