// Hostile and unlucky lines from the CLI (issue 31, items 1-4 and 7), side by side with the official
// SDK where it behaves well: control requests under ids that are numbers, hold a lone surrogate,
// repeat the `request_id` key or carry a `null` request are all answered, the id echoed as the CLI
// wrote it; a second answer to `initialize` is ignored; the stream ends at a result with no `idle`
// after it when nothing can still need stdin (and not before, in a multi-turn streaming query);
// a stderr flood while the JS thread is busy is bounded and never reaches the callback after the
// stream ended; a result whose `errors` is a string ends the stream with an error naming it, after
// every message before it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, collect, mockOptions, readLog, scenarioRecords } from './helpers/sdk.mjs'

const SDKS = [['ours', ours], ['official', official]]

/** The raw lines the SDK wrote to the CLI (as read, before parsing). */
function stdinLines(log) {
  return readLog(log).filter((r) => r.kind === 'stdin').map((r) => r.line)
}

// Each line is written as is (JSON.stringify cannot write a repeated key or choose the escapes).
const HOSTILE_REQUESTS = [
  '{"type":"control_request","request_id":7,"request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t1"}}',
  '{"type":"control_request","request_id":"x\\ud800","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{},"tool_use_id":"t2"}}',
  '{"type":"control_request","request_id":"first","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{},"tool_use_id":"t3"},"request_id":"last"}',
  '{"type":"control_request","request_id":"null-request","request":null}',
  '{"type":"control_request","request_id":"a\\u0041","request":{"subtype":"hook_callback","callback_id":"hook_0","input":{}}}',
]

