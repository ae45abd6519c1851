-- A rejoin code lasts until the teacher renews it: it is derived (with
-- the server's key, never stored) from the student and the count of
-- renewals, not from the browser's token, which changes on every rejoin.
ALTER TABLE students ADD COLUMN rejoin_epoch INTEGER NOT NULL DEFAULT 0;

-- A browser whose seat moved to another device (the student rejoined
-- there, or the teacher renewed the code) is told so on its next page:
-- its old token's hash, until the student is erased or the class deleted.
CREATE TABLE moved_tokens (
  token_hash TEXT PRIMARY KEY,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  student_id INTEGER NOT NULL REFERENCES students(id) ON DELETE CASCADE
);
