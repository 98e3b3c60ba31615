-- The PostgreSQL session stores' tables and indexes: lib/stores/postgres.js reads this file and
-- the Rust SDK's store::postgres includes it, so both create the same schema. {entries} and
-- {summaries} stand for the two tables' names (checked to be plain identifiers before they are
-- put in). Idempotent; the stores run it in a transaction under an advisory lock.
CREATE TABLE IF NOT EXISTS {entries} (
  id          BIGSERIAL PRIMARY KEY,
  project_key TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  subpath     TEXT,
  entry       JSON NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT NOW(),
  uuid        TEXT
);
ALTER TABLE {entries} ADD COLUMN IF NOT EXISTS uuid TEXT;
CREATE INDEX IF NOT EXISTS {entries}_key_idx ON {entries} (project_key, session_id, subpath, id);
CREATE UNIQUE INDEX IF NOT EXISTS {entries}_uuid_idx ON {entries} (project_key, session_id, (COALESCE(subpath, '')), uuid) WHERE uuid IS NOT NULL;
CREATE TABLE IF NOT EXISTS {summaries} (
  project_key TEXT NOT NULL,
  session_id  TEXT NOT NULL,
  mtime       BIGINT NOT NULL,
  data        JSON NOT NULL,
  PRIMARY KEY (project_key, session_id)
);
