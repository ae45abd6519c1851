-- A tournament's entries, fixed when they close (issue 58, item 11): each
-- student's plan as it was then, by student id, as JSON
-- ([{"student": ID, "plan": {...}}]); a plan saved later, or a restart,
-- plays nothing else. NULL for a tournament closed before this column.
ALTER TABLE tournaments ADD COLUMN entries TEXT;
