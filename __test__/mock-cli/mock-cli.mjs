#!/usr/bin/env node
// Mock Claude Code CLI for unit tests and fault injection.
//
// It stands where the real `claude` binary would be (the SDK spawns it with
// `--output-format stream-json --verbose --input-format stream-json ...`) and
// speaks the same NDJSON protocol on stdin/stdout. What it actually does is
// decided by a scenario module (env MOCK_CLI_SCENARIO) that receives the `cli`
// object defined below; without one, `defaultScenario` runs. Everything it sees
// and does is appended to a JSON-lines log (env MOCK_CLI_LOG) so tests can
// assert on the exact bytes the SDK under test wrote.
//
// Node built-ins only, so it also runs under Bun. See README.md for the API.

import fs from 'node:fs'
import { randomUUID } from 'node:crypto'
import { pathToFileURL } from 'node:url'

const PREFIXES = ['CLAUDE_', 'ANTHROPIC_', 'MOCK_']
const CLAUDE_CODE_VERSION = '2.1.330'
const MODEL = 'claude-opus-5-5'

// ---------------------------------------------------------------- logging --

// One synchronous append per record: a SIGKILLed mock still leaves every line
// it got to write, and concurrent mocks sharing a log never interleave within
// a line (O_APPEND).
let logFd = null
if (process.env.MOCK_CLI_LOG) {
  try {
    logFd = fs.openSync(process.env.MOCK_CLI_LOG, 'a')
  } catch (e) {
    process.stderr.write(`mock-cli: cannot open MOCK_CLI_LOG: ${e.message}\n`)
  }
}
function log(kind, fields = {}) {
  if (logFd === null) return
  try {
    fs.writeSync(logFd, JSON.stringify({ kind, pid: process.pid, ts: Date.now(), ...fields }) + '\n')
  } catch {
    // A full disk must not change the behaviour the test is observing.
  }
}

const env = {}
for (const [k, v] of Object.entries(process.env)) {
  if (PREFIXES.some((p) => k.startsWith(p))) env[k] = v
}
const argv = process.argv.slice(2)

log('start', {
  argv,
  cwd: process.cwd(),
  env,
  ENV_KEYS: Object.keys(process.env).sort(),
  execPath: process.execPath,
  execArgv: process.execArgv,
  ppid: process.ppid,
  scenario: process.env.MOCK_CLI_SCENARIO ?? null,
})
process.on('exit', (code) => log('exit', { code }))

// --------------------------------------------------------------- output --

// The reader may be gone (that's a scenario we test): never let EPIPE or a
// destroyed stream become an uncaught 'error' event.
for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]]) {
  stream.on('error', (e) => log('stream_error', { stream: name, code: e.code, message: e.message }))
}

// Resolves once `data` has been handed to the OS (or the write failed), so
// `exit`/`kill` can't lose output that was "sent" just before them.
function write(stream, data) {
  return new Promise((resolve) => {
    try {
      if (stream.destroyed) return resolve(false)
      stream.write(data, (err) => resolve(!err))
    } catch {
      resolve(false)
    }
  })
}
// A write callback that never fires (peer stopped reading) must not hang exit forever.
function flush(stream, ms = 2000) {
  return Promise.race([write(stream, ''), new Promise((r) => setTimeout(r, ms).unref())])
}

// ---------------------------------------------------------------- input --

class StdinClosedError extends Error {
  constructor() {
    super('mock-cli: stdin closed')
    this.name = 'StdinClosedError'
  }
}

const inbox = [] // parsed stdin messages nobody has consumed yet
const waiters = [] // { predicate, resolve, reject } for cli.next()
const pending = new Map() // request_id -> { resolve, reject }, for cli.request()
const received = [] // every parsed stdin message, in order
let stdinClosed = false
let resolveStdinClosed
const stdinClosedPromise = new Promise((r) => (resolveStdinClosed = r))

function deliver(msg) {
  received.push(msg)
  if (msg?.type === 'control_response' && pending.has(msg.response?.request_id)) {
    const { resolve } = pending.get(msg.response.request_id)
    pending.delete(msg.response.request_id)
    resolve(msg.response)
    return
  }
  if (msg?.type === 'control_request') handleControlRequest(msg)
  const i = waiters.findIndex((w) => w.predicate(msg))
  if (i >= 0) waiters.splice(i, 1)[0].resolve(msg)
  else inbox.push(msg)
}

