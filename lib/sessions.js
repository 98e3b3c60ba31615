// @ts-check
'use strict'
// Session functions of @anthropic-ai/claude-agent-sdk (listSessions, getSessionMessages,
// renameSession, forkSession, ...). Transcript files are read and written by the engine
// (crates/agent-core/src/sessions) on its blocking pool; each call's result crosses as one JSON
// text. This file validates arguments (with the official messages), shapes results, and runs
// the `sessionStore` variants, whose store methods are user JavaScript.
const path = require('path')
const fs = require('fs')
const { loadNative } = require('./native')
const { foldSessionSummary, promptOf } = require('./session-summary')

/**
 * @typedef {import('./types').NativeBinding} NativeBinding
 * @typedef {import('../native/binding').SessionsContext} SessionsContext
 * @typedef {import('../types/options').SessionStore} SessionStore
 * @typedef {import('../types/options').SessionKey} SessionKey
 * @typedef {import('../types/options').SessionStoreEntry} SessionStoreEntry
 * @typedef {import('../types/options').SessionSummaryEntry} SessionSummaryEntry
 * @typedef {import('../types/sessions').SDKSessionInfo} SDKSessionInfo
 * @typedef {import('../types/sessions').SessionMessage} SessionMessage
 * @typedef {{ sessionId: string, mtime: number, info?: SDKSessionInfo | null }} ListedRow a session a store lists, with its info once known
 */

/** The official SDK's error for failures it considers safe to report (its `name` is kept). */
class TelemetrySafeError extends Error {
  /** @param {string} message @param {string} [telemetryMessage] */
  constructor(message, telemetryMessage) {
    super(message)
    this.name = 'TelemetrySafeError'
    this.telemetryMessage = telemetryMessage ?? message
  }
}

const IS_BUN = typeof process.versions.bun === 'string'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** @param {unknown} s @returns {boolean} */
const isUuid = (s) => typeof s === 'string' && UUID.test(s)
/** Entries per `store.append` call and bytes per batch when importing (the official's). */
const IMPORT_BATCH = 500
const IMPORT_BATCH_BYTES = 1048576

/**
 * Where the engine looks, as this runtime sees its environment: the config folder as this
 * runtime's process.env has it (under Bun, assignments to process.env do not reach the process
 * environment the engine would read), the folder-name override, and file times as this
 * runtime's fs.stat gives them (Node rounds to the millisecond, Bun truncates).
 * @returns {SessionsContext}
 */
function context() {
  return { configDir: process.env.CLAUDE_CONFIG_DIR || path.join(require('os').homedir(), '.claude'), projectDirName: dirNameOverride(), floorMtime: IS_BUN }
}

// Arguments as the engine takes them: a value of another type is left out (as the engine left
// out what JSON gave it of the wrong type).
/** @param {unknown} v */
const str = (v) => (typeof v === 'string' ? v : undefined)
/** @param {unknown} v */
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
/** @param {unknown} v */
const bool = (v) => (typeof v === 'boolean' ? v : undefined)
/** @param {{ limit?: unknown, offset?: unknown, includeSystemMessages?: unknown } | undefined} o */
const pageOf = (o) => ({ limit: num(o?.limit), offset: num(o?.offset), includeSystemMessages: bool(o?.includeSystemMessages) })

/**
 * Runs one engine function (`run(native, context)`, crates/agent-core/src/sessions through
 * src/sessions.rs) and parses its JSON result. Its failures (`code` SESSIONS_ERROR) are thrown
 * as the official throws them: a TelemetrySafeError where it throws one, else a plain Error.
 * @param {(native: NativeBinding, cx: SessionsContext) => Promise<string | object>} run
 * @returns {Promise<any>} the result's JSON, as parsed
 */
