-- Erasing one student (issue 33; README, "Privacy"): their name and
-- device token go, their moves stay under "erased student N" so that
-- classmates' matches replay. erased_at is when (NULL: not erased).
ALTER TABLE students ADD COLUMN erased_at TEXT;
