-- LTI 1.3 (issue 61): the learning platforms pigclass is registered with
-- (one client id at one issuer, its addresses, the deployments of
-- pigclass it holds); the class each resource link opens (made on its
-- first launch; its platform named by issuer and client id, so that the
-- link moves with the class, pigclass migrate); the platform's user id
-- of each student who came from it; the nonces of launches used (kept
-- until the token they were in expires, so none is used twice);
-- pigclass's own signing keys, sealed with the server's key (lti.ToolKey);
-- and the score last sent to the link's gradebook line item for each
-- student (never the same twice), with the failures and the time to try
-- again. A link keeps the course's members' address (NRPS) and its line
-- item's (AGS), as its last launch gave them, and the score its teacher
-- chose to send for a class without homework: the quality of the
-- decisions, or the games played.
CREATE TABLE lti_platforms (
  id            INTEGER PRIMARY KEY,
  issuer        TEXT    NOT NULL,
  client_id     TEXT    NOT NULL,
  login_url     TEXT    NOT NULL,
  token_url     TEXT    NOT NULL,
  keys_url      TEXT    NOT NULL,
  registered_at TEXT    NOT NULL,
  UNIQUE (issuer, client_id)
);
CREATE TABLE lti_deployments (
  platform_id   INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
  deployment_id TEXT    NOT NULL,
  PRIMARY KEY (platform_id, deployment_id)
);
CREATE TABLE lti_links (
  class_id         INTEGER PRIMARY KEY REFERENCES classes(id) ON DELETE CASCADE,
  issuer           TEXT    NOT NULL,
  client_id        TEXT    NOT NULL,
  deployment_id    TEXT    NOT NULL,
  context_id       TEXT    NOT NULL,
  resource_link_id TEXT    NOT NULL,
  memberships_url  TEXT NOT NULL DEFAULT '',
  lineitem_url     TEXT NOT NULL DEFAULT '',
  score            TEXT NOT NULL DEFAULT 'quality' CHECK (score IN ('quality', 'games')),
  UNIQUE (issuer, client_id, deployment_id, resource_link_id)
);
CREATE TABLE lti_members (
  student_id INTEGER PRIMARY KEY REFERENCES students(id) ON DELETE CASCADE,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  user_id    TEXT    NOT NULL,
  UNIQUE (class_id, user_id)
);
CREATE TABLE lti_nonces (
  nonce      TEXT PRIMARY KEY,
  expires_at TEXT NOT NULL
);
CREATE TABLE lti_keys (
  kid        TEXT PRIMARY KEY,
  sealed     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  retired_at TEXT
);
CREATE TABLE lti_scores (
  student_id INTEGER PRIMARY KEY REFERENCES students(id) ON DELETE CASCADE,
  class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  sent       TEXT NOT NULL DEFAULT '',
  sent_at    TEXT,
  failures   INTEGER NOT NULL DEFAULT 0,
  retry_at   TEXT
);
CREATE INDEX lti_scores_class ON lti_scores(class_id);
