// A fleet, tried for real: two worker processes (examples/fleet/worker.mjs) that share nothing
// but a PostgreSQL database (their own HOME, CLAUDE_CONFIG_DIR and working copy each) run the
// real Claude Code CLI against the scripted model. A runs a turn with a tool; B resumes the
// session from the store and the model sees the whole history; B is SIGKILLed mid-turn and A
// resumes: every entry the store acknowledged is there, nothing twice; sessions run on both at
// once. Then the faults: a store that throws, rejects or answers nonsense (the session goes on,
// mirror_error), and a corrupt stored entry on resume (an error naming the session and the
// entry; the CLI never starts).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { query, listSessions, getSessionMessages, getSessionInfo } from 'claude-agent-sdk-native'
import { PostgresSessionStore } from 'claude-agent-sdk-native/stores/postgres'
import { startScriptedModel, lastUserText, toolResults } from 'claude-agent-sdk-native/testing'
import { startPostgres } from './helpers/store-servers.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CLI = path.join(root, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
const WORKER = path.join(root, 'examples/fleet/worker.mjs')
const TABLE = `fleet_${crypto.randomBytes(4).toString('hex')}`
const PROJECT = 'fleet-test'

let server
let pool
let store
let model
const workers = []

function reply(req) {
  const text = lastUserText(req)
  if (toolResults(req).length > 0) return { text: 'tool finished' }
  if (text.includes('slow tool')) return { toolUses: [{ name: 'Bash', input: { command: 'sleep 60; echo never', description: 'Wait a minute' } }] }
  if (text.includes('use a tool')) return { toolUses: [{ name: 'Bash', input: { command: 'echo fleet-tool-output', description: 'Print a word' } }] }
  return { text: `answer to: ${text.slice(0, 40)}` }
}

/** A worker process: its events, and jobs sent to it. */
function startWorker(name) {
  const env = {
    ...model.env(), // its own HOME and CLAUDE_CONFIG_DIR
    DATABASE_URL: server.url,
    FLEET_TABLE: TABLE,
    FLEET_PROJECT: PROJECT,
    FLEET_WORKDIR: model.tempDir(`fleet-${name}-copy-`),
    FLEET_CLI: CLI,
    FLEET_TOOLS: 'Bash',
  }
  const child = spawn(process.execPath, [WORKER], { env, stdio: ['pipe', 'pipe', 'pipe'], cwd: env.FLEET_WORKDIR })
  const w = { name, child, env, events: [], stderr: '', waiters: new Set() }
  child.stderr.on('data', (d) => (w.stderr += d))
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    w.events.push(JSON.parse(line))
    for (const f of w.waiters) f()
  })
  w.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  w.send = (job) => child.stdin.write(JSON.stringify(job) + '\n')
  /** Resolves with the first event matching `pred` (now or later). */
  w.waitFor = (pred, what, ms = 60000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const hit = w.events.find(pred)
        if (hit) {
          w.waiters.delete(check)
          clearTimeout(timer)
          resolve(hit)
        }
      }
      const timer = setTimeout(() => {
        w.waiters.delete(check)
        reject(new Error(`worker ${name}: no ${what} in ${ms} ms; events: ${JSON.stringify(w.events.slice(-5))}; stderr: ${w.stderr.slice(-2000)}`))
      }, ms)
      w.waiters.add(check)
      check()
    })
  w.done = async (job) => {
    const e = await w.waitFor((e) => e.job === job && (e.event === 'done' || e.event === 'error'), `end of ${job}`)
    assert.equal(e.event, 'done', `${name} ${job}: ${e.message}; stderr: ${w.stderr.slice(-2000)}`)
    assert.equal(e.subtype, 'success')
    return e
  }
  workers.push(w)
  return w
}

before(async () => {
  server = await startPostgres()
  pool = new pg.Pool({ connectionString: server.url, max: 4 })
  pool.on('error', () => {})
  store = new PostgresSessionStore({ pool, tableName: TABLE })
  await store.ensureSchema()
  model = await startScriptedModel({ fallback: reply })
})

after(async () => {
  for (const w of workers) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.child.stdin.end()
      const t = setTimeout(() => w.child.kill('SIGKILL'), 10000)
      await w.exited
      clearTimeout(t)
    }
  }
  if (server?.external) await pool?.query(`DROP TABLE IF EXISTS ${TABLE}, ${TABLE}_summaries`).catch(() => {})
  await pool?.end()
  await model?.close()
  await server?.stop()
})