function onLine(buf) {
  // Decode per line (not per chunk) so a multi-byte character split across
  // reads is never mangled.
  const line = buf.toString('utf8')
  log('stdin', { line })
  if (!line.trim()) return
  let msg
  try {
    msg = JSON.parse(line)
  } catch (e) {
    log('stdin_invalid', { error: e.message })
    return
  }
  try {
    deliver(msg)
  } catch (e) {
    log('internal_error', { error: String(e?.stack ?? e) })
  }
}

function startReading() {
  // Chunks of the current unfinished line; joined only once its '\n' arrives,
  // so a multi-megabyte line costs one copy, not one per chunk.
  let parts = []
  process.stdin.on('data', (chunk) => {
    let nl
    while ((nl = chunk.indexOf(0x0a)) >= 0) {
      parts.push(chunk.subarray(0, nl))
      onLine(Buffer.concat(parts))
      parts = []
      chunk = chunk.subarray(nl + 1)
    }
    if (chunk.length) parts.push(chunk)
  })
  const closed = () => {
    if (stdinClosed) return
    if (parts.length) onLine(Buffer.concat(parts)) // a final line without '\n' still counts
    parts = []
    stdinClosed = true
    log('stdin_end')
    resolveStdinClosed()
    for (const w of waiters.splice(0)) w.reject(new StdinClosedError())
    for (const p of pending.values()) p.reject(new StdinClosedError())
    pending.clear()
  }
  process.stdin.on('end', closed)
  process.stdin.on('close', closed)
  process.stdin.on('error', (e) => {
    log('stream_error', { stream: 'stdin', code: e.code, message: e.message })
    closed()
  })
}

// ------------------------------------------------------- control requests --

// Returned by an onControlRequest handler to leave the request unanswered
// (e.g. to test the SDK's timeout on `interrupt`).
const SILENT = Symbol('mock-cli.silent')

const handlers = new Map(
  Object.entries({
    interrupt: () => ({}),
    set_model: (req) => ((state.model = req.model ?? MODEL), {}),
    set_permission_mode: (req) => ((state.permissionMode = req.mode), {}),
    set_max_thinking_tokens: () => ({}),
    mcp_status: () => ({ mcpServers: sdkServerNames().map((name) => ({ name, status: 'connected' })) }),
  }),
)

async function handleControlRequest(msg) {
  const { request_id, request } = msg
  const subtype = request?.subtype
  const handler = handlers.get(subtype)
  if (subtype === 'initialize') state.initRequest = request ?? {}
  // `initialize` is the scenario's job (cli.initialize()); unless it installed
  // a handler, leave it in the inbox so a scenario can also choose never to answer.
  if (!handler) {
    if (subtype !== 'initialize') respondError(request_id, `Unsupported control request subtype: ${subtype}`)
    return
  }
  try {
    const body = await handler(request, msg)
    if (body !== SILENT) respond(request_id, body ?? {})
  } catch (e) {
    respondError(request_id, e?.message ?? String(e))
  }
}

function respond(request_id, response = {}) {
  return send({ type: 'control_response', response: { subtype: 'success', request_id, response } })
}
function respondError(request_id, error) {
  return send({ type: 'control_response', response: { subtype: 'error', request_id, error } })
}

// ---------------------------------------------------- realistic payloads --

const state = {
  sessionId: flag('session-id') ?? flag('resume') ?? randomUUID(),
  model: flag('model') ?? MODEL,
  permissionMode: flag('permission-mode') ?? 'default',
  initRequest: null,
  lastAssistantText: '',
  turns: 0,
  msgN: 0,
}

// `--name value` or `--name=value` from our argv.
function flag(name) {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1]
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3)
  }
  return undefined
}

function sdkServerNames() {
  return state.initRequest?.sdkMcpServers ?? []
}
function sdkTools() {
  const manifests = state.initRequest?.sdkMcpServerManifests ?? {}
  return Object.entries(manifests).flatMap(([server, m]) =>
    (m?.toolsListResult?.tools ?? []).map((t) => `mcp__${server}__${t.name}`),
  )
}

