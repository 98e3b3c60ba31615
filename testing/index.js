// @ts-check
'use strict'
/**
 * claude-agent-sdk-native/testing — a scripted, local fake of the Anthropic
 * Messages API, for driving the real Claude Code CLI (through our SDK or the
 * official one) in tests without a real model.
 *
 * Node built-ins only; works under Node 18+ and Bun.
 *
 * @example
 * const { startScriptedModel, lastToolResult, toolResultText } = require('claude-agent-sdk-native/testing')
 * const model = await startScriptedModel({
 *   turns: [
 *     { toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] },
 *     (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) }),
 *   ],
 * })
 * for await (const m of query({ prompt: 'hi', options: { env: model.env(), cwd: model.tempDir() } })) {}
 * await model.close()
 *
 * ## Which requests consume a scripted turn
 *
 * Only "agent turns" do. A request is an agent turn when ALL of these hold
 * (see {@link isAgentTurn}; override with the `isTurn` option):
 *  1. it is `POST /v1/messages` (query string ignored, e.g. `?beta=true`), not
 *     `/v1/messages/count_tokens` or any other path;
 *  2. its body has a `tools` array (possibly empty). The CLI's main loop —
 *     and a subagent's loop — always sends `tools` (`tools: []` when every
 *     tool is disabled), while one-shot side queries (the auto-mode safety
 *     classifier, session titles, summaries…) send no `tools` at all;
 *  3. no user message contains a marker of a forked side agent. Forks such as
 *     prompt suggestions reuse the main conversation, system prompt and tools
 *     (for prompt caching) and append their own instruction as a user message;
 *     the known markers are listed in {@link SIDE_AGENT_MARKERS}
 *     (e.g. `[SUGGESTION MODE:`).
 * Everything else is answered without touching the script: side queries get
 * the `sideQuery` spec (default text `ok`), `count_tokens` gets an estimate,
 * `HEAD /` / `GET /` probes (CLI 2.1.197 sends `HEAD /` at startup) get 200,
 * other paths get a 404 Anthropic-style error.
 */

const http = require('node:http')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { readBody } = require('./request-body.js')

/**
 * Substrings that mark a user message as the instruction of a forked side
 * agent (a request carrying one never consumes a scripted turn).
 * @type {string[]}
 */
const SIDE_AGENT_MARKERS = [
  '[SUGGESTION MODE:', // prompt suggestions (promptSuggestions: true)
  'CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.', // compaction / summaries
]

// ---------------------------------------------------------------------------
// request helpers
// ---------------------------------------------------------------------------

function blocksOf(content) {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  return Array.isArray(content) ? content : []
}

/** Removes `<system-reminder>…</system-reminder>` sections the CLI injects. */
function stripReminders(text) {
  return String(text)
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .trim()
}

function lastUserMessage(request) {
  const msgs = (request && request.messages) || []
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i].role === 'user') return msgs[i]
  return undefined
}

/**
 * The `tool_result` blocks of the last `user` message of a request (empty
 * array if the last user message carries none). Messages with other roles
 * (the CLI may append `role: "system"` messages) are skipped.
 * @param {object} request parsed request body
 * @returns {Array<{type:'tool_result', tool_use_id:string, content?:any, is_error?:boolean}>}
 */
function toolResults(request) {
  const m = lastUserMessage(request)
  return m ? blocksOf(m.content).filter((b) => b && b.type === 'tool_result') : []
}

/**
 * The last `tool_result` block of the last user message, or `undefined`.
 * @param {object} request
 */
function lastToolResult(request) {
  const r = toolResults(request)
  return r[r.length - 1]
}

/**
 * Flattens a tool_result block (or its `content`) to text: joins text blocks,
 * renders other blocks as `[type]`, strips `<system-reminder>` sections.
 * @param {object|string|undefined} block a tool_result block, or its content
 * @returns {string}
 */
