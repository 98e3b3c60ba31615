'use strict'
// PostgresSessionStore: a SessionStore on PostgreSQL through a `pg` Pool the caller configures
// (the official repository's reference adapter's options: `{ pool, tableName? }` and
// `ensureSchema()`). One row per entry, ordered by a BIGSERIAL id; its table is the reference
// adapter's (a table it wrote is read as is), plus a `uuid` column that makes a replayed entry
// (a retried append, an import run twice) a no-op, and a `<table>_summaries` table that
// listSessions and listSessionSummaries read. An append is one transaction: all of its entries
// and the session's summary, or nothing.
const { foldSessionSummary } = require('../session-summary')
const { checkKey, checkProjectKey, serializeEntries, parseEntry } = require('./common')

const NAME = 'PostgresSessionStore'
/** Rows per INSERT statement (5 parameters each, 3 shared: far below Postgres's 65,535). */
const ROWS_PER_INSERT = 1000
/** Bytes of entry text per INSERT statement. */
const BYTES_PER_INSERT = 8 << 20

/** The batch's rows in INSERT statements of bounded size: `[{ text, values }]`. */
function insertStatements(table, key, lines, entries) {
  const out = []
  let rows = []
  let bytes = 0
  const flush = () => {
    if (!rows.length) return
    const values = [key.projectKey, key.sessionId, key.subpath ?? null]
    const tuples = rows.map(([line, uuid]) => {
      values.push(uuid, line)
      return `($1, $2, $3, $${values.length - 1}, $${values.length})`
    })
    out.push({
      text: `INSERT INTO ${table} (project_key, session_id, subpath, uuid, entry) VALUES ${tuples.join(', ')} ON CONFLICT (project_key, session_id, (COALESCE(subpath, '')), uuid) WHERE uuid IS NOT NULL DO NOTHING`,
      values,
    })
    rows = []
    bytes = 0
  }
  for (const [i, line] of lines.entries()) {
    if (rows.length >= ROWS_PER_INSERT || (rows.length && bytes + line.length > BYTES_PER_INSERT)) flush()
    const uuid = typeof entries[i].uuid === 'string' && entries[i].uuid !== '' ? entries[i].uuid : null
    rows.push([line, uuid])
    bytes += line.length
  }
  flush()
  return out
}

class PostgresSessionStore {
  #pool
  #table
  #summaries

  /**
   * @param {{ pool: import('pg').Pool, tableName?: string }} options `tableName` (default
   * `claude_session_entries`): letters, digits and `_`, at most 40 characters.
   */
  constructor(options) {
    const pool = options?.pool
    if (!pool || typeof pool.query !== 'function' || typeof pool.connect !== 'function') {
      throw new TypeError(`${NAME}: options.pool must be a pg Pool (an object with query() and connect())`)
    }
    const table = options.tableName ?? 'claude_session_entries'
    if (typeof table !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(table)) {
      throw new TypeError(`${NAME}: invalid tableName ${JSON.stringify(table)} (letters, digits and _, not starting with a digit, at most 40 characters)`)
    }
    this.#pool = pool
    this.#table = table.toLowerCase()
    this.#summaries = `${this.#table}_summaries`
  }

