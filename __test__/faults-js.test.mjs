// Faults from the JS side: tool handlers, canUseTool and hooks that throw, return nonsense, return
// a lot, or never settle; a consumer that stops iterating or never starts. Each has a defined
// outcome (the official SDK's where it has one) and the session goes on.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { sdk, collect, mockOptions, mockPids, eventually, scenarioRecords } from './helpers/sdk.mjs'
import { gone, childrenOf, trapUnhandled, within, tempPath, forceGc, runHost, entry, root, MiB, mib } from './helpers/process.mjs'

const { query, tool, createSdkMcpServer, AbortError } = sdk

const text = (t) => ({ content: [{ type: 'text', text: t }] })

// --- tool handler outcomes -------------------------------------------------------------------------

test('tool handlers that throw, reject, return undefined, a non-object or 10 MB: the official outcomes, and the session goes on', async () => {
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [
      tool('syncThrow', 'd', {}, () => { throw new Error('sync boom') }),
      tool('rejects', 'd', {}, async () => { throw new Error('async boom') }),
      tool('undef', 'd', {}, async () => undefined),
      tool('num', 'd', {}, async () => 42),
      tool('str', 'd', {}, () => 'just a string'),
      tool('nul', 'd', {}, async () => null),
      tool('big', 'd', {}, async () => text('b'.repeat(10 * MiB))),
      tool('ok', 'd', {}, async () => text('fine')),
    ],
  })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      const out = {}
      for (const name of ['syncThrow', 'rejects', 'undef', 'num', 'str', 'nul', 'big', 'ok']) {
        const r = await cli.mcp('demo', { method: 'tools/call', params: { name, arguments: {} } })
        out[name] = name === 'big' ? { length: r.result.content[0].text.length, isError: r.result.isError ?? false } : r
      }
      cli.log(out)
      cli.assistantText('after the failures')
      cli.result()
    }`, { mcpServers: { demo: server } })
  const unhandled = trapUnhandled()
  try {
    const { messages, error } = await within(collect(query({ prompt: 'go', options })), 20000, 'the query to end')
    assert.equal(error, null)
    assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
    const [out] = scenarioRecords(log)
    assert.deepEqual(out.syncThrow.result, { content: [{ type: 'text', text: 'sync boom' }], isError: true })
    assert.deepEqual(out.rejects.result, { content: [{ type: 'text', text: 'async boom' }], isError: true })
    for (const [name, received] of [['undef', 'undefined'], ['num', 'number'], ['str', 'string'], ['nul', 'null']]) {
      assert.equal(out[name].result, undefined, `${name}: a JSON-RPC error, not a result`)
      assert.equal(out[name].error.code, -32602)
      assert.match(out[name].error.message, /^MCP error -32602: Invalid tools\/call result: /)
      assert.match(out[name].error.message, new RegExp(`expected object, received ${received}`))
    }
    assert.deepEqual(out.big, { length: 10 * MiB, isError: false })
    assert.deepEqual(out.ok.result, text('fine'))
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

// --- never-settling callbacks ----------------------------------------------------------------------

/** Never-settling callbacks that record their signal and touch a marker file when they start. */
function hanging() {
  const keep = [] // never-settled promises stay referenced: only the engine may give up on them
  const signals = {}
  const marks = {}
  const make = (name) => {
    marks[name] = tempPath(`${name}.started`)
    return (...args) => {
      const { signal } = args.find((a) => a && a.signal instanceof AbortSignal)
      signals[name] = signal
      fs.writeFileSync(marks[name], '')
      const p = new Promise(() => {})
      keep.push(p)
      return p
    }
  }
  return { make, signals, marks, keep }
}

test('a never-settling tool: control_cancel_request fires its signal, and the session still ends when the CLI is done', async () => {
  const h = hanging()
  const server = createSdkMcpServer({ name: 'demo', tools: [tool('hang', 'd', {}, h.make('tool'))] })
  const { log, options } = mockOptions(`
    import fs from 'node:fs'
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.sessionState('running')
      cli.systemInit()
      cli.send({ type: 'control_request', request_id: 'req_hang', request: { subtype: 'mcp_message', server_name: 'demo',
        message: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hang', arguments: {} } } } })
      while (!fs.existsSync(${JSON.stringify(h.marks.tool)})) await cli.sleep(5)
      cli.send({ type: 'control_cancel_request', request_id: 'req_hang' })
      cli.assistantText('moved on')
      cli.result()
      cli.sessionState('idle')
    }`, { mcpServers: { demo: server } })
  const q = query({ prompt: 'go', options })
  try {
    const run = collect(q)
    await eventually(() => h.signals.tool?.aborted, 10000, 'the handler signal to fire on control_cancel_request')
    // The CLI gave up on the call; the session must not wait for it (the official SDK does not).
    const { messages, error } = await within(run, 5000, 'the query to end after the result (the cancelled call still counts as in flight)')
    assert.equal(error, null)
    assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
    await eventually(() => gone(mockPids(log)[0]), 5000, 'the CLI to exit')
  } finally {
    q.close()
  }
})

test('a never-settling tool: an MCP notifications/cancelled for its request fires its signal, as in the official SDK', async () => {
  const h = hanging()
  const server = createSdkMcpServer({ name: 'demo', tools: [tool('hang', 'd', {}, h.make('tool'))] })
  const { options } = mockOptions(`
    import fs from 'node:fs'
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      cli.send({ type: 'control_request', request_id: 'req_hang', request: { subtype: 'mcp_message', server_name: 'demo',
        message: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hang', arguments: {} } } } })
      while (!fs.existsSync(${JSON.stringify(h.marks.tool)})) await cli.sleep(5)
      await cli.mcp('demo', { method: 'notifications/cancelled', params: { requestId: 9, reason: 'interrupted' } })
      await new Promise(() => {})
    }`, { mcpServers: { demo: server } })
  const q = query({ prompt: 'go', options })
  try {
    await q.next()
    await eventually(() => h.signals.tool?.aborted, 3000, 'the handler signal to fire on notifications/cancelled')
  } finally {
    q.close()
  }
})

test('a never-settling tool when the query is aborted: its signal fires, AbortError, no process left', async () => {
  const h = hanging()
  const server = createSdkMcpServer({ name: 'demo', tools: [tool('hang', 'd', {}, h.make('tool'))] })
  const abortController = new AbortController()
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      await cli.mcp('demo', { method: 'tools/call', params: { name: 'hang', arguments: {} } })
    }`, { mcpServers: { demo: server }, abortController })
  const q = query({ prompt: 'go', options })
  await q.next()
  await eventually(() => fs.existsSync(h.marks.tool), 10000, 'the handler to start')
  abortController.abort()
  const { error } = await within(collect(q), 5000, 'the query to end')
  assert.ok(error instanceof AbortError)
  await eventually(() => h.signals.tool.aborted, 5000, 'the handler signal to fire')
  await eventually(() => gone(mockPids(log)[0]), 10000, 'the CLI to exit')
})

test('break out of the loop while a handler runs: its signal fires', async () => {
  const h = hanging()
  const server = createSdkMcpServer({ name: 'demo', tools: [tool('hang', 'd', {}, h.make('tool'))] })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.mcp('demo', { method: 'tools/call', params: { name: 'hang', arguments: {} } }).catch(() => {})
      cli.systemInit()
      await new Promise(() => {})
    }`, { mcpServers: { demo: server } })
  for await (const m of query({ prompt: 'go', options })) {
    await eventually(() => fs.existsSync(h.marks.tool), 10000, 'the handler to start')
    if (m.type === 'system') break
  }
  await eventually(() => h.signals.tool.aborted, 5000, 'the handler signal to fire')
  await eventually(() => gone(mockPids(log)[0]), 10000, 'the CLI to exit')
})

// --- canUseTool and hooks ----------------------------------------------------------------------------

test('canUseTool and hooks that throw (sync or async): deny / error with the message, the session goes on', async () => {
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const ask = (tool_name, id) => cli.request('can_use_tool', { tool_name, input: {}, tool_use_id: id })
      const hook = (callback_id, id) => cli.request('hook_callback', { callback_id, input: { hook_event_name: 'PreToolUse', tool_name: 'Bash' }, tool_use_id: id })
      cli.log(await Promise.all([ask('SyncThrow', 't1'), ask('AsyncThrow', 't2'), hook('hook_0', 't3'), hook('hook_1', 't4'), hook('hook_99', 't5')]))
      cli.assistantText('carried on')
      cli.result()
    }`, {
    canUseTool: (name) => {
      if (name === 'SyncThrow') throw new Error('policy engine down (sync)')
      return Promise.reject(new Error('policy engine down (async)'))
    },
    hooks: { PreToolUse: [{ hooks: [() => { throw new Error('hook exploded (sync)') }, async () => { throw new Error('hook exploded (async)') }] }] },
  })
  const unhandled = trapUnhandled()
  try {
    const { messages, error } = await within(collect(query({ prompt: 'go', options })), 10000, 'the query to end')
    assert.equal(error, null)
    assert.deepEqual(messages.map((m) => m.type), ['assistant', 'result'])
    const [[sync, async_, hookSync, hookAsync, hookMissing]] = scenarioRecords(log)
    assert.deepEqual(sync.response, { behavior: 'deny', message: 'policy engine down (sync)', toolUseID: 't1' })
    assert.deepEqual(async_.response, { behavior: 'deny', message: 'policy engine down (async)', toolUseID: 't2' })
    assert.equal(hookSync.subtype, 'error')
    assert.equal(hookSync.error, 'hook exploded (sync)')
    assert.equal(hookAsync.subtype, 'error')
    assert.equal(hookAsync.error, 'hook exploded (async)')
    assert.equal(hookMissing.subtype, 'error')
    assert.match(hookMissing.error, /hook_99/)
    await unhandled.check()
  } finally {
    unhandled.stop()
  }
})

