// @ts-check
'use strict'
// RedisSessionStore: a SessionStore on Redis through an `ioredis` client the caller configures
// (the official repository's reference adapter's options: `{ client, prefix? }`).
//
// Keys (every id percent-encoded, so no id holds `:`, `{` or `}`; the project's part is a hash
// tag, so one project's keys share a Redis Cluster slot and one script can touch them all):
//   {prefix}{P}:e:S         list  the main transcript (one JSON entry per item)
//   {prefix}{P}:e:S:X       list  subpath X's transcript
//   {prefix}{P}:u:S[:X]     set   the uuids already in that list (a replayed entry is skipped)
//   {prefix}{P}:k:S         set   the session's subpaths
//   {prefix}{P}:sessions    zset  session id -> mtime (ms, the server's clock)
//   {prefix}{P}:summaries   hash  session id -> its summary's data (JSON)
// An append is one Lua script (atomic: all of its entries, the indexes and the summary, or
// nothing); the summary is folded here and written only if nobody changed it meanwhile (the one
// this store last wrote is assumed, and read only when that is wrong). Needs Redis 6.2+.
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { foldSessionSummary } = require('../session-summary')
const { encodePart, checkKey, checkProjectKey, serializeEntries, parseEntry } = require('./common')

const NAME = 'RedisSessionStore'
/** Tries of an append whose summary someone else changed meanwhile. */
const CAS_TRIES = 50
/** Summaries remembered per store. */
const SUMMARY_CACHE = 10000

// The scripts are files of their own (the Rust SDK's RedisSessionStore runs the same bytes).
// KEYS: list, uuid set, index (zset of sessions | set of subpaths), summaries hash (main only)
// ARGV: 'main' | 'sub', member (session id | subpath), summary expected ('' = none), summary new,
//       then pairs of (uuid or '', entry)
const APPEND = fs.readFileSync(path.join(__dirname, 'redis-append.lua'), 'utf8')
// A whole session, atomically: its lists and uuid sets (the subpaths' found in the script, each
// percent-encoded as encodePart() does), its subpath set, index entry and summary.
// KEYS: subpath set, main list, main uuid set, sessions zset, summaries hash
// ARGV: session id, subpath list key prefix, subpath uuid set key prefix
const DELETE_SESSION = fs.readFileSync(path.join(__dirname, 'redis-delete-session.lua'), 'utf8')
const sha1 = (text) => crypto.createHash('sha1').update(text).digest('hex')
const SHA = new Map([[APPEND, sha1(APPEND)], [DELETE_SESSION, sha1(DELETE_SESSION)]])

class RedisSessionStore {
  #client
  #prefix
  /** `project\0session` -> the summary text this store last wrote (tried first as the expected one). */
  #known = new Map()

  /** @param {{ client: import('ioredis').Redis, prefix?: string }} options */
  constructor(options) {
    const client = options?.client
    if (!client || typeof client.lrange !== 'function' || typeof client.evalsha !== 'function' || typeof client.multi !== 'function') {
      throw new TypeError(`${NAME}: options.client must be an ioredis client (new Redis(...))`)
    }
    const prefix = options.prefix ?? ''
    if (typeof prefix !== 'string') throw new TypeError(`${NAME}: options.prefix must be a string, got ${typeof prefix}`)
    this.#client = client
    // A non-empty prefix ends in exactly one ':'; braces in it would change the hash slot.
    this.#prefix = prefix ? prefix.replace(/:+$/, '') + ':' : ''
  }