async function call(run) {
  const native = loadNative()
  /** @type {string | object} */
  let text
  try {
    text = await run(native, context())
  } catch (e) {
    if (e?.code !== 'SESSIONS_ERROR') throw e
    throw e.safe ? new TelemetrySafeError(e.message) : new Error(e.message)
  }
  if (typeof text === 'string') return JSON.parse(text)
  // Messages come in pieces: JSON arrays, each piece's string made as it is parsed.
  const pieces = /** @type {import('../native/binding').ExternalObject<any>} */ (text)
  /** @type {unknown[]} */
  const list = []
  for (let i = 0, piece; (piece = native.sessionsPiece(pieces, i)) != null; i++) for (const m of JSON.parse(piece)) list.push(m)
  return list
}

/**
 * Writes a stored session out for the CLI to resume (lib/session-store.js).
 * @param {object} request
 */
function materializeSession(request) {
  return call((n) => n.sessionsMaterialize(JSON.stringify(request)))
}

/**
 * `SDKSessionInfo` with the official key order (undefined fields are own properties there).
 * @param {SDKSessionInfo} i
 * @returns {SDKSessionInfo}
 */
function shapeInfo(i) {
  return {
    sessionId: i.sessionId,
    summary: i.summary,
    lastModified: i.lastModified,
    fileSize: i.fileSize,
    customTitle: i.customTitle,
    firstPrompt: i.firstPrompt,
    gitBranch: i.gitBranch,
    cwd: i.cwd,
    tag: i.tag,
    createdAt: i.createdAt,
    archived: i.archived,
  }
}

/**
 * `SessionMessage`: the keys the official object always has (timestamp may be undefined).
 * @param {Array<Record<string, unknown>>} list
 * @returns {SessionMessage[]}
 */
function shapeMessages(list) {
  for (const m of list) if (!('timestamp' in m)) m.timestamp = undefined
  return /** @type {SessionMessage[]} */ (/** @type {unknown} */ (list))
}

/** @param {unknown} dir */
function dirArg(dir) {
  return typeof dir === 'string' && dir !== '' ? dir : undefined
}

/**
 * `CLAUDE_CODE_PROJECT_DIR_NAME` when the CLI would use it (`CLAUDE_CONFIG_DIR` set too, and a
 * name of 1-64 `[A-Za-z0-9_-]` that is not a Windows device name): every project's sessions
 * then live in that one folder.
 */
function dirNameOverride() {
  if (!process.env.CLAUDE_CONFIG_DIR) return undefined
  const name = process.env.CLAUDE_CODE_PROJECT_DIR_NAME
  if (!name || !/^[A-Za-z0-9_-]{1,64}$/.test(name) || /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i.test(name)) return undefined
  return name
}

/**
 * The store key of a project directory (realpath of `dir`, sanitized as the CLI names folders).
 * @param {string | undefined} dir
 */
function projectKey(dir) {
  let p = path.resolve(dir ?? '.')
  try {
    p = fs.realpathSync(p)
  } catch {}
  return dirNameOverride() ?? projectFolderName(p)
}

/** @param {string} s */
function jsHash(s) {
  let h = 0
  for (let i = 0; i < s.length; i++) h = ((h << 5) - h + s.charCodeAt(i)) | 0
  return h
}

/** @param {string} p */
function projectFolderName(p) {
  const s = p.replace(/[^a-zA-Z0-9]/g, '-')
  if (s.length <= 200) return s
  return `${s.slice(0, 200)}-${Math.abs(jsHash(p)).toString(36)}`
}

// ---- local transcripts -------------------------------------------------------------------

/** @param {import('../types/sessions').ListSessionsOptions} [options] */
async function listSessions(options) {
  const o = options ?? {}
  if (o.sessionStore) return storeListSessions(o.sessionStore, o)
  const list = await call((n, cx) => n.sessionsList(cx, {
    dir: dirArg(o.dir),
    limit: num(o.limit),
    offset: num(o.offset),
    includeWorktrees: bool(o.includeWorktrees),
    includeProgrammatic: bool(o.includeProgrammatic),
  }))
  return list.map(shapeInfo)
}

