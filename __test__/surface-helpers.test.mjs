// The official SDK's constants and helpers, side by side: the same values, the same results for
// the same inputs, the same errors. DirectConnectTransport runs against a fake server on
// 127.0.0.1 (where the runtime has a WebSocket client: Node 22+, Bun).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as O from '@anthropic-ai/claude-agent-sdk'
import * as N from 'claude-agent-sdk-native'
import { startFakeServer } from './helpers/direct-connect-server.mjs'

const CONSTANTS = [
  'HOOK_EVENTS', 'EXIT_REASONS', 'BUILTIN_TOOL_NAMES', 'LEGACY_TOOL_NAME_ALIASES', 'USAGE_LIMIT_ERROR_PREFIXES',
  'USAGE_TRANSITION_PREFIXES', 'USAGE_WARNING_PREFIXES', 'ORG_POLICY_LIMIT_PREFIXES', 'SYSTEM_PROMPT_DYNAMIC_BOUNDARY',
]

for (const name of CONSTANTS) {
  test(`constant ${name} has the official value`, () => {
    assert.notEqual(N[name], undefined)
    assert.deepEqual(N[name], O[name])
  })
}

test('matchDeniedModels: same matches and warnings', async () => {
  const models = ['claude-opus-4-5', 'claude-opus-4-5-20251101', 'opus', 'claude-sonnet-4-5[1m]', 'us.anthropic.claude-opus-4-1-20250805-v1:0',
    'eu.anthropic.claude-sonnet-4-5', 'xx.anthropic.claude-sonnet-4-5', 'claude-3-5-sonnet-20241022', 'gpt-4o', 'claude-haiku-4-5@20251001', 'claude-opus-4-5-fast', 5, null]
  const lists = [['opus'], ['claude-opus-4'], ['claude-opus-4-5'], ['sonnet[1m]'], ['best'], ['default'], ['opsu'], ['claude-opus-4.5'],
    ['opus 4.5'], ['opus 4'], ['gpt-4o'], [''], [3, 'haiku', null], 'x', undefined, null, ['claude-opus-4-5-foo'], ['claude-3-5-sonnet'],
    ['mistral'], ['claude-opus-4-5-20251101'], ['opus-4-5'], ['claude-sonnet-4-5[1m]'], ['\u0007bell'], ['x'.repeat(200)]]
  for (const denied of lists) assert.deepEqual(await N.matchDeniedModels(models, denied), await O.matchDeniedModels(models, denied), JSON.stringify(denied))
  for (const bad of ['claude-opus-4-5', undefined, { a: 1 }]) assert.deepEqual(await N.matchDeniedModels(bad, ['opus']), await O.matchDeniedModels(bad, ['opus']))
})

test('parseDirectConnectUrl: same results and errors', () => {
  for (const url of ['cc://127.0.0.1:8080/tok', 'cc://host', 'cc://host:1/', 'localhost:3000', 'https://a.b:9/x?y', 'http://x', 'HTTPS://Up.Case']) {
    assert.deepEqual(N.parseDirectConnectUrl(url), O.parseDirectConnectUrl(url), url)
  }
  for (const url of ['cc+unix:///tmp/s', 'http://', 'cc://']) {
    let o, n
    try { O.parseDirectConnectUrl(url) } catch (e) { o = e }
    try { N.parseDirectConnectUrl(url) } catch (e) { n = e }
    assert.equal(n?.message, o?.message, url)
    assert.equal(n?.name, o?.name)
    assert.equal(n?.code, o?.code)
  }
  const e = new N.DirectConnectError('m', 'c')
  assert.ok(e instanceof Error)
  assert.deepEqual([e.name, e.message, e.code], ['DirectConnectError', 'm', 'c'])
})

