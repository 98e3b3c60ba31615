// @ts-check
'use strict'
// S3SessionStore: a SessionStore on any S3-compatible object store through an
// `@aws-sdk/client-s3` S3Client the caller configures (the official repository's reference
// adapter's options: `{ bucket, prefix?, client }`; for a local endpoint give the client
// `forcePathStyle: true`). Objects (every id percent-encoded into one path segment):
//   {prefix}P/S/part-{epochMs13}-{rand6}.jsonl     one append's entries (JSON lines)
//   {prefix}P/S/X/part-{epochMs13}-{rand6}.jsonl   subpath X's
//   {prefix}P/S/summary.json                       the session's summary { mtime, data }
// An append is one PutObject (all of its entries or none); load() lists, sorts and reads the
// parts (16 at a time) and skips an entry whose uuid it has already given (a retried append that
// had landed). The summary is folded with conditional writes (If-Match / If-None-Match), retried
// when another writer got there first.
const crypto = require('crypto')
const { foldSessionSummary } = require('../session-summary')
const { encodePart, decodePart, checkKey, checkProjectKey, serializeEntries, parseEntry, monotonicMs } = require('./common')

const NAME = 'S3SessionStore'
const PART = /^part-(\d{13})-[0-9a-f]{6}\.jsonl$/
const SUMMARY = 'summary.json'
/** Parallel GETs when loading. */
const LOAD_CONCURRENCY = 16
/** Tries of a summary write that lost a race. */
const CAS_TRIES = 50
/** Summaries remembered per store. */
const SUMMARY_CACHE = 10000

let s3lib
function s3() {
  if (s3lib) return s3lib
  try {
    s3lib = require('@aws-sdk/client-s3')
  } catch (e) {
    throw new Error(`${NAME} needs the package @aws-sdk/client-s3 (npm install @aws-sdk/client-s3): ${e.message}`)
  }
  return s3lib
}

const status = (e) => e?.$metadata?.httpStatusCode
const isMissing = (e) => e?.name === 'NoSuchKey' || e?.name === 'NotFound' || status(e) === 404
const isUnsupported = (e) => e?.name === 'NotImplemented' || status(e) === 501
const isPrecondition = (e) => e?.name === 'PreconditionFailed' || e?.name === 'ConditionalRequestConflict' || status(e) === 412 || status(e) === 409

/** Runs `fn` over `items`, `limit` at a time; results in order. */
async function mapLimit(items, limit, fn) {
  const out = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}

class S3SessionStore {
  #bucket
  #prefix
  #client
  /** `project\0session` -> { etag, prev }: the summary this store last wrote. */
  #known = new Map()
  /** Whether the server takes If-Match / If-None-Match on PutObject (until it answers 501). */
  #conditional = true

  /** @param {{ bucket: string, prefix?: string, client: import('@aws-sdk/client-s3').S3Client }} options */
  constructor(options) {
    if (typeof options?.bucket !== 'string' || options.bucket === '') throw new TypeError(`${NAME}: options.bucket must be a non-empty string`)
    if (!options.client || typeof options.client.send !== 'function') throw new TypeError(`${NAME}: options.client must be an S3Client (new S3Client({ ... }))`)
    const prefix = options.prefix ?? ''
    if (typeof prefix !== 'string') throw new TypeError(`${NAME}: options.prefix must be a string, got ${typeof prefix}`)
    s3()
    this.#bucket = options.bucket
    // A non-empty prefix ends in exactly one '/'.
    this.#prefix = prefix ? prefix.replace(/\/+$/, '') + '/' : ''
    this.#client = options.client
  }