/** @param {string} sessionId @param {import('../types/sessions').GetSessionInfoOptions} [options] */
async function getSessionInfo(sessionId, options) {
  if (options?.sessionStore) return storeSessionInfo(options.sessionStore, sessionId, options)
  if (!isUuid(sessionId)) return undefined
  const info = await call((n, cx) => n.sessionsInfo(cx, sessionId, dirArg(options?.dir)))
  return info ? shapeInfo(info) : undefined
}

/** @param {string} sessionId @param {import('../types/sessions').GetSessionMessagesOptions} [options] */
async function getSessionMessages(sessionId, options) {
  if (options?.sessionStore) return storeSessionMessages(options.sessionStore, sessionId, options)
  if (!isUuid(sessionId)) return []
  // Over 5 MiB the official reads from the last compaction boundary unless this is set.
  const precompactSkip = !['1', 'true', 'yes', 'on'].includes(String(process.env.CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP ?? '').toLowerCase().trim())
  return shapeMessages(await call((n, cx) => n.sessionsMessages(cx, sessionId, dirArg(options?.dir), pageOf(options), precompactSkip)))
}

/** @param {string} sessionId @param {import('../types/sessions').ListSubagentsOptions} [options] */
async function listSubagents(sessionId, options) {
  if (options?.sessionStore) return storeListSubagents(options.sessionStore, sessionId, options.dir)
  if (!isUuid(sessionId)) return []
  return call((n, cx) => n.sessionsSubagents(cx, sessionId, dirArg(options?.dir)))
}

/** @param {string} sessionId @param {string} agentId @param {import('../types/sessions').GetSubagentMessagesOptions} [options] */
async function getSubagentMessages(sessionId, agentId, options) {
  if (options?.sessionStore) return storeSubagentMessages(options.sessionStore, sessionId, agentId, options)
  if (!isUuid(sessionId) || !agentId) return []
  return shapeMessages(await call((n, cx) => n.sessionsSubagentMessages(cx, sessionId, String(agentId), dirArg(options?.dir), pageOf({ limit: options?.limit, offset: options?.offset }))))
}

/**
 * @param {string} sessionId
 * @param {string} title
 * @param {boolean} safe whether a bad id is a TelemetrySafeError (the store variant)
 * @param {string} [fn] the function's name, for the telemetry message
 */
function checkTitle(sessionId, title, safe, fn) {
  if (!isUuid(sessionId)) {
    if (safe) throw new TelemetrySafeError(`Invalid sessionId: ${sessionId}`, `${fn}: invalid sessionId (must be a UUID)`)
    throw new Error(`Invalid sessionId: ${sessionId}`)
  }
  if (!String(title).trim()) throw new Error('title must be non-empty')
  return String(title).trim()
}

// Characters a tag may not carry: format, private-use and unassigned code points, zero-width
// and bidirectional controls (the official's Unicode sanitization, repeated until stable).
/** @param {string} s */
function stripInvisible(s) {
  return s
    .replace(/[\p{Cf}\p{Co}\p{Cn}]/gu, '')
    .replace(/[\u200B-\u200F]/g, '')
    .replace(/[\u202A-\u202E]/g, '')
    .replace(/[\u2066-\u2069]/g, '')
    .replace(/[\uFEFF]/g, '')
    .replace(/[\uE000-\uF8FF]/g, '')
}

/** @param {string} s */
function sanitizeTag(s) {
  if (!/[^\0-\x7f]/.test(s)) return s
  let cur = s
  let prev = ''
  let rounds = 0
  while (cur !== prev && rounds < 10) {
    prev = cur
    cur = stripInvisible(cur.normalize('NFKC'))
    rounds++
  }
  if (rounds >= 10) throw new Error(`Unicode sanitization reached maximum iterations (10) for input: ${s.slice(0, 100)}`)
  return cur
}

