// @ts-check
'use strict'
// PostgresSessionStore: a SessionStore on PostgreSQL through a `pg` Pool the caller configures
// (the official repository's reference adapter's options: `{ pool, tableName? }` and
// `ensureSchema()`). One row per entry, ordered by a BIGSERIAL id; its table is the reference
// adapter's (a table it wrote is read as is), plus a `uuid` column that makes a replayed entry
// (a retried append, an import run twice) a no-op, and a `<table>_summaries` table that
// listSessions and listSessionSummaries read. An append is all of its entries and the session's
// summary, or nothing: one statement when the summary is the one this store last wrote (the
// usual case: one writer per session), else a transaction that folds it under a row lock.
const fs = require('fs')
const path = require('path')
const { foldSessionSummary } = require('../session-summary')
const { checkKey, checkProjectKey, serializeEntries, parseEntry } = require('./common')

const NAME = 'PostgresSessionStore'
/** Summaries this store last wrote, kept to skip reading them back (per store, at most this many). */
const SUMMARY_CACHE = 10000

/**
 * The tables and indexes (postgres-schema.sql, which the Rust SDK's store includes too), one
 * statement at a time; `{entries}` and `{summaries}` stand for the tables' names.
 */
const SCHEMA = fs
  .readFileSync(path.join(__dirname, 'postgres-schema.sql'), 'utf8')
  .replace(/^--.*$/gm, '')
  .split(';')
  .map((statement) => statement.trim())
  .filter(Boolean)

/** Rows an INSERT takes as parameters of their own (two each); a larger batch goes as two arrays. */
const VALUES_ROWS = 1000

/**
 * The entries' rows as one INSERT, in order (ids follow the entries' order): up to VALUES_ROWS
 * rows as a VALUES list of parameters ($4/$5 the first entry's uuid and JSON, and so on: the
 * server parses each entry as json straight from its parameter), more as two arrays unnested
 * ($4 the uuids, $5 the JSON texts; one array literal to escape and parse, slower per row but
 * with no limit on the parameter count).
 */
function insertRows(table, count, where, { skipReplays = true } = {}) {
  let from
  if (count <= VALUES_ROWS) {
    const rows = []
    for (let i = 0; i < count; i++) rows.push(`(${i}, $${4 + 2 * i}::text, $${5 + 2 * i}::json)`)
    from = `(VALUES ${rows.join(', ')}) AS x(n, u, e)`
  } else {
    from = 'unnest($4::text[], $5::json[]) WITH ORDINALITY AS x(u, e, n)'
  }
  const conflict = skipReplays ? "ON CONFLICT (project_key, session_id, (COALESCE(subpath, '')), uuid) WHERE uuid IS NOT NULL DO NOTHING" : ''
  return `INSERT INTO ${table} (project_key, session_id, subpath, uuid, entry)
    SELECT $1, $2, $3, x.u, x.e FROM ${from} ${where} ORDER BY x.n ${conflict}`
}

/** A unique_violation: an entry whose uuid the key already holds (a replay). */
const isReplay = (e) => e?.code === '23505' && String(e?.constraint ?? '').endsWith('_uuid_idx')

/** The parameters of insertRows(): the key's three, then the rows'. */
function insertParams(key, uuids, lines) {
  const params = [key.projectKey, key.sessionId, key.subpath ?? null]
  if (lines.length > VALUES_ROWS) {
    params.push(uuids, lines)
    return params
  }
  for (let i = 0; i < lines.length; i++) params.push(uuids[i], lines[i])
  return params
}

/** A missing table's error, with what to do about it. */
function explain(table, e) {
  if (e?.code === '42P01') return Object.assign(new Error(`${NAME}: the table ${table} does not exist: call ensureSchema() once at startup (${e.message})`), { code: e.code, cause: e })
  return e
}

class PostgresSessionStore {
  #pool
  #table
  #summaries
  /** `project\0session` -> the summary's data as this store last wrote it: { text, data }. */
  #known = new Map()

