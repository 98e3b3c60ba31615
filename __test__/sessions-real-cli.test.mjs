// Session functions on transcripts the real CLI wrote (scripted model): multi-turn with
// /compact, tool use, a subagent, an API error, a git worktree, Options.title, a CLI fork —
// every function compared with the official package's; each of our mutations resumed with the
// real CLI; session stores (mirroring, batching, retries, mirror_error, resume from a store).
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { CLIS } from './helpers/clis.mjs'
import { sdk as ours } from './helpers/sdk.mjs'
import { startScriptedModel, lastUserText, toolResults } from '../testing/index.mjs'
import { forkEverywhere } from './helpers/fork-compare.mjs'

const CLI = CLIS['2.1.332']
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))
let model
let env
const ids = {}
const spawned = new Set()
const dirs = {}

function reply(req) {
  const text = lastUserText(req)
  if (toolResults(req).length > 0) return { text: 'tool finished' }
  if (text.includes('SUBAGENT-TASK')) return { text: 'subagent says hi' }
  if (text.includes('queue behind a tool')) return { toolUses: [{ name: 'Bash', input: { command: 'sleep 2; echo slow-tool', description: 'Wait' } }] }
  if (text.includes('use a tool')) return { toolUses: [{ name: 'Bash', input: { command: 'echo from-bash', description: 'Print a word' } }] }
  // Once: the agent runs in the background, and its completion notice starts another turn.
  if (text.includes('spawn an agent') && !spawned.has(text) && spawned.add(text)) return { toolUses: [{ name: 'Agent', input: { description: 'Helper', prompt: 'SUBAGENT-TASK: say hi', subagent_type: 'general-purpose' } }] }
  if (text.includes('fail please')) return { error: { status: 400, type: 'invalid_request_error', message: 'scripted failure' } }
  return { text: `answer to: ${text.slice(0, 40)}` }
}

async function run(prompt, options = {}) {
  let sessionId
  let result
  let stderr = ''
  const started = Date.now()
  try {
    for await (const m of ours.query({ prompt, options: { pathToClaudeCodeExecutable: CLI, env, cwd: dirs.plain, stderr: (d) => (stderr += d), ...options } })) {
      if (m.session_id) sessionId = m.session_id
      if (m.type === 'result') result = m
    }
  } catch (e) {
    // An error result ends the run with the CLI's exit status 1 (the API error case).
    if (!result) throw new Error(`${prompt}: ${e.message}; stderr: ${stderr}`)
  }
  if (process.env.SESSIONS_TEST_TRACE) console.error(`[run] ${prompt}: ${Date.now() - started} ms`)
  assert.ok(result, `no result; stderr: ${stderr}`)
  return { sessionId, result }
}

/** A turn whose tool runs while a second prompt arrives: the CLI absorbs it mid-turn as a
 * `queued_command` attachment (with its `queue-operation` records). */
async function runQueued() {
  let toolCalled
  let finished
  const calling = new Promise((r) => (toolCalled = r))
  const done = new Promise((r) => (finished = r))
  async function* prompts() {
    yield { type: 'user', message: { role: 'user', content: 'queue behind a tool' }, parent_tool_use_id: null, session_id: '' }
    await calling
    yield { type: 'user', message: { role: 'user', content: 'queued while the tool runs' }, parent_tool_use_id: null, session_id: '' }
    await done
  }
  let sessionId
  for await (const m of ours.query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: CLI, env, cwd: dirs.plain, allowedTools: ['Bash'] } })) {
    if (m.session_id) sessionId = m.session_id
    if (m.type === 'assistant' && m.message.content.some((b) => b.type === 'tool_use')) toolCalled()
    if (m.type === 'result') break
  }
  finished()
  return sessionId
}

/** Every user text the model received in the requests of a run (to see what a resume carried). */
function seenTexts(fromIndex) {
  return model.requests.slice(fromIndex).flatMap((r) => r.messages.flatMap((m) => (typeof m.content === 'string' ? [m.content] : m.content.filter((b) => b.type === 'text').map((b) => b.text))))
}

async function same(fn, label) {
  const a = norm(await fn(ours))
  const b = norm(await fn(official))
  assert.deepStrictEqual(a, b, label)
  return a
}

