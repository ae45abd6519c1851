-- Every day a class did anything is one of its days: a day when only
-- games of homework were played was left out of class_days before. Its
-- matches say which days those were (a guess's day is kept from now on).
INSERT OR IGNORE INTO class_days (class_id, day, lesson)
SELECT DISTINCT class_id, day, '' FROM matches WHERE class_id IS NOT NULL AND day <> '';
