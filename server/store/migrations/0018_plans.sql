-- Strategies and tournaments (issue 46; sim/plans.md): each student's
-- plan in their class (the last saved; it names no one), and the class's
-- tournaments: the game, the bots the teacher added, when entries close
-- (by the teacher's clock, if set) and closed,
-- and the standings once every duel is played (entries by student id or
-- bot, never by name).
CREATE TABLE plans (
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  student_id INTEGER NOT NULL REFERENCES students(id) ON DELETE CASCADE,
  plan       TEXT    NOT NULL,
  saved_at   TEXT    NOT NULL,
  PRIMARY KEY (class_id, student_id)
);
CREATE TABLE tournaments (
  id         INTEGER PRIMARY KEY,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  variant    TEXT    NOT NULL,
  bots       TEXT    NOT NULL,
  created_at TEXT    NOT NULL,
  closes_at  TEXT,
  closed_at  TEXT,
  standings  TEXT
);
CREATE INDEX tournaments_class ON tournaments(class_id);
