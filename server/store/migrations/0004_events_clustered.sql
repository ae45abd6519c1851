-- The events of a match are read together (a restart replays every match
-- being played, a review reads one match's log), but many matches write at
-- once, so in a rowid table each match's events lie scattered over the
-- file. Kept WITHOUT ROWID, the table is ordered by (match_id, seq): a
-- match's log is a few neighbouring pages.
CREATE TABLE events_clustered (
  match_id       INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
  seq            INTEGER NOT NULL,
  seat           INTEGER NOT NULL,
  action         TEXT    NOT NULL,
  turn           INTEGER NOT NULL,
  roll           INTEGER NOT NULL,
  faces          TEXT    NOT NULL,
  by             TEXT    NOT NULL CHECK (by IN ('student', 'bot', 'timeout')),
  at             TEXT    NOT NULL,
  score          INTEGER NOT NULL,
  scores         TEXT    NOT NULL,
  opponent_score INTEGER NOT NULL,
  turn_total     INTEGER NOT NULL,
  dice           INTEGER NOT NULL,
  win_if_roll    REAL,
  win_if_hold    REAL,
  win_if_chosen  REAL,
  options        TEXT,
  best_action    TEXT,
  ev_action      TEXT,
  cost           REAL,
  PRIMARY KEY (match_id, seq)
) WITHOUT ROWID;
INSERT INTO events_clustered SELECT match_id, seq, seat, action, turn, roll, faces, by, at, score, scores, opponent_score, turn_total, dice,
  win_if_roll, win_if_hold, win_if_chosen, options, best_action, ev_action, cost FROM events;
DROP TABLE events;
ALTER TABLE events_clustered RENAME TO events;