/** Texts of the user and assistant turns a request carried (reminders and tool blocks aside). */
function conversation(req) {
  const out = []
  for (const m of req.messages) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content
    for (const b of blocks) {
      if (b.type === 'text' && !b.text.startsWith('<system-reminder>')) out.push(`${m.role}: ${b.text}`)
      if (b.type === 'tool_use') out.push(`tool_use: ${b.input?.command}`)
      if (b.type === 'tool_result') out.push(`tool_result: ${typeof b.content === 'string' ? b.content : b.content?.map((c) => c.text).join('')}`)
    }
  }
  return out
}

const requestFor = (prompt) => model.requests.find((r) => lastUserText(r) === prompt && toolResults(r).length === 0)
const count = (list, text) => list.filter((x) => x === text).length
const key = (sessionId) => ({ projectKey: PROJECT, sessionId })

test('two workers sharing only the database: a turn on A resumed on B; B killed mid-turn, resumed on A; sessions on both at once', { timeout: 240000 }, async () => {
  const A = startWorker('A')
  const B = startWorker('B')
  assert.notEqual(A.env.HOME, B.env.HOME)
  assert.notEqual(A.env.CLAUDE_CONFIG_DIR, B.env.CLAUDE_CONFIG_DIR)

  // A: a turn with a tool.
  A.send({ job: 'one', prompt: 'fleet step one: use a tool' })
  const { sessionId } = await A.done('one')
  assert.match(sessionId, /^[0-9a-f-]{36}$/)
  const afterOne = await store.load(key(sessionId))
  assert.ok(afterOne.some((e) => e.type === 'assistant' && JSON.stringify(e).includes('echo fleet-tool-output')))
  // Nothing of A's is on B's disk.
  assert.ok(!fs.readdirSync(B.env.CLAUDE_CONFIG_DIR, { recursive: true }).some((f) => String(f).includes(sessionId)))

  // B resumes from the store: the model is sent the whole history.
  B.send({ job: 'two', prompt: 'fleet step two', resume: sessionId })
  assert.equal((await B.done('two')).sessionId, sessionId)
  const seenByB = conversation(requestFor('fleet step two'))
  for (const line of ['user: fleet step one: use a tool', 'tool_use: echo fleet-tool-output', 'assistant: tool finished', 'user: fleet step two']) {
    assert.equal(count(seenByB, line), 1, `B's request carries "${line}" once: ${JSON.stringify(seenByB)}`)
  }
  assert.ok(seenByB.some((l) => l.startsWith('tool_result: ') && l.includes('fleet-tool-output')), JSON.stringify(seenByB))

  // B starts a slow tool; once the store holds that tool call, B is SIGKILLed.
  B.send({ job: 'three', prompt: 'fleet step three: slow tool', resume: sessionId })
  await B.waitFor((e) => e.job === 'three' && e.event === 'message' && e.type === 'assistant', 'the slow tool call')
  for (;;) {
    const entries = await store.load(key(sessionId))
    if (entries.some((e) => e.type === 'assistant' && JSON.stringify(e).includes('sleep 60'))) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  B.child.kill('SIGKILL')
  assert.equal((await B.exited).signal, 'SIGKILL')
  const acknowledged = B.events.filter((e) => e.event === 'stored' && e.sessionId === sessionId && !e.subpath).flatMap((e) => e.uuids).filter(Boolean)
  const stored = (await store.load(key(sessionId))).map((e) => e.uuid).filter(Boolean)
  for (const uuid of acknowledged) assert.ok(stored.includes(uuid), `acknowledged entry ${uuid} is in the store`)
  assert.equal(new Set(stored).size, stored.length, 'no entry twice')

  // A takes the session's next message.
  A.send({ job: 'four', prompt: 'fleet step four', resume: sessionId })
  assert.equal((await A.done('four')).sessionId, sessionId)
  const seenByA = conversation(requestFor('fleet step four'))
  for (const line of ['user: fleet step one: use a tool', 'user: fleet step two', 'user: fleet step three: slow tool', 'tool_use: sleep 60; echo never', 'user: fleet step four']) {
    assert.equal(count(seenByA, line), 1, `A's request carries "${line}" once: ${JSON.stringify(seenByA)}`)
  }
  const final = (await store.load(key(sessionId))).map((e) => e.uuid).filter(Boolean)
  assert.equal(new Set(final).size, final.length, 'no entry twice after the resume')
  for (const uuid of stored) assert.ok(final.includes(uuid))

  // Sessions on both workers at once, each kept to itself.
  const jobs = [[A, 'pa1'], [A, 'pa2'], [B, 'pb1'], [B, 'pb2']]
  const C = startWorker('B2') // B's replacement
  jobs[2][0] = C
  jobs[3][0] = C
  for (const [w, job] of jobs) w.send({ job, prompt: `parallel ${job}` })
  const ids = []
  for (const [w, job] of jobs) ids.push((await w.done(job)).sessionId)
  assert.equal(new Set(ids).size, 4)
  for (const [i, [, job]] of jobs.entries()) {
    const texts = (await store.load(key(ids[i]))).filter((e) => e.type === 'user').flatMap((e) => (typeof e.message.content === 'string' ? [e.message.content] : e.message.content.map((b) => b.text)))
    assert.deepEqual(texts.filter((t) => typeof t === 'string' && t.includes('parallel')), [`parallel ${job}`])
  }
  const listed = (await store.listSessions(PROJECT)).map((s) => s.sessionId)
  for (const id of [sessionId, ...ids]) assert.ok(listed.includes(id))
})

async function run(prompt, options) {
  const messages = []
  for await (const m of query({ prompt, options: { pathToClaudeCodeExecutable: CLI, env: model.env(), cwd: model.tempDir('fleet-fault-'), ...options } })) messages.push(m)
  return { messages, result: messages.find((m) => m.type === 'result') }
}

test('a store whose append throws, rejects with a non-Error or answers nonsense: the session goes on', { timeout: 120000 }, async () => {
  const base = () => new PostgresSessionStore({ pool, tableName: TABLE })
  const throwing = { ...bound(base()), append() { throw new Error('sync throw from append') } }
  const rejecting = { ...bound(base()), append: () => Promise.reject('a string, not an Error') }
  const real = base()
  const nonsense = { ...bound(real), append: async (k, e) => (await real.append(k, e), { not: 'what you expect' }) }
  const cwd = model.tempDir('fleet-nonsense-')
  const [t, r, n] = await Promise.all([run('fault one', { sessionStore: throwing }), run('fault two', { sessionStore: rejecting }), run('fault three', { sessionStore: nonsense, cwd })])
  for (const x of [t, r, n]) assert.equal(x.result?.subtype, 'success')
  const errorOf = (x) => x.messages.find((m) => m.type === 'system' && m.subtype === 'mirror_error')
  assert.match(errorOf(t).error, /sync throw from append/)
  assert.match(errorOf(r).error, /a string, not an Error/)
  assert.equal(errorOf(n), undefined, 'what append resolves with is not looked at')
  assert.ok((await store.load({ projectKey: fs.realpathSync(cwd).replace(/[^a-zA-Z0-9]/g, '-'), sessionId: n.result.session_id }))?.some((e) => e.type === 'user'), 'stored all the same')
  // The session functions read it from the store: the listing from the summaries alone.
  const listed = await listSessions({ dir: cwd, sessionStore: store })
  assert.deepEqual(listed.map((x) => [x.sessionId, x.firstPrompt]), [[n.result.session_id, 'fault three']])
  assert.equal((await getSessionInfo(n.result.session_id, { dir: cwd, sessionStore: store }))?.summary, 'fault three')
  const messages = await getSessionMessages(n.result.session_id, { dir: cwd, sessionStore: store })
  assert.deepEqual(messages.map((m) => m.type), ['user', 'assistant'])
})

test('a corrupt stored entry: resume fails naming the session and the entry, and the CLI never starts', { timeout: 120000 }, async () => {
  const cwd = model.tempDir('fleet-corrupt-')
  const { result } = await run('to be corrupted', { sessionStore: store, cwd })
  const sessionId = result.session_id
  const projectKey = fs.realpathSync(cwd).replace(/[^a-zA-Z0-9]/g, '-')
  assert.ok((await store.load({ projectKey, sessionId }))?.length >= 2, 'stored')
  await pool.query(`UPDATE ${TABLE} SET entry = '"not an entry"' WHERE id = (SELECT id FROM ${TABLE} WHERE project_key = $1 AND session_id = $2 AND subpath IS NULL ORDER BY id LIMIT 1 OFFSET 1)`, [projectKey, sessionId])
  const before = model.allRequests.length
  const env = model.env()
  await assert.rejects(
    (async () => {
      for await (const _ of query({ prompt: 'resume me', options: { pathToClaudeCodeExecutable: CLI, env, cwd, sessionStore: store, resume: sessionId } }));
    })(),
    new RegExp(`corrupt entry 1 of session "${sessionId}" \\(project "${projectKey}"\\)`),
  )
  assert.equal(model.allRequests.length, before, 'the CLI sent nothing')
  assert.ok(!fs.readdirSync(env.CLAUDE_CONFIG_DIR, { recursive: true }).some((f) => String(f).includes(sessionId)), 'nothing written for the session')
})

/** A TCP proxy in front of a port, that can be taken down (every connection cut, new ones refused) and up. */
async function proxyTo(port) {
  const sockets = new Set()
  let server
  const listen = (at) =>
    new Promise((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(port, '127.0.0.1')
        for (const [a, b] of [[client, upstream], [upstream, client]]) {
          sockets.add(a)
          a.on('error', () => b.destroy())
          a.on('close', () => (sockets.delete(a), b.destroy()))
          a.pipe(b)
        }
      })
      server.listen(at, '127.0.0.1', () => resolve(server.address().port))
    })
  const proxyPort = await listen(0)
  return {
    port: proxyPort,
    down: () => new Promise((resolve) => (server.close(() => resolve()), [...sockets].forEach((x) => x.destroy()))),
    up: () => listen(proxyPort),
    close: () => new Promise((resolve) => (server.close(() => resolve()), [...sockets].forEach((x) => x.destroy()))),
  }
}

