// Session functions side by side with the official SDK: a generated corpus (titles, tags,
// compaction, sidechains, SDK entrypoints, subagents, archive marks, corrupt and truncated
// lines, odd file names), mutations applied by each package to its own copy of the same folder,
// hostile input, crash safety.
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours } from './helpers/sdk.mjs'
import { buildCorpus, rng, transcript, uuidFrom, writeTranscript, sanitize } from './helpers/session-corpus.mjs'

const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-test-'))
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))
let corpus

function useConfig(dir) {
  process.env.CLAUDE_CONFIG_DIR = dir
}

/** A copy of the corpus' config folder (each package mutates its own). */
function copyConfig(name) {
  const dest = path.join(base, name)
  fs.cpSync(path.join(base, 'config'), dest, { recursive: true, preserveTimestamps: true })
  return dest
}

async function both(fn) {
  return [norm(await fn(ours)), norm(await fn(official))]
}

async function same(fn, label) {
  const [a, b] = await both(fn)
  assert.deepStrictEqual(a, b, label)
  return a
}

async function rejection(fn) {
  try {
    await fn()
  } catch (e) {
    return { name: e.name, message: e.message }
  }
  return null
}

before(() => {
  corpus = buildCorpus(path.join(base, 'config'), { root: path.join(base, 'work'), sessions: 36, bigCount: 1, bigLines: 400 })
  useConfig(path.join(base, 'config'))
})

after(() => {
  delete process.env.CLAUDE_CONFIG_DIR
  fs.rmSync(base, { recursive: true, force: true })
})

describe('reading sessions: same results as the official SDK', () => {
  it('listSessions: all, per project, pages, without programmatic sessions', async () => {
    useConfig(path.join(base, 'config'))
    const all = await same((m) => m.listSessions())
    assert.ok(all.length >= 30, `listed ${all.length}`)
    assert.ok(all.some((s) => s.archived === true), 'the archive mark is read')
    for (const dir of corpus.projectPaths) await same((m) => m.listSessions({ dir }), dir)
    for (const [limit, offset] of [[5, 0], [5, 3], [0, 7], [100, 30], [3, 1000]]) await same((m) => m.listSessions({ limit, offset }), `limit ${limit} offset ${offset}`)
    await same((m) => m.listSessions({ dir: corpus.projectPaths[1], limit: 4, offset: 2 }))
    const noSdk = await same((m) => m.listSessions({ includeProgrammatic: false }))
    assert.ok(noSdk.length < all.length)
    // Own properties as the official object has them (undefined ones included).
    const [first] = await ours.listSessions({ limit: 1 })
    assert.deepStrictEqual(Object.keys(first), Object.keys((await official.listSessions({ limit: 1 }))[0]))
  })

  it('getSessionInfo and getSessionMessages of every session (with and without dir, system messages, pages)', async () => {
    useConfig(path.join(base, 'config'))
    for (const s of corpus.sessions) {
      await same((m) => m.getSessionInfo(s.id), `info ${s.id}`)
      await same((m) => m.getSessionInfo(s.id, { dir: s.cwd }), `info dir ${s.id}`)
      const msgs = await same((m) => m.getSessionMessages(s.id), `messages ${s.id}`)
      await same((m) => m.getSessionMessages(s.id, { dir: s.cwd, includeSystemMessages: true }), `system ${s.id}`)
      if (msgs.length > 4) await same((m) => m.getSessionMessages(s.id, { limit: 3, offset: 2 }), `page ${s.id}`)
    }
    const big = corpus.big[0]
    const msgs = await ours.getSessionMessages(big.id)
    assert.ok(msgs.length > 50, 'the compacted big transcript has its post-compaction chain')
    assert.ok(msgs.some((m) => m.isCompactSummary === true && m.is_meta === true))
  })

  it('listSubagents and getSubagentMessages', async () => {
    useConfig(path.join(base, 'config'))
    const s = corpus.sessions[2]
    // In folder-listing order: sorted under Node (libuv sorts readdir), which we always give;
    // the official under Bun gives the file system's order.
    const sorted = (fn) => async (m) => (await fn(m)).slice().sort()
    const agents = await same(sorted((m) => m.listSubagents(s.id)))
    assert.equal(agents.length, 2)
    for (const a of agents) {
      const msgs = await same((m) => m.getSubagentMessages(s.id, a), a)
      assert.ok(msgs.length > 0 && msgs[0].parent_tool_use_id.startsWith('toolu_'))
      await same((m) => m.getSubagentMessages(s.id, a, { limit: 2, offset: 1, dir: s.cwd }))
    }
    await same((m) => m.getSubagentMessages(s.id, 'nope'))
    await same((m) => m.listSubagents(corpus.sessions[5].id))
  })
})