test('canUseTool and a hook that never settle: the CLI cancels them (its hook timeout), their signals fire, the session ends', async () => {
  const h = hanging()
  const canUseTool = h.make('perm')
  const hook = h.make('hook')
  const { log, options } = mockOptions(`
    import fs from 'node:fs'
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.sessionState('running')
      cli.systemInit()
      cli.send({ type: 'control_request', request_id: 'perm_1', request: { subtype: 'can_use_tool', tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 't1' } })
      cli.send({ type: 'control_request', request_id: 'hook_1', request: { subtype: 'hook_callback', callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse' }, tool_use_id: 't2' } })
      while (!fs.existsSync(${JSON.stringify(h.marks.perm)}) || !fs.existsSync(${JSON.stringify(h.marks.hook)})) await cli.sleep(5)
      cli.send({ type: 'control_cancel_request', request_id: 'perm_1' })
      cli.send({ type: 'control_cancel_request', request_id: 'hook_1' })
      cli.assistantText('the hook timed out; carrying on')
      cli.result()
      cli.sessionState('idle')
    }`, {
    canUseTool,
    hooks: { PreToolUse: [{ hooks: [hook], timeout: 1 }] },
  })
  const q = query({ prompt: 'go', options })
  try {
    const run = collect(q)
    await eventually(() => h.signals.perm?.aborted && h.signals.hook?.aborted, 10000, 'both signals to fire on control_cancel_request')
    const { messages, error } = await within(run, 5000, 'the query to end after the result (the cancelled callbacks still count as in flight)')
    assert.equal(error, null)
    assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
    await eventually(() => gone(mockPids(log)[0]), 5000, 'the CLI to exit')
  } finally {
    q.close()
  }
})

