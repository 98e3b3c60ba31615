// @ts-check
'use strict'
// foldSessionSummary: the incremental summary a SessionStore keeps per session so that
// listSessions({ sessionStore }) needs no load() per session. Pure and synchronous (stores call
// it inside append()), so it lives in JavaScript.

const FIELDS = { customTitle: 'customTitle', aiTitle: 'aiTitle', lastPrompt: 'lastPrompt', summary: 'summaryHint', gitBranch: 'gitBranch' }
const MARKUP = /^(?:\s*<[a-z][\w-]*[\s>]|\[Request interrupted by user[^\]]*\])/
const COMMAND = /<command-name>(.*?)<\/command-name>/
const BASH = /<bash-input>([\s\S]*?)<\/bash-input>/

/**
 * A transcript entry as this module reads it (any other field is left alone).
 * @typedef {import('../types/options').SessionStoreEntry & { message?: { content?: unknown } }} Entry
 * @typedef {import('../types/options').SessionSummaryEntry} SessionSummaryEntry
 */

/** @param {string} s @param {number} n */
function cut(s, n) {
  if (s.length <= n) return s
  const head = s.slice(0, n)
  const last = head.charCodeAt(n - 1)
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head
}

/**
 * Pasted-content blocks shown by their body.
 * @param {string} text
 */
function unpaste(text) {
  if (!text.includes('<pasted_content id="')) return text
  return text.replace(/\n{0,2}<pasted_content id="[0-9a-fA-F]{4}">\n([\s\S]*?)\n<\/pasted_content>\n{0,2}/g, '$1')
}

/**
 * The prompt text of a user entry as session lists show it, or undefined; a slash command's
 * name goes to `state.commandFallback`.
 * @param {Entry} entry
 * @param {{ commandFallback: string }} state
 * @returns {string | undefined}
 */
function promptOf(entry, state) {
  if (entry.type !== 'user') return undefined
  if (entry.isMeta === true || entry.isCompactSummary === true) return undefined
  const message = entry.message
  if (!message) return undefined
  const content = message.content
  /** @type {string[]} */
  const texts = []
  if (typeof content === 'string') texts.push(content)
  else if (Array.isArray(content)) {
    for (const block of content) {
      if (!block || typeof block !== 'object') continue
      const b = /** @type {{ type?: unknown, text?: unknown }} */ (block)
      if (b.type === 'tool_result') return undefined
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text)
    }
  }
  for (const t of texts) {
    let c = unpaste(t).replaceAll('\n', ' ').trim()
    if (!c) continue
    const cmd = COMMAND.exec(c)
    if (cmd) {
      if (!state.commandFallback) state.commandFallback = cmd[1]
      continue
    }
    const bash = BASH.exec(c)
    if (bash) return `! ${bash[1].trim()}`
    if (MARKUP.test(c)) continue
    if (c.length > 200) c = cut(c, 200).trim() + '…'
    return c
  }
  return undefined
}

/** @param {unknown} ts */
function timeOf(ts) {
  if (typeof ts !== 'string') return undefined
  const ms = Date.parse(ts)
  return Number.isNaN(ms) ? undefined : ms
}

/** @param {Record<string, unknown>} data the summary's @param {Entry} entry */
function foldPrompt(data, entry) {
  if (data.firstPromptLocked) return
  const state = { commandFallback: /** @type {string | undefined} */ (data.commandFallback) ?? '' }
  const prompt = promptOf(entry, state)
  if (state.commandFallback && !data.commandFallback) data.commandFallback = state.commandFallback
  if (prompt !== undefined) {
    data.firstPrompt = prompt
    data.firstPromptLocked = true
  }
}

/**
 * Folds appended entries into a session's summary: `prev` (or a new one for `key`), updated by
 * `entries`, stamped with `options.mtime` (else the previous mtime, else 0).
 * @param {SessionSummaryEntry | undefined} prev
 * @param {import('../types/options').SessionKey} key
 * @param {Entry[]} entries
 * @param {{ mtime?: number }} [options]
 * @returns {SessionSummaryEntry}
 */
function foldSessionSummary(prev, key, entries, options) {
  const mtime = options?.mtime ?? prev?.mtime ?? 0
  /** @type {SessionSummaryEntry} */
  const summary = prev !== undefined ? { sessionId: prev.sessionId, mtime, data: { ...prev.data } } : { sessionId: key.sessionId, mtime, data: {} }
  const data = summary.data
  for (const e of entries) {
    const t = timeOf(e.timestamp)
    if (data.isSidechain === undefined) data.isSidechain = e.isSidechain === true
    if (data.createdAt === undefined && t !== undefined) data.createdAt = t
    if (data.cwd === undefined && typeof e.cwd === 'string' && e.cwd) data.cwd = e.cwd
    foldPrompt(data, e)
    for (const [from, to] of Object.entries(FIELDS)) if (typeof e[from] === 'string') data[to] = e[from]
    if (e.type === 'tag') {
      if (typeof e.tag === 'string' && e.tag) data.tag = e.tag
      else delete data.tag
    }
    if (e.type === 'relocated' && typeof e.relocatedCwd === 'string' && e.relocatedCwd) data.cwd = e.relocatedCwd
  }
  return summary
}

module.exports = { foldSessionSummary, promptOf }