const COMMANDS = [
  { name: 'review', displayName: 'review', description: 'Review a pull request', aliases: ['pr'] },
  { name: 'compact', displayName: 'compact', description: 'Clear conversation history but keep a summary' },
  { name: 'clear', displayName: 'clear', description: 'Clear conversation history and free up context', aliases: ['reset', 'new'] },
  { name: 'mcp__github__create_issue', displayName: 'github:create_issue (MCP)', description: 'Create a GitHub issue' },
  { name: 'plugin:deploy-staging', displayName: 'plugin:deploy-staging', description: 'Deploy to the staging (pre-prod) environment' },
  { name: 'config', displayName: 'config', description: 'Open config panel' },
  { name: 'cost', displayName: 'cost', description: 'Show the total cost and duration of the current session' },
  { name: 'context', displayName: 'context', description: 'Visualize current context usage as a colored grid' },
  { name: 'init', displayName: 'init', description: 'Initialize a new CLAUDE.md file with codebase documentation' },
  { name: 'a-very-long-command-name-that-goes-beyond-thirty-two-characters', displayName: 'long', description: 'x' },
  { name: 'émoji', displayName: 'émoji ✨', description: 'Ünïcode names' },
]

const PATHS = ['src/index.ts', 'src/lib/query.js', 'src/lib/Query.test.js', 'README.md', 'lib/options.js', 'lib/option-keys.js', '__test__/e2e.test.mjs',
  'crates/agent-core/src/session/router.rs', 'docs/ÄpfelÜber.md', 'İstanbul/x.js', 'a/b/c/d/e/f/g/h.txt', 'package.json', 'src/components/FileIndexView.tsx',
  'test/fixtures/fileIndex.json', 'win\\style\\path.cs', '', 'src/index.ts']

// The main entries' classes, and the same classes as the browser entries export them.
// The official ./browser entry needs the Web Crypto global when it loads (Node 19+, Bun): on Node 18
// only the main entries are compared.
const browserEntries = globalThis.crypto?.randomUUID
  ? [[' (./browser)', { O: await import('@anthropic-ai/claude-agent-sdk/browser'), N: await import('claude-agent-sdk-native/browser') }]]
  : []
for (const [entry, entries] of /** @type {const} */ ([['', { O, N }], ...browserEntries])) {
  const { O, N } = entries
  test(`CommandMatcher${entry}: same candidates in the same order`, () => {
    const o = new O.CommandMatcher(COMMANDS)
    const n = new N.CommandMatcher(COMMANDS)
    const opts = { getScoreBoost: (c) => c.name.length % 3, filter: (c) => c.name !== 'cost' }
    for (const q of ['', 'c', 'cl', 'clear', 'rev', 'pr', 'reset', 'conf', 'cnfig', 'issue', 'github', 'deploy', 'staging', 'preprod', 'history',
      'ctx', 'cost', 'x', 'zzz', 'a-very-long-command-name-that-goes-beyond', 'long-command-name-that-goes-beyond-thirty', 'COMP', ' init ', 'emoji', 'émo', 'usage']) {
      assert.deepEqual(n.search(q), o.search(q), q)
      assert.deepEqual(n.search(q, opts), o.search(q, opts), `${q} (boost, filter)`)
    }
  })

  test(`FileIndex${entry}: same paths, scores and positions`, () => {
    const o = new O.FileIndex()
    const n = new N.FileIndex()
    o.loadFromFileList(PATHS)
    n.loadFromFileList(PATHS)
    for (const q of ['', 'q', 'query', 'Query', 'lib', 'opt', 'rs', 'router', 'fi', 'FI', 'fileindex', 'äpf', 'ist', 'h', 'abcdefgh', 'zzz', 'json', 'src/lib', 'style', 'x'.repeat(70)]) {
      for (const limit of [0, 1, 3, 100]) assert.deepEqual(n.search(q, limit), o.search(q, limit), `${q} / ${limit}`)
    }
  })

  test(`FileIndex${entry}: the asynchronous build is queryable early and gives the same results`, async () => {
    const paths = Array.from({ length: 20000 }, (_, i) => `dir${i % 37}/sub${i % 11}/file_${i}.ts`)
    const o = new O.FileIndex()
    const n = new N.FileIndex()
    const a = o.loadFromFileListAsync(paths)
    const b = n.loadFromFileListAsync(paths)
    await Promise.all([a.queryable, b.queryable])
    assert.equal(await b.done, await a.done)
    for (const q of ['file_1', 'd3s', 'ts', 'sub10', '']) assert.deepEqual(n.search(q, 20), o.search(q, 20), q)
    // A newer load supersedes a running one: its `done` is false. The build yields every 4 ms, so
    // the superseded list is large enough that it cannot finish before its first yield.
    const many = Array.from({ length: 300000 }, (_, i) => `dir${i % 37}/sub${i % 11}/file_${i}.ts`)
    const first = n.loadFromFileListAsync(many)
    const second = n.loadFromFileListAsync(['only/this.ts'])
    assert.equal(await first.done, false)
    assert.equal(await second.done, true)
    assert.deepEqual(n.search('this', 5).map((r) => r.path), ['only/this.ts'])
  })
}

