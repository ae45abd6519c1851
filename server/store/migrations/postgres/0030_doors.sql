-- A learning platform's class takes only its platform's launches (issue
-- 79): codes_open says its teacher opened it to joins by the class code
-- as well (off until they do). Every other class takes codes, as before.
ALTER TABLE classes ADD COLUMN codes_open INTEGER NOT NULL DEFAULT 0;
