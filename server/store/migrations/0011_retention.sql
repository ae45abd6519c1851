-- Retention (issue 33; README, "How long a class is kept"): a class is
-- erased a set number of days after its last activity (--retain-days).
-- For the classes stored before this release the clock starts at the
-- upgrade: retain_from is when this migration ran ('' for a class created
-- after it, whose created_at starts the clock).
ALTER TABLE classes ADD COLUMN retain_from TEXT NOT NULL DEFAULT '';
UPDATE classes SET retain_from = strftime('%Y-%m-%dT%H:%M:%SZ', 'now');
