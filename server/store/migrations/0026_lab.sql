-- The lab (issue 62): each student's run of simulated games, replayable
-- from its seed (sim.Experiment): the question (the variant, the strategy
-- moving first and the other), how many games, the seed and the first
-- strategy's wins; and the question the teacher poses the class (JSON,
-- '' for none) and whether its exact answer is shown.
CREATE TABLE experiments (
  id         INTEGER PRIMARY KEY,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  student_id INTEGER NOT NULL REFERENCES students(id) ON DELETE CASCADE,
  variant    TEXT    NOT NULL,
  first      TEXT    NOT NULL,
  second     TEXT    NOT NULL,
  games      INTEGER NOT NULL,
  seed       TEXT    NOT NULL,
  wins       INTEGER NOT NULL,
  created_at TEXT    NOT NULL,
  day        TEXT    NOT NULL
);
CREATE INDEX experiments_class ON experiments(class_id);
CREATE INDEX experiments_student ON experiments(student_id);
ALTER TABLE classes ADD COLUMN lab TEXT NOT NULL DEFAULT '';
ALTER TABLE classes ADD COLUMN lab_revealed INTEGER NOT NULL DEFAULT 0;
