-- The mystery bot (issue 32). agrees: with each of a mystery bot's
-- decisions, the strengths that would have made the same one
-- (sim.MysteryStrengths, comma-separated; NULL for every other decision).
-- mystery_guesses: the strength a student guessed a mystery bot of their
-- match played at, once per bot and student (the review asks before it
-- tells).
ALTER TABLE events ADD COLUMN agrees TEXT;
CREATE TABLE mystery_guesses (
  match_id   INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
  seat       INTEGER NOT NULL,
  student_id INTEGER NOT NULL REFERENCES students(id) ON DELETE CASCADE,
  guess      TEXT    NOT NULL,
  at         TEXT    NOT NULL,
  PRIMARY KEY (match_id, seat, student_id)
);
