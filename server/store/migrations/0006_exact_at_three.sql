-- Whether a decision's chances are exact or an approximation: three or more
-- players are analysed exactly once their table is solved (in the
-- background), approximately (the two-player table against the leading
-- opponent) until then. Every earlier analysis of three or four players was
-- the approximation.
ALTER TABLE events ADD COLUMN approximate INTEGER NOT NULL DEFAULT 0;
UPDATE events SET approximate = 1
  WHERE win_if_chosen IS NOT NULL
    AND match_id IN (SELECT id FROM matches WHERE json_extract(variant, '$.seats') > 2);
