-- Time a teacher gives (issue 59, item 14): a student's extra seconds on
-- each per-roll deadline (an accommodation, WCAG 2.2.1), and when the
-- countdown the teacher set for the lesson's phase ends ('' for none;
-- RFC 3339, UTC). As SQLite's 0024.
ALTER TABLE students ADD COLUMN extra_seconds INTEGER NOT NULL DEFAULT 0;
ALTER TABLE classes ADD COLUMN countdown TEXT COLLATE "C" NOT NULL DEFAULT '';
