-- The language the teacher sets for the class: its projector, and its
-- students' pages unless a student picks their own ('' for none).
ALTER TABLE classes ADD COLUMN language TEXT NOT NULL DEFAULT '';