/** @param {string} sessionId @param {string | null} tag @param {boolean} safe */
function checkTag(sessionId, tag, safe) {
  if (!isUuid(sessionId)) {
    if (safe) throw new TelemetrySafeError(`Invalid sessionId: ${sessionId}`, 'tagSession: invalid sessionId (must be a UUID)')
    throw new Error(`Invalid sessionId: ${sessionId}`)
  }
  if (tag === null) return null
  const t = sanitizeTag(String(tag)).trim()
  if (!t) throw new Error('tag must be non-empty (use null to clear)')
  return t
}

/** @param {string} sessionId @param {string} title @param {import('../types/sessions').SessionMutationOptions} [options] */
async function renameSession(sessionId, title, options) {
  if (options?.sessionStore) {
    const t = checkTitle(sessionId, title, true, 'renameSession')
    await options.sessionStore.append({ projectKey: projectKey(options.dir), sessionId }, [{ type: 'custom-title', customTitle: t, sessionId, uuid: require('crypto').randomUUID(), timestamp: new Date().toISOString() }])
    return
  }
  const t = checkTitle(sessionId, title, false)
  await call((n, cx) => n.sessionsAppend(cx, sessionId, dirArg(options?.dir), JSON.stringify({ type: 'custom-title', customTitle: t, sessionId }) + '\n'))
}

/** @param {string} sessionId @param {string | null} tag @param {import('../types/sessions').SessionMutationOptions} [options] */
async function tagSession(sessionId, tag, options) {
  if (options?.sessionStore) {
    const t = checkTag(sessionId, tag, true)
    await options.sessionStore.append({ projectKey: projectKey(options.dir), sessionId }, [{ type: 'tag', tag: t ?? '', sessionId, uuid: require('crypto').randomUUID(), timestamp: new Date().toISOString() }])
    return
  }
  const t = checkTag(sessionId, tag, false)
  await call((n, cx) => n.sessionsAppend(cx, sessionId, dirArg(options?.dir), JSON.stringify({ type: 'tag', tag: t ?? '', sessionId }) + '\n'))
}

/** @param {string} sessionId @param {boolean} archived @param {import('../types/sessions').SessionMutationOptions} [options] */
async function setArchived(sessionId, archived, options) {
  if (options?.sessionStore) {
    throw new TelemetrySafeError('Archiving is not supported with sessionStore: a SessionStore holds transcript entries, and the archived mark is not one', 'setSessionArchived: sessionStore is not supported')
  }
  if (!isUuid(sessionId)) throw new TelemetrySafeError(`Invalid sessionId: ${sessionId}`, 'setSessionArchived: invalid sessionId (must be a UUID)')
  await call((n, cx) => n.sessionsArchive(cx, sessionId, dirArg(options?.dir), archived))
}

/** @param {string} sessionId @param {import('../types/sessions').SessionMutationOptions} [options] */
const archiveSession = (sessionId, options) => setArchived(sessionId, true, options)
/** @param {string} sessionId @param {import('../types/sessions').SessionMutationOptions} [options] */
const unarchiveSession = (sessionId, options) => setArchived(sessionId, false, options)

/** @param {string} sessionId @param {import('../types/sessions').SessionMutationOptions} [options] */
async function deleteSession(sessionId, options) {
  if (!isUuid(sessionId)) throw new TelemetrySafeError(`Invalid sessionId: ${sessionId}`, 'deleteSession: invalid sessionId (must be a UUID)')
  if (options?.sessionStore) {
    if (!options.sessionStore.delete) return
    await options.sessionStore.delete({ projectKey: projectKey(options.dir), sessionId })
    return
  }
  await call((n, cx) => n.sessionsDelete(cx, sessionId, dirArg(options?.dir)))
}

/**
 * @param {string} sessionId
 * @param {import('../types/sessions').ForkSessionOptions} [options]
 * @returns {Promise<import('../types/sessions').ForkSessionResult>}
 */
