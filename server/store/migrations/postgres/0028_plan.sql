-- "Decide before you roll" (issue 62): the number a committed player set
-- at the start of the turn ("roll until my turn total reaches N"), on
-- each decision the turn made by it; 0 for every other decision.
ALTER TABLE events ADD COLUMN plan INTEGER NOT NULL DEFAULT 0;