test('the database goes away mid-session and comes back: a short outage is bridged by the retries, a long one costs that batch only', { timeout: 120000 }, async () => {
  const proxy = await proxyTo(new URL(server.url).port)
  const url = new URL(server.url)
  url.port = String(proxy.port)
  const flakyPool = new pg.Pool({ connectionString: url.href, max: 2, connectionTimeoutMillis: 1000 })
  flakyPool.on('error', () => {})
  const flaky = new PostgresSessionStore({ pool: flakyPool, tableName: TABLE })
  const acknowledged = []
  // While the database is down: up again after the first failed append (turn two: the retries
  // bridge it), or only after three (turn three: the batch is lost).
  let phase = { failuresBeforeUp: 0, failures: 0 }
  let upAgain
  const sessionStore = {
    ...bound(flaky),
    async append(k, e) {
      try {
        await flaky.append(k, e)
      } catch (err) {
        if (++phase.failures === phase.failuresBeforeUp) proxy.up().then(upAgain)
        throw err
      }
      acknowledged.push(...e.map((x) => x.uuid).filter(Boolean))
    },
  }
  const outage = async (failuresBeforeUp) => {
    await proxy.down()
    phase = { failuresBeforeUp, failures: 0 }
    return new Promise((resolve) => (upAgain = resolve))
  }
  let up
  const steps = [
    ['outage turn one', null],
    ['outage turn two', async () => void (up = outage(1))],
    ['outage turn three', async () => (await up, void (up = outage(3)))],
    ['outage turn four', async () => await up],
  ]
  let next
  async function* prompts() {
    for (const [text, before] of steps) {
      if (before) await before()
      yield { type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' }
      await new Promise((resolve) => (next = resolve))
    }
  }
  const cwd = model.tempDir('fleet-outage-')
  const messages = []
  try {
    for await (const m of query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: CLI, env: model.env(), cwd, sessionStore } })) {
      messages.push(m)
      if (m.type === 'result') {
        if (messages.filter((x) => x.type === 'result').length === steps.length) break
        next()
      }
    }
  } finally {
    await proxy.close()
    await flakyPool.end()
  }
  const results = messages.filter((m) => m.type === 'result')
  assert.deepEqual(results.map((r) => r.subtype), ['success', 'success', 'success', 'success'], 'the session is unaffected')
  const errors = messages.filter((m) => m.type === 'system' && m.subtype === 'mirror_error')
  assert.equal(errors.length, 1, `one lost batch (turn three), reported: ${JSON.stringify(errors)}`)
  assert.match(errors[0].error, /ECONNREFUSED|connect|terminat|Connection/i)
  const sessionId = results[0].session_id
  const stored = await store.load({ projectKey: fs.realpathSync(cwd).replace(/[^a-zA-Z0-9]/g, '-'), sessionId })
  const prompts_ = stored.filter((e) => e.type === 'user' && typeof e.message.content === 'string').map((e) => e.message.content)
  assert.deepEqual(prompts_, ['outage turn one', 'outage turn two', 'outage turn four'])
  const uuids = stored.map((e) => e.uuid).filter(Boolean)
  for (const u of acknowledged) assert.ok(uuids.includes(u), `acknowledged ${u} is stored`)
  assert.equal(new Set(uuids).size, uuids.length, 'nothing twice')
})

function bound(s) {
  const out = {}
  for (const m of ['append', 'load', 'listSessions', 'listSessionSummaries', 'delete', 'listSubkeys']) out[m] = s[m].bind(s)
  return out
}
