'use strict'
// The `sessionStore` option of query(): the CLI (started with --session-mirror) reports each
// transcript write as a `transcript_mirror` frame on stdout; those frames are taken out of the
// message stream here and appended to the store in batches. A resumed session is loaded from
// the store into a temporary config folder the CLI is pointed at before it starts.
//
// Store methods are user code: they are called from here (the JS side of the engine's
// message stream), and their failures never end the session — after the last try a
// `mirror_error` system message reports the lost batch.
const fs = require('fs')
const os = require('os')
const path = require('path')
const crypto = require('crypto')
const { projectKey, toJsonl, sessionsCall } = require('./sessions')

/** Flush a batch this long after its first entry (while a turn is running). */
const FLUSH_INTERVAL_MS = 100
const MAX_PENDING_ENTRIES = 500
const MAX_PENDING_BYTES = 1048576
/** Waits between the tries of a failed append (3 tries in all). */
const BACKOFF_MS = [200, 800]
const APPEND_TIMEOUT_MS = 60000

function withTimeout(promise, ms, message) {
  let timer
  return Promise.race([
    Promise.resolve(promise).finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms)
      if (timer.unref) timer.unref()
    }),
  ])
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** The store key of a transcript path under `projectsDir`, or null when it is elsewhere. */
function keyForPath(filePath, projectsDir) {
  const rel = path.relative(projectsDir, filePath)
  const parts = rel.split(path.sep)
  if (parts[0] === '..' || path.isAbsolute(rel) || parts.length < 2) return null
  const [projectKey, second] = parts
  if (parts.length === 2 && second.endsWith('.jsonl')) return { projectKey, sessionId: second.replace(/\.jsonl$/, '') }
  if (parts.length >= 4) {
    const sub = parts.slice(2)
    sub[sub.length - 1] = sub[sub.length - 1].replace(/\.jsonl$/, '')
    return { projectKey, sessionId: second, subpath: sub.join('/') }
  }
  return null
}

class TranscriptMirror {
  /**
   * @param {object} store the user's SessionStore
   * @param {{ projectsDir: () => string, eager?: boolean, onError: (key, message) => void, intervalMs?: number, backoffMs?: number[], timeoutMs?: number }} o
   */
  constructor(store, o) {
    this.store = store
    this.projectsDir = o.projectsDir
    this.eager = Boolean(o.eager)
    this.onError = o.onError
    this.intervalMs = o.intervalMs ?? FLUSH_INTERVAL_MS
    this.backoffMs = o.backoffMs ?? BACKOFF_MS
    this.timeoutMs = o.timeoutMs ?? APPEND_TIMEOUT_MS
    this.pending = []
    this.pendingEntries = 0
    this.pendingBytes = 0
    this.chain = Promise.resolve()
    this.timer = null
  }

  enqueue(filePath, entries) {
    if (typeof filePath !== 'string' || !Array.isArray(entries)) return
    const bytes = JSON.stringify(entries).length
    this.pending.push({ filePath, entries })
    this.pendingEntries += entries.length
    this.pendingBytes += bytes
    if (this.eager || this.pendingEntries > MAX_PENDING_ENTRIES || this.pendingBytes > MAX_PENDING_BYTES) {
      this.flush().catch(() => {})
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null
        this.flush().catch(() => {})
      }, this.intervalMs)
      if (this.timer.unref) this.timer.unref()
    }
  }

  /** Sends everything pending; resolves when it (and every earlier flush) is done. */
  flush() {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    const batch = this.pending.splice(0)
    this.pendingEntries = 0
    this.pendingBytes = 0
    this.chain = this.chain.then(() => this._send(batch))
    return this.chain
  }

  async _send(batch) {
    if (batch.length === 0) return
    const byFile = new Map()
    for (const { filePath, entries } of batch) {
      const list = byFile.get(filePath)
      if (list) list.push(...entries)
      else byFile.set(filePath, entries.slice())
    }
    for (const [filePath, entries] of byFile) await this._sendWithRetry(filePath, entries)
  }

  async _sendWithRetry(filePath, entries) {
    const key = keyForPath(filePath, this.projectsDir())
    if (!key) return // written outside the projects folder the CLI was given: not a transcript
    const timeoutMessage = `SessionStore.append() timed out after ${this.timeoutMs}ms for ${filePath}`
    let failure
    for (let attempt = 1; attempt <= this.backoffMs.length + 1; attempt++) {
      try {
        await withTimeout(this.store.append(key, entries), this.timeoutMs, timeoutMessage)
        failure = undefined
        break
      } catch (e) {
        failure = e instanceof Error ? e : new Error(String(e))
        if (failure.message === timeoutMessage) break // a store that hangs is not asked again
        const wait = this.backoffMs[attempt - 1]
        if (wait === undefined) break
        await sleep(wait)
      }
    }
    if (failure) {
      try {
        this.onError(key, failure.message)
      } catch {}
    }
  }
}

function configDirOf(options) {
  return options.env?.CLAUDE_CONFIG_DIR ?? process.env.CLAUDE_CONFIG_DIR ?? path.join(os.homedir(), '.claude')
}

