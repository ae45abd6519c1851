-- The first schema of pigclass: classes, students, rounds, matches, seats and
-- the append-only log of every match with the analysis of each decision.
CREATE TABLE classes (
  id           INTEGER PRIMARY KEY,
  code         TEXT    NOT NULL UNIQUE,
  teacher_hash TEXT    NOT NULL,
  locked       INTEGER NOT NULL DEFAULT 0,
  paused       INTEGER NOT NULL DEFAULT 0,
  anonymous    INTEGER NOT NULL DEFAULT 0,
  created_at   TEXT    NOT NULL
);

-- A student with no class is a practice player from the front page.
CREATE TABLE students (
  id         INTEGER PRIMARY KEY,
  class_id   INTEGER REFERENCES classes(id) ON DELETE CASCADE,
  nickname   TEXT    NOT NULL,
  anon_name  TEXT    NOT NULL,
  token_hash TEXT    NOT NULL,
  removed    INTEGER NOT NULL DEFAULT 0,
  joined_at  TEXT    NOT NULL
);
CREATE UNIQUE INDEX students_nickname ON students(class_id, nickname) WHERE removed = 0 AND class_id IS NOT NULL;
CREATE INDEX students_token ON students(token_hash);

CREATE TABLE rounds (
  id         INTEGER PRIMARY KEY,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  number     INTEGER NOT NULL,
  variant    TEXT    NOT NULL,
  mode       TEXT    NOT NULL CHECK (mode IN ('bot', 'pairs')),
  bot        TEXT    NOT NULL,
  same_seed  INTEGER NOT NULL,
  started_at TEXT    NOT NULL,
  ended_at   TEXT
);

CREATE TABLE matches (
  id         INTEGER PRIMARY KEY,
  class_id   INTEGER REFERENCES classes(id) ON DELETE CASCADE,
  round_id   INTEGER REFERENCES rounds(id) ON DELETE CASCADE,
  variant    TEXT    NOT NULL,
  seed       TEXT    NOT NULL,
  commitment TEXT    NOT NULL,
  first_seat INTEGER NOT NULL,
  status     TEXT    NOT NULL CHECK (status IN ('playing', 'over', 'ended')),
  winner     INTEGER,
  result     TEXT,
  created_at TEXT    NOT NULL,
  ended_at   TEXT
);
CREATE INDEX matches_class ON matches(class_id);
CREATE INDEX matches_status ON matches(status);

CREATE TABLE seats (
  match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
  seat       INTEGER NOT NULL,
  student_id INTEGER REFERENCES students(id) ON DELETE CASCADE,
  bot        TEXT,
  PRIMARY KEY (match_id, seat),
  CHECK ((student_id IS NULL) <> (bot IS NULL))
);
CREATE INDEX seats_student ON seats(student_id);

-- One row per event of a match. Decisions (roll, hold, dice:N, timeout) keep
-- the state before them and their analysis from the solver.
CREATE TABLE events (
  match_id       INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  seat           INTEGER NOT NULL,
  action         TEXT    NOT NULL,
  turn           INTEGER NOT NULL,
  roll           INTEGER NOT NULL,
  faces          TEXT    NOT NULL,
  by             TEXT    NOT NULL CHECK (by IN ('student', 'bot', 'timeout')),
  at             TEXT    NOT NULL,
  score          INTEGER NOT NULL,
  scores         TEXT    NOT NULL,
  opponent_score INTEGER NOT NULL,
  turn_total     INTEGER NOT NULL,
  dice           INTEGER NOT NULL,
  win_if_roll    REAL,
  win_if_hold    REAL,
  win_if_chosen  REAL,
  options        TEXT,
  best_action    TEXT,
  ev_action      TEXT,
  cost           REAL,
  PRIMARY KEY (match_id, seq)
);