function toolResultText(block) {
  if (block == null) return ''
  const content = typeof block === 'object' && !Array.isArray(block) && 'content' in block ? block.content : block
  if (content == null) return ''
  return stripReminders(
    blocksOf(content)
      .map((b) => (b && b.type === 'text' ? b.text : `[${b && b.type}]`))
      .join('\n'),
  )
}

/**
 * Text the user typed most recently: the text blocks of the latest user
 * message that has any text besides `<system-reminder>` sections, joined with
 * "\n" (reminders stripped). Tool-result-only messages are skipped, so during
 * a tool loop this is still the prompt that started the turn. '' if none.
 * @param {any} request
 * @returns {string}
 */
function lastUserText(request) {
  const msgs = (request && request.messages) || []
  for (let i = msgs.length - 1; i >= 0; i--) {
    if (msgs[i].role !== 'user') continue
    const texts = blocksOf(msgs[i].content)
      .filter((b) => b && b.type === 'text')
      .map((b) => stripReminders(b.text))
      .filter(Boolean)
    if (texts.length) return texts.join('\n')
  }
  return ''
}

/**
 * The system prompt as one string (blocks joined with "\n").
 * @param {any} request
 */
function systemText(request) {
  const s = request && request.system
  if (s == null) return ''
  return blocksOf(s)
    .map((b) => (b && b.type === 'text' ? b.text : ''))
    .join('\n')
}

/** Names of the tools offered in a request. */
function toolNames(request) {
  return ((request && request.tools) || []).map((t) => t && t.name)
}

/**
 * The default agent-turn rule (see the module docs).
 * @param {any} body parsed request body of a POST /v1/messages
 * @returns {boolean}
 */
function isAgentTurn(body) {
  if (!body || typeof body !== 'object' || !Array.isArray(body.tools)) return false
  for (const m of body.messages || []) {
    if (m.role !== 'user') continue
    for (const b of blocksOf(m.content)) {
      if (b && b.type === 'text' && SIDE_AGENT_MARKERS.some((k) => String(b.text).includes(k))) return false
    }
  }
  return true
}

// ---------------------------------------------------------------------------
// response building
// ---------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * Normalises a response spec to { content, stopReason, usage, model, error, delayMs }.
 */