async function forkSession(sessionId, options) {
  const o = options ?? {}
  if (!isUuid(sessionId)) throw new TelemetrySafeError(`Invalid sessionId: ${sessionId}`, 'forkSession: invalid sessionId (must be a UUID)')
  const title = typeof o.title === 'string' ? o.title.trim() : undefined
  if (o.sessionStore) {
    const key = projectKey(o.dir)
    const entries = await o.sessionStore.load({ projectKey: key, sessionId })
    if (!entries || entries.length === 0) throw new Error(`Session ${sessionId} not found`)
    const forked = await call((n) => n.sessionsForkText(sessionId, toJsonl(entries), str(o.upToMessageId), title ? JSON.stringify(title) : undefined))
    await o.sessionStore.append({ projectKey: key, sessionId: forked.sessionId }, forked.entries)
    return { sessionId: forked.sessionId }
  }
  return call((n, cx) => n.sessionsFork(cx, sessionId, dirArg(o.dir), str(o.upToMessageId), title ? JSON.stringify(title) : undefined))
}

// ---- session stores ----------------------------------------------------------------------

/** @param {unknown[]} entries */
function toJsonl(entries) {
  return entries.map((e) => JSON.stringify(e)).join('\n') + '\n'
}

/** @param {SessionStore} store @param {string} sessionId @param {string | undefined} dir */
async function loadText(store, sessionId, dir) {
  const entries = await store.load({ projectKey: projectKey(dir), sessionId })
  if (!entries || entries.length === 0) return null
  return toJsonl(entries)
}

/** @param {string} text */
function lastTimestamp(text) {
  const t = text.trimEnd()
  const line = t.slice(t.lastIndexOf('\n') + 1)
  try {
    const v = JSON.parse(line)
    if (v && typeof v === 'object' && typeof v.timestamp === 'string') {
      const ms = Date.parse(v.timestamp)
      if (!Number.isNaN(ms)) return ms
    }
  } catch {}
  return Date.now()
}

/** @param {SessionStore} store @param {string} sessionId @param {{ dir?: string }} options */
async function storeSessionInfo(store, sessionId, options) {
  if (!isUuid(sessionId)) return undefined
  const text = await loadText(store, sessionId, options.dir)
  if (!text) return undefined
  const info = await call((n) => n.sessionsInfoFromText(sessionId, text, lastTimestamp(text)))
  return info ? shapeInfo(info) : undefined
}

/**
 * @template T
 * @param {T[]} list
 * @param {number | undefined} limit
 * @param {number} offset
 */
function page(list, limit, offset) {
  if (limit !== undefined && limit > 0) return list.slice(offset, offset + limit)
  if (offset > 0) return list.slice(offset)
  return list
}

/** @param {string | undefined} dir */
function resolvedDir(dir) {
  const p = path.resolve(dir ?? '.')
  try {
    return fs.realpathSync(p)
  } catch {
    return p
  }
}

/**
 * @param {SessionStore} store
 * @param {ListedRow[]} rows
 * @param {string | undefined} dir
 * @param {string} cwd
 * @returns {Promise<SDKSessionInfo[]>}
 */
async function infosFromLoads(store, rows, dir, cwd) {
  const settled = await Promise.allSettled(rows.map(async (row) => {
    const text = await loadText(store, row.sessionId, dir)
    if (!text) return null
    const info = await call((n) => n.sessionsInfoFromText(str(row.sessionId) ?? '', text, num(row.mtime) ?? 0))
    if (!info) return null
    if (info.cwd === undefined && cwd) info.cwd = cwd
    return { ...shapeInfo(info), lastModified: row.mtime }
  }))
  return settled.flatMap((s, i) => {
    if (s.status === 'fulfilled') return s.value ? [s.value] : []
    return [{ sessionId: rows[i].sessionId, summary: '', lastModified: rows[i].mtime }]
  })
}