describe('changing sessions: each package on its own copy, same outcome', () => {
  it('renameSession, tagSession (stripped characters, null), archive/unarchive, delete', async () => {
    const a = copyConfig('mut-ours')
    const b = copyConfig('mut-official')
    const [s1, s2, s3, s4] = corpus.sessions.slice(6, 10)
    const run = async (m, dir) => {
      useConfig(dir)
      await m.renameSession(s1.id, '  New name  ')
      await m.tagSession(s2.id, ' urgent\u200B\u202Eok\uFEFF ')
      await m.tagSession(s3.id, 'x')
      await m.tagSession(s3.id, null)
      await m.archiveSession(s4.id)
      await m.archiveSession(s1.id, { dir: s1.cwd })
      await m.unarchiveSession(s1.id)
      await m.deleteSession(corpus.sessions[2].id)
      await m.renameSession(s2.id, 'With dir', { dir: s2.cwd })
      return norm(await m.listSessions())
    }
    const mine = await run(ours, a)
    const theirs = await run(official, b)
    // lastModified is the mtime: the mutated files' differ by the time between the two runs.
    const strip = (l) => l.map(({ lastModified, ...rest }) => rest)
    assert.deepStrictEqual(strip(mine), strip(theirs))
    const byId = Object.fromEntries(mine.map((s) => [s.sessionId, s]))
    assert.equal(byId[s1.id].customTitle, 'New name')
    assert.equal(byId[s1.id].archived, false)
    assert.equal(byId[s2.id].tag, 'urgentok')
    assert.equal(byId[s3.id].tag, undefined)
    assert.equal(byId[s4.id].archived, true)
    assert.equal(byId[corpus.sessions[2].id], undefined)
    // The appended lines are the official's, byte for byte.
    const tail = (dir, s) => fs.readFileSync(s.file.replace(path.join(base, 'config'), dir), 'utf8').split('\n').slice(-4).join('\n')
    for (const s of [s1, s2, s3]) assert.equal(tail(a, s), tail(b, s))
    const mark = (dir) => JSON.parse(fs.readFileSync(path.join(s4.file.replace(path.join(base, 'config'), dir).replace(/\.jsonl$/, ''), 'archived.json'), 'utf8'))
    assert.deepStrictEqual(Object.keys(mark(a)), Object.keys(mark(b)))
    assert.equal(mark(a).archived, true)
    assert.ok(!fs.existsSync(corpus.sessions[2].file.replace(path.join(base, 'config'), a).replace(/\.jsonl$/, '')), 'the subagent folder is deleted too')
  })

  it('forkSession (whole, up to a message, titled) gives the same conversation under new ids', async () => {
    useConfig(path.join(base, 'config'))
    const s = corpus.sessions.find((x) => x.id === corpus.big[0]?.id) ?? corpus.sessions[1]
    const plain = corpus.sessions[11]
    const msgs = await ours.getSessionMessages(plain.id)
    const cut = msgs[Math.floor(msgs.length / 2)].uuid
    const shape = (list) => list.map((m) => ({ type: m.type, message: m.message, is_meta: m.is_meta, isCompactSummary: m.isCompactSummary }))
    for (const [id, opts] of [[plain.id, {}], [plain.id, { upToMessageId: cut }], [plain.id, { title: '  Mine  ' }], [s.id, {}]]) {
      const [f1, f2] = [await ours.forkSession(id, opts), await official.forkSession(id, opts)]
      assert.notEqual(f1.sessionId, f2.sessionId)
      const [i1, i2] = [await ours.getSessionInfo(f1.sessionId), await official.getSessionInfo(f2.sessionId)]
      assert.equal(i1.customTitle, i2.customTitle)
      assert.equal(i1.summary, i2.summary)
      const [m1, m2] = [await ours.getSessionMessages(f1.sessionId), await official.getSessionMessages(f2.sessionId)]
      assert.deepStrictEqual(shape(m1), shape(m2))
      // Read the other way round too: each package reads the other's fork the same.
      await same((m) => m.getSessionMessages(f1.sessionId))
      await same((m) => m.getSessionMessages(f2.sessionId))
      const lines = fs.readFileSync(path.join(path.dirname(plain.file.replace(plain.id, '')), '..', sanitize(id === s.id ? s.cwd : plain.cwd), `${f1.sessionId}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
      const original = new Set(fs.readFileSync(id === s.id ? s.file : plain.file, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l).uuid } catch { return undefined } }))
      for (const e of lines.filter((e) => e.forkedFrom)) {
        assert.equal(e.sessionId, f1.sessionId)
        assert.equal(e.forkedFrom.sessionId, id)
        assert.ok(!original.has(e.uuid), 'every uuid is new')
        assert.equal(e.isSidechain, false)
      }
    }
    assert.deepStrictEqual(await rejection(() => ours.forkSession(plain.id, { upToMessageId: 'nope' })), await rejection(() => official.forkSession(plain.id, { upToMessageId: 'nope' })))
  })
})

describe('hostile input', () => {
  it('missing config folder, bad ids, path separators, upper-case ids: the official answers, nothing outside the projects folder touched', async () => {
    useConfig(path.join(base, 'does-not-exist'))
    await same((m) => m.listSessions())
    await same((m) => m.listSessions({ dir: '/nowhere' }))
    await same((m) => rejection(() => m.renameSession(uuidFrom(rng(3)), 'x')))
    useConfig(path.join(base, 'config'))
    // A transcript-looking file outside the projects folder, named by a path an id could spell.
    const outside = path.join(base, 'outside.jsonl')
    fs.writeFileSync(outside, fs.readFileSync(corpus.sessions[0].file))
    const before = fs.readFileSync(outside, 'utf8')
    for (const bad of ['../../outside', '../outside', '/etc/passwd', `${corpus.sessions[0].id}/../../../outside`, 'a'.repeat(36), '', 42, null]) {
      await same((m) => m.getSessionInfo(bad))
      await same((m) => m.getSessionMessages(bad))
      await same((m) => m.listSubagents(bad))
      await same((m) => m.getSubagentMessages(bad, 'x'))
      for (const op of [(m) => m.renameSession(bad, 't'), (m) => m.tagSession(bad, 't'), (m) => m.archiveSession(bad), (m) => m.deleteSession(bad), (m) => m.forkSession(bad)]) {
        const [r1, r2] = [await rejection(() => op(ours)), await rejection(() => op(official))]
        assert.ok(r1, `rejected ${bad}`)
        assert.deepStrictEqual(r1, r2)
      }
    }
    assert.equal(fs.readFileSync(outside, 'utf8'), before)
    const upper = corpus.sessions[0].id.toUpperCase()
    await same((m) => m.getSessionInfo(upper))
    await same((m) => m.getSessionMessages(upper))
    await same((m) => rejection(() => m.renameSession(upper, 'x')))
    await same((m) => rejection(() => m.tagSession(corpus.sessions[0].id, ' \u200B ')))
    await same((m) => rejection(() => m.renameSession(corpus.sessions[0].id, '   ')))
    await same((m) => rejection(() => m.archiveSession(corpus.sessions[0].id, { sessionStore: new m.InMemorySessionStore() })))
  })

  it('a FIFO and a folder where transcripts should be, empty and truncated files, a 100 MB transcript', async () => {
    const dir = copyConfig('hostile')
    useConfig(dir)
    const proj = path.join(dir, 'projects', sanitize(corpus.projectPaths[2]))
    const fifo = uuidFrom(rng(11))
    const { execFileSync } = await import('node:child_process')
    execFileSync('mkfifo', [path.join(proj, `${fifo}.jsonl`)])
    fs.mkdirSync(path.join(proj, `${uuidFrom(rng(12))}.jsonl`))
    // 100 MB: one session whose lines are padded.
    const bigId = uuidFrom(rng(13))
    const rand = rng(14)
    const { lines } = transcript(rand, { sessionId: bigId, cwd: corpus.projectPaths[2], turns: 220, pad: 320000, title: 'Huge' })
    writeTranscript(path.join(proj, `${bigId}.jsonl`), lines, Date.UTC(2031, 0, 1))
    assert.ok(fs.statSync(path.join(proj, `${bigId}.jsonl`)).size > 100e6)
    const rss = process.memoryUsage().rss
    const listed = await same((m) => m.listSessions({ dir: corpus.projectPaths[2] }))
    assert.equal(listed[0].sessionId, bigId)
    assert.equal(listed[0].customTitle, 'Huge')
    await same((m) => m.getSessionInfo(fifo))
    const msgs = await ours.getSessionMessages(bigId, { limit: 3, offset: 400 })
    assert.equal(msgs.length, 3)
    assert.ok(process.memoryUsage().rss - rss < 400e6, 'bounded memory on a 100 MB transcript')
  })

  it('crash safety: a fork or archive that cannot complete leaves the folder as it was', async () => {
    const dir = copyConfig('crash')
    useConfig(dir)
    const s = corpus.sessions[14]
    const proj = path.dirname(s.file.replace(path.join(base, 'config'), dir))
    const listing = () => fs.readdirSync(proj).sort()
    const before = listing()
    const original = fs.readFileSync(path.join(proj, `${s.id}.jsonl`))
    // The archive folder's place is taken by a file: the archive cannot be written.
    fs.writeFileSync(path.join(proj, s.id), 'not a folder')
    await assert.rejects(ours.archiveSession(s.id))
    fs.rmSync(path.join(proj, s.id))
    assert.deepStrictEqual(listing(), before)
    // A fork into a folder that refuses new files (a read-only bind is not available here:
    // an immutable target name is simulated by a folder squatting on every temp name's prefix).
    const f = await ours.forkSession(s.id)
    assert.ok(fs.existsSync(path.join(proj, `${f.sessionId}.jsonl`)))
    assert.ok(!listing().some((n) => n.endsWith('.tmp')), 'no temporary file left')
    assert.deepStrictEqual(fs.readFileSync(path.join(proj, `${s.id}.jsonl`)), original, 'the original is untouched')
    // Appends are whole lines: the transcript still parses line by line after a rename.
    await ours.renameSession(s.id, 'after')
    for (const line of fs.readFileSync(path.join(proj, `${s.id}.jsonl`), 'utf8').trim().split('\n')) JSON.parse(line)
  })
})

describe('session stores', () => {
  it('InMemorySessionStore, importSessionToStore, foldSessionSummary and the { sessionStore } variants match the official', async () => {
    useConfig(path.join(base, 'config'))
    const pick = [corpus.sessions[2], corpus.sessions[11], corpus.sessions[15]]
    const stores = { ours: new ours.InMemorySessionStore(), official: new official.InMemorySessionStore() }
    const dir = corpus.projectPaths[2 % corpus.projectPaths.length]
    for (const s of pick) {
      await ours.importSessionToStore(s.id, stores.ours, { dir: s.cwd, batchSize: 7 })
      await official.importSessionToStore(s.id, stores.official, { dir: s.cwd, batchSize: 7 })
    }
    for (const s of pick) {
      const key = { projectKey: sanitize(fs.realpathSync(s.cwd)), sessionId: s.id }
      assert.deepStrictEqual(stores.ours.getEntries(key), stores.official.getEntries(key))
      assert.deepStrictEqual((await stores.ours.listSubkeys(key)).sort(), (await stores.official.listSubkeys(key)).sort())
      const sstore = (m) => (m === ours ? stores.ours : stores.official)
      await same((m) => m.getSessionMessages(s.id, { dir: s.cwd, sessionStore: sstore(m) }))
      // lastModified: the last entry's timestamp, or now when it has none.
      const [i1, i2] = await both((m) => m.getSessionInfo(s.id, { dir: s.cwd, sessionStore: sstore(m) }))
      assert.deepStrictEqual({ ...i1, lastModified: 0 }, { ...i2, lastModified: 0 })
      await same(async (m) => (await m.listSubagents(s.id, { dir: s.cwd, sessionStore: sstore(m) })).sort())
      for (const a of await ours.listSubagents(s.id, { dir: s.cwd, sessionStore: stores.ours })) await same((m) => m.getSubagentMessages(s.id, a, { dir: s.cwd, sessionStore: sstore(m) }))
      const strip = (l) => l.map(({ lastModified, ...rest }) => rest)
      const [l1, l2] = await both((m) => m.listSessions({ dir: s.cwd, sessionStore: sstore(m) }))
      assert.deepStrictEqual(strip(l1), strip(l2))
      const summary = (await stores.ours.listSessionSummaries(key.projectKey)).find((x) => x.sessionId === s.id)
      assert.deepStrictEqual({ ...summary, mtime: 0 }, { ...official.foldSessionSummary(undefined, key, stores.official.getEntries(key)), mtime: 0 })
    }
    const s = pick[1]
    await ours.renameSession(s.id, 'Stored', { dir: s.cwd, sessionStore: stores.ours })
    await ours.tagSession(s.id, 'st', { dir: s.cwd, sessionStore: stores.ours })
    const info = await ours.getSessionInfo(s.id, { dir: s.cwd, sessionStore: stores.ours })
    assert.equal(info.customTitle, 'Stored')
    assert.equal(info.tag, 'st')
    const fork = await ours.forkSession(s.id, { dir: s.cwd, sessionStore: stores.ours })
    assert.equal((await ours.getSessionInfo(fork.sessionId, { dir: s.cwd, sessionStore: stores.ours })).customTitle, 'Stored (fork)')
    assert.equal(stores.ours.size, 4)
    await ours.deleteSession(fork.sessionId, { dir: s.cwd, sessionStore: stores.ours })
    assert.equal(stores.ours.size, 3)
    await same((m) => rejection(() => m.listSessions({ sessionStore: { append: async () => {}, load: async () => null } })))
    void dir
  })
})
