-- Days inside a class (issue 33; README, "A class over a unit"): each
-- round and game of Skunk belongs to the day it was started, in the
-- server's time zone, and each day of a class is kept with the lesson
-- plan it used ('' for none). A class from before this release gets its
-- days from the dates its rounds and games were played.
ALTER TABLE rounds ADD COLUMN day TEXT NOT NULL DEFAULT '';
ALTER TABLE skunk_games ADD COLUMN day TEXT NOT NULL DEFAULT '';
UPDATE rounds SET day = date(started_at, 'localtime');
UPDATE skunk_games SET day = date(created_at, 'localtime');
CREATE TABLE class_days (
  class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  day      TEXT    NOT NULL,
  lesson   TEXT    NOT NULL DEFAULT '',
  PRIMARY KEY (class_id, day)
);
INSERT OR IGNORE INTO class_days (class_id, day) SELECT class_id, day FROM rounds;
INSERT OR IGNORE INTO class_days (class_id, day) SELECT class_id, day FROM skunk_games;