/**
 * @param {SessionSummaryEntry} summary
 * @param {string} cwd
 * @returns {SDKSessionInfo | null}
 */
function infoFromSummary(summary, cwd) {
  const d = summary.data
  if (d.isSidechain === true) return null
  /** @param {unknown} v */
  const str = (v) => (typeof v === 'string' ? v : undefined)
  const firstPrompt = str(d.firstPromptLocked === true ? d.firstPrompt : d.commandFallback) || undefined
  const customTitle = str(d.customTitle) || str(d.aiTitle) || undefined
  const summaryText = customTitle || str(d.lastPrompt) || str(d.summaryHint) || firstPrompt
  if (!summaryText) return null
  return {
    sessionId: summary.sessionId,
    summary: summaryText,
    lastModified: summary.mtime,
    fileSize: undefined,
    customTitle,
    firstPrompt,
    gitBranch: str(d.gitBranch) || undefined,
    cwd: str(d.cwd) || cwd || undefined,
    tag: str(d.tag) || undefined,
    createdAt: typeof d.createdAt === 'number' ? d.createdAt : undefined,
  }
}

/** @param {SessionStore} store @param {import('../types/sessions').ListSessionsOptions} o */
async function storeListSessions(store, o) {
  const cwd = resolvedDir(o.dir)
  const key = dirNameOverride() ?? projectFolderName(cwd)
  const offset = o.offset ?? 0
  const limit = o.limit
  if (store.listSessionSummaries) {
    const summaries = await store.listSessionSummaries(key)
    const listed = store.listSessions ? new Map((await store.listSessions(key)).map((r) => [r.sessionId, r])) : undefined
    /** @type {ListedRow[]} */
    const rows = []
    for (const s of summaries) {
      const l = listed?.get(s.sessionId)
      if (listed && !l) continue
      const stale = l !== undefined && s.mtime < l.mtime
      rows.push({ sessionId: s.sessionId, mtime: stale ? l.mtime : s.mtime, info: stale ? undefined : infoFromSummary(s, cwd) })
    }
    if (listed) {
      const have = new Set(summaries.map((s) => s.sessionId))
      for (const [id, r] of listed) if (!have.has(id)) rows.push({ sessionId: id, mtime: r.mtime })
    }
    rows.sort((a, b) => b.mtime - a.mtime)
    const pageRows = page(rows, limit, offset)
    const missing = pageRows.filter((r) => r.info === undefined)
    if (missing.length > 0) {
      const found = new Map((await infosFromLoads(store, missing, o.dir, cwd)).map((i) => [i.sessionId, i]))
      for (const r of pageRows) if (r.info === undefined) r.info = found.get(r.sessionId) ?? null
    }
    return pageRows.flatMap((r) => (r.info ? [r.info] : []))
  }
  if (!store.listSessions) throw new Error('sessionStore.listSessions is not implemented -- cannot list sessions. Provide a store with a listSessions() method.')
  const rows = (await store.listSessions(key)).slice().sort((a, b) => b.mtime - a.mtime)
  return infosFromLoads(store, page(rows, limit, offset), o.dir, cwd)
}

/** @param {SessionStore} store @param {string} sessionId @param {import('../types/sessions').GetSessionMessagesOptions} o */
async function storeSessionMessages(store, sessionId, o) {
  if (!isUuid(sessionId)) return []
  const text = await loadText(store, sessionId, o.dir)
  if (!text) return []
  return shapeMessages(await call((n) => n.sessionsMessagesFromText(text, pageOf(o))))
}

