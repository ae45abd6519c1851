-- "Decide before you roll" (issue 62): the arm a student played a seat
-- of an experiment's round in: 'free' (roll and hold as they like) or
-- 'committed' (at each turn's start they set how far to roll, and the
-- turn plays itself out); '' for every other seat.
ALTER TABLE seats ADD COLUMN arm TEXT NOT NULL DEFAULT '' CHECK (arm IN ('', 'free', 'committed'));
-- A round of the experiment: its students play in their arms.
ALTER TABLE rounds ADD COLUMN arms INTEGER NOT NULL DEFAULT 0;
