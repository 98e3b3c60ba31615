// Faults from the CLI side: it dies before a result, never answers initialize, prints garbage,
// breaks the control protocol, closes its stdin. Each yields a defined outcome, never a crash, a
// hang or an unhandled rejection in the host.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { sdk, collect, mockOptions, mockPids, eventually, readLog, readStdin, scenarioRecords } from './helpers/sdk.mjs'
import { gone, trapUnhandled, within, tempPath, MiB } from './helpers/process.mjs'

const { query, tool, createSdkMcpServer } = sdk

// --- the CLI dies before a result -----------------------------------------------------------------

/** A server whose `hang` tool never settles and records its abort signal. */
function hangingServer() {
  const state = { signal: null, started: null }
  const started = new Promise((r) => (state.started = r))
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [tool('hang', 'never answers', {}, async (_args, extra) => {
      state.signal = extra.signal
      state.started()
      return new Promise(() => {})
    })],
  })
  return { server, state, started }
}

const NOISE = Array.from({ length: 200 }, (_, i) => `noise line ${i}`).join('\n')

function dyingScenario(end) {
  return `
    export default async function (cli) {
      cli.onControlRequest('set_model', () => cli.SILENT)
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      cli.send({ type: 'control_request', request_id: 'req_tool', request: { subtype: 'mcp_message', server_name: 'demo',
        message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang', arguments: {} } } } })
      await cli.nextControlRequest('set_model')
      await cli.stderr(${JSON.stringify(NOISE)})
      await cli.stderr('fatal: the last words')
      ${end}
    }`
}

for (const [label, end, expected] of [
  ['exit 0', 'await cli.exit(0)', /^Claude Code process exited with code 0 before sending a result\. stderr: [\s\S]*fatal: the last words$/],
  ['exit 3', 'await cli.exit(3)', /^Claude Code process exited with code 3\. stderr: [\s\S]*fatal: the last words$/],
  ['SIGKILL', "await cli.kill('SIGKILL')", /^Claude Code process terminated by signal SIGKILL\. stderr: [\s\S]*fatal: the last words$/],
  ['SIGTERM from elsewhere', "await cli.kill('SIGTERM')", /^Claude Code process terminated by signal SIGTERM\. stderr: [\s\S]*fatal: the last words$/],
]) {
  test(`the CLI dies before a result (${label}): the iterator rejects with it and the stderr tail, control calls reject, handlers are aborted`, async () => {
    const unhandled = trapUnhandled()
    try {
      const { server, state, started } = hangingServer()
      const { log, options } = mockOptions(dyingScenario(end), { mcpServers: { demo: server } })
      const q = query({ prompt: 'hi', options })
      const first = await q.next()
      assert.equal(first.value.subtype, 'init')
      await within(started, 10000, 'the tool handler to start')
      // Not awaited yet on purpose: its rejection must not count as unhandled while we iterate.
      const setModel = q.setModel('claude-x').then(() => 'resolved', (e) => e)
      const { messages, error } = await within(collect(q), 15000, 'the query to end')
      assert.deepEqual(messages, [])
      assert.ok(error instanceof Error, 'the iterator rejects')
      assert.match(error.message, expected)
      assert.ok(!error.message.includes('noise line 0'), 'only the tail of stderr is quoted')
      const controlOutcome = await within(setModel, 5000, 'setModel to settle')
      assert.ok(controlOutcome instanceof Error, `setModel rejects (got ${controlOutcome})`)
      await eventually(() => state.signal.aborted, 5000, 'the in-flight handler to be aborted')
      const [pid] = mockPids(log)
      await eventually(() => gone(pid), 5000, `CLI ${pid} to be gone and reaped`)
      await unhandled.check()
    } finally {
      unhandled.stop()
    }
  })
}