// Shape copied from the 2.1.330 trace, long lists cut to a few entries.
function initializeBody(req) {
  const manifests = req?.sdkMcpServerManifests ?? {}
  return {
    commands: [
      { name: 'update-config', description: 'Configure the Claude Code harness via settings.json.', argumentHint: '', builtin: true },
      { name: 'review', description: 'Review a pull request', argumentHint: '', builtin: true },
    ],
    agents: [
      { name: 'Explore', description: 'Fast read-only search agent for locating code.', model: 'inherit' },
      { name: 'general-purpose', description: 'General-purpose agent for researching complex questions.' },
    ],
    output_style: 'default',
    available_output_styles: ['default', 'Concise'],
    models: [
      {
        value: 'default',
        resolvedModel: MODEL,
        displayName: 'Default (recommended)',
        description: 'Use the default model',
        supportsEffort: true,
        supportedEffortLevels: ['low', 'medium', 'high', 'xhigh', 'max'],
        supportsAdaptiveThinking: true,
        supportsFastMode: true,
        supportsAutoMode: true,
        supportsThinkingOff: false,
      },
    ],
    account: { tokenSource: 'none', apiKeySource: 'ANTHROPIC_API_KEY', apiProvider: 'firstParty' },
    pid: process.pid,
    claude_code_version: CLAUDE_CODE_VERSION,
    current_permission_mode: state.permissionMode,
    sdk_mcp_manifests_parked: Object.fromEntries(Object.keys(manifests).map((k) => [k, 'parked'])),
    analytics_disabled: true,
    fast_mode_state: 'off',
    session_state: 'idle',
    capabilities: ['ui_surface_v1'],
  }
}

function contentText(message) {
  const c = message?.message?.content
  if (typeof c === 'string') return c
  if (Array.isArray(c)) return c.filter((b) => b?.type === 'text').map((b) => b.text).join('')
  return ''
}

// ------------------------------------------------------------------ send --

function send(obj) {
  const line = JSON.stringify(obj)
  log('stdout', { line })
  return write(process.stdout, line + '\n')
}

// ------------------------------------------------------------ the `cli` --

let reqN = 0
let mcpN = 1000
let exiting = false

