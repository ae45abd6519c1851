-- Tables (issue 45): a match played with real dice or pigs on one device
-- (at_table), whose players' throws are entered by hand (entered); a bot
-- at the table throws from the seed, as anywhere.
ALTER TABLE matches ADD COLUMN at_table INTEGER NOT NULL DEFAULT 0;
ALTER TABLE events ADD COLUMN entered INTEGER NOT NULL DEFAULT 0;