  #projectPrefix(projectKey) {
    return `${this.#prefix}${encodePart(projectKey)}/`
  }
  #sessionPrefix(key) {
    return `${this.#projectPrefix(key.projectKey)}${encodePart(key.sessionId)}/`
  }
  #keyPrefix(key) {
    return key.subpath === undefined ? this.#sessionPrefix(key) : `${this.#sessionPrefix(key)}${encodePart(key.subpath)}/`
  }

  /** Creates the bucket if it does not exist (idempotent). */
  async ensureBucket() {
    const { HeadBucketCommand, CreateBucketCommand } = s3()
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }))
      return
    } catch (e) {
      if (!isMissing(e)) throw e
    }
    try {
      await this.#client.send(new CreateBucketCommand({ Bucket: this.#bucket }))
    } catch (e) {
      if (e?.name !== 'BucketAlreadyOwnedByYou' && e?.name !== 'BucketAlreadyExists') throw e
    }
  }

  /** Every object under `prefix` (with `delimiter`: direct children and the common prefixes). */
  async #list(prefix, delimiter) {
    const { ListObjectsV2Command } = s3()
    const objects = []
    const prefixes = []
    let token
    do {
      const r = await this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }))
      for (const o of r.Contents ?? []) if (o.Key) objects.push(o)
      for (const p of r.CommonPrefixes ?? []) if (p.Prefix) prefixes.push(p.Prefix)
      token = r.IsTruncated ? r.NextContinuationToken : undefined
    } while (token)
    return { objects, prefixes }
  }

  async #get(objectKey) {
    const { GetObjectCommand } = s3()
    const r = await this.#client.send(new GetObjectCommand({ Bucket: this.#bucket, Key: objectKey }))
    return { text: (await r.Body?.transformToString('utf-8')) ?? '', etag: r.ETag }
  }

  async append(key, entries) {
    checkKey(NAME, 'append', key)
    const lines = serializeEntries(NAME, key, entries)
    if (lines.length === 0) return
    const { PutObjectCommand } = s3()
    const part = `part-${String(monotonicMs()).padStart(13, '0')}-${crypto.randomBytes(3).toString('hex')}.jsonl`
    // Part names do not repeat (this process's clock never does, and 24 random bits tell processes apart).
    await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: this.#keyPrefix(key) + part, Body: lines.join('\n') + '\n', ContentType: 'application/x-ndjson' }))
    if (key.subpath === undefined) await this.#foldSummary(key, entries)
  }

  async #foldSummary(key, entries) {
    const { PutObjectCommand } = s3()
    const objectKey = this.#sessionPrefix(key) + SUMMARY
    const id = `${key.projectKey}\0${key.sessionId}`
    // The summary this store last wrote (and its ETag) is tried without reading it.
    let known = this.#known.get(id)
    for (let attempt = 0; attempt < CAS_TRIES; attempt++) {
      if (!known) {
        known = { etag: undefined, prev: undefined }
        try {
          const got = await this.#get(objectKey)
          const stored = JSON.parse(got.text)
          known = { etag: got.etag, prev: { sessionId: key.sessionId, mtime: stored.mtime, data: stored.data } }
        } catch (e) {
          if (!isMissing(e)) throw e
        }
      }
      const mtime = Math.max(monotonicMs(), (known.prev?.mtime ?? 0) + 1)
      const next = foldSessionSummary(known.prev, key, entries, { mtime })
      // A server without conditional writes (501) gets plain ones: the last writer's summary wins.
      const condition = !this.#conditional ? {} : known.etag ? { IfMatch: known.etag } : { IfNoneMatch: '*' }
      try {
        const put = await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: objectKey, Body: JSON.stringify({ mtime: next.mtime, data: next.data }), ContentType: 'application/json', ...condition }))
        this.#known.delete(id)
        if (this.#known.size >= SUMMARY_CACHE) this.#known.delete(this.#known.keys().next().value)
        if (put.ETag) this.#known.set(id, { etag: put.ETag, prev: next })
        return
      } catch (e) {
        if (this.#conditional && isUnsupported(e)) {
          this.#conditional = false
          continue
        }
        if (!isPrecondition(e)) throw e
        known = undefined
      }
    }
    throw new Error(`${NAME}.append(): the summary of session ${JSON.stringify(key.sessionId)} kept changing under ${CAS_TRIES} tries (too many concurrent writers)`)
  }

  async load(key) {
    checkKey(NAME, 'load', key)
    const prefix = this.#keyPrefix(key)
    const { objects } = await this.#list(prefix, '/')
    // Direct children only (a server that ignores the delimiter would give the subpaths' too).
    const parts = objects.map((o) => o.Key).filter((k) => PART.test(k.slice(prefix.length))).sort()
    if (parts.length === 0) return null
    const bodies = await mapLimit(parts, LOAD_CONCURRENCY, async (k) => (await this.#get(k)).text)
    const out = []
    const seen = new Set()
    let index = 0
    for (const body of bodies) {
      for (const line of body.split('\n')) {
        if (line.trim() === '') continue
        const entry = parseEntry(NAME, key, line, index++)
        if (typeof entry.uuid === 'string') {
          if (seen.has(entry.uuid)) continue
          seen.add(entry.uuid)
        }
        out.push(entry)
      }
    }
    return out.length ? out : null
  }

  /** Sessions of a project, from their main transcripts' part names: Map id -> { mtime, summary }. */
  async #sessions(projectKey) {
    const prefix = this.#projectPrefix(projectKey)
    const { objects } = await this.#list(prefix)
    const sessions = new Map()
    for (const o of objects) {
      const rest = o.Key.slice(prefix.length).split('/')
      if (rest.length !== 2) continue
      const sessionId = decodePart(rest[0])
      if (sessionId === undefined) continue
      const m = PART.exec(rest[1])
      const s = sessions.get(sessionId) ?? { mtime: 0, summary: null }
      if (m) s.mtime = Math.max(s.mtime, Number(m[1]))
      else if (rest[1] === SUMMARY) s.summary = o.Key
      else continue
      sessions.set(sessionId, s)
    }
    for (const [id, s] of sessions) if (s.mtime === 0) sessions.delete(id) // a summary without parts
    return sessions
  }

  async listSessions(projectKey) {
    checkProjectKey(NAME, 'listSessions', projectKey)
    return [...(await this.#sessions(projectKey))].map(([sessionId, s]) => ({ sessionId, mtime: s.mtime }))
  }

  async listSessionSummaries(projectKey) {
    checkProjectKey(NAME, 'listSessionSummaries', projectKey)
    const sessions = [...(await this.#sessions(projectKey))]
    return mapLimit(sessions, LOAD_CONCURRENCY, async ([sessionId, s]) => {
      if (!s.summary) return { sessionId, mtime: s.mtime, data: {} }
      try {
        const stored = JSON.parse((await this.#get(s.summary)).text)
        return { sessionId, mtime: s.mtime, data: stored.data ?? {} }
      } catch (e) {
        if (isMissing(e)) return { sessionId, mtime: s.mtime, data: {} }
        throw e
      }
    })
  }

  async delete(key) {
    checkKey(NAME, 'delete', key)
    if (key.subpath === undefined) this.#known.delete(`${key.projectKey}\0${key.sessionId}`)
    const { DeleteObjectsCommand } = s3()
    // A subpath: its own parts only; the session: everything under it, subpaths included.
    const prefix = this.#keyPrefix(key)
    const { objects } = await this.#list(prefix, key.subpath !== undefined ? '/' : undefined)
    const keys = objects.map((o) => o.Key).filter((k) => key.subpath === undefined || !k.slice(prefix.length).includes('/'))
    for (let i = 0; i < keys.length; i += 1000) {
      const r = await this.#client.send(new DeleteObjectsCommand({ Bucket: this.#bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }))
      if (r.Errors?.length) throw new Error(`${NAME}.delete(): ${r.Errors.length} object(s) not deleted: ${r.Errors.map((e) => `${e.Key}: ${e.Code}`).join(', ')}`)
    }
  }

  async listSubkeys(key) {
    checkKey(NAME, 'listSubkeys', key, { subpath: false })
    const prefix = this.#sessionPrefix(key)
    const { prefixes } = await this.#list(prefix, '/')
    const out = []
    for (const p of prefixes) {
      const sub = decodePart(p.slice(prefix.length, -1))
      if (sub !== undefined && sub !== '') out.push(sub)
    }
    return out
  }
}

module.exports = { S3SessionStore }