/** @param {SessionStore} store @param {string} sessionId @param {string | undefined} dir */
async function storeListSubagents(store, sessionId, dir) {
  if (!isUuid(sessionId)) return []
  if (!store.listSubkeys) throw new Error('sessionStore.listSubkeys is not implemented -- cannot list subagents. Provide a store with a listSubkeys() method.')
  const keys = await store.listSubkeys({ projectKey: projectKey(dir), sessionId })
  /** @type {Set<string>} */
  const ids = new Set()
  for (const k of keys) {
    if (!k.startsWith('subagents/')) continue
    const last = /** @type {string} */ (k.split('/').at(-1)) // split gives at least one part
    if (last.startsWith('agent-')) ids.add(last.slice(6))
  }
  return [...ids]
}

/** @param {SessionStore} store @param {string} sessionId @param {string} agentId @param {import('../types/sessions').GetSubagentMessagesOptions} o */
async function storeSubagentMessages(store, sessionId, agentId, o) {
  if (!isUuid(sessionId) || !agentId) return []
  const key = projectKey(o.dir)
  let subpath = `subagents/agent-${agentId}`
  if (store.listSubkeys) {
    const keys = await store.listSubkeys({ projectKey: key, sessionId })
    const found = keys.find((k) => k.startsWith('subagents/') && k.split('/').at(-1) === `agent-${agentId}`)
    if (!found) return []
    subpath = found
  }
  const entries = await store.load({ projectKey: key, sessionId, subpath })
  if (!entries || entries.length === 0) return []
  /** @param {unknown} e @returns {e is SessionStoreEntry} */
  const isMeta = (e) => typeof e === 'object' && e !== null && /** @type {{ type?: unknown }} */ (e).type === 'agent_metadata'
  const meta = entries.findLast(isMeta)
  const rest = entries.filter((e) => !isMeta(e))
  if (rest.length === 0) return []
  return shapeMessages(await call((n) => n.sessionsSubagentMessagesFromText(toJsonl(rest), str(meta?.toolUseId), str(meta?.parentAgentId), pageOf({ limit: o.limit, offset: o.offset }))))
}

/** @param {SessionStore} store @param {SessionKey} key @param {SessionStoreEntry[]} entries @param {number} batchSize */
async function appendBatched(store, key, entries, batchSize) {
  /** @type {SessionStoreEntry[]} */
  let batch = []
  let bytes = 0
  for (const e of entries) {
    batch.push(e)
    bytes += JSON.stringify(e).length
    if (batch.length >= batchSize || bytes >= IMPORT_BATCH_BYTES) {
      await store.append(key, batch)
      batch = []
      bytes = 0
    }
  }
  if (batch.length > 0) await store.append(key, batch)
}

/** @param {string} sessionId @param {SessionStore} store @param {import('../types/sessions').ImportSessionToStoreOptions} [options] */
async function importSessionToStore(sessionId, store, options) {
  if (!isUuid(sessionId)) throw new TelemetrySafeError(`Invalid sessionId: ${sessionId}`, 'importSessionToStore: invalid sessionId (must be a UUID)')
  const exported = await call((n, cx) => n.sessionsExport(cx, sessionId, dirArg(options?.dir), options?.includeSubagents !== false))
  if (!exported) throw new Error(`Session ${sessionId} not found`)
  const key = projectKey(options?.dir)
  const batchSize = options?.batchSize && options.batchSize > 0 ? options.batchSize : IMPORT_BATCH
  await appendBatched(store, { projectKey: key, sessionId }, exported.main, batchSize)
  if (options?.includeSubagents === false) return
  for (const sub of exported.subagents ?? []) {
    const subKey = { projectKey: key, sessionId, subpath: sub.subpath }
    await appendBatched(store, subKey, sub.entries, batchSize)
    if (sub.meta !== null && sub.meta !== undefined) await store.append(subKey, [{ type: 'agent_metadata', ...sub.meta }])
  }
}

/**
 * In-memory `SessionStore`, for tests and development: the official class's behaviour, except
 * that ids holding '/' cannot reach another key (the official joins the parts with '/') and an
 * empty append writes nothing (the official's creates an empty transcript); both are contracts of
 * the official repository's conformance suite.
 */