const HOSTILE_CLI = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    await cli.sendRaw(${JSON.stringify(HOSTILE_REQUESTS.join('\n') + '\n')})
    const answers = []
    const deadline = Date.now() + 4000
    while (answers.length < ${HOSTILE_REQUESTS.length} && Date.now() < deadline) {
      const next = await Promise.race([cli.next((m) => m.type === 'control_response'), cli.sleep(deadline - Date.now()).then(() => null)])
      if (next) answers.push(next.response)
    }
    cli.log(answers)
    cli.result()
  }`

test('every control request with a readable id is answered, under the id as the CLI wrote it (number, lone surrogate, last of a repeated key, null request), as the official answers them', async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const { log, options } = mockOptions(HOSTILE_CLI)
    const { error } = await collect(sdk.query({ prompt: 'hi', options }))
    assert.equal(error, null, `${label}: ${error?.message}`)
    const [answers] = scenarioRecords(log)
    runs[label] = { answers, lines: stdinLines(log).filter((l) => l.includes('control_response')) }
  }
  for (const [label, { answers }] of Object.entries(runs)) {
    const byId = new Map(answers.map((a) => [a.request_id, a]))
    assert.equal(answers.length, HOSTILE_REQUESTS.length, `${label}: ${JSON.stringify(answers)}`)
    assert.equal(byId.get(7)?.subtype, 'error', `${label}: a number id is echoed as a number`)
    assert.equal(byId.get('7'), undefined, label)
    assert.match(byId.get(7).error, /canUseTool callback is not provided/)
    assert.equal(byId.get('x\ud800')?.subtype, 'error', `${label}: the lone surrogate survives`)
    assert.equal(byId.get('last')?.subtype, 'error', `${label}: the last request_id counts`)
    assert.equal(byId.get('first'), undefined, label)
    assert.equal(byId.get('null-request')?.subtype, 'error', `${label}: a null request gets an error`)
    assert.equal(byId.get('aA')?.subtype, 'error', `${label}: an unknown hook callback is an error`)
  }
  // Ours echoes the id's bytes: the escapes as the CLI wrote them.
  const raw = runs.ours.lines.join('\n')
  assert.ok(raw.includes('"request_id":7,') || raw.includes('"request_id":7}'), raw)
  assert.ok(raw.includes('"request_id":"x\\ud800"'), raw)
  assert.ok(raw.includes('"request_id":"a\\u0041"'), raw)
  assert.match(runs.ours.answers.find((a) => a.request_id === 'null-request').error, /`request` is missing or null/)
  assert.deepEqual(
    runs.ours.answers.map((a) => [a.request_id, a.subtype]).sort(),
    runs.official.answers.map((a) => [a.request_id, a.subtype]).sort(),
  )
})

test('canUseTool is shown the request id as the CLI wrote it: a number stays a number, a lone surrogate survives, as the official', async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const { options } = mockOptions(HOSTILE_CLI)
    const seen = []
    const canUseTool = async (tool, input, opts) => {
      seen.push([opts.toolUseID, opts.requestId])
      return { behavior: 'deny', message: 'no' }
    }
    const { error } = await collect(sdk.query({ prompt: 'hi', options: { ...options, canUseTool } }))
    assert.equal(error, null, `${label}: ${error?.message}`)
    runs[label] = seen.sort((a, b) => String(a[0]).localeCompare(String(b[0])))
  }
  assert.deepEqual(runs.ours, [['t1', 7], ['t2', 'x\ud800'], ['t3', 'last']])
  assert.deepEqual(runs.ours, runs.official)
})

const DUPLICATE_INIT_CLI = `
  export default async function (cli) {
    await cli.initialize()
    const init = cli.received.find((m) => m.type === 'control_request' && m.request.subtype === 'initialize')
    cli.send({ type: 'control_response', response: { subtype: 'error', request_id: init.request_id, error: 'duplicate initialize answer' } })
    cli.send({ type: 'control_response', response: { subtype: 'success', request_id: 'never-sent', response: {} } })
    await cli.nextUserMessage()
    cli.sessionState('running')
    cli.systemInit()
    cli.assistantText('one')
    cli.send({ type: 'control_response', response: { subtype: 'error', request_id: init.request_id, error: 'and again' } })
    cli.assistantText('two')
    cli.result()
    cli.sessionState('idle')
  }`

test('a second answer to initialize (an error) is ignored: every message is delivered and the query ends cleanly, as the official', async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const { options } = mockOptions(DUPLICATE_INIT_CLI)
    const q = sdk.query({ prompt: 'hi', options })
    const { messages, error } = await collect(q)
    runs[label] = { error: error?.message ?? null, types: messages.map((m) => m.type) }
  }
  assert.deepEqual(runs.ours, { error: null, types: ['system', 'assistant', 'assistant', 'result'] })
  assert.deepEqual(runs.ours, runs.official)
})

/** A CLI that says `running`, answers, and never says `idle`; it logs when its stdin closed. */
const NO_IDLE_CLI = (waitMs) => `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.sessionState('running')
    cli.systemInit()
    cli.assistantText('done')
    const at = Date.now()
    cli.result()
    const closed = await Promise.race([cli.waitStdinClosed().then(() => true), cli.sleep(${waitMs}).then(() => false)])
    cli.log({ closed, afterMs: Date.now() - at })
    if (!closed) {
      cli.sessionState('idle')
      await cli.waitStdinClosed()
    }
  }`

/** Each SDK on NO_IDLE_CLI: whether stdin closed within `waitMs` of the result, and the messages. */
async function noIdleRuns(waitMs, extra = {}, env = {}, afterMs = {}) {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const { log, options } = mockOptions(NO_IDLE_CLI(waitMs), extra)
    Object.assign(options.env, env)
    const { messages, error } = await collect(sdk.query({ prompt: 'hi', options }))
    assert.equal(error, null, `${label}: ${error?.message}`)
    const [record] = scenarioRecords(log)
    runs[label] = { closed: record.closed, types: messages.map((m) => m.type) }
    afterMs[label] = record.afterMs
  }
  return runs
}

test('after a result with no idle state following, stdin closes at once when nothing can still need it, as the official', { timeout: 30000 }, async () => {
  const runs = await noIdleRuns(5000)
  assert.deepEqual(runs.ours, { closed: true, types: ['system', 'assistant', 'result'] })
  assert.deepEqual(runs.ours, runs.official)
})

test('with a callback the CLI may still call (canUseTool), stdin stays open after such a result until the CLI says idle, as the official', async () => {
  const runs = await noIdleRuns(600, { canUseTool: async () => ({ behavior: 'allow', updatedInput: {} }) })
  assert.deepEqual(runs.ours, { closed: false, types: ['system', 'assistant', 'result'] })
  assert.deepEqual(runs.ours, runs.official)
})

test('...and closes once CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS passes with no idle (the official\'s ceiling, 10 minutes by default; 0: none)', { timeout: 30000 }, async () => {
  const canUseTool = async () => ({ behavior: 'allow', updatedInput: {} })
  const afterMs = {}
  const runs = await noIdleRuns(8000, { canUseTool }, { CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS: ' 3e2 ' }, afterMs)
  assert.deepEqual(runs.ours, { closed: true, types: ['system', 'assistant', 'result'] })
  assert.deepEqual(runs.ours, runs.official)
  assert.ok(afterMs.ours >= 250, `ours closed ${afterMs.ours} ms after the result, before the ceiling`)
  const never = await noIdleRuns(1000, { canUseTool }, { CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS: '0' })
  assert.deepEqual(never.ours, { closed: false, types: ['system', 'assistant', 'result'] })
  assert.deepEqual(never.ours, never.official)
})

// Two turns, each a result with no idle after it; the second prompt is sent only once the first
// result was seen. Ending at the first result would lose the second turn.
const TWO_TURNS_NO_IDLE_CLI = `
  export default async function (cli) {
    await cli.initialize()
    for (let turn = 1; ; turn++) {
      try { await cli.nextUserMessage() } catch { return }
      cli.sessionState('running')
      if (turn === 1) cli.systemInit()
      cli.assistantText('turn ' + turn)
      cli.result()
    }
  }`

test('a streaming-input query is not ended at a result while its input goes on (no idle state after results), as the official', { timeout: 30000 }, async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const { options } = mockOptions(TWO_TURNS_NO_IDLE_CLI)
    let firstResult
    const seen = new Promise((r) => (firstResult = r))
    async function* prompt() {
      yield { type: 'user', message: { role: 'user', content: 'one' }, parent_tool_use_id: null, session_id: '' }
      await seen
      await new Promise((r) => setTimeout(r, 300))
      yield { type: 'user', message: { role: 'user', content: 'two' }, parent_tool_use_id: null, session_id: '' }
    }
    const messages = []
    let error = null
    try {
      for await (const m of sdk.query({ prompt: prompt(), options })) {
        messages.push(m)
        if (m.type === 'result') firstResult()
      }
    } catch (e) {
      error = e.message
    }
    runs[label] = { error, texts: messages.filter((m) => m.type === 'assistant').map((m) => m.message.content[0].text), results: messages.filter((m) => m.type === 'result').length }
  }
  assert.deepEqual(runs.ours, { error: null, texts: ['turn 1', 'turn 2'], results: 2 })
  assert.deepEqual(runs.ours, runs.official)
})

// The CLI floods stderr while the JS thread is busy, then answers. What reaches the callback is
// bounded by what JS takes (the CLI waits), and nothing arrives once the iterator has ended.
const FLOOD_MB = 40
const FLOOD_CLI = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    const chunk = 'e'.repeat(65535) + '\\n'
    for (let i = 0; i < ${FLOOD_MB} * 16; i++) {
      if (!process.stderr.write(chunk)) await new Promise((r) => process.stderr.once('drain', r))
      if (i % 16 === 15) cli.log({ writtenMb: (i + 1) / 16 })
    }
    cli.result()
    cli.sessionState('idle')
  }`

