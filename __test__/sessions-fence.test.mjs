// Session functions read and write only inside the config folder's `projects/` tree (issue 31
// items 9 and 10): a transcript, a project folder or a session folder that is a link out of the
// tree (absolute, or through `..`) is refused by every function; a link that stays inside is
// followed by all of them alike (listSessions included); a FIFO or a socket planted as a
// transcript never blocks any of them. Nothing outside the tree is read, appended to or created.
// Written for Linux, macOS and Windows: what a platform cannot create (FIFOs and Unix sockets on
// Windows; symlinks without the privilege on Windows) is skipped, as each test's name says.
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { sdk as ours } from './helpers/sdk.mjs'

const windows = process.platform === 'win32'
let base
let config
let projects
let outside

const uuid = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** A two-message transcript of session `id`. */
function transcript(id, text = 'hello') {
  const a = { type: 'user', message: { role: 'user', content: text }, uuid: uuid(900 + (parseInt(id.slice(-4), 10) % 50) * 2), parentUuid: null, sessionId: id, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/work/fence', isSidechain: false, userType: 'external' }
  const b = { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, uuid: uuid(901 + (parseInt(id.slice(-4), 10) % 50) * 2), parentUuid: a.uuid, sessionId: id, timestamp: '2026-01-01T00:00:01.000Z', cwd: '/work/fence', isSidechain: false, userType: 'external' }
  return JSON.stringify(a) + '\n' + JSON.stringify(b) + '\n'
}

/** Makes a symlink; false where the platform refuses (Windows without the privilege). */
function link(target, at, type) {
  try {
    fs.symlinkSync(target, at, type)
    return true
  } catch (e) {
    if (windows && (e.code === 'EPERM' || e.code === 'EACCES')) return false
    throw e
  }
}

/** Settles within `ms`, or fails naming `what` (a function that blocks on a FIFO never settles). */
async function settles(what, promise, ms = 5000) {
  let timer
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not settle in ${ms} ms`)), ms)))
  try {
    return await Promise.race([promise.then((v) => ({ ok: true, v }), (e) => ({ ok: false, e })), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** A snapshot of the outside folder: names and contents, to see that nothing changed there. */
function snapshot(dir) {
  const out = {}
  for (const name of fs.readdirSync(dir, { recursive: true })) {
    const p = path.join(dir, name)
    const st = fs.lstatSync(p)
    out[name] = st.isFile() ? fs.readFileSync(p, 'utf8') : st.isDirectory() ? '<dir>' : '<other>'
  }
  return out
}

/** Every session function on `id`: reads give nothing, writes reject with `code`; nothing outside changes. */
async function refusedEverywhere(id, code) {
  const before = snapshot(outside)
  const read = async (what, p) => {
    const r = await settles(what, p)
    assert.ok(r.ok, `${what} rejected: ${r.e?.message}`)
    return r.v
  }
  assert.deepStrictEqual(await read('getSessionMessages', ours.getSessionMessages(id)), [])
  assert.equal(await read('getSessionInfo', ours.getSessionInfo(id)), undefined)
  assert.ok(!(await read('listSessions', ours.listSessions())).some((s) => s.sessionId === id), 'listSessions hides it')
  assert.deepStrictEqual(await read('listSubagents', ours.listSubagents(id)), [])
  assert.deepStrictEqual(await read('getSubagentMessages', ours.getSubagentMessages(id, 'a1')), [])
  for (const [what, call] of [
    ['renameSession', () => ours.renameSession(id, 'Renamed')],
    ['tagSession', () => ours.tagSession(id, 'tagged')],
    ['forkSession', () => ours.forkSession(id)],
    ['archiveSession', () => ours.archiveSession(id)],
  ]) {
    const r = await settles(what, call())
    assert.ok(!r.ok, `${what} succeeded`)
    assert.equal(r.e.code, code, `${what}: ${r.e.message}`)
    assert.ok(r.e.message.includes(id), `${what} names the session: ${r.e.message}`)
    assert.ok(r.e.message.includes(`${id}.jsonl`), `${what} names the file: ${r.e.message}`)
  }
  assert.deepStrictEqual(snapshot(outside), before, 'nothing outside the projects folder changed')
}

before(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-fence-'))
  config = path.join(base, 'config')
  projects = path.join(config, 'projects')
  outside = path.join(base, 'outside')
  fs.mkdirSync(path.join(projects, '-work-fence'), { recursive: true })
  fs.mkdirSync(path.join(outside, 'folder', uuid(3), 'subagents'), { recursive: true })
  // What the links point at: a transcript, a session folder with a subagent, a project folder.
  fs.writeFileSync(path.join(outside, 'secret.jsonl'), transcript(uuid(1), 'SECRET'))
  fs.writeFileSync(path.join(outside, 'folder', `${uuid(3)}.jsonl`), transcript(uuid(3), 'SECRET'))
  fs.writeFileSync(path.join(outside, 'folder', uuid(3), 'subagents', 'agent-a1.jsonl'), transcript(uuid(3), 'SECRET'))
  process.env.CLAUDE_CONFIG_DIR = config
})

after(() => {
  delete process.env.CLAUDE_CONFIG_DIR
  fs.rmSync(base, { recursive: true, force: true })
})

describe('session functions stay inside the projects folder', () => {
  it('a transcript that is an absolute link to a file outside is refused by every function', async (t) => {
    const id = uuid(1)
    if (!link(path.join(outside, 'secret.jsonl'), path.join(projects, '-work-fence', `${id}.jsonl`), 'file')) return t.skip('Windows: no symlink privilege')
    await refusedEverywhere(id, 'SESSION_OUTSIDE_PROJECTS')
  })

  it('a transcript linked out through `..` is refused by every function', async (t) => {
    const id = uuid(2)
    fs.writeFileSync(path.join(outside, `${id}.jsonl`), transcript(id, 'SECRET'))
    if (!link(path.join('..', '..', '..', 'outside', `${id}.jsonl`), path.join(projects, '-work-fence', `${id}.jsonl`), 'file')) return t.skip('Windows: no symlink privilege')
    assert.ok(fs.readFileSync(path.join(projects, '-work-fence', `${id}.jsonl`), 'utf8').includes('SECRET'), 'the link resolves')
    await refusedEverywhere(id, 'SESSION_OUTSIDE_PROJECTS')
  })

  it('a project folder that is a link to a folder outside is refused by every function', async (t) => {
    if (!link(path.join(outside, 'folder'), path.join(projects, '-linked-out'), 'junction')) return t.skip('Windows: no symlink privilege')
    await refusedEverywhere(uuid(3), 'SESSION_OUTSIDE_PROJECTS')
  })

  it("a session's folder linked out: no subagent is read through it and no archive mark written through it", async (t) => {
    const id = uuid(4)
    const proj = path.join(projects, '-work-fence')
    fs.writeFileSync(path.join(proj, `${id}.jsonl`), transcript(id))
    if (!link(path.join(outside, 'folder', uuid(3)), path.join(proj, id), 'junction')) return t.skip('Windows: no symlink privilege')
    const before = snapshot(outside)
    assert.deepStrictEqual(await ours.listSubagents(id), [])
    assert.deepStrictEqual(await ours.getSubagentMessages(id, 'a1'), [])
    const r = await settles('archiveSession', ours.archiveSession(id))
    assert.ok(!r.ok, 'archiveSession wrote through the link')
    assert.equal(r.e.code, 'SESSION_OUTSIDE_PROJECTS', r.e.message)
    assert.ok(r.e.message.includes(id), r.e.message)
    assert.deepStrictEqual(snapshot(outside), before, 'no archived.json outside')
    // The transcript itself is inside: read as usual.
    assert.equal((await ours.getSessionMessages(id)).length, 2)
  })

  it('a link that stays inside the tree is followed by every function alike, listSessions included', async (t) => {
    const id = uuid(5)
    const target = uuid(6)
    const proj = path.join(projects, '-work-fence')
    fs.mkdirSync(path.join(projects, '-other'), { recursive: true })
    fs.writeFileSync(path.join(projects, '-other', `${target}.jsonl`), transcript(id, 'inside'))
    if (!link(path.join('..', '-other', `${target}.jsonl`), path.join(proj, `${id}.jsonl`), 'file')) return t.skip('Windows: no symlink privilege')
    const listed = await ours.listSessions({ dir: '/work/fence' })
    assert.ok(listed.some((s) => s.sessionId === id), 'listed')
    assert.equal((await ours.getSessionInfo(id))?.sessionId, id)
    const messages = await ours.getSessionMessages(id)
    assert.deepStrictEqual(messages.map((m) => m.message.content), ['inside', [{ type: 'text', text: 'hi' }]])
    await ours.renameSession(id, 'Renamed inside')
    assert.match(fs.readFileSync(path.join(projects, '-other', `${target}.jsonl`), 'utf8'), /Renamed inside/, 'appended to the file the link names')
    assert.equal((await ours.getSessionInfo(id)).customTitle, 'Renamed inside')
    const fork = await ours.forkSession(id)
    assert.equal((await ours.getSessionMessages(fork.sessionId)).length, 2)
  })

  it('a FIFO planted as a transcript: every function settles at once, writes reject (skipped on Windows: no FIFOs)', { skip: windows }, async () => {
    const id = uuid(7)
    execFileSync('mkfifo', [path.join(projects, '-work-fence', `${id}.jsonl`)])
    await refusedOrAbsent(id)
  })

  it('a Unix socket planted as a transcript: every function settles at once, writes reject (skipped on Windows: no socket files)', { skip: windows }, async () => {
    const id = uuid(8)
    const server = net.createServer()
    await new Promise((resolve) => server.listen(path.join(projects, '-work-fence', `${id}.jsonl`), resolve))
    try {
      await refusedOrAbsent(id)
    } finally {
      server.close()
    }
  })
})

/** A FIFO or a socket has no size: reads see no session; writes reject with SESSION_NOT_A_FILE
 * or as not found (both without blocking). */
async function refusedOrAbsent(id) {
  const before = snapshot(outside)
  for (const [what, call] of [
    ['getSessionMessages', () => ours.getSessionMessages(id)],
    ['getSessionInfo', () => ours.getSessionInfo(id)],
    ['listSessions', () => ours.listSessions()],
    ['listSubagents', () => ours.listSubagents(id)],
  ]) {
    const r = await settles(what, call())
    assert.ok(r.ok, `${what} rejected: ${r.e?.message}`)
    if (what === 'listSessions') assert.ok(!r.v.some((s) => s.sessionId === id))
    else assert.ok(r.v === undefined || (Array.isArray(r.v) && r.v.length === 0), `${what}: ${JSON.stringify(r.v)}`)
  }
  for (const [what, call] of [
    ['renameSession', () => ours.renameSession(id, 'Renamed')],
    ['tagSession', () => ours.tagSession(id, 'tagged')],
    ['forkSession', () => ours.forkSession(id)],
    ['archiveSession', () => ours.archiveSession(id)],
    ['deleteSession', () => ours.deleteSession(id)],
  ]) {
    const r = await settles(what, call())
    assert.ok(!r.ok, `${what} succeeded`)
    assert.ok(r.e.code === 'SESSION_NOT_A_FILE' || /not found/.test(r.e.message), `${what}: ${r.e.code} ${r.e.message}`)
    if (r.e.code === 'SESSION_NOT_A_FILE') assert.ok(r.e.message.includes(`${id}.jsonl`), r.e.message)
  }
  assert.deepStrictEqual(snapshot(outside), before)
}