/** Checks the options the official rejects with a session store. */
function checkStoreOptions(options) {
  if (options.persistSession === false) {
    throw new Error('sessionStore cannot be used with persistSession: false -- the storage adapter requires local writes to mirror from. To avoid keeping a local copy, pass env: { ...process.env, CLAUDE_CONFIG_DIR: dir } with a temporary directory.')
  }
  if (options.continue && !options.resume && typeof options.sessionStore.listSessions !== 'function') {
    throw new Error('Options.continue with sessionStore requires store.listSessions to be implemented')
  }
  if (options.enableFileCheckpointing) {
    throw new Error('enableFileCheckpointing is not yet supported with sessionStore (backup blobs are not mirrored, so rewindFiles() fails after a store-backed resume).')
  }
}

/** The `env` option as strings (a value JavaScript calls false says nothing), or undefined. */
function envStrings(env) {
  if (env == null || typeof env !== 'object') return undefined
  const out = {}
  for (const [k, v] of Object.entries(env)) if (v != null) out[k] = typeof v === 'string' ? v : v ? String(v) : ''
  return out
}

/**
 * Loads a stored session (and its subagents) into a fresh config folder for the CLI to resume
 * from. Resolves with `{ dir, sessionId }`, or null when there is nothing to resume.
 */
async function materialize(options) {
  const store = options.sessionStore
  const timeout = options.loadTimeoutMs ?? 60000
  const cwd = path.resolve(options.cwd ?? '.')
  const key = projectKey(cwd)
  let sessionId = options.resume
  if (!sessionId) {
    const listed = await withTimeout(store.listSessions(key), timeout, `SessionStore.listSessions() timed out after ${timeout}ms`)
    sessionId = listed.slice().sort((a, b) => b.mtime - a.mtime)[0]?.sessionId
  }
  if (!sessionId || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId)) return null
  const entries = await withTimeout(store.load({ projectKey: key, sessionId }), timeout, `SessionStore.load() timed out after ${timeout}ms for session ${sessionId}`)
  if (!entries || entries.length === 0) return null
  const subagents = []
  if (typeof store.listSubkeys === 'function') {
    const subkeys = await withTimeout(store.listSubkeys({ projectKey: key, sessionId }), timeout, `SessionStore.listSubkeys() timed out after ${timeout}ms for session ${sessionId}`)
    for (const sub of subkeys) {
      // A subpath must stay inside the session's folder (the engine checks it again).
      if (typeof sub !== 'string' || !sub || path.isAbsolute(sub) || sub.split(/[\\/]/).includes('..')) continue
      const subEntries = await withTimeout(store.load({ projectKey: key, sessionId, subpath: sub }), timeout, `SessionStore.load() timed out after ${timeout}ms for session ${sessionId} subpath ${sub}`)
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
  await sessionsCall('materialize', {
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

module.exports = { TranscriptMirror, keyForPath, materialize, checkStoreOptions, configDirOf }

/** Takes the mirror frames out of a batch of messages, queueing them for the store. */
TranscriptMirror.prototype.take = function take(messages) {
  if (!messages.some((m) => m && m.type === 'transcript_mirror')) return messages
  const out = []
  for (const m of messages) {
    if (m && m.type === 'transcript_mirror') this.enqueue(m.filePath, m.entries)
    else out.push(m)
  }
  return out
}

/**
 * query() with `options.sessionStore`: checks the options, sets up the mirror, loads a resumed
 * session from the store, then starts the CLI (with --session-mirror). Resolves when started.
 */
function startWithStore(q, prompt, options, loading) {
  checkStoreOptions(options)
  const store = options.sessionStore
  const opts = { ...options, extraArgs: { ...(options.extraArgs ?? {}), 'session-mirror': null } }
  delete opts.sessionStore
  delete opts.sessionStoreFlush
  delete opts.loadTimeoutMs
  delete opts.continue // resolved here from the store's newest session
  q._mirror = new TranscriptMirror(store, {
    projectsDir: () => path.join(configDirOf(opts), 'projects'),
    eager: options.sessionStoreFlush === 'eager',
    onError: (key, message) => {
      const m = { type: 'system', subtype: 'mirror_error', error: message, key, uuid: crypto.randomUUID(), session_id: key.sessionId }
      q._buffer.splice(q._pos, 0, m)
    },
  })
  return (async () => {
    if (loading) await loading
    if (options.resume || options.continue) {
      const found = await materialize(options)
      if (found) {
        opts.resume = found.sessionId
        opts.env = { ...(options.env ?? process.env), CLAUDE_CONFIG_DIR: found.dir }
        q._mirrorCleanup = () => {
          q._mirrorCleanup = null
          const rm = () => fs.rm(found.dir, { recursive: true, force: true }, () => {})
          q._mirror.flush().then(rm, rm)
        }
      }
    }
    q._begin(prompt, opts)
  })().catch((e) => {
    q._error = e
    q._finished = true
  })
}

module.exports.startWithStore = startWithStore
