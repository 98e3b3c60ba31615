// @ts-check
'use strict'
// The `sessionStore` option of query(), the part only JS can do: the store's checks, and the
// resume of a stored session (the store's listSessions/load/listSubkeys, called before the CLI
// starts; the engine writes the files, crates/agent-core/src/sessions/materialize.rs). The
// mirror itself (the CLI's `transcript_mirror` frames batched to store.append, retries,
// timeout, `mirror_error`) runs in the engine (crates/agent-core/src/session/mirror.rs), which
// calls append through lib/dispatch.js like any other callback.
const fs = require('fs')
const os = require('os')
const path = require('path')
const crypto = require('crypto')
const { projectKey, toJsonl, materializeSession } = require('./sessions')
const { safeString } = require('./thrown')

/**
 * @typedef {import('../types/options').SessionStore} SessionStore
 * @typedef {import('../types/options').SessionStoreEntry} SessionStoreEntry
 * @typedef {import('./types').QueryOptions & { sessionStore: SessionStore }} StoreOptions a query's options with its store
 */

/**
 * @template T
 * @param {T | PromiseLike<T>} promise
 * @param {number} ms
 * @param {string} message the error's when the time is up
 * @returns {Promise<T>}
 */
function withTimeout(promise, ms, message) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  return Promise.race([
    Promise.resolve(promise).finally(() => clearTimeout(timer)),
    /** @type {Promise<never>} */ (new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms)
      if (timer.unref) timer.unref()
    })),
  ])
}

/**
 * What load() gave, checked before anything is written: null/undefined (nothing stored), or an
 * array of objects with a string `type`. Anything else is an error naming the session (and the
 * subpath) and the entry.
 * @param {unknown} entries
 * @param {string} sessionId
 * @param {string} [subpath]
 * @returns {SessionStoreEntry[] | null | undefined}
 */
function checkLoaded(entries, sessionId, subpath) {
  if (entries == null) return entries
  const where = `session ${sessionId}${subpath ? ` subpath ${subpath}` : ''}`
  if (!Array.isArray(entries)) throw new Error(`SessionStore.load() for ${where} returned ${typeof entries}, not an array of entries or null`)
  for (const [i, e] of entries.entries()) {
    if (e === null || typeof e !== 'object' || Array.isArray(e) || typeof e.type !== 'string') {
      let shown
      try {
        shown = JSON.stringify(e)?.slice(0, 80)
      } catch {
        shown = safeString(e)
      }
      throw new Error(`SessionStore.load() for ${where}: corrupt entry ${i} (not an object with a string "type"): ${shown}`)
    }
  }
  return /** @type {SessionStoreEntry[]} */ (entries)
}

/** @param {import('./types').QueryOptions} options */
function configDirOf(options) {
  return options.env?.CLAUDE_CONFIG_DIR ?? process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), '.claude')
}

/** The errors the official tries a removal again on. */
const BUSY = new Set(['EBUSY', 'EMFILE', 'ENFILE', 'ENOTEMPTY', 'EPERM'])

/**
 * Removes a folder as the official removes a resume's: up to 5 tries, 100-400 ms apart, while busy.
 * @param {string} dir
 */
async function removeDir(dir) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fs.promises.rm(dir, { recursive: true, force: true })
    } catch (e) {
      if (attempt >= 4 || !BUSY.has(e?.code ?? '')) return
      await new Promise((resolve) => setTimeout(resolve, (attempt + 1) * 100))
    }
  }
}

/**
 * Checks the options the official rejects with a session store.
 * @param {StoreOptions} options
 */
function checkStoreOptions(options) {
  if (options.persistSession === false) {
    throw new Error("sessionStore cannot be used with persistSession: false -- the storage adapter requires local writes to mirror from. To avoid keeping a local copy, pass env: { ...process.env, CLAUDE_CONFIG_DIR: dir }, where dir is a new private directory such as fs.mkdtempSync(path.join(os.tmpdir(), 'claude-')), and delete dir when the query ends.")
  }
  if (options.continue && !options.resume && typeof options.sessionStore.listSessions !== 'function') {
    throw new Error('Options.continue with sessionStore requires store.listSessions to be implemented')
  }
  if (options.enableFileCheckpointing) {
    throw new Error('enableFileCheckpointing is not yet supported with sessionStore (backup blobs are not mirrored, so rewindFiles() fails after a store-backed resume).')
  }
}

/**
 * The `env` option as strings (a value JavaScript calls false says nothing), or undefined.
 * @param {unknown} env
 */
function envStrings(env) {
  if (env == null || typeof env !== 'object') return undefined
  /** @type {Record<string, string>} */
  const out = {}
  for (const [k, v] of Object.entries(env)) if (v != null) out[k] = typeof v === 'string' ? v : v ? String(v) : ''
  return out
}

/**
 * Loads a stored session (and its subagents) into a fresh config folder for the CLI to resume
 * from. Resolves with `{ dir, sessionId }`, or null when there is nothing to resume.
 * @param {StoreOptions} options
 * @returns {Promise<{ dir: string, sessionId: string } | null>}
 */