const cli = {
  argv,
  env,
  SILENT,
  StdinClosedError,
  /** Every parsed stdin message so far (including auto-answered ones). */
  received,
  get stdinClosed() {
    return stdinClosed
  },
  get sessionId() {
    return state.sessionId
  },
  set sessionId(v) {
    state.sessionId = v
  },
  /** The `request` of the initialize control_request, once received. */
  get initRequest() {
    return state.initRequest
  },
  flag,

  // --- reading
  /** Next unconsumed stdin message matching `predicate`; rejects StdinClosedError at EOF. */
  next(predicate = () => true) {
    const i = inbox.findIndex(predicate)
    if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0])
    if (stdinClosed) return Promise.reject(new StdinClosedError())
    return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }))
  },
  nextUserMessage() {
    return cli.next((m) => m?.type === 'user')
  },
  nextControlRequest(subtype) {
    return cli.next((m) => m?.type === 'control_request' && (!subtype || m.request?.subtype === subtype))
  },
  waitStdinClosed() {
    return stdinClosedPromise
  },

  // --- control protocol, CLI side
  async initialize(overrides = {}) {
    const msg = await cli.nextControlRequest('initialize')
    state.initRequest = msg.request ?? {}
    await respond(msg.request_id, { ...initializeBody(msg.request), ...overrides })
    return msg.request
  },
  respond,
  respondError,
  onControlRequest(subtype, handler) {
    handlers.set(subtype, handler)
  },
  /**
   * Send a control_request to the SDK; resolves with `{subtype, request_id, response|error}`
   * (an error reply resolves too), rejects StdinClosedError if stdin ends first.
   */
  request(subtype, fields = {}) {
    const request_id = `req_${++reqN}`
    if (stdinClosed) return Promise.reject(new StdinClosedError())
    const answer = new Promise((resolve, reject) => pending.set(request_id, { resolve, reject }))
    send({ type: 'control_request', request_id, request: { subtype, ...fields } })
    return answer
  },
  /** mcp_message to an in-process SDK server; resolves with the JSON-RPC `mcp_response`. */
  async mcp(server_name, message) {
    const isNotification = typeof message.method === 'string' && message.method.startsWith('notifications/')
    const full = { jsonrpc: '2.0', ...(isNotification ? {} : { id: ++mcpN }), ...message }
    const r = await cli.request('mcp_message', { server_name, message: full })
    if (r.subtype !== 'success') throw Object.assign(new Error(`mcp_message failed: ${r.error}`), { response: r })
    return r.response?.mcp_response
  },

  // --- writing
  send,
  sendRaw(text) {
    log('stdout_raw', { data: text })
    return write(process.stdout, text)
  },
  sendBytes(buffer) {
    const buf = Buffer.from(buffer)
    log('stdout_bytes', { base64: buf.toString('base64') })
    return write(process.stdout, buf)
  },
  /** Write `chunks` with `delayMs` between them (e.g. one JSON line split in parts). */
  async sendChunks(chunks, delayMs = 20) {
    for (let i = 0; i < chunks.length; i++) {
      if (i) await cli.sleep(delayMs)
      await cli.sendRaw(chunks[i])
    }
  },
  stderr(text) {
    const s = String(text)
    log('stderr', { data: s })
    return write(process.stderr, s.endsWith('\n') ? s : s + '\n')
  },

  // --- realistic messages (shapes from /work/shared/traces)
  sessionState(s) {
    return send({ type: 'system', subtype: 'session_state_changed', state: s, sdk_host_only: true, uuid: randomUUID(), session_id: state.sessionId })
  },
  systemInit(extra = {}) {
    return send({
      type: 'system',
      subtype: 'init',
      cwd: process.cwd(),
      session_id: state.sessionId,
      tools: ['Task', 'Bash', 'Edit', 'Read', 'Write', 'WebFetch', 'WebSearch', ...sdkTools()],
      mcp_servers: sdkServerNames().map((name) => ({ name, status: 'connected', source: 'sdk' })),
      model: state.model,
      permissionMode: state.permissionMode,
      slash_commands: ['update-config', 'review'],
      apiKeySource: 'ANTHROPIC_API_KEY',
      claude_code_version: CLAUDE_CODE_VERSION,
      output_style: 'default',
      agents: ['Explore', 'general-purpose'],
      skills: [],
      plugins: [],
      analytics_disabled: true,
      uuid: randomUUID(),
      fast_mode_state: 'off',
      ...extra,
    })
  },
  /** An assistant message with the given content blocks. */
  assistant(content, extra = {}) {
    state.msgN++
    const text = content.filter((b) => b.type === 'text').map((b) => b.text).join('')
    if (text) state.lastAssistantText = text
    return send({
      type: 'assistant',
      message: {
        id: `msg_${state.msgN}`,
        type: 'message',
        role: 'assistant',
        model: state.model,
        content,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
        context_management: null,
      },
      parent_tool_use_id: null,
      session_id: state.sessionId,
      uuid: randomUUID(),
      timestamp: new Date().toISOString(),
      ...extra,
    })
  },
  assistantText(text, extra) {
    return cli.assistant([{ type: 'text', text }], extra)
  },
  /** Assistant tool_use block; returns its id (for toolResult / _meta). */
  assistantToolUse(name, input = {}, id = `toolu_${state.msgN + 1}`) {
    cli.assistant([{ type: 'tool_use', id, name, input }])
    return id
  },
  /** The user message the CLI emits after running a tool. */
  toolResult(tool_use_id, content, extra = {}) {
    return send({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id, type: 'tool_result', content }] },
      parent_tool_use_id: null,
      session_id: state.sessionId,
      uuid: randomUUID(),
      timestamp: new Date().toISOString(),
      tool_use_result: content,
      ...extra,
    })
  },
  result(extra = {}) {
    state.turns++
    const usage = { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: 'standard' }
    return send({
      type: 'result',
      subtype: 'success',
      is_error: false,
      api_error_status: null,
      duration_ms: 12,
      duration_api_ms: 5,
      num_turns: 1,
      result: state.lastAssistantText,
      stop_reason: 'end_turn',
      session_id: state.sessionId,
      total_cost_usd: 0.00044,
      usage,
      modelUsage: { [state.model]: { inputTokens: 10, outputTokens: 20, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, webSearchRequests: 0, costUSD: 0.00044, contextWindow: 1000000, maxOutputTokens: 128000 } },
      permission_denials: [],
      terminal_reason: 'completed',
      fast_mode_state: 'off',
      uuid: randomUUID(),
      ...extra,
    })
  },

  // --- process control
  sleep(ms) {
    return new Promise((r) => setTimeout(r, ms))
  },
  log(obj) {
    log('scenario', { data: obj })
  },
  /** Exit after flushing stdout/stderr. Never resolves, so `await cli.exit(n)` stops the scenario. */
  exit(code = 0) {
    if (!exiting) {
      exiting = true
      Promise.all([flush(process.stdout), flush(process.stderr)]).then(() => process.exit(code))
    }
    return new Promise(() => {})
  },
  /** Die by `signal` (a crash as the SDK sees it), after flushing output. */
  kill(signal = 'SIGKILL') {
    exiting = true
    log('kill', { signal })
    Promise.all([flush(process.stdout), flush(process.stderr)]).then(() => {
      process.removeAllListeners(signal)
      process.kill(process.pid, signal)
    })
    return new Promise(() => {})
  },
  /** Replace the default "log and die" reaction to `signal` (e.g. ignore SIGTERM). */
  onSignal(signal, handler) {
    process.removeAllListeners(signal)
    process.on(signal, () => {
      log('signal', { signal, trapped: true })
      handler(signal)
    })
  },
}