test('a control_cancel_request right behind its request is not lost: the callback sees its signal aborted', async () => {
  // The official SDK registers the request's AbortController as it reads the request, so a cancel
  // that follows at once still reaches the callback (its signal is already aborted when it runs).
  const signals = []
  const keep = []
  const { options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      for (let i = 0; i < 100; i++) {
        cli.send({ type: 'control_request', request_id: 'p' + i, request: { subtype: 'can_use_tool', tool_name: 'Bash', input: {}, tool_use_id: 't' + i } })
        cli.send({ type: 'control_cancel_request', request_id: 'p' + i })
      }
      await new Promise(() => {})
    }`, {
    canUseTool: (name, input, { signal }) => {
      signals.push(signal)
      const p = new Promise(() => {})
      keep.push(p)
      return p
    },
  })
  const q = query({ prompt: 'go', options })
  try {
    await q.next()
    await eventually(() => signals.length === 100, 10000, 'the 100 callbacks to run')
    await eventually(() => signals.every((s) => s.aborted), 3000, 'every signal to be aborted').catch((e) => {
      throw new Error(`${e.message}: ${signals.filter((s) => !s.aborted).length} of 100 cancels were lost`)
    })
  } finally {
    q.close()
  }
})

test('never-settling callbacks whose promises are garbage-collected are not answered behind the user\'s back', async () => {
  // Nothing references these promises but the engine's await: a GC must not turn them into a
  // "deny" / error / isError answer (the official SDK just never answers).
  let started = 0
  const server = createSdkMcpServer({ name: 'demo', tools: [tool('hang', 'd', {}, async () => { started++; return new Promise(() => {}) })] })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      cli.onControlRequest('set_model', () => ({}))
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      const answers = {}
      cli.request('can_use_tool', { tool_name: 'Bash', input: {}, tool_use_id: 't1' }).then((r) => (answers.canUseTool = r))
      cli.request('hook_callback', { callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse' }, tool_use_id: 't2' }).then((r) => (answers.hook = r))
      cli.mcp('demo', { method: 'tools/call', params: { name: 'hang', arguments: {} } }).then((r) => (answers.tool = r))
      await cli.nextControlRequest('set_model') // the test has collected garbage by now
      cli.log(answers)
      await new Promise(() => {})
    }`, {
    mcpServers: { demo: server },
    canUseTool: async () => { started++; return new Promise(() => {}) },
    hooks: { PreToolUse: [{ hooks: [async () => { started++; return new Promise(() => {}) }] }] },
  })
  const q = query({ prompt: 'go', options })
  try {
    await q.next()
    await eventually(() => started === 3, 10000, 'the three callbacks to start')
    for (let i = 0; i < 5; i++) {
      forceGc()
      await new Promise((r) => setTimeout(r, 20))
    }
    await q.setModel('after-gc')
    await eventually(() => scenarioRecords(log).length > 0, 5000, 'the mock to report')
    const [answers] = scenarioRecords(log)
    assert.deepEqual(answers, {}, `no callback was answered: ${JSON.stringify(answers)}`)
  } finally {
    q.close()
  }
})

