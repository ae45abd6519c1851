-- Whole-class Skunk: a game per class at a time, its participants, and its
-- log: the shared rolls, and every stand or sit decision with its state.
CREATE TABLE skunk_games (
  id         INTEGER PRIMARY KEY,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  seed       TEXT    NOT NULL,
  commitment TEXT    NOT NULL,
  rounds     INTEGER NOT NULL,
  status     TEXT    NOT NULL CHECK (status IN ('playing', 'over', 'ended')),
  created_at TEXT    NOT NULL
);

CREATE TABLE skunk_players (
  game_id     INTEGER NOT NULL REFERENCES skunk_games(id) ON DELETE CASCADE,
  participant INTEGER NOT NULL,
  student_id  INTEGER NOT NULL REFERENCES students(id) ON DELETE CASCADE,
  PRIMARY KEY (game_id, participant)
);

-- action: roll (the teacher's shared roll, participant -1), stand (a
-- participant stayed standing for a roll) or sit.
CREATE TABLE skunk_events (
  game_id     INTEGER NOT NULL REFERENCES skunk_games(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  action      TEXT    NOT NULL CHECK (action IN ('roll', 'stand', 'sit')),
  participant INTEGER NOT NULL,
  round       INTEGER NOT NULL,
  roll        INTEGER NOT NULL,
  faces       TEXT    NOT NULL,
  round_total INTEGER NOT NULL,
  score       INTEGER NOT NULL,
  ev_action   TEXT    NOT NULL,
  at          TEXT    NOT NULL,
  PRIMARY KEY (game_id, seq)
);
