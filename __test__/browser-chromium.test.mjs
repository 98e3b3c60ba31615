// claude-agent-sdk-native/browser in a real headless Chromium (Debian's package, installed when
// missing), against a real Claude Code CLI behind the local relay of
// helpers/remote-session-server.mjs, driven with the scripted Messages API. The page imports
// browser/index.mjs as is, through an import map (zod and eventsource-parser from node_modules):
// no bundler, no Node built-ins. Over WebSocket and over SSE: an in-process MCP tool, canUseTool
// and a PreToolUse hook, the tool's answer reaching the model; and the errors a page sees.
// Also compiles the entry's typings against the official's (tsc, in parallel with the rest).
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { startRemoteSessionServer } from './helpers/remote-session-server.mjs'
import { launchChromium } from './helpers/chromium.mjs'
import { root } from './helpers/clis.mjs'
import { startScriptedModel, toolResultText, lastToolResult } from '../testing/index.mjs'

const typecheck = checkTypes()

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8">
<script type="importmap">
{ "imports": {
  "zod": "/node_modules/zod/index.js",
  "zod/v4": "/node_modules/zod/v4/index.js",
  "eventsource-parser": "/node_modules/eventsource-parser/dist/index.js"
} }
</script>
<script type="module">
import * as sdk from '/browser/index.mjs'
import { z } from 'zod'
window.sdk = sdk
window.z = z
window.ready = true
</script></head><body></body></html>`

/** Runs in the page: one query with a tool, canUseTool and a hook; resolves with what happened. */
const RUN_QUERY = (transport) => `(async () => {
  const { sdk, z } = window
  const log = []
  const calls = []
  const demo = sdk.createSdkMcpServer({ name: 'demo', version: '1.0.0', tools: [
    sdk.tool('greet', 'Greets someone', { name: z.string() }, async ({ name }) => {
      calls.push(name)
      return { content: [{ type: 'text', text: 'Hello, ' + name + '!' }] }
    }),
  ] })
  let end
  const ended = new Promise((r) => (end = r))
  async function* prompt() {
    yield { type: 'user', message: { role: 'user', content: 'Greet Alice' }, parent_tool_use_id: null, session_id: '' }
    await ended
  }
  const q = sdk.query({
    prompt: prompt(),
    ...${JSON.stringify(transport)},
    mcpServers: { demo },
    canUseTool: async (name, input, { signal, toolUseID }) => {
      log.push(['canUseTool', name, input, signal instanceof AbortSignal, typeof toolUseID])
      return { behavior: 'allow', updatedInput: input }
    },
    hooks: { PreToolUse: [{ matcher: 'mcp__demo__greet', hooks: [async (input) => { log.push(['PreToolUse', input.tool_name]); return {} }] }] },
  })
  const messages = []
  for await (const m of q) {
    messages.push(m.type === 'system' ? 'system:' + m.subtype : m.type)
    if (m.type === 'result') {
      const sse = { drops: sdk.getSseDropCounts(q), cursor: sdk.getSseLastSequenceNum(q), event: sdk.getCcrEvent(q, m) }
      end()
      return { messages, result: m.result, subtype: m.subtype, log, calls, sse, userAgent: navigator.userAgent, hasProcess: typeof process !== 'undefined' }
    }
  }
  end()
  return { messages, log, calls, ended: 'without a result' }
})()`

/** Runs in the page: a query that must fail; resolves with its error's name and message. */
const FAILING_QUERY = (transport) => `(async () => {
  const { sdk } = window
  try {
    const q = sdk.query({ prompt: (async function* () {})(), ...${JSON.stringify(transport)} })
    for await (const m of q) {}
    return { ended: 'without an error' }
  } catch (err) {
    return { name: err.name, message: err.message, code: err.code }
  }
})()`

describe('claude-agent-sdk-native/browser in headless Chromium', { concurrency: true }, () => {
  let chromium
  let server
  let page
  const models = new Map() // session id -> its scripted model

  before(async () => {
    server = await startRemoteSessionServer({
      pages: { sdk: PAGE },
      cli: (id) => {
        const model = models.get(id)
        return { env: model.env(), cwd: model.tempDir('chromium-') }
      },
    })
    chromium = await launchChromium()
    page = await chromium.page(`${server.url}/page/sdk`)
    for (let i = 0; i < 200 && !(await page.evaluate('window.ready === true')); i++) await new Promise((r) => setTimeout(r, 25))
    assert.equal(await page.evaluate('window.ready === true'), true, `the page did not load the entry: ${page.console.join('\n')}`)
  })

  after(async () => {
    await chromium?.close()
    await server?.close()
    for (const m of models.values()) await m.close()
  })

  it('the entry loads as plain ES modules (no Node built-ins) and has the official names', async () => {
    const names = await page.evaluate('Object.keys(window.sdk).sort()')
    assert.deepEqual(names, ['CommandMatcher', 'FileIndex', 'G4_TEXT_ENVELOPE_ARM_PORTED', 'createSdkMcpServer', 'getCcrEvent', 'getSseDropCounts', 'getSseLastSequenceNum', 'query', 'resumeSseStream', 'suspendSseStream', 'tool', 'z'])
    assert.equal(await page.evaluate('window.sdk.G4_TEXT_ENVELOPE_ARM_PORTED'), true)
    const helpers = await page.evaluate(`(async () => {
      const { FileIndex, CommandMatcher, z } = window.sdk
      const index = new FileIndex()
      const build = index.loadFromFileListAsync(['src/index.ts', 'lib/query.js', 'README.md'])
      await build.queryable
      return {
        done: await build.done,
        files: index.search('query', 5).map((r) => r.path),
        commands: new CommandMatcher([{ name: 'clear', displayName: 'clear' }, { name: 'compact', displayName: 'compact' }]).search('cle').map((r) => r.name),
        parsed: z.object({ n: z.number() }).safeParse({ n: 'x' }).success,
      }
    })()`)
    assert.deepEqual(helpers, { done: true, files: ['lib/query.js'], commands: ['clear'], parsed: false })
    const version = await chromium.version()
    assert.match(version.product, /Chrome\/\d+/)
  })

  for (const kind of ['websocket', 'sse']) {
    it(`${kind}: a tool round trip with canUseTool and a hook against the real CLI`, async () => {
      const model = await startScriptedModel({
        turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] }, (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) })],
      })
      const id = `chromium-${kind}`
      models.set(id, model)
      const transport = kind === 'websocket' ? { websocket: { url: server.wsUrl('cli', id) } } : { sse: { ...server.sseUrls(id), headers: { Authorization: 'Bearer t' } } }
      const out = await page.evaluate(RUN_QUERY(transport))
      assert.equal(out.result, 'Tool said: Hello, Alice!', JSON.stringify(out) + '\n' + page.console.join('\n'))
      assert.equal(out.subtype, 'success')
      assert.deepEqual(out.calls, ['Alice'])
      assert.deepEqual(out.log, [['PreToolUse', 'mcp__demo__greet'], ['canUseTool', 'mcp__demo__greet', { name: 'Alice' }, true, 'string']])
      // (Over SSE the user's own message comes back too: the session's log echoes it.)
      assert.ok(['system:init', 'assistant', 'user'].every((t) => out.messages.includes(t)), out.messages.join())
      assert.equal(out.messages.at(-1), 'result')
      assert.equal(out.hasProcess, false)
      assert.match(out.userAgent, /HeadlessChrome/)
      // What the model saw: the tool's answer.
      assert.equal(toolResultText(lastToolResult(model.requests[1])), 'Hello, Alice!')
      if (kind === 'sse') {
        assert.equal(out.sse.cursor, out.sse.event.sequence_num)
        assert.equal(out.sse.event.source, 'worker')
        assert.deepEqual(out.sse.drops, { expected_echo: 1 })
        assert.ok(server.sse(id).posts.every((p) => p.headers.authorization === 'Bearer t' && p.body.session_id === id))
      } else {
        assert.deepEqual(out.sse, {}) // all three undefined (returnByValue leaves them out)
      }
    })
  }

  it('errors a page sees: an abnormal close, a 404 stream, a bad URL', async () => {
    const id = 'ws-chromium-close'
    const closing = page.evaluate(FAILING_QUERY({ websocket: { url: server.wsUrl('script', id) } }))
    const entry = await server.wsConnected(id)
    entry.conn.close(4003, 'forbidden')
    assert.deepEqual(await closing, { name: 'Error', message: 'WebSocket closed abnormally with code 4003: forbidden' })
    server.sse('script-chromium-404').reject = { status: 404, type: 'not_found_error' }
    assert.deepEqual(await page.evaluate(FAILING_QUERY({ sse: server.sseUrls('script-chromium-404') })), { name: 'SSEHttpError', message: 'SSE connect failed: HTTP 404', code: 404 })
    const bad = await page.evaluate(FAILING_QUERY({ websocket: { url: 'http://127.0.0.1:1/' } }))
    assert.equal(bad.name, 'TypeError')
    assert.match(bad.message, /websocket\.url must use ws:\/\/ or wss:\/\//)
  })

  it('the typings match the official ./browser (tsc)', async () => {
    const { code, output } = await typecheck
    assert.equal(code, 0, output)
  })
})

/**
 * Compiles, inside the package (so `claude-agent-sdk-native/browser` resolves through our
 * "exports"), a program using the entry and structural checks against the official typings.
 */
function checkTypes() {
  const dir = path.join(root, '.tmp', 'browser-types')
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'use.mts'), `
import { query, tool, createSdkMcpServer, getSseDropCounts, getSseLastSequenceNum, getCcrEvent, suspendSseStream, resumeSseStream, G4_TEXT_ENVELOPE_ARM_PORTED, type BrowserQueryOptions, type SDKUserMessage } from 'claude-agent-sdk-native/browser'
import { z } from 'zod'
declare const prompt: AsyncIterable<SDKUserMessage>
const server = createSdkMcpServer({ name: 'd', tools: [tool('greet', 'g', { name: z.string() }, async ({ name }) => ({ content: [{ type: 'text', text: name }] }))] })
const q = query({ prompt, sse: { streamUrl: 'u', sendUrl: 'u', sessionId: 's', onDeliveryUpdate: (u) => void u.status }, mcpServers: { d: server }, canUseTool: async () => ({ behavior: 'allow', updatedInput: {} }) })
const n: number | undefined = getSseLastSequenceNum(q)
const d: Readonly<Record<string, number>> | undefined = getSseDropCounts(q)
const b: boolean = suspendSseStream(q) && resumeSseStream(q) && G4_TEXT_ENVELOPE_ARM_PORTED
for await (const m of q) { const e = getCcrEvent(q, m); if (e) e.sequence_num.toFixed() }
// @ts-expect-error both transports
const bad: BrowserQueryOptions = { prompt, sse: { streamUrl: 'u', sendUrl: 'u', sessionId: 's' }, websocket: { url: 'ws://x' } }
void n; void d; void b; void bad
`)
  // mcpServers differs as in the main entry: our server instance type is ours, not the MCP SDK's McpServer.
  fs.writeFileSync(path.join(dir, 'equiv.mts'), `