// --- the real CLI ------------------------------------------------------------------------------------

test('real CLI 2.1.332: a PreToolUse hook that never settles times out in the CLI; its signal fires and the session ends', async () => {
  const { startScriptedModel, toolResultText, lastToolResult } = await import('../testing/index.mjs')
  const cliPath = path.join(root, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
  const h = hanging()
  const hook = h.make('hook')
  let toolCalls = 0
  const server = createSdkMcpServer({ name: 'demo', tools: [tool('greet', 'd', {}, async () => { toolCalls++; return text('hi') })] })
  const model = await startScriptedModel({
    turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: {} }] }, (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) })],
  })
  let stderr = ''
  const before = new Set(childrenOf())
  const q = query({
    prompt: 'greet',
    options: {
      pathToClaudeCodeExecutable: cliPath, env: model.env(), cwd: model.tempDir('hook-timeout-'), stderr: (d) => (stderr += d),
      mcpServers: { demo: server }, allowedTools: ['mcp__demo__greet'],
      hooks: { PreToolUse: [{ hooks: [hook], timeout: 1 }] },
    },
  })
  const messages = []
  let resultAt
  const run = (async () => {
    for await (const m of q) {
      messages.push(m)
      if (m.type === 'result') resultAt = Date.now()
    }
  })()
  try {
    await eventually(() => h.signals.hook?.aborted, 20000, `the CLI to time the hook out; stderr: ${stderr}`)
    await eventually(() => resultAt, 20000, `the result; stderr: ${stderr}`)
    // The promise is still referenced (h.keep), so only the engine can let the session end.
    await within(run, 5000, 'the query to end after the result (the timed-out hook still counts as in flight)')
    const result = messages.find((m) => m.type === 'result')
    assert.equal(result.subtype, 'success')
    assert.match(result.result, /^Tool said: PreToolUse hook did not respond before its timeout/)
    assert.equal(toolCalls, 0, 'the tool did not run')
  } finally {
    q.close()
    const cliPids = childrenOf().filter((p) => !before.has(p))
    await eventually(() => cliPids.every(gone), 15000, 'the CLI to exit')
    await model.close()
  }
})