before(async () => {
  model = await startScriptedModel({ fallback: reply })
  env = model.env()
  dirs.plain = model.tempDir('sess-plain-')
  // A git repository with a second worktree.
  dirs.repo = model.tempDir('sess-repo-')
  const git = (...args) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dirs.repo, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  fs.writeFileSync(path.join(dirs.repo, 'a.txt'), 'a')
  git('add', '.')
  git('commit', '-qm', 'init')
  dirs.worktree = path.join(path.dirname(dirs.repo), path.basename(dirs.repo) + '-wt')
  git('worktree', 'add', '-q', '-b', 'side', dirs.worktree)
  const chat = (async () => {
    const first = await run('first question')
    ids.compacted = first.sessionId
    await run('second question', { resume: first.sessionId })
    await run('/compact', { resume: first.sessionId })
    await run('after compaction', { resume: first.sessionId })
    await run('/compact', { resume: first.sessionId })
    await run('after the second compaction', { resume: first.sessionId })
  })()
  const others = Promise.all([
    run('please use a tool', { allowedTools: ['Bash'] }).then((r) => (ids.tool = r.sessionId)),
    run('spawn an agent now', { allowedTools: ['Agent', 'Task'] }).then((r) => (ids.agent = r.sessionId)),
    run('fail please').then((r) => (ids.error = r.sessionId)),
    run('in the repository', { cwd: dirs.repo }).then((r) => (ids.repo = r.sessionId)),
    run('in the worktree', { cwd: dirs.worktree }).then((r) => (ids.worktree = r.sessionId)),
    run('with a title', { title: 'Scripted title' }).then((r) => (ids.titled = r.sessionId)),
    runQueued().then((id) => (ids.queued = id)),
  ])
  await Promise.all([chat, others])
  ids.cliFork = (await run('forked by the CLI', { resume: ids.tool, forkSession: true })).sessionId
  process.env.CLAUDE_CONFIG_DIR = env.CLAUDE_CONFIG_DIR
})

after(async () => {
  delete process.env.CLAUDE_CONFIG_DIR
  if (dirs.worktree) fs.rmSync(dirs.worktree, { recursive: true, force: true })
  await model?.close()
})