test('resolveSettings and filterEscalatingDefaultMode: same cascade, provenance and filtering', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'resolve-settings-'))
  const write = (file, value) => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value))
  }
  const home = path.join(dir, 'config')
  write(path.join(home, 'settings.json'), { model: 'opus', permissions: { allow: ['Bash(ls)'], defaultMode: 'acceptEdits' }, env: { A: '1' } })
  const proj = path.join(dir, 'proj')
  write(path.join(proj, '.claude', 'settings.json'), { permissions: { allow: ['Read', 'Bash(ls)'], deny: ['WebFetch'] }, env: { B: '2' }, someKey: { x: [1] } })
  write(path.join(proj, '.claude', 'settings.local.json'), { model: 'sonnet', permissions: { defaultMode: 'bypassPermissions' } })
  const plain = path.join(dir, 'plain')
  write(path.join(plain, '.claude', 'settings.json'), { permissions: { defaultMode: 'acceptEdits' } })
  const broken = path.join(dir, 'broken')
  write(path.join(broken, '.claude', 'settings.json'), '{ not json')
  write(path.join(broken, '.claude', 'settings.local.json'), '[1, 2]')
  const saved = process.env.CLAUDE_CONFIG_DIR
  process.env.CLAUDE_CONFIG_DIR = home
  try {
    for (const opts of [{ cwd: proj }, { cwd: proj, settingSources: ['user'] }, { cwd: proj, settingSources: [] }, { cwd: proj, settingSources: ['project', 'local'] },
      { cwd: plain }, { cwd: plain, settingSources: ['project'] }, { cwd: broken }, { cwd: dir },
      { cwd: proj, managedSettings: { permissions: { deny: ['Bash'], ask: ['Write'] }, allowManagedHooksOnly: true, model: 'dropped', sandbox: { enabled: true } } }]) {
      const o = await O.resolveSettings(opts)
      assert.deepEqual(await N.resolveSettings(opts), o, JSON.stringify(opts))
      assert.deepEqual(N.filterEscalatingDefaultMode(o), O.filterEscalatingDefaultMode(o), JSON.stringify(opts))
    }
  } finally {
    if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR
    else process.env.CLAUDE_CONFIG_DIR = saved
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

// --- DirectConnectTransport ------------------------------------------------------------------------

/** Runs one DirectConnect scenario with a package's class: what the app and the server saw. */
async function directConnect(sdk, script, { write, options = {}, serverUrl } = {}) {
  const server = await startFakeServer(script)
  try {
    const t = new sdk.DirectConnectTransport({ serverUrl: serverUrl ?? server.url, authToken: 'tok', cwd: '/w', sessionKey: 'k', permissionMode: 'plan', ...options })
    const outcome = {}
    try {
      await t.ready
      outcome.ready = true
    } catch (e) {
      outcome.ready = { name: e.name, message: e.message, code: e.code }
    }
    outcome.sessionId = t.getSessionId()
    outcome.workDir = t.getWorkDir()
    if (write && outcome.ready === true) {
      await t.write(write)
      outcome.isReady = t.isReady()
    }
    const messages = []
    try {
      for await (const m of t.readMessages()) messages.push(m)
      outcome.end = 'clean'
    } catch (e) {
      outcome.end = { name: e.name, message: e.message, code: e.code }
    }
    outcome.messages = messages
    t.close()
    await new Promise((r) => setTimeout(r, 100))
    let writeAfterClose
    try { await t.write('x') } catch (e) { writeAfterClose = { name: e.name, message: e.message } }
    outcome.writeAfterClose = writeAfterClose
    const strip = (h) => ({ authorization: h.authorization, 'content-type': h['content-type'] })
    outcome.server = {
      creates: server.log.creates.map((c) => ({ body: c.body, headers: strip(c.headers) })),
      deletes: server.log.deletes.map((d) => ({ url: d.url, headers: { authorization: d.headers.authorization } })),
      received: server.log.received,
      wsAuth: server.log.headers.map((h) => h.authorization),
    }
    return outcome
  } finally {
    await server.close()
  }
}

const hasWebSocket = typeof globalThis.WebSocket === 'function'

test('DirectConnectTransport: session, NDJSON frames, write, close and delete as the official', { skip: !hasWebSocket && 'no WebSocket client in this runtime' }, async () => {
  const script = { frames: ['{"type":"a"}\n{"type":', '"b"}\n', 'not json\n{"type":"c"}\n', '{"type":"partial"'], closeCode: 1000 }
  const run = (sdk) => directConnect(sdk, script, { write: '{"type":"user"}\n', options: { deleteSessionOnClose: true } })
  const o = await run(O)
  const n = await run(N)
  assert.deepEqual(o.messages.map((m) => m.type), ['a', 'b', 'c'])
  assert.deepEqual(n, o)
})

test('DirectConnectTransport: the same errors (HTTP failure, invalid answer, refused connection, abnormal close)', { skip: !hasWebSocket && 'no WebSocket client in this runtime' }, async () => {
  const cases = [
    [{ create: () => ({ status: 500, statusText: 'Internal Server Error', text: 'boom' }) }, {}],
    [{ create: () => ({ status: 403, statusText: 'Forbidden' }) }, {}],
    [{ create: () => ({ status: 200, json: { session_id: 5, work_dir: null } }) }, {}],
    [{ create: () => ({ status: 200, json: [1] }) }, {}],
    [{ frames: ['{"type":"x"}\n'], closeCode: 4001 }, {}],
    [{}, { serverUrl: 'http://127.0.0.1:9' }],
  ]
  for (const [script, extra] of cases) {
    const o = await directConnect(O, script, extra)
    const n = await directConnect(N, script, extra)
    assert.deepEqual(n, o, JSON.stringify(script))
  }
})

test('DirectConnectTransport: an aborted controller fails the connection with an AbortError', { skip: !hasWebSocket && 'no WebSocket client in this runtime' }, async () => {
  const ac = new AbortController()
  ac.abort()
  const o = await directConnect(O, {}, { options: { abortController: ac } })
  const n = await directConnect(N, {}, { options: { abortController: ac } })
  assert.equal(n.ready.message, o.ready.message)
  assert.equal(n.server.creates.length, 0)
})

test('DirectConnectTransport without a WebSocket client: ready rejects with a clear error, nothing unhandled', { skip: hasWebSocket && 'this runtime has a WebSocket client' }, async () => {
  const server = await startFakeServer({})
  const unhandled = []
  const onUnhandled = (e) => unhandled.push(e)
  process.on('unhandledRejection', onUnhandled)
  try {
    const t = new N.DirectConnectTransport({ serverUrl: server.url })
    await assert.rejects(t.ready, (e) => e instanceof N.DirectConnectError && e.code === 'ws_unavailable' && /WebSocket is not available/.test(e.message))
    const read = []
    await assert.rejects(async () => { for await (const m of t.readMessages()) read.push(m) }, /WebSocket is not available/)
    await new Promise((r) => setTimeout(r, 50))
    assert.deepEqual(unhandled, [])
  } finally {
    process.off('unhandledRejection', onUnhandled)
    await server.close()
  }
})
