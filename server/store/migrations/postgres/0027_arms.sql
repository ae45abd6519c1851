-- "Decide before you roll" (issue 62): the arm a student played a seat
-- of an experiment's round in. As SQLite's 0027.
ALTER TABLE seats ADD COLUMN arm TEXT COLLATE "C" NOT NULL DEFAULT '' CHECK (arm IN ('', 'free', 'committed'));
ALTER TABLE rounds ADD COLUMN arms INTEGER NOT NULL DEFAULT 0;