  /**
   * @param {{ pool: { query: Function, connect: () => Promise<any> }, tableName?: string }} options `tableName` (default
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

  /** pool.query, its errors explained. */
  async #query(...args) {
    try {
      return await this.#pool.query(...args)
    } catch (e) {
      throw explain(this.#table, e)
    }
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
      throw explain(this.#table, e)
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
      for (const statement of SCHEMA) await c.query(statement.replaceAll('{entries}', t).replaceAll('{summaries}', s))
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
    const uuids = entries.map((e) => (typeof e.uuid === 'string' && e.uuid !== '' ? e.uuid : null))
    const rows = insertParams(key, uuids, lines)
    const n = lines.length
    // A subpath: one statement (atomic by itself).
    if (key.subpath !== undefined) {
      await this.#query(insertRows(this.#table, n, ''), rows)
      return
    }
    const s = this.#summaries
    const id = `${key.projectKey}\0${key.sessionId}`
    const known = this.#known.get(id)
    if (known) {
      // One statement: the entries and the summary, provided the summary is still the one this
      // store wrote (else another writer appended meanwhile: the transaction below reads it).
      const folded = JSON.stringify(foldSessionSummary({ sessionId: key.sessionId, mtime: 0, data: known.data }, key, entries).data)
      // The summary's parameters come after the rows' ($p new, $p+1 expected).
      const p = rows.length + 1
      const statement = (skipReplays) => `WITH up AS (UPDATE ${s} SET mtime = GREATEST(mtime + 1, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT), data = $${p}::json
           WHERE project_key = $1 AND session_id = $2 AND data::text = $${p + 1}::text RETURNING 1),
         ins AS (${insertRows(this.#table, n, 'WHERE EXISTS (SELECT 1 FROM up)', { skipReplays })})
         SELECT count(*)::int AS updated FROM up`
      // First as a plain INSERT (ON CONFLICT's speculative insertion costs about a fifth of an
      // append); a replayed uuid fails it whole (unique index), and it runs again skipping replays.
      let r
      try {
        r = (await this.#query(statement(false), [...rows, folded, known.text])).rows
      } catch (e) {
        if (!isReplay(e)) throw e
        r = (await this.#query(statement(true), [...rows, folded, known.text])).rows
      }
      if (r[0].updated === 1) return this.#remember(id, folded)
    }
    await this.#transaction(async (c) => {
      await c.query(insertRows(this.#table, n, ''), rows)
      // The session's summary, folded under the row's lock (concurrent appends queue here).
      await c.query(`INSERT INTO ${s} (project_key, session_id, mtime, data) VALUES ($1, $2, 0, '{}') ON CONFLICT DO NOTHING`, [key.projectKey, key.sessionId])
      const { rows: r } = await c.query(`SELECT data::text AS data FROM ${s} WHERE project_key = $1 AND session_id = $2 FOR UPDATE`, [key.projectKey, key.sessionId])
      const prevData = JSON.parse(r[0].data)
      const prev = Object.keys(prevData).length ? { sessionId: key.sessionId, mtime: 0, data: prevData } : undefined
      const folded = JSON.stringify(foldSessionSummary(prev, key, entries).data)
      await c.query(`UPDATE ${s} SET mtime = GREATEST(mtime + 1, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT), data = $3 WHERE project_key = $1 AND session_id = $2`, [key.projectKey, key.sessionId, folded])
      return folded
    }).then((folded) => this.#remember(id, folded))
  }

  #remember(id, text) {
    this.#known.delete(id)
    if (this.#known.size >= SUMMARY_CACHE) this.#known.delete(this.#known.keys().next().value)
    this.#known.set(id, { text, data: JSON.parse(text) })
  }

  async load(key) {
    checkKey(NAME, 'load', key)
    const sub = key.subpath === undefined ? 'subpath IS NULL' : 'subpath = $3'
    const values = key.subpath === undefined ? [key.projectKey, key.sessionId] : [key.projectKey, key.sessionId, key.subpath]
    const { rows } = await this.#query({ text: `SELECT entry::text AS entry FROM ${this.#table} WHERE project_key = $1 AND session_id = $2 AND ${sub} ORDER BY id`, values, rowMode: 'array' })
    if (rows.length === 0) return null
    return rows.map((r, i) => parseEntry(NAME, key, r[0], i))
  }

  async listSessions(projectKey) {
    checkProjectKey(NAME, 'listSessions', projectKey)
    const { rows } = await this.#query(`SELECT session_id, mtime FROM ${this.#summaries} WHERE project_key = $1`, [projectKey])
    return rows.map((r) => ({ sessionId: r.session_id, mtime: Number(r.mtime) }))
  }

  async listSessionSummaries(projectKey) {
    checkProjectKey(NAME, 'listSessionSummaries', projectKey)
    const { rows } = await this.#query(`SELECT session_id, mtime, data::text AS data FROM ${this.#summaries} WHERE project_key = $1`, [projectKey])
    return rows.map((r) => ({ sessionId: r.session_id, mtime: Number(r.mtime), data: JSON.parse(r.data) }))
  }

  async delete(key) {
    checkKey(NAME, 'delete', key)
    if (key.subpath !== undefined) {
      await this.#query(`DELETE FROM ${this.#table} WHERE project_key = $1 AND session_id = $2 AND subpath = $3`, [key.projectKey, key.sessionId, key.subpath])
      return
    }
    // The whole session: its transcript, every subpath and its summary, at once.
    this.#known.delete(`${key.projectKey}\0${key.sessionId}`)
    await this.#transaction(async (c) => {
      await c.query(`DELETE FROM ${this.#table} WHERE project_key = $1 AND session_id = $2`, [key.projectKey, key.sessionId])
      await c.query(`DELETE FROM ${this.#summaries} WHERE project_key = $1 AND session_id = $2`, [key.projectKey, key.sessionId])
    })
  }

  async listSubkeys(key) {
    checkKey(NAME, 'listSubkeys', key, { subpath: false })
    const { rows } = await this.#query(`SELECT DISTINCT subpath FROM ${this.#table} WHERE project_key = $1 AND session_id = $2 AND subpath IS NOT NULL`, [key.projectKey, key.sessionId])
    return rows.map((r) => r.subpath)
  }
}

module.exports = { PostgresSessionStore }