  /** Runs `fn(client)` in a transaction on one pooled connection. */
  async #transaction(fn) {
    const client = await this.#pool.connect()
    let broken = false
    try {
      await client.query('BEGIN')
      const out = await fn(client)
      await client.query('COMMIT')
      return out
    } catch (e) {
      try {
        await client.query('ROLLBACK')
      } catch {
        broken = true // the connection is unusable: do not hand it back to the pool
      }
      throw e
    } finally {
      client.release(broken || undefined)
    }
  }

  /**
   * Creates the tables and indexes if absent (idempotent, safe to call from many processes at
   * once: serialized by an advisory lock). Call once at startup. Sessions in a table the
   * reference adapter wrote get their summary rows here (their titles come with their next append).
   */
  async ensureSchema() {
    const t = this.#table
    const s = this.#summaries
    await this.#transaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`claude-agent-sdk-native:${t}`])
      const { rows } = await c.query('SELECT to_regclass($1) IS NOT NULL AS had_entries, to_regclass($2) IS NOT NULL AS had_summaries', [t, s])
      await c.query(`CREATE TABLE IF NOT EXISTS ${t} (
        id          BIGSERIAL PRIMARY KEY,
        project_key TEXT NOT NULL,
        session_id  TEXT NOT NULL,
        subpath     TEXT,
        entry       JSON NOT NULL,
        created_at  TIMESTAMPTZ NOT NULL DEFAULT NOW(),
        uuid        TEXT
      )`)
      await c.query(`ALTER TABLE ${t} ADD COLUMN IF NOT EXISTS uuid TEXT`)
      await c.query(`CREATE INDEX IF NOT EXISTS ${t}_key_idx ON ${t} (project_key, session_id, subpath, id)`)
      await c.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${t}_uuid_idx ON ${t} (project_key, session_id, (COALESCE(subpath, '')), uuid) WHERE uuid IS NOT NULL`)
      await c.query(`CREATE TABLE IF NOT EXISTS ${s} (
        project_key TEXT NOT NULL,
        session_id  TEXT NOT NULL,
        mtime       BIGINT NOT NULL,
        data        JSON NOT NULL,
        PRIMARY KEY (project_key, session_id)
      )`)
      if (rows[0].had_entries && !rows[0].had_summaries) {
        await c.query(`INSERT INTO ${s} (project_key, session_id, mtime, data)
          SELECT project_key, session_id, (EXTRACT(EPOCH FROM MAX(created_at)) * 1000)::BIGINT, '{}' FROM ${t}
          WHERE subpath IS NULL GROUP BY project_key, session_id ON CONFLICT DO NOTHING`)
      }
    })
  }

  async append(key, entries) {
    checkKey(NAME, 'append', key)
    const lines = serializeEntries(NAME, key, entries)
    if (lines.length === 0) return
    const statements = insertStatements(this.#table, key, lines, entries)
    await this.#transaction(async (c) => {
      for (const st of statements) await c.query(st.text, st.values)
      if (key.subpath !== undefined) return
      // The session's summary, folded under the row's lock (concurrent appends queue here).
      const s = this.#summaries
      await c.query(`INSERT INTO ${s} (project_key, session_id, mtime, data) VALUES ($1, $2, 0, '{}') ON CONFLICT DO NOTHING`, [key.projectKey, key.sessionId])
      const { rows } = await c.query(`SELECT mtime, data::text AS data FROM ${s} WHERE project_key = $1 AND session_id = $2 FOR UPDATE`, [key.projectKey, key.sessionId])
      const prevData = JSON.parse(rows[0].data)
      const prev = Object.keys(prevData).length ? { sessionId: key.sessionId, mtime: Number(rows[0].mtime), data: prevData } : undefined
      const folded = foldSessionSummary(prev, key, entries)
      await c.query(`UPDATE ${s} SET mtime = GREATEST(mtime + 1, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT), data = $3 WHERE project_key = $1 AND session_id = $2`, [key.projectKey, key.sessionId, JSON.stringify(folded.data)])
    })
  }

  async load(key) {
    checkKey(NAME, 'load', key)
    const sub = key.subpath === undefined ? 'subpath IS NULL' : 'subpath = $3'
    const values = key.subpath === undefined ? [key.projectKey, key.sessionId] : [key.projectKey, key.sessionId, key.subpath]
    const { rows } = await this.#pool.query({ text: `SELECT entry::text AS entry FROM ${this.#table} WHERE project_key = $1 AND session_id = $2 AND ${sub} ORDER BY id`, values, rowMode: 'array' })
    if (rows.length === 0) return null
    return rows.map((r, i) => parseEntry(NAME, key, r[0], i))
  }

  async listSessions(projectKey) {
    checkProjectKey(NAME, 'listSessions', projectKey)
    const { rows } = await this.#pool.query(`SELECT session_id, mtime FROM ${this.#summaries} WHERE project_key = $1`, [projectKey])
    return rows.map((r) => ({ sessionId: r.session_id, mtime: Number(r.mtime) }))
  }

  async listSessionSummaries(projectKey) {
    checkProjectKey(NAME, 'listSessionSummaries', projectKey)
    const { rows } = await this.#pool.query(`SELECT session_id, mtime, data::text AS data FROM ${this.#summaries} WHERE project_key = $1`, [projectKey])
    return rows.map((r) => ({ sessionId: r.session_id, mtime: Number(r.mtime), data: JSON.parse(r.data) }))
  }

  async delete(key) {
    checkKey(NAME, 'delete', key)
    if (key.subpath !== undefined) {
      await this.#pool.query(`DELETE FROM ${this.#table} WHERE project_key = $1 AND session_id = $2 AND subpath = $3`, [key.projectKey, key.sessionId, key.subpath])
      return
    }
    // The whole session: its transcript, every subpath and its summary, at once.
    await this.#transaction(async (c) => {
      await c.query(`DELETE FROM ${this.#table} WHERE project_key = $1 AND session_id = $2`, [key.projectKey, key.sessionId])
      await c.query(`DELETE FROM ${this.#summaries} WHERE project_key = $1 AND session_id = $2`, [key.projectKey, key.sessionId])
    })
  }

  async listSubkeys(key) {
    checkKey(NAME, 'listSubkeys', key, { subpath: false })
    const { rows } = await this.#pool.query(`SELECT DISTINCT subpath FROM ${this.#table} WHERE project_key = $1 AND session_id = $2 AND subpath IS NOT NULL`, [key.projectKey, key.sessionId])
    return rows.map((r) => r.subpath)
  }
}

module.exports = { PostgresSessionStore }
