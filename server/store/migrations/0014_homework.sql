-- Homework (issue 33; README, "Homework"): an assignment of a class (a
-- game, its bot, a number of games, when it is due; closed_at once the
-- teacher closes it), and the matches its students play for it, each
-- marked with its assignment (and no round).
CREATE TABLE assignments (
  id         INTEGER PRIMARY KEY,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  variant    TEXT    NOT NULL,
  bot        TEXT    NOT NULL,
  games      INTEGER NOT NULL,
  due_at     TEXT    NOT NULL,
  created_at TEXT    NOT NULL,
  closed_at  TEXT
);
ALTER TABLE matches ADD COLUMN assignment_id INTEGER REFERENCES assignments(id) ON DELETE CASCADE;
CREATE INDEX matches_assignment ON matches(assignment_id) WHERE assignment_id IS NOT NULL;
