// @ts-check
'use strict'
/**
 * claude-agent-sdk-native/testing — a scripted, local fake of the OpenAI Responses API
 * (`POST /v1/responses`, streamed), for driving the real Codex binary (`codex app-server`,
 * `codex exec`, through our `claude-agent-sdk-native/codex` or the official `@openai/codex-sdk`)
 * in tests without a real model. The Codex twin of `startScriptedModel`.
 *
 * Node built-ins only; works under Node 18+ and Bun.
 *
 * @example
 * const { startScriptedResponses, lastFunctionCallOutput } = require('claude-agent-sdk-native/testing')
 * const model = await startScriptedResponses({
 *   turns: [
 *     { functionCalls: [{ namespace: 'calc', name: 'add', arguments: { a: 2, b: 3 } }] },
 *     (req) => ({ text: 'The sum is ' + lastFunctionCallOutput(req) }),
 *   ],
 * })
 * const codex = new Codex({ env: model.env(), config: model.config() })
 * await model.close()
 *
 * Every `POST /v1/responses` consumes the next scripted turn (Codex sends no side requests with
 * the settings of {@link ScriptedResponses.config}); past the end of the script `fallback`
 * answers (default: the text `ok`).
 */

const http = require('node:http')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { readBody } = require('./request-body.js')
const { field, safeString } = require('../lib/thrown.js')

/** `err.message ?? err` as text, whatever a turn function threw. */
const thrownText = (err) => safeString(field(err, 'message') ?? err)

/** A model name in Codex's bundled list (others add a warning item to every turn). */
const DEFAULT_MODEL = 'gpt-5.5'
/** The environment variable Codex reads the fake's API key from (`env_key` of the provider). */
const KEY_VAR = 'FAKE_OPENAI_KEY'

// ---------------------------------------------------------------------------
// request helpers
// ---------------------------------------------------------------------------

/** The `input` items of a request (its conversation so far). */
function inputItems(request) {
  return Array.isArray(request?.input) ? request.input : []
}

/** The text of a message item's content (strings and `input_text`/`output_text` parts). */
function contentText(content) {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('')
}

/** The text of the last user message in a request. */
function lastUserText(request) {
  const items = inputItems(request)
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]
    if (it?.role === 'user' && (it.type === 'message' || it.type === undefined)) return contentText(it.content)
  }
  return ''
}

/** Every `function_call_output` item of a request, oldest first. */
function functionCallOutputs(request) {
  return inputItems(request).filter((it) => it?.type === 'function_call_output')
}

/** The output of a function call as the model sees it: its text (content parts joined). */
function outputText(item) {
  if (!item) return undefined
  const out = item.output
  if (typeof out === 'string') return out
  if (Array.isArray(out)) return contentText(out)
  if (out && typeof out === 'object') return typeof out.content === 'string' ? out.content : contentText(out.content)
  return undefined
}

/** The text of the last `function_call_output` in a request (or of the one for `callId`). */
function lastFunctionCallOutput(request, callId) {
  const outs = functionCallOutputs(request)
  const item = callId === undefined ? outs[outs.length - 1] : outs.find((o) => o.call_id === callId)
  return outputText(item)
}

/** The names of the tools a request offers the model (namespaces as `ns.tool`). */
function toolNames(request) {
  const names = []
  for (const t of Array.isArray(request?.tools) ? request.tools : []) {
    if (t?.type === 'namespace' && Array.isArray(t.tools)) for (const s of t.tools) names.push(`${t.name}.${s.name}`)
    else if (typeof t?.name === 'string') names.push(t.name)
  }
  return names
}

// ---------------------------------------------------------------------------
// the stream
// ---------------------------------------------------------------------------

function normalize(spec) {
  if (typeof spec === 'string') return { text: spec }
  if (!spec || typeof spec !== 'object') throw new TypeError(`startScriptedResponses: a turn must be a string, an object or a function returning one; got ${typeof spec}`)
  return spec
}

/** The output items of one response, in order: reasoning, message, function calls. */
function outputItems(spec, nextId) {
  if (Array.isArray(spec.output)) return spec.output
  const items = []
  if (typeof spec.reasoning === 'string') {
    items.push({ type: 'reasoning', id: nextId('rs'), summary: [{ type: 'summary_text', text: spec.reasoning }], content: null, encrypted_content: null })
  }
  if (typeof spec.text === 'string') {
    items.push({ type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: spec.text, annotations: [] }] })
  }
  for (const call of spec.functionCalls ?? []) {
    if (typeof call?.name !== 'string') throw new TypeError('startScriptedResponses: every functionCalls entry needs a string `name`')
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {})
    const item = { type: 'function_call', id: nextId('fc'), call_id: call.callId ?? nextId('call'), name: call.name, arguments: args }
    if (typeof call.namespace === 'string') item.namespace = call.namespace
    items.push(item)
  }
  if (items.length === 0) items.push({ type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: '', annotations: [] }] })
  return items
}

function usageOf(spec) {
  return {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
    ...spec.usage,
  }
}

