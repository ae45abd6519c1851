-- The indexes Postgres's schema (postgres/0001_schema.sql) has always had
-- on three foreign keys, which SQLite's migrations lacked (found by
-- TestTheEnginesHaveOneSchema): a class's students and rounds, a round's
-- matches. Deleting a class or a round cascades through them without a
-- scan of the whole table. SQLite's alone: Postgres has them.
CREATE INDEX IF NOT EXISTS students_class ON students(class_id);
CREATE INDEX IF NOT EXISTS rounds_class ON rounds(class_id);
CREATE INDEX IF NOT EXISTS matches_round ON matches(round_id);