test('a CLI that exits at once, before reading its stdin: a clear error, no EPIPE in the host', async () => {
  const unhandled = trapUnhandled()
  try {
    const cli = tempPath('exits-at-once.sh')
    fs.writeFileSync(cli, '#!/bin/sh\necho "claude: unsupported platform" >&2\nexit 2\n')
    fs.chmodSync(cli, 0o755)
    const { error } = await within(collect(query({ prompt: 'x'.repeat(1 * MiB), options: { pathToClaudeCodeExecutable: cli } })), 15000, 'the query to end')
    assert.equal(error?.message, 'Claude Code process exited with code 2. stderr: claude: unsupported platform')
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

test('the CLI never answers initialize: a clear timeout error (initializeTimeoutMs), the child is killed', async () => {
  const { log, options } = mockOptions(`
    export default async function (cli) {
      cli.onSignal('SIGTERM', () => {})
      setInterval(() => {}, 1000) // stays up even when its stdin closes
      await new Promise(() => {})
    }`, { initializeTimeoutMs: 300 })
  const q = query({ prompt: 'hi', options })
  const init = q.initializationResult().then(() => 'resolved', (e) => e)
  const { messages, error } = await within(collect(q), 15000, 'the query to end')
  assert.deepEqual(messages, [])
  assert.match(error?.message ?? '', /did not answer the initialize request within 300 ms/)
  assert.equal(error.code, 'INITIALIZE_TIMEOUT')
  assert.ok((await init) instanceof Error, 'initializationResult() rejects too')
  const [pid] = mockPids(log)
  await eventually(() => gone(pid), 5000, `CLI ${pid} to be killed`)
})

// --- garbage on stdout ------------------------------------------------------------------------------

test('non-JSON lines, invalid UTF-8, a 64 MB line and a line split over many reads: skipped or reassembled, later messages arrive', async () => {
  const split = { type: 'split', text: 'héllo 🌍 '.repeat(40) }
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      await cli.sendRaw('this is not json\\n')
      await cli.sendRaw('{"type":"assistant","truncated\\n')
      await cli.sendRaw('\\n   \\n')
      await cli.sendBytes(Buffer.from([0xff, 0xfe, 0xc3, 0x0a]))
      await cli.sendBytes(Buffer.concat([Buffer.from('{"type":"bad_utf8","text":"a'), Buffer.from([0xff]), Buffer.from('b"}\\n')]))
      // 64 MB in one line, written directly (the mock would log it otherwise).
      const big = JSON.stringify({ type: 'big', text: 'x'.repeat(64 * 1024 * 1024) }) + '\\n'
      await new Promise((r) => process.stdout.write(big, r))
      // One line in 7-byte pieces: cuts land inside multi-byte characters.
      const bytes = Buffer.from(JSON.stringify(${JSON.stringify(split)}) + '\\n')
      for (let i = 0; i < bytes.length; i += 7) {
        await cli.sendBytes(bytes.subarray(i, i + 7))
        await cli.sleep(1)
      }
      cli.assistantText('after the garbage')
      cli.result()
    }`)
  const unhandled = trapUnhandled()
  try {
    const { messages, error } = await within(collect(query({ prompt: 'hi', options })), 30000, 'the query to end')
    assert.equal(error, null)
    assert.deepEqual(messages.map((m) => m.type), ['system', 'bad_utf8', 'big', 'split', 'assistant', 'result'])
    assert.equal(messages[1].text, 'a\uFFFDb', 'an invalid byte becomes U+FFFD, as Node decodes it')
    assert.equal(messages[2].text.length, 64 * MiB)
    assert.deepEqual(messages[3], split)
    assert.equal(messages[4].message.content[0].text, 'after the garbage')
    assert.equal(messages[5].result, 'after the garbage')
    assert.ok(readLog(log).some((r) => r.kind === 'exit' && r.code === 0))
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

// --- protocol oddities ------------------------------------------------------------------------------

test('control_response for unknown ids, duplicate answers, unknown server/subtype, duplicate request ids: answered or ignored, never a crash or hang', async () => {
  let calls = 0
  let release
  const gate = new Promise((r) => (release = r))
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [tool('count', 'd', {}, async () => {
      calls++
      await gate
      return { content: [{ type: 'text', text: `call ${calls}` }] }
    })],
  })
  const dup = { type: 'control_request', request_id: 'dup_1', request: { subtype: 'mcp_message', server_name: 'demo', message: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'count', arguments: {} } } } }
  const { log, options } = mockOptions(`
    export default async function (cli) {
      // Our set_model is answered twice.
      cli.onControlRequest('set_model', (req, msg) => {
        setTimeout(() => cli.respond(msg.request_id, { again: true }), 10)
        return { first: true }
      })
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      cli.send({ type: 'control_response', response: { subtype: 'success', request_id: 'never_sent_1', response: {} } })
      cli.send({ type: 'control_response', response: { subtype: 'error', request_id: 'never_sent_2', error: 'x' } })
      cli.send({ type: 'control_response' })
      cli.send({ type: 'control_response', response: { subtype: 'success' } })
      cli.send({ type: 'control_cancel_request', request_id: 'never_sent_3' })
      cli.send({ type: 'control_cancel_request' })
      const out = {}
      out.unknownServer = await cli.request('mcp_message', { server_name: 'nope', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })
      out.unknownSubtype = await cli.request('frobnicate', { x: 1 })
      out.noSubtype = await cli.request(undefined, { x: 1 })
      // The same request delivered twice while the first is still running.
      cli.send(${JSON.stringify(dup)})
      cli.send(${JSON.stringify(dup)})
      // The test's canUseTool opens the gate: by then both copies have been read.
      await cli.request('can_use_tool', { tool_name: 'Bash', input: {}, tool_use_id: 't1' })
      out.dupAnswer = (await cli.next((m) => m.type === 'control_response' && m.response.request_id === 'dup_1')).response
      await cli.nextControlRequest('set_model')
      cli.log(out)
      cli.assistantText('still here')
      cli.result()
    }`, {
    mcpServers: { demo: server },
    canUseTool: async () => {
      release()
      return { behavior: 'allow' }
    },
  })
  const unhandled = trapUnhandled()
  try {
    const q = query({ prompt: 'go', options })
    const messages = []
    let setModel
    for await (const m of q) {
      messages.push(m)
      if (m.type === 'system') setModel = q.setModel('m2')
    }
    assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
    assert.equal(await within(setModel, 5000, 'setModel'), undefined, 'setModel resolves once; the second answer is ignored')
    const [out] = scenarioRecords(log)
    assert.equal(out.unknownServer.subtype, 'error')
    assert.match(out.unknownServer.error, /SDK MCP server not found: nope/)
    assert.equal(out.unknownSubtype.subtype, 'error')
    assert.match(out.unknownSubtype.error, /Unsupported control request subtype: frobnicate/)
    assert.equal(out.noSubtype.subtype, 'error', 'a request without a subtype still gets an answer')
    // As the official SDK: a request id already in flight is a duplicate delivery, skipped.
    assert.equal(calls, 1, 'the duplicate delivery did not run the handler a second time')
    assert.deepEqual(out.dupAnswer.response.mcp_response.result, { content: [{ type: 'text', text: 'call 1' }] })
    const dupAnswers = readStdin(log).filter((m) => m.type === 'control_response' && m.response.request_id === 'dup_1')
    assert.equal(dupAnswers.length, 1, 'one answer per request id')
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

// --- stdin EPIPE --------------------------------------------------------------------------------------

test('the CLI closes its stdin and keeps going: answers hit EPIPE, the host does not notice', async () => {
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [tool('big', 'd', {}, async () => ({ content: [{ type: 'text', text: 'z'.repeat(4 * MiB) }] }))],
  })
  let answered = 0
  const { log, options } = mockOptions(`
    import fs from 'node:fs'
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      process.stdin.destroy()
      await cli.waitStdinClosed()
      cli.systemInit()
      for (let i = 0; i < 5; i++) {
        cli.send({ type: 'control_request', request_id: 'r' + i, request: { subtype: 'mcp_message', server_name: 'demo',
          message: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'big', arguments: {} } } } })
        cli.send({ type: 'control_request', request_id: 'p' + i, request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {}, tool_use_id: 't' + i } })
      }
      // Wait for the test to say its callbacks ran (their answers went to the closed pipe).
      while (!fs.existsSync(process.env.MOCK_GO)) await cli.sleep(10)
      cli.assistantText('done')
      cli.result()
      await cli.exit(0)
    }`, {
    canUseTool: async () => {
      answered++
      return { behavior: 'allow' }
    },
    mcpServers: { demo: server },
  })
  const go = tempPath('go')
  options.env = { ...options.env, MOCK_GO: go }
  const unhandled = trapUnhandled()
  try {
    const q = query({ prompt: 'hi', options })
    const messages = []
    for await (const m of q) {
      messages.push(m)
      if (m.type === 'system') {
        // Streaming more input and control requests into the dead pipe, too.
        q.setModel('x').catch(() => {})
        await eventually(() => answered === 5, 10000, 'the callbacks to run')
        await new Promise((r) => setTimeout(r, 100))
        fs.writeFileSync(go, '')
      }
    }
    assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
    assert.ok(readLog(log).some((r) => r.kind === 'stdin_end'))
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

test('the CLI dies while a large answer is being written: the query fails with the exit, nothing uncaught', async () => {
  let started
  const running = new Promise((r) => (started = r))
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [tool('big', 'd', {}, async () => {
      started()
      return { content: [{ type: 'text', text: 'w'.repeat(10 * MiB) }] }
    })],
  })
  const { options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      process.stdin.pause() // stop reading: the 10 MB answer fills the pipe
      cli.send({ type: 'control_request', request_id: 'r1', request: { subtype: 'mcp_message', server_name: 'demo',
        message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } } } })
      await cli.sleep(300)
      await cli.kill('SIGKILL')
    }`, { mcpServers: { demo: server } })
  const unhandled = trapUnhandled()
  try {
    const { messages, error } = await within(collect(query({ prompt: 'hi', options })), 15000, 'the query to end')
    await running
    assert.equal(messages[0]?.subtype, 'init')
    assert.match(error?.message ?? '', /^Claude Code process terminated by signal SIGKILL/)
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

test('streaming input that yields after the CLI died: the iterator still reports the exit, not a write failure', async () => {
  let yieldSecond
  const second = new Promise((r) => (yieldSecond = r))
  let pumped
  const pumpedP = new Promise((r) => (pumped = r))
  const user = (text) => ({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' })
  async function* input() {
    yield user('one')
    await second
    try {
      yield user('two')
    } finally {
      pumped()
    }
  }
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      await cli.stderr('crashed hard')
      await cli.exit(3)
    }`)
  const unhandled = trapUnhandled()
  try {
    const q = query({ prompt: input(), options })
    const first = await q.next()
    assert.equal(first.value.subtype, 'init')
    const [pid] = mockPids(log)
    await eventually(() => gone(pid), 10000, `CLI ${pid} to exit`)
    yieldSecond()
    await within(pumpedP, 5000, 'the input pump to take the second message')
    const { error } = await within(collect(q), 10000, 'the query to end')
    assert.equal(error?.message, 'Claude Code process exited with code 3. stderr: crashed hard')
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})
