// Which project folders a listing reads, side by side with the official SDK: two project paths
// whose folder names are the same (`/x/a-b` and `/x/a/b` both map to `-x-a-b`), and the folder
// name override `CLAUDE_CODE_PROJECT_DIR_NAME`. (The Windows rules — drive paths, `\\?\`
// prefixes, names compared without case — are pure functions, tested in the engine's unit
// tests against the official algorithm's outputs.)
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours } from './helpers/sdk.mjs'
import { rng, transcript, uuidFrom, writeTranscript, sanitize } from './helpers/session-corpus.mjs'

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-paths-')))
const config = path.join(base, 'config')
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))
const rand = rng(41)

async function same(fn, label) {
  const a = norm(await fn(ours))
  const b = norm(await fn(official))
  assert.deepStrictEqual(a, b, label)
  return a
}

/** A session that ran in `cwd`, written into the folder `folder` (default: cwd's own). */
function session(cwd, { folder = sanitize(cwd), title, at } = {}) {
  const id = uuidFrom(rand)
  const { lines } = transcript(rand, { sessionId: id, cwd, turns: 2, title })
  writeTranscript(path.join(config, 'projects', folder, `${id}.jsonl`), lines, at ?? Date.UTC(2026, 1, 1) + Math.floor(rand() * 1e9))
  return id
}

const saved = {}
before(() => {
  for (const k of ['CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_PROJECT_DIR_NAME']) saved[k] = process.env[k]
  process.env.CLAUDE_CONFIG_DIR = config
})

after(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
  fs.rmSync(base, { recursive: true, force: true })
})

describe('project folders', () => {
  it('two project paths mapping to one folder: each listing keeps its own sessions, as the official does', async () => {
    const dash = path.join(base, 'work', 'a-b')
    const nested = path.join(base, 'work', 'a', 'b')
    for (const d of [dash, nested]) fs.mkdirSync(d, { recursive: true })
    assert.equal(sanitize(dash), sanitize(nested))
    const folder = sanitize(dash)
    const mine = [session(dash), session(dash, { title: 'dash' })]
    const theirs = [session(nested), session(nested, { title: 'nested' })]
    const forDash = await same((m) => m.listSessions({ dir: dash }), 'dir a-b')
    const forNested = await same((m) => m.listSessions({ dir: nested }), 'dir a/b')
    assert.deepStrictEqual(forDash.map((s) => s.sessionId).sort(), mine.slice().sort())
    assert.ok(theirs.every((id) => forNested.some((s) => s.sessionId === id)))
    assert.ok(!forNested.some((s) => mine.includes(s.sessionId)))
    // Pages and the programmatic filter go through the same check.
    await same((m) => m.listSessions({ dir: dash, limit: 1 }), 'paged')
    await same((m) => m.listSessions({ dir: nested, limit: 5, offset: 1, includeProgrammatic: false }), 'paged, no programmatic')
    await same((m) => m.listSessions({ dir: dash, includeWorktrees: false }), 'no worktrees')
    // Without dir every session of the folder is listed; lookups by id are not filtered.
    await same((m) => m.listSessions(), 'all')
    for (const id of [...mine, ...theirs]) {
      await same((m) => m.getSessionInfo(id, { dir: dash }), `info ${id}`)
      await same((m) => m.getSessionMessages(id, { dir: nested }), `messages ${id}`)
    }
    // A session that ran in a folder that no longer exists cannot be told apart: it is listed.
    const goneDir = path.join(base, 'work', 'c-d')
    fs.mkdirSync(goneDir, { recursive: true })
    const kept = session(path.join(base, 'work', 'c', 'd'), { folder: sanitize(goneDir) })
    const listed = await same((m) => m.listSessions({ dir: goneDir }), 'cwd that no longer exists')
    assert.deepStrictEqual(listed.map((s) => s.sessionId), [kept])
  })

  it('CLAUDE_CODE_PROJECT_DIR_NAME: one folder for every project, the project\'s own folder too, invalid names ignored', async () => {
    const proj = path.join(base, 'work', 'named')
    fs.mkdirSync(proj, { recursive: true })
    const inNamed = [session(proj, { folder: 'shared-folder' }), session(proj, { folder: 'shared-folder', title: 'named' })]
    const inOwn = session(proj, { title: 'own' })
    try {
      for (const name of ['shared-folder', 'con', 'has space', 'x'.repeat(65), '']) {
        process.env.CLAUDE_CODE_PROJECT_DIR_NAME = name
        const listed = await same((m) => m.listSessions({ dir: proj }), `list ${name}`)
        if (name === 'shared-folder') assert.deepStrictEqual(listed.map((s) => s.sessionId).sort(), [...inNamed, inOwn].sort())
        else assert.deepStrictEqual(listed.map((s) => s.sessionId), [inOwn])
        for (const id of [...inNamed, inOwn]) {
          await same((m) => m.getSessionInfo(id, { dir: proj }), `info ${name} ${id}`)
          await same((m) => m.getSessionMessages(id, { dir: proj }), `messages ${name} ${id}`)
        }
      }
      // A rename through the override folder lands in the same file for both packages.
      process.env.CLAUDE_CODE_PROJECT_DIR_NAME = 'shared-folder'
      const file = path.join(config, 'projects', 'shared-folder', `${inNamed[0]}.jsonl`)
      const before = fs.readFileSync(file, 'utf8')
      await ours.renameSession(inNamed[0], 'renamed', { dir: proj })
      const afterOurs = fs.readFileSync(file, 'utf8')
      fs.writeFileSync(file, before)
      await official.renameSession(inNamed[0], 'renamed', { dir: proj })
      assert.equal(afterOurs, fs.readFileSync(file, 'utf8'))
      // Session stores key projects by the same folder name.
      const stores = { ours: new ours.InMemorySessionStore(), official: new official.InMemorySessionStore() }
      await ours.importSessionToStore(inNamed[1], stores.ours, { dir: proj })
      await official.importSessionToStore(inNamed[1], stores.official, { dir: proj })
      const key = { projectKey: 'shared-folder', sessionId: inNamed[1] }
      assert.ok(stores.ours.getEntries(key).length > 0)
      assert.deepStrictEqual(stores.ours.getEntries(key), stores.official.getEntries(key))
      const strip = (l) => l.map(({ lastModified, ...rest }) => rest)
      const [l1, l2] = [await ours.listSessions({ dir: proj, sessionStore: stores.ours }), await official.listSessions({ dir: proj, sessionStore: stores.official })]
      assert.deepStrictEqual(strip(norm(l1)), strip(norm(l2)))
    } finally {
      delete process.env.CLAUDE_CODE_PROJECT_DIR_NAME
    }
  })
})
