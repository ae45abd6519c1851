-- A decision made while its table was still being solved (in the
-- background, for a kind of round not solved before) is stored without its
-- analysis and marked pending; the analysis is filled in when the table is
-- ready, also after a restart. The index finds what is waiting.
ALTER TABLE events ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
CREATE INDEX events_pending ON events(match_id) WHERE pending = 1;
