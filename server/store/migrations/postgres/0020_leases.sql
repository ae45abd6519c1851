-- Which instance of a district serves a class (leases.go): a row a class,
-- renewed every few seconds by its holder; another instance takes it
-- over only once it has expired, and each takeover counts a generation
-- that the holder's writes carry (fencing). Postgres's alone: a SQLite
-- file has one server.
CREATE TABLE class_leases (
  class_id   BIGINT PRIMARY KEY REFERENCES classes(id) ON DELETE CASCADE,
  holder     TEXT COLLATE "C" NOT NULL,
  generation BIGINT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
