-- A student removed from the class leaves its game of Skunk being played:
-- action leave (they stop standing and keep what they banked). SQLite
-- cannot change a CHECK, so the table is made again with the new action.
CREATE TABLE skunk_events_new (
  game_id     INTEGER NOT NULL REFERENCES skunk_games(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  action      TEXT    NOT NULL CHECK (action IN ('roll', 'stand', 'sit', 'leave')),
  participant INTEGER NOT NULL,
  round       INTEGER NOT NULL,
  roll        INTEGER NOT NULL,
  faces       TEXT    NOT NULL,
  round_total INTEGER NOT NULL,
  score       INTEGER NOT NULL,
  ev_action   TEXT    NOT NULL,
  at          TEXT    NOT NULL,
  PRIMARY KEY (game_id, seq)
);
INSERT INTO skunk_events_new SELECT game_id, seq, action, participant, round, roll, faces, round_total, score, ev_action, at FROM skunk_events;
DROP TABLE skunk_events;
ALTER TABLE skunk_events_new RENAME TO skunk_events;