  #project(projectKey) {
    return `${this.#prefix}{${encodePart(projectKey)}}:`
  }
  #list(key) {
    return `${this.#project(key.projectKey)}e:${encodePart(key.sessionId)}${key.subpath !== undefined ? ':' + encodePart(key.subpath) : ''}`
  }
  #uuids(key) {
    return `${this.#project(key.projectKey)}u:${encodePart(key.sessionId)}${key.subpath !== undefined ? ':' + encodePart(key.subpath) : ''}`
  }
  #subkeys(key) {
    return `${this.#project(key.projectKey)}k:${encodePart(key.sessionId)}`
  }
  #sessions(projectKey) {
    return `${this.#project(projectKey)}sessions`
  }
  #summaries(projectKey) {
    return `${this.#project(projectKey)}summaries`
  }

  async #script(script, keys, args) {
    try {
      return await this.#client.evalsha(SHA.get(script), keys.length, ...keys, ...args)
    } catch (e) {
      if (!/NOSCRIPT/.test(e?.message ?? '')) throw e
      return this.#client.eval(script, keys.length, ...keys, ...args)
    }
  }

  async append(key, entries) {
    checkKey(NAME, 'append', key)
    const lines = serializeEntries(NAME, key, entries)
    if (lines.length === 0) return
    const pairs = []
    for (const [i, line] of lines.entries()) pairs.push(typeof entries[i].uuid === 'string' ? entries[i].uuid : '', line)
    if (key.subpath !== undefined) {
      await this.#script(APPEND, [this.#list(key), this.#uuids(key), this.#subkeys(key), this.#summaries(key.projectKey)], ['sub', key.subpath, '', '', ...pairs])
      return
    }
    const summaries = this.#summaries(key.projectKey)
    const id = `${key.projectKey}\0${key.sessionId}`
    let cur = this.#known.get(id)
    for (let attempt = 0; attempt < CAS_TRIES; attempt++) {
      // The summary this store last wrote is tried without reading it; a mismatch reads it.
      if (cur === undefined) cur = (await this.#client.hget(summaries, key.sessionId)) ?? ''
      const prev = cur ? { sessionId: key.sessionId, mtime: 0, data: JSON.parse(cur) } : undefined
      const next = JSON.stringify(foldSessionSummary(prev, key, entries).data)
      const n = await this.#script(APPEND, [this.#list(key), this.#uuids(key), this.#sessions(key.projectKey), summaries], ['main', key.sessionId, cur, next, ...pairs])
      if (Number(n) >= 0) {
        this.#known.delete(id)
        if (this.#known.size >= SUMMARY_CACHE) this.#known.delete(this.#known.keys().next().value)
        this.#known.set(id, next)
        return
      }
      cur = undefined
    }
    throw new Error(`${NAME}.append(): the summary of session ${JSON.stringify(key.sessionId)} kept changing under ${CAS_TRIES} tries (too many concurrent writers)`)
  }

  async load(key) {
    checkKey(NAME, 'load', key)
    const texts = await this.#client.lrange(this.#list(key), 0, -1)
    if (texts.length === 0) return null
    return texts.map((text, i) => parseEntry(NAME, key, text, i))
  }

  async listSessions(projectKey) {
    checkProjectKey(NAME, 'listSessions', projectKey)
    const flat = await this.#client.zrange(this.#sessions(projectKey), 0, -1, 'WITHSCORES')
    const out = []
    for (let i = 0; i < flat.length; i += 2) out.push({ sessionId: flat[i], mtime: Number(flat[i + 1]) })
    return out
  }

  async listSessionSummaries(projectKey) {
    checkProjectKey(NAME, 'listSessionSummaries', projectKey)
    const [[e1, flat], [e2, data]] = await this.#client.multi().zrange(this.#sessions(projectKey), 0, -1, 'WITHSCORES').hgetall(this.#summaries(projectKey)).exec()
    if (e1 || e2) throw e1 || e2
    const out = []
    for (let i = 0; i < flat.length; i += 2) {
      const text = data[flat[i]]
      out.push({ sessionId: flat[i], mtime: Number(flat[i + 1]), data: text ? JSON.parse(text) : {} })
    }
    return out
  }

  async delete(key) {
    checkKey(NAME, 'delete', key)
    if (key.subpath === undefined) {
      this.#known.delete(`${key.projectKey}\0${key.sessionId}`)
      const sid = encodePart(key.sessionId)
      const p = this.#project(key.projectKey)
      await this.#script(DELETE_SESSION, [this.#subkeys(key), this.#list(key), this.#uuids(key), this.#sessions(key.projectKey), this.#summaries(key.projectKey)], [key.sessionId, `${p}e:${sid}:`, `${p}u:${sid}:`])
      return
    }
    const results = await this.#client.multi().del(this.#list(key), this.#uuids(key)).srem(this.#subkeys(key), key.subpath).exec()
    const failed = results?.find(([e]) => e)
    if (failed) throw failed[0]
  }

  async listSubkeys(key) {
    checkKey(NAME, 'listSubkeys', key, { subpath: false })
    return this.#client.smembers(this.#subkeys(key))
  }
}

module.exports = { RedisSessionStore }