/** This process's peak RSS (VmHWM) in MB; `reset` starts a new peak (Linux). */
function peakRssMb(reset = false) {
  if (reset) fs.writeFileSync('/proc/self/clear_refs', '5')
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))
  return Number(m[1]) / 1024
}

test('a stderr flood while the JS thread is busy: bounded in memory (the CLI waits), and no chunk reaches the callback after the iterator ended', { skip: process.platform !== 'linux' && 'reads /proc', timeout: 60000 }, async () => {
  let bytes = 0
  let afterEnd = 0
  let ended = false
  let busyEnd
  const { log, options } = mockOptions(FLOOD_CLI, {
    stderr: (chunk) => {
      if (ended) afterEnd += chunk.length
      else bytes += chunk.length
    },
  })
  globalThis.gc?.()
  const base = peakRssMb(true)
  const q = ours.query({ prompt: 'hi', options })
  const types = []
  for await (const m of q) {
    types.push(m.type)
    if (m.type === 'system') {
      // Busy: the CLI writes meanwhile.
      const until = Date.now() + 1500
      while (Date.now() < until);
      busyEnd = Date.now()
    }
  }
  ended = true
  const grew = peakRssMb() - base
  await new Promise((r) => setTimeout(r, 500))
  assert.deepEqual(types, ['system', 'result'])
  assert.equal(afterEnd, 0, 'no stderr after the end')
  // All but what was still in flight at the end (the bound plus a pipe's worth) was delivered.
  assert.ok(bytes > (FLOOD_MB - 1) * 1024 * 1024, `delivered ${bytes}`)
  // While JS was busy the CLI could write only what the bound and the pipe hold (unbounded: all of it).
  const writtenWhileBusy = Math.max(0, ...readLog(log).filter((r) => r.kind === 'scenario' && r.ts <= busyEnd).map((r) => r.data.writtenMb))
  assert.ok(writtenWhileBusy <= 2, `the CLI wrote ${writtenWhileBusy} MB while JS was busy`)
  // Unbounded, the flood itself (40 MB) sat in memory while JS was busy. (Bun's collector keeps
  // the delivered chunks' garbage longer: its peak says little about what we hold.)
  if (!process.versions.bun) assert.ok(grew < FLOOD_MB / 2, `peak RSS grew ${grew.toFixed(1)} MB`)
})