function normalizeSpec(spec, ids) {
  if (spec == null) spec = { text: '' }
  if (typeof spec === 'string') spec = { text: spec }
  if (typeof spec !== 'object') throw new TypeError('scripted model: a response spec must be an object or a string')
  if (spec.error) return { error: spec.error, delayMs: spec.delayMs }
  const content = []
  if (spec.content) {
    for (const b of spec.content) content.push(typeof b === 'string' ? { type: 'text', text: b } : { ...b })
  } else {
    if (spec.thinking != null) content.push({ type: 'thinking', thinking: String(spec.thinking) })
    if (spec.text != null) content.push({ type: 'text', text: String(spec.text) })
    for (const t of spec.toolUses || []) content.push({ type: 'tool_use', ...t })
  }
  for (const b of content) {
    if (b.type === 'tool_use') {
      if (!b.id) b.id = ids.toolUse()
      if (b.input === undefined) b.input = {}
      if (typeof b.name !== 'string') throw new TypeError('scripted model: tool_use needs a name')
    } else if (b.type === 'thinking') {
      if (b.signature === undefined) b.signature = 'c2NyaXB0ZWQ='
    } else if (b.type === 'text') {
      b.text = String(b.text)
    }
  }
  if (content.length === 0) content.push({ type: 'text', text: '' })
  const stopReason = spec.stopReason || (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn')
  return { content, stopReason, usage: spec.usage, model: spec.model, delayMs: spec.delayMs }
}

function buildUsage(usage, outputTokens) {
  return {
    input_tokens: 10,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: outputTokens,
    ...(usage || {}),
  }
}

function estimateOutputTokens(content) {
  let chars = 0
  for (const b of content) chars += JSON.stringify(b).length
  return Math.max(1, Math.ceil(chars / 4))
}

function chunks(str, size) {
  if (!size || size <= 0 || str.length <= size) return [str]
  const out = []
  for (let i = 0; i < str.length; i += size) out.push(str.slice(i, i + size))
  return out
}

// ---------------------------------------------------------------------------
// env / temp dirs
// ---------------------------------------------------------------------------

/** Inherited variables that would leak a real configuration into the CLI. */
function isLeakyVar(name) {
  const n = name.toUpperCase()
  return (
    n.startsWith('ANTHROPIC_') ||
    n.startsWith('CLAUDE_') ||
    n === 'CLAUDECODE' ||
    n === 'NODE_OPTIONS' ||
    n.startsWith('AWS_BEARER_TOKEN_BEDROCK') ||
    n === 'DEBUG'
  )
}

// ---------------------------------------------------------------------------
// server
// ---------------------------------------------------------------------------

/**
 * @typedef {object} ResponseSpec
 * @property {string} [text] one text block (emitted before tool uses)
 * @property {string} [thinking] one thinking block (emitted first)
 * @property {Array<{name:string,input?:object,id?:string}>} [toolUses] tool_use blocks (several = parallel calls)
 * @property {Array<object|string>} [content] full content instead of text/thinking/toolUses:
 *   `{type:'text',text}`, `{type:'tool_use',name,input,id?}`, `{type:'thinking',thinking,signature?}`
 * @property {string} [stopReason] default `tool_use` if there is a tool_use block, else `end_turn`
 * @property {object} [usage] merged into the default usage
 * @property {string} [model] default: the requested model
 * @property {number} [delayMs] overrides the server-wide delayMs for this response
 * @property {{status?:number,type?:string,message?:string}} [error] answer with an HTTP error instead
 *   (default status 500; note the CLI retries 5xx/429/529 with back-off)
 */

/**
 * Starts the fake API on 127.0.0.1 (random port).
 * @param {object} [options]
 * @param {Array<ResponseSpec|string|((request:object, info:{index:number,fallback:boolean}) => ResponseSpec|string|Promise<ResponseSpec|string>)>} [options.turns]
 *   consumed in order, one per agent turn
 * @param {ResponseSpec|string|Function} [options.fallback] answer once the script is exhausted (default `{ text: 'done' }`)
 * @param {ResponseSpec|string|Function} [options.sideQuery] answer to side queries (default `{ text: 'ok' }`)
 * @param {(body:object, req:{method:string,url:string,headers:object}) => boolean} [options.isTurn] override the agent-turn rule
 * @param {number} [options.delayMs] wait before answering each /v1/messages request (default 0)
 * @param {number} [options.chunkDelayMs] wait between SSE events (default 0)
 * @param {number} [options.textChunkSize] split text/JSON deltas into pieces of this many chars (default: one delta per block)
 * @param {boolean|((line:string)=>void)} [options.log] log each request (true = console.error)
 */
async function startScriptedModel(options = {}) {
  const script = Array.isArray(options.turns) ? options.turns.slice() : []
  const fallback = options.fallback !== undefined ? options.fallback : { text: 'done' }
  const sideQuery = options.sideQuery !== undefined ? options.sideQuery : { text: 'ok' }
  const isTurn = options.isTurn || ((body) => isAgentTurn(body))
  const delayMs = options.delayMs || 0
  const chunkDelayMs = options.chunkDelayMs || 0
  const textChunkSize = options.textChunkSize || 0
  const log = options.log === true ? (l) => console.error(l) : typeof options.log === 'function' ? options.log : null

  let msgCounter = 0
  let toolCounter = 0
  const tag = Math.random().toString(36).slice(2, 8)
  const ids = {
    message: () => `msg_scripted_${tag}_${++msgCounter}`,
    toolUse: () => `toolu_scripted_${tag}_${++toolCounter}`,
  }

  const requests = []
  const sideRequests = []
  const allRequests = []
  const errors = []
  const tempDirs = []
  const sockets = new Set()
  let turnIndex = 0

  async function resolveSpec(entry, body, info) {
    const spec = typeof entry === 'function' ? await entry(body, info) : entry
    return normalizeSpec(spec, ids)
  }

  function sendJson(res, status, obj) {
    const data = JSON.stringify(obj)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), 'request-id': 'req_scripted' })
    res.end(data)
  }

  function sendError(res, status, type, message) {
    sendJson(res, status, { type: 'error', error: { type, message } })
  }

  async function answerMessages(req, res, body, turn) {
    let entry
    const info = { index: -1, kind: turn ? 'turn' : 'side' }
    if (turn) {
      requests.push(body)
      info.index = turnIndex++
      info.fallback = script.length === 0
      entry = info.fallback ? fallback : script.shift()
    } else {
      sideRequests.push(body)
      entry = sideQuery
    }
    if (log) log(`[scripted-model] ${info.kind}${turn ? ' #' + info.index : ''} model=${body.model} stream=${!!body.stream} tools=${Array.isArray(body.tools) ? body.tools.length : '-'}`)

    let spec
    try {
      spec = await resolveSpec(entry, body, info)
    } catch (err) {
      errors.push(err)
      if (log) log(`[scripted-model] turn function threw: ${err && err.stack}`)
      // 400 is not retried by the CLI, so a broken script fails fast.
      return sendError(res, 400, 'invalid_request_error', `scripted model: turn ${info.index} threw: ${err && err.message}`)
    }
    const wait = spec.delayMs != null ? spec.delayMs : delayMs
    if (wait) await sleep(wait)
    if (res.destroyed) return
    if (spec.error) {
      const e = spec.error
      return sendError(res, e.status || 500, e.type || 'api_error', e.message || 'scripted error')
    }

    const id = ids.message()
    const model = spec.model || body.model || 'claude-scripted'
    const outputTokens = estimateOutputTokens(spec.content)
    const usage = buildUsage(spec.usage, outputTokens)

    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: spec.content,
        stop_reason: spec.stopReason,
        stop_sequence: null,
        usage,
      })
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'request-id': 'req_scripted',
    })
    const events = []
    const ev = (type, data) => events.push([type, { type, ...data }])
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    })
    ev('ping', {})
    spec.content.forEach((b, index) => {
      if (b.type === 'text') {
        ev('content_block_start', { index, content_block: { type: 'text', text: '' } })
        for (const t of chunks(b.text, textChunkSize)) ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } })
      } else if (b.type === 'tool_use') {
        ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } })
        for (const j of chunks(JSON.stringify(b.input), textChunkSize)) ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: j } })
      } else if (b.type === 'thinking') {
        ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } })
        for (const t of chunks(b.thinking, textChunkSize)) ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: t } })
        ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: b.signature } })
      } else {
        // unknown block types are sent whole in content_block_start
        ev('content_block_start', { index, content_block: b })
      }
      ev('content_block_stop', { index })
    })
    ev('message_delta', { delta: { stop_reason: spec.stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } })
    ev('message_stop', {})
    for (let i = 0; i < events.length; i++) {
      if (res.destroyed) return
      if (i && chunkDelayMs) await sleep(chunkDelayMs)
      const [type, data] = events[i]
      res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`)
    }
    res.end()
  }

  async function handle(req, res) {
    const raw = await readBody(req)
    const pathname = String(req.url || '/').split('?')[0].replace(/\/+$/, '') || '/'
    let body
    try {
      body = raw ? JSON.parse(raw) : undefined
    } catch {
      body = undefined
    }
    const record = { method: req.method, url: req.url, headers: req.headers, body: body !== undefined ? body : raw, kind: 'other' }
    allRequests.push(record)

    if (req.method === 'POST' && pathname === '/v1/messages') {
      if (!body || !Array.isArray(body.messages)) return sendError(res, 400, 'invalid_request_error', 'messages: field required')
      const turn = !!isTurn(body, { method: req.method, url: req.url, headers: req.headers })
      record.kind = turn ? 'turn' : 'side'
      return answerMessages(req, res, body, turn)
    }
    if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
      record.kind = 'count_tokens'
      return sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) })
    }
    if ((req.method === 'HEAD' || req.method === 'GET') && (pathname === '/' || pathname === '/v1')) {
      record.kind = 'probe'
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(req.method === 'HEAD' ? undefined : '{}')
    }
    if (log) log(`[scripted-model] unhandled ${req.method} ${req.url}`)
    return sendError(res, 404, 'not_found_error', `scripted model: no route for ${req.method} ${pathname}`)
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      errors.push(err)
      try {
        if (!res.headersSent) sendError(res, 500, 'api_error', String(err && err.message))
        else res.end()
      } catch {}
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  const url = `http://127.0.0.1:${port}`

  function tempDir(prefix = 'scripted-model-') {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), prefix))
    tempDirs.push(dir)
    return dir
  }

  let closed = false
  const model = {
    /** Base URL, e.g. `http://127.0.0.1:43123`. */
    url,
    port,
    /** Parsed bodies of the agent-turn requests received, in order. */
    requests,
    /** Parsed bodies of side-query POST /v1/messages requests. */
    sideRequests,
    /** Every HTTP request: `{ method, url, headers, body, kind }`, kind = turn|side|count_tokens|probe|other. */
    allRequests,
    /** Errors thrown by turn functions (answered with HTTP 400). */
    errors,
    /** Number of agent turns answered so far. */
    get turnCount() {
      return turnIndex
    },
    /** Script entries not consumed yet. */
    get remainingTurns() {
      return script.length
    },
    /** Appends entries to the script. */
    addTurns(...entries) {
      script.push(...entries)
    },
    /**
     * Environment for the CLI: process.env without ANTHROPIC_*, CLAUDE_*,
     * CLAUDECODE, NODE_OPTIONS and DEBUG, plus ANTHROPIC_BASE_URL,
     * ANTHROPIC_API_KEY=sk-test, DISABLE_TELEMETRY=1,
     * CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, ENABLE_TOOL_SEARCH=false, and a
     * fresh temp HOME and CLAUDE_CONFIG_DIR (created per call, removed by close()),
     * then `extra` (a value of `undefined` deletes the variable).
     * @param {Record<string, string|undefined>} [extra]
     * @returns {Record<string,string>}
     */
    env(extra) {
      const home = tempDir('scripted-home-')
      const configDir = path.join(home, '.claude')
      fs.mkdirSync(configDir, { recursive: true })
      const env = {}
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !isLeakyVar(k)) env[k] = v
      Object.assign(env, {
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_API_KEY: 'sk-test',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ENABLE_TOOL_SEARCH: 'false',
        HOME: home,
        USERPROFILE: home,
        CLAUDE_CONFIG_DIR: configDir,
      })
      for (const [k, v] of Object.entries(extra || {})) {
        if (v === undefined) delete env[k]
        else env[k] = String(v)
      }
      return env
    },
    /** Creates a temp dir (e.g. for `cwd`), removed by close(). */
    tempDir,
    /** Stops the server, drops open connections, removes temp dirs. */
    async close() {
      if (closed) return
      closed = true
      await new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve) => {
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      })
      for (const d of tempDirs.splice(0)) {
        try {
          fs.rmSync(d, { recursive: true, force: true })
        } catch {}
      }
    },
  }
  return model
}

const { runSessionStoreConformance, sessionStoreContracts } = require('./conformance')

module.exports = {
  runSessionStoreConformance,
  sessionStoreContracts,
  startScriptedModel,
  toolResults,
  lastToolResult,
  toolResultText,
  lastUserText,
  systemText,
  toolNames,
  isAgentTurn,
  stripReminders,
  SIDE_AGENT_MARKERS,
  // The scripted OpenAI Responses API, for Codex (./responses.js).
  ...require('./responses.js'),
}
