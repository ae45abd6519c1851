-- The fingerprint (SHA-256) of the district's key file, recorded by the
-- first instance that starts on the database: an instance with another
-- key refuses to start (DistrictKey), since the classes it took over
-- would answer its projector links and rejoin codes wrongly. Postgres's
-- alone: a SQLite file has one server, its key beside it.
CREATE TABLE district_key (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  fingerprint TEXT COLLATE "C" NOT NULL,
  recorded_at TEXT COLLATE "C" NOT NULL
);