// Record signals sent by the SDK (close() -> SIGTERM, later SIGKILL), then die
// by the same signal so the parent still sees a signal exit.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    log('signal', { signal })
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  })
}

process.on('uncaughtException', (e) => {
  log('uncaught', { error: String(e?.stack ?? e) })
  process.stderr.write(`mock-cli: uncaught: ${e?.stack ?? e}\n`)
  process.exit(1)
})
process.on('unhandledRejection', (e) => log('unhandled_rejection', { error: String(e?.stack ?? e) }))

// --------------------------------------------------------------- runner --

// Echo each prompt back, like a one-line model, until stdin closes. The
// session_state_changed frames mirror 2.1.330 (the SDK hides them from users).
async function defaultScenario(cli) {
  await cli.initialize()
  for (;;) {
    const user = await cli.nextUserMessage() // StdinClosedError ends the loop
    cli.sessionState('running')
    cli.systemInit()
    cli.assistantText(contentText(user))
    cli.result()
    cli.sessionState('idle')
  }
}

async function main() {
  let scenario = defaultScenario
  const file = process.env.MOCK_CLI_SCENARIO
  if (file) {
    try {
      scenario = (await import(pathToFileURL(file).href)).default
      if (typeof scenario !== 'function') throw new Error('scenario module has no default export function')
    } catch (e) {
      log('scenario_error', { error: String(e?.stack ?? e) })
      await cli.stderr(`mock-cli: cannot load scenario ${file}: ${e?.message ?? e}`)
      return cli.exit(1)
    }
  }

  // Start reading only after the scenario's synchronous prologue ran, so its
  // onControlRequest handlers are in place before the first line is dispatched.
  let run
  try {
    run = Promise.resolve(scenario(cli))
  } catch (e) {
    run = Promise.reject(e)
  }
  startReading()

  try {
    await run
    log('scenario_end', { reason: 'returned' })
  } catch (e) {
    if (e instanceof StdinClosedError) {
      log('scenario_end', { reason: 'stdin_closed' })
    } else {
      log('scenario_error', { error: String(e?.stack ?? e) })
      await cli.stderr(`mock-cli: scenario failed: ${e?.stack ?? e}`)
      return cli.exit(1)
    }
  }
  if (exiting) return
  // Like the real CLI in stream-json mode: stay up (answering control
  // requests) until the SDK closes our stdin.
  await stdinClosedPromise
  return cli.exit(0)
}

main()
