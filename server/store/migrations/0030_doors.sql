-- A learning platform's class takes only its platform's launches (issue
-- 79): codes_open says its teacher opened it to joins by the class code
-- as well (off until they do). Every other class takes codes, as before.
ALTER TABLE classes ADD COLUMN codes_open INTEGER NOT NULL DEFAULT 0;
-- list_hidden: the class list's names are not offered on the join page to
-- whoever has the class code (its students type their name and their
-- card's code); off until the teacher turns it on.
ALTER TABLE classes ADD COLUMN list_hidden INTEGER NOT NULL DEFAULT 0;
