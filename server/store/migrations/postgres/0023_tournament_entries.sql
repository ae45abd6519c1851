-- A tournament's entries, fixed when they close (as ../0023).
ALTER TABLE tournaments ADD COLUMN entries TEXT COLLATE "C";