describe('transcripts written by the real CLI', { timeout: 120000 }, () => {
  it('every reading function gives the official result', async () => {
    process.env.CLAUDE_CONFIG_DIR = env.CLAUDE_CONFIG_DIR
    assert.notEqual(ids.cliFork, ids.tool)
    const all = await same((m) => m.listSessions())
    assert.ok(all.length >= 8, `${all.length} sessions`)
    assert.equal(all.find((s) => s.sessionId === ids.titled)?.customTitle, 'Scripted title')
    const inRepo = await same((m) => m.listSessions({ dir: dirs.repo }))
    assert.deepStrictEqual(inRepo.map((s) => s.sessionId).sort(), [ids.repo, ids.worktree].sort(), 'the worktree session is listed with the repository')
    await same((m) => m.listSessions({ dir: dirs.repo, includeWorktrees: false }))
    await same((m) => m.listSessions({ dir: dirs.plain, limit: 2, offset: 1 }))
    await same((m) => m.listSessions({ includeProgrammatic: false }))
    for (const [name, id] of Object.entries(ids)) {
      await same((m) => m.getSessionInfo(id), `info ${name}`)
      await same((m) => m.getSessionMessages(id), `messages ${name}`)
      await same((m) => m.getSessionMessages(id, { includeSystemMessages: true }), `system ${name}`)
    }
    const compacted = await ours.getSessionMessages(ids.compacted, { includeSystemMessages: true })
    assert.ok(compacted.some((m) => m.type === 'system'), 'the compaction boundary is there')
    const agents = await same((m) => m.listSubagents(ids.agent))
    assert.equal(agents.length, 1)
    const sub = await same((m) => m.getSubagentMessages(ids.agent, agents[0]))
    assert.ok(sub.length >= 2 && sub[0].parent_tool_use_id)
    const queued = (await ours.getSessionMessages(ids.queued)).filter((m) => m.isQueuedCommand)
    assert.deepStrictEqual(queued.map((m) => m.message.content), ['queued while the tool runs'], 'the command absorbed mid-turn is shown as a user message')
    const errored = await ours.getSessionMessages(ids.error)
    assert.ok(errored.length >= 2)
  })

  it('forkSession up to each entry of a twice-compacted session (preserved segments) matches the official', async () => {
    const from = path.join(env.CLAUDE_CONFIG_DIR, 'projects', keyOf(dirs.plain), `${ids.compacted}.jsonl`)
    const config = model.tempDir('fork-cuts-')
    const file = path.join(config, 'projects', keyOf(dirs.plain), `${ids.compacted}.jsonl`)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.copyFileSync(from, file)
    process.env.CLAUDE_CONFIG_DIR = config
    try {
      assert.ok(fs.readFileSync(file, 'utf8').includes('"preservedSegment"'))
      assert.ok((await forkEverywhere(ours, official, ids.compacted, file)) > 20)
    } finally {
      process.env.CLAUDE_CONFIG_DIR = env.CLAUDE_CONFIG_DIR
    }
  })

  it('each mutation of ours leaves a session the real CLI resumes', async () => {
    process.env.CLAUDE_CONFIG_DIR = env.CLAUDE_CONFIG_DIR
    await ours.renameSession(ids.tool, 'Renamed')
    await ours.tagSession(ids.titled, 'kept')
    await ours.archiveSession(ids.error)
    const fork = await ours.forkSession(ids.compacted)
    const part = await ours.forkSession(ids.agent, { upToMessageId: (await ours.getSessionMessages(ids.agent))[0].uuid, title: 'Partial' })
    assert.equal((await official.getSessionInfo(ids.tool)).customTitle, 'Renamed')
    assert.equal((await official.getSessionInfo(ids.titled)).tag, 'kept')
    assert.equal((await official.getSessionInfo(ids.error)).archived, true)
    const theirs = await official.forkSession(ids.compacted)
    assert.equal((await official.getSessionInfo(fork.sessionId)).customTitle, (await official.getSessionInfo(theirs.sessionId)).customTitle)
    const shape = (list) => list.map((m) => [m.type, m.message])
    assert.deepStrictEqual(shape(await official.getSessionMessages(fork.sessionId)), shape(await official.getSessionMessages(theirs.sessionId)))
    const cases = [[ids.tool, 'please use a tool'], [ids.titled, 'with a title'], [ids.error, 'fail please'], [fork.sessionId, 'after the second compaction'], [part.sessionId, 'spawn an agent now']]
    await Promise.all(cases.map(async ([id, earlier]) => {
      const from = model.requests.length
      const { result, sessionId } = await run(`resumed ${id}`, { resume: id })
      assert.equal(result.subtype, 'success')
      assert.equal(sessionId, id)
      assert.ok(seenTexts(from).some((t) => t.includes(earlier)), `the resumed ${id} carried its history`)
    }))
    // Unarchived by the new prompt, as the official reads it.
    await same((m) => m.getSessionInfo(ids.error))
  })
})