test('a stderr callback gets nothing after break, even what the CLI wrote before', { timeout: 30000 }, async () => {
  let afterBreak = 0
  let broke = false
  const { options } = mockOptions(FLOOD_CLI, { stderr: (chunk) => { if (broke) afterBreak += chunk.length } })
  for await (const m of ours.query({ prompt: 'hi', options })) {
    if (m.type === 'system') {
      const until = Date.now() + 300
      while (Date.now() < until);
      broke = true
      break
    }
  }
  await new Promise((r) => setTimeout(r, 500))
  assert.equal(afterBreak, 0)
})

const MALFORMED_RESULT_CLI = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    const lines = [
      { type: 'system', subtype: 'init', session_id: 's', tools: [], mcp_servers: [], model: 'm', permissionMode: 'default', apiKeySource: 'none', cwd: process.cwd(), slash_commands: [], output_style: 'default', uuid: 'u0' },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'a' }] }, parent_tool_use_id: null, session_id: 's', uuid: 'u1' },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'b' }] }, parent_tool_use_id: null, session_id: 's', uuid: 'u2' },
      { type: 'result', subtype: 'error_during_execution', is_error: true, errors: 'the model ran away', session_id: 's', uuid: 'u3', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} },
    ]
    await cli.sendRaw(lines.map((l) => JSON.stringify(l)).join('\\n') + '\\n')
    await cli.exit(1)
  }`

test('a result whose errors is a string: every message before it is delivered, then an error describing the malformed result (the official throws a TypeError)', async () => {
  const { options } = mockOptions(MALFORMED_RESULT_CLI)
  const { messages, error } = await collect(ours.query({ prompt: 'hi', options }))
  assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'assistant'])
  assert.ok(error instanceof Error)
  assert.ok(!(error instanceof TypeError))
  assert.match(error.message, /malformed result \(subtype error_during_execution\): its `errors` is a string, not an array of strings: "the model ran away"/)
})