/** The SSE events of one response. */
function sseEvents(spec, responseId, model, nextId) {
  const events = []
  const response = { id: responseId, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'in_progress', output: [] }
  events.push({ type: 'response.created', response })
  const items = outputItems(spec, nextId)
  items.forEach((item, output_index) => {
    const started = item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : item
    events.push({ type: 'response.output_item.added', output_index, item: started })
    if (item.type === 'message') {
      const text = contentText(item.content)
      for (let i = 0; i < text.length; i += 16) {
        events.push({ type: 'response.output_text.delta', item_id: item.id, output_index, content_index: 0, delta: text.slice(i, i + 16) })
      }
    }
    events.push({ type: 'response.output_item.done', output_index, item })
  })
  events.push({ type: 'response.completed', response: { ...response, status: 'completed', output: items, usage: usageOf(spec) } })
  return events
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * Starts the fake on 127.0.0.1 (a free port unless `port` is given).
 * @param {import('./index').ScriptedResponsesOptions} [options]
 * @returns {Promise<import('./index').ScriptedResponses>}
 */
async function startScriptedResponses(options = {}) {
  const turns = options.turns ?? []
  if (!Array.isArray(turns)) throw new TypeError('startScriptedResponses: `turns` must be an array')
  const fallback = options.fallback ?? { text: 'ok' }
  const requests = []
  const tempDirs = []
  let turnIndex = 0
  let seq = 0
  const nextId = (prefix) => `${prefix}_${(++seq).toString(36).padStart(6, '0')}`
  const sockets = new Set()

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
  async function answer(req, res) {
    try {
      const url = new URL(/** @type {string} */ (req.url), 'http://x')
      if (req.method !== 'POST' || !url.pathname.endsWith('/v1/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `No route for ${req.method} ${url.pathname}` } }))
        return
      }
      const text = await readBody(req)
      let body
      try {
        body = JSON.parse(text)
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'body is not JSON' } }))
        return
      }
      const index = turnIndex++
      requests.push(body)
      const entry = index < turns.length ? turns[index] : fallback
      const spec = normalize(typeof entry === 'function' ? await entry(body, { index, fallback: index >= turns.length }) : entry)
      const delay = spec.delayMs ?? options.delayMs ?? 0
      if (delay > 0) await sleep(delay)
      if (spec.error) {
        const status = spec.error.status ?? 500
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { type: spec.error.type ?? 'server_error', code: spec.error.code ?? null, message: spec.error.message ?? 'scripted error' } }))
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
      for (const event of sseEvents(spec, nextId('resp'), body.model ?? DEFAULT_MODEL, nextId)) {
        res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      }
      res.end()
    } catch (err) {
      // What a turn function threw may be anything: read without ever throwing.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { type: 'server_error', message: `scripted turn failed: ${thrownText(err)}` } }))
    }
  }
  // answer() catches everything it does; nothing it returns is waited for.
  const server = http.createServer((req, res) => void answer(req, res))
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise(/** @param {(value?: unknown) => void} resolve */ (resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', resolve)
  })
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port
  const baseUrl = `http://127.0.0.1:${port}/v1`
  const model = options.model ?? DEFAULT_MODEL

  /** The provider settings, as the nested object `@openai/codex-sdk`'s `config` flattens. */
  function config() {
    return {
      model,
      model_provider: 'fake',
      model_providers: { fake: { name: 'fake', base_url: baseUrl, wire_api: 'responses', env_key: KEY_VAR, request_max_retries: 0, stream_max_retries: 0 } },
      features: { plugins: false },
      analytics: { enabled: false },
    }
  }

  /** `config.toml` text with the same settings. */
  function configToml() {
    return [
      `model = ${JSON.stringify(model)}`,
      'model_provider = "fake"',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = ${JSON.stringify(baseUrl)}`,
      'wire_api = "responses"',
      `env_key = "${KEY_VAR}"`,
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '[features]',
      'plugins = false',
      '[analytics]',
      'enabled = false',
      '',
    ].join('\n')
  }

  let home
  /** A fresh temporary CODEX_HOME holding `config.toml` (made once; removed by close()). */
  function codexHome() {
    if (!home) {
      home = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-home-'))
      tempDirs.push(home)
      fs.writeFileSync(path.join(home, 'config.toml'), configToml())
    }
    return home
  }

  /** A fresh temporary working directory (removed by close()). */
  function tempDir() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-cwd-'))
    tempDirs.push(dir)
    return dir
  }

  /** The environment Codex needs to reach only this fake: PATH, HOME/CODEX_HOME, the key, TMPDIR. */
  function env(extra = {}) {
    const h = codexHome()
    const tmp = path.join(h, '..', path.basename(h) + '-tmp')
    fs.mkdirSync(tmp, { recursive: true })
    if (!tempDirs.includes(tmp)) tempDirs.push(tmp)
    return { PATH: process.env.PATH ?? '', HOME: h, CODEX_HOME: h, [KEY_VAR]: 'fake-key', TMPDIR: tmp, ...extra }
  }

  async function close() {
    for (const s of sockets) s.destroy()
    await new Promise(/** @param {(value?: unknown) => void} r */ (r) => server.close(() => r()))
    for (const d of tempDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  }

  return {
    port,
    url: baseUrl,
    requests,
    get turnCount() {
      return turnIndex
    },
    config,
    configToml,
    codexHome,
    tempDir,
    env,
    close,
  }
}

module.exports = {
  startScriptedResponses,
  // Named apart from the Messages helpers of the same idea (testing/index.js re-exports both).
  responsesLastUserText: lastUserText,
  functionCallOutputs,
  lastFunctionCallOutput,
  responsesToolNames: toolNames,
}
