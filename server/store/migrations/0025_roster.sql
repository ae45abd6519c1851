-- A class list the teacher uploads (issue 61, item 6): a student who came
-- from it (1), whose name the join page offers to pick, beside those who
-- typed their own nickname (0). Such a student has no browser until they
-- take their seat with their rejoin code (token_hash 'unclaimed:...').
ALTER TABLE students ADD COLUMN roster INTEGER NOT NULL DEFAULT 0;
