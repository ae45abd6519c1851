-- A match's own day (the date it started, in the server's time zone), so
-- that a game of homework, which has no round, belongs to a day of its
-- class; a match stored before keeps its round's day.
ALTER TABLE matches ADD COLUMN day TEXT NOT NULL DEFAULT '';