class InMemorySessionStore {
  /** @type {Map<string, SessionStoreEntry[]>} */
  store = new Map()
  /** @type {Map<string, number>} */
  mtimes = new Map()
  /** @type {Map<string, SessionSummaryEntry>} */
  summaries = new Map()
  lastMtime = 0
  /** @param {SessionKey} key */
  keyToString(key) {
    const parts = [key.projectKey, key.sessionId]
    if (key.subpath) parts.push(key.subpath)
    return JSON.stringify(parts)
  }
  /**
   * A key string's parts: [projectKey, sessionId, subpath?].
   * @param {string} k
   * @returns {string[]}
   */
  keyParts(k) {
    return JSON.parse(k)
  }
  /** @param {SessionKey} key @param {SessionStoreEntry[]} entries */
  async append(key, entries) {
    if (entries.length === 0) return
    const k = this.keyToString(key)
    const list = this.store.get(k) ?? []
    list.push(...entries)
    this.store.set(k, list)
    const mtime = Math.max(Date.now(), this.lastMtime + 1)
    this.lastMtime = mtime
    this.mtimes.set(k, mtime)
    if (key.subpath === undefined) {
      const s = this.keyToString({ projectKey: key.projectKey, sessionId: key.sessionId })
      this.summaries.set(s, foldSessionSummary(this.summaries.get(s), key, entries, { mtime }))
    }
  }
  /** @param {SessionKey} key */
  async load(key) {
    return this.store.get(this.keyToString(key)) ?? null
  }
  /** @param {string} projectKey */
  async listSessions(projectKey) {
    /** @type {Array<{ sessionId: string, mtime: number }>} */
    const out = []
    for (const [k] of this.store) {
      const parts = this.keyParts(k)
      if (parts.length === 2 && parts[0] === projectKey) out.push({ sessionId: parts[1], mtime: this.mtimes.get(k) ?? 0 })
    }
    return out
  }
  /** @param {string} projectKey */
  async listSessionSummaries(projectKey) {
    /** @type {SessionSummaryEntry[]} */
    const out = []
    for (const [k, v] of this.summaries) if (this.keyParts(k)[0] === projectKey) out.push(v)
    return out
  }
  /** @param {SessionKey} key */
  async delete(key) {
    const k = this.keyToString(key)
    this.store.delete(k)
    this.mtimes.delete(k)
    if (key.subpath === undefined) {
      this.summaries.delete(k)
      for (const s of [...this.store.keys()]) {
        const parts = this.keyParts(s)
        if (parts.length === 3 && parts[0] === key.projectKey && parts[1] === key.sessionId) {
          this.store.delete(s)
          this.mtimes.delete(s)
        }
      }
    }
  }
  /** @param {{ projectKey: string, sessionId: string }} key */
  async listSubkeys(key) {
    /** @type {string[]} */
    const out = []
    for (const k of this.store.keys()) {
      const parts = this.keyParts(k)
      if (parts.length === 3 && parts[0] === key.projectKey && parts[1] === key.sessionId) out.push(parts[2])
    }
    return out
  }
  /** @param {SessionKey} key */
  getEntries(key) {
    return this.store.get(this.keyToString(key)) ?? []
  }
  get size() {
    let n = 0
    for (const k of this.store.keys()) if (this.keyParts(k).length === 2) n++
    return n
  }
  clear() {
    this.store.clear()
    this.mtimes.clear()
    this.summaries.clear()
  }
}

module.exports = {
  materializeSession,
  listSessions,
  getSessionInfo,
  getSessionMessages,
  listSubagents,
  getSubagentMessages,
  renameSession,
  tagSession,
  archiveSession,
  unarchiveSession,
  deleteSession,
  forkSession,
  importSessionToStore,
  InMemorySessionStore,
  foldSessionSummary,
  TelemetrySafeError,
  projectKey,
  toJsonl,
  promptOf,
}