async function materialize(options) {
  const store = options.sessionStore
  const timeout = options.loadTimeoutMs ?? 60000
  const cwd = path.resolve(options.cwd ?? '.')
  const key = projectKey(cwd)
  let sessionId = options.resume
  if (!sessionId) {
    // Without `resume` this is a `continue`, which checkStoreOptions() lets through only with listSessions.
    const listed = await withTimeout(/** @type {Required<SessionStore>} */ (store).listSessions(key), timeout, `SessionStore.listSessions() timed out after ${timeout}ms`)
    sessionId = listed.slice().sort((a, b) => b.mtime - a.mtime)[0]?.sessionId
  }
  if (!sessionId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) return null
  const entries = checkLoaded(await withTimeout(store.load({ projectKey: key, sessionId }), timeout, `SessionStore.load() timed out after ${timeout}ms for session ${sessionId}`), sessionId)
  if (!entries || entries.length === 0) return null
  /** @type {Array<{ subpath: string, text: string, meta: string | undefined }>} */
  const subagents = []
  if (typeof store.listSubkeys === 'function') {
    /** @type {unknown} */
    const subkeys = await withTimeout(store.listSubkeys({ projectKey: key, sessionId }), timeout, `SessionStore.listSubkeys() timed out after ${timeout}ms for session ${sessionId}`)
    if (!Array.isArray(subkeys)) throw new Error(`SessionStore.listSubkeys() for session ${sessionId} returned ${subkeys === null ? 'null' : typeof subkeys}, not an array of subpaths`)
    for (const sub of subkeys) {
      // A subpath must stay inside the session's folder (the engine checks it again).
      if (typeof sub !== 'string' || !sub || path.isAbsolute(sub) || sub.split(/[\\/]/).includes('..')) continue
      const subEntries = checkLoaded(await withTimeout(store.load({ projectKey: key, sessionId, subpath: sub }), timeout, `SessionStore.load() timed out after ${timeout}ms for session ${sessionId} subpath ${sub}`), sessionId, sub)
      if (!subEntries || subEntries.length === 0) continue
      const meta = subEntries.filter((e) => e && e.type === 'agent_metadata')
      const rest = subEntries.filter((e) => !(e && e.type === 'agent_metadata'))
      let metaText
      if (meta.length > 0) {
        const { type, ...m } = meta[meta.length - 1]
        metaText = JSON.stringify(m)
      }
      subagents.push({ subpath: sub, text: rest.length > 0 ? toJsonl(rest) : '', meta: metaText })
    }
  }
  // The files are written by the engine, off this thread (crates/agent-core/src/sessions/materialize.rs).
  const dir = path.join(os.tmpdir(), `claude-resume-${crypto.randomUUID()}`)
  await materializeSession({
    dir,
    projectKey: key,
    sessionId,
    text: toJsonl(entries),
    subagents,
    configFrom: configDirOf(options),
    globalFrom: options.env?.CLAUDE_CONFIG_DIR ?? process.env.CLAUDE_CONFIG_DIR ?? os.homedir(),
    // On macOS the official prefers the login keychain's credentials (engine: sessions/keychain.rs).
    keychain: process.platform === 'darwin',
    optionsEnv: envStrings(options.env),
    hostEnv: process.platform === 'darwin' ? envStrings(process.env) : undefined,
  })
  return { dir, sessionId }
}

/**
 * query() with `options.sessionStore`: checks the options, loads a resumed session from the
 * store, then starts the CLI (the engine mirrors its transcript to the store). Resolves when
 * started.
 * @param {import('./query').Port} q the query's port
 * @param {import('./types').Prompt | symbol | undefined} prompt
 * @param {import('./types').QueryOptions} queryOptions options with a `sessionStore`
 * @param {Promise<unknown> | undefined} loading what the start waits for first (zod loading)
 * @returns {Promise<void>}
 */
function startWithStore(q, prompt, queryOptions, loading) {
  const options = /** @type {StoreOptions} */ (queryOptions)
  checkStoreOptions(options)
  /** @type {import('./types').QueryOptions} */
  const opts = { ...options }
  delete opts.loadTimeoutMs
  delete opts.continue // resolved here from the store's newest session
  return (async () => {
    if (loading) await loading
    if (options.resume || options.continue) {
      const found = await materialize(options)
      if (found) {
        opts.resume = found.sessionId
        opts.env = { ...(options.env ?? process.env), CLAUDE_CONFIG_DIR: found.dir }
        // Run when the query lets go, or now if it was closed while the store was loading (it
        // never starts; nothing waits).
        q.onRelease(() => {
          // Once the CLI has exited, as the official removes it: a query left early (`break`)
          // stops the CLI in the background, and it may still write there as it stops.
          q.sessionEnded().then(() => removeDir(found.dir), () => removeDir(found.dir))
        })
      }
    }
    q.begin(prompt, opts)
  })().catch((e) => {
    q.failStart(e)
  })
}

module.exports = { materialize, checkStoreOptions, configDirOf, startWithStore }
