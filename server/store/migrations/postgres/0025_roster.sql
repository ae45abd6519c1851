-- A class list the teacher uploads (issue 61, item 6): a student who came
-- from it (1), whose name the join page offers to pick. As SQLite's 0025.
ALTER TABLE students ADD COLUMN roster INTEGER NOT NULL DEFAULT 0;