import type * as O from '@anthropic-ai/claude-agent-sdk/browser'
import type * as N from 'claude-agent-sdk-native/browser'
type IsExactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Opts<T> = T extends unknown ? Omit<T, 'mcpServers'> : never
const checks: {
  ws: IsExactly<O.WebSocketOptions, N.WebSocketOptions>
  sse: IsExactly<O.SSEOptions, N.SSEOptions>
  auth: IsExactly<O.AuthMessage, N.AuthMessage>
  cred: IsExactly<O.OAuthCredential, N.OAuthCredential>
  options: IsExactly<Opts<O.BrowserQueryOptions>, Opts<N.BrowserQueryOptions>>
  drops: IsExactly<typeof O.getSseDropCounts, typeof N.getSseDropCounts>
  cursor: IsExactly<typeof O.getSseLastSequenceNum, typeof N.getSseLastSequenceNum>
  ccr: IsExactly<ReturnType<typeof O.getCcrEvent>, ReturnType<typeof N.getCcrEvent>>
  suspend: IsExactly<typeof O.suspendSseStream, typeof N.suspendSseStream>
  resume: IsExactly<typeof O.resumeSseStream, typeof N.resumeSseStream>
  armed: IsExactly<typeof O.G4_TEXT_ENVELOPE_ARM_PORTED, typeof N.G4_TEXT_ENVELOPE_ARM_PORTED>
} = { ws: true, sse: true, auth: true, cred: true, options: true, drops: true, cursor: true, ccr: true, suspend: true, resume: true, armed: true }
void checks
`)
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], lib: ['es2022', 'dom', 'esnext.disposable'], pretty: false },
    files: ['use.mts', 'equiv.mts'],
  }))
  const pkgPath = createRequire(import.meta.url).resolve('typescript/package.json')
  const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'))
  const tsc = path.join(path.dirname(pkgPath), typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.tsc)
  return new Promise((resolve) => {
    const child = spawn(process.versions.bun ? 'node' : process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('exit', (code) => resolve({ code, output }))
  })
}