describe('session stores with the real CLI', { timeout: 120000 }, () => {
  function recording(inner, { failFirst = 0, failAlways = false } = {}) {
    const calls = []
    let n = 0
    return {
      calls,
      store: {
        async append(key, entries) {
          calls.push({ key, types: entries.map((e) => e.type), at: Date.now() })
          n++
          if (failAlways || n <= failFirst) throw new Error(`store down (${n})`)
          return inner.append(key, entries)
        },
        load: (k) => inner.load(k),
        listSessions: (p) => inner.listSessions(p),
        listSubkeys: (k) => inner.listSubkeys(k),
      },
    }
  }

  async function* twoTurns(sessionIdRef) {
    yield { type: 'user', message: { role: 'user', content: 'store turn one' }, parent_tool_use_id: null, session_id: '' }
    await sessionIdRef.firstResult
    yield { type: 'user', message: { role: 'user', content: 'store turn two' }, parent_tool_use_id: null, session_id: '' }
  }

  it('mirrors the transcript in order, in batches, flushed before each result; resumes from the store alone', async () => {
    const inner = new ours.InMemorySessionStore()
    const { store, calls } = recording(inner)
    const cfg = model.env()
    const cwd = model.tempDir('store-')
    let resolveFirst
    const ref = { firstResult: new Promise((r) => (resolveFirst = r)) }
    let sessionId
    const storedAtResult = []
    for await (const m of ours.query({ prompt: twoTurns(ref), options: { pathToClaudeCodeExecutable: CLI, env: cfg, cwd, sessionStore: store } })) {
      assert.notEqual(m.type, 'transcript_mirror')
      if (m.session_id) sessionId = m.session_id
      if (m.type === 'result') {
        storedAtResult.push(inner.getEntries({ projectKey: keyOf(cwd), sessionId }).filter((e) => e.type === 'assistant').length)
        if (storedAtResult.length === 1) resolveFirst()
        else break
      }
    }
    assert.deepStrictEqual(storedAtResult, [1, 2], 'each turn is in the store before its result is seen')
    const key = { projectKey: keyOf(cwd), sessionId }
    // The store holds the local transcript's entries, in the same order.
    const local = fs.readFileSync(path.join(cfg.CLAUDE_CONFIG_DIR, 'projects', keyOf(cwd), `${sessionId}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    // (The CLI mirrors transcript entries, not its local debugging records.)
    const uuids = (list) => list.filter((e) => typeof e.uuid === 'string' && !e.type.startsWith('api-request')).map((e) => e.uuid)
    assert.deepStrictEqual(uuids(inner.getEntries(key)), uuids(local))
    assert.ok(calls.length < local.length, `batched: ${calls.length} appends for ${local.length} entries`)
    // Resume from the store only: a fresh config folder has no local transcript.
    const from = model.requests.length
    let resumed
    for await (const m of ours.query({ prompt: 'store turn three', options: { pathToClaudeCodeExecutable: CLI, env: model.env(), cwd, sessionStore: store, resume: sessionId } })) {
      if (m.type === 'result') resumed = m
    }
    assert.equal(resumed.subtype, 'success')
    assert.ok(seenTexts(from).includes('store turn two'))
    const msgs = await ours.getSessionMessages(sessionId, { dir: cwd, sessionStore: inner })
    assert.deepStrictEqual(msgs.filter((m) => m.type === 'user').map((m) => (typeof m.message.content === 'string' ? m.message.content : m.message.content[0].text)), ['store turn one', 'store turn two', 'store turn three'])
  })

  it('retries a failing append (3 tries), then reports mirror_error; the session goes on', async () => {
    const flaky = recording(new ours.InMemorySessionStore(), { failFirst: 2 })
    const r1 = await collectWithStore(flaky.store)
    assert.equal(r1.result.subtype, 'success')
    assert.ok(!r1.messages.some((m) => m.subtype === 'mirror_error'))
    assert.ok(flaky.calls.length >= 3)
    assert.deepStrictEqual(flaky.calls[0].types, flaky.calls[2].types, 'the same batch is sent again')
    const down = recording(new ours.InMemorySessionStore(), { failAlways: true })
    const r2 = await collectWithStore(down.store)
    assert.equal(r2.result.subtype, 'success', 'the session is unaffected')
    const errors = r2.messages.filter((m) => m.type === 'system' && m.subtype === 'mirror_error')
    assert.ok(errors.length >= 1)
    assert.match(errors[0].error, /store down/)
    assert.equal(errors[0].key.sessionId, r2.result.session_id)
    assert.equal(errors[0].session_id, r2.result.session_id)
    assert.equal(down.calls.length % 3, 0, 'three tries per batch')
  })
  // A store that hangs (not retried, reported after 60 s): the engine's own tests
  // (crates/agent-core/src/session/mirror.rs, with tokio's clock paused).
})

function keyOf(dir) {
  return fs.realpathSync(dir).replace(/[^a-zA-Z0-9]/g, '-')
}

async function collectWithStore(store) {
  const messages = []
  let result
  for await (const m of ours.query({ prompt: 'mirror me', options: { pathToClaudeCodeExecutable: CLI, env: model.env(), cwd: model.tempDir('store-'), sessionStore: store } })) {
    messages.push(m)
    if (m.type === 'result') result = m
  }
  return { messages, result }
}
