// The engine against the mock CLI: messages, initialize, and every routing path of the control
// protocol (mcp_message, can_use_tool, unknown subtypes), including their error paths.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { z } from 'zod'
import { sdk, collect, mockOptions, readLog, readStdin, scenarioRecords } from './helpers/sdk.mjs'

const { query, tool, createSdkMcpServer } = sdk

function greetServer(handler = async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] })) {
  return createSdkMcpServer({ name: 'demo', version: '1.0.0', tools: [tool('greet', 'Greet someone', { name: z.string() }, handler)] })
}

test('yields every message the CLI prints, unchanged, and hides host-only ones', async () => {
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.sessionState('running')
      cli.systemInit()
      cli.send({ type: 'stream_event', event: { type: 'message_start' }, session_id: cli.sessionId, parent_tool_use_id: null, uuid: 'u1' })
      cli.assistantText('héllo "world" 🌍')
      cli.send({ type: 'brand_new_type', payload: [1, { deep: true }] })
      cli.send({ type: 'keep_alive' })
      cli.result()
      cli.sessionState('idle')
    }`)
  const { messages, error } = await collect(query({ prompt: 'hi', options }))
  assert.equal(error, null)
  const sent = readLog(log).filter((r) => r.kind === 'stdout').map((r) => JSON.parse(r.line))
  const visible = sent.filter((m) => !m.sdk_host_only && m.type !== 'control_response' && m.type !== 'keep_alive')
  assert.deepEqual(messages, visible)
  assert.deepEqual(messages.map((m) => m.type), ['system', 'stream_event', 'assistant', 'brand_new_type', 'result'])
})

test('writes initialize (with manifests) then the prompt, as the official SDK does', async () => {
  const { log, options } = mockOptions(undefined, { mcpServers: { demo: greetServer() } })
  const { error } = await collect(query({ prompt: 'greet Alice', options }))
  assert.equal(error, null)
  const [init, user] = readStdin(log)
  assert.equal(init.type, 'control_request')
  assert.deepEqual(Object.keys(init.request), ['subtype', 'sdkMcpServers', 'sdkMcpServerManifests', 'systemPrompt'])
  assert.deepEqual(init.request.sdkMcpServers, ['demo'])
  assert.deepEqual(init.request.systemPrompt, [''])
  const manifest = init.request.sdkMcpServerManifests.demo
  assert.deepEqual(manifest.initializeResult.serverInfo, { name: 'demo', version: '1.0.0' })
  assert.equal(manifest.toolsListResult.tools[0].name, 'greet')
  assert.deepEqual(user, { type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: 'greet Alice' }] }, parent_tool_use_id: null })
})

const HANDSHAKE = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    const out = {}
    out.init = await cli.mcp('demo', { method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.197' } }, id: 0 })
    out.initialized = await cli.mcp('demo', { method: 'notifications/initialized' })
    out.list = await cli.mcp('demo', { method: 'tools/list', id: 1 })
    out.ping = await cli.mcp('demo', { method: 'ping', id: 2 })
    out.unknownMethod = await cli.mcp('demo', { method: 'resources/list', id: 3 })
    out.call = await cli.mcp('demo', { method: 'tools/call', params: { name: 'greet', arguments: { name: 'Alice' }, _meta: { 'claudecode/toolUseId': 'toolu_1', progressToken: 4 } }, id: 4 })
    out.unknownServer = await cli.request('mcp_message', { server_name: 'nope', message: { jsonrpc: '2.0', method: 'tools/list', id: 5 } })
    out.unknownSubtype = await cli.request('frobnicate', { x: 1 })
    cli.log(out)
    cli.systemInit()
    cli.result()
  }`

test('mcp_message: the older handshake, tools/call, ping, unknown method, unknown server, unknown subtype', async () => {
  const { log, options } = mockOptions(HANDSHAKE, { mcpServers: { demo: greetServer() } })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [out] = scenarioRecords(log)
  assert.deepEqual(out.init, { result: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'demo', version: '1.0.0' } }, jsonrpc: '2.0', id: 0 })
  assert.deepEqual(out.initialized, { jsonrpc: '2.0', result: {}, id: 0 })
  assert.equal(out.list.result.tools[0].name, 'greet')
  assert.deepEqual(out.list.result.tools[0].inputSchema.properties, { name: { type: 'string' } })
  assert.deepEqual(out.ping, { result: {}, jsonrpc: '2.0', id: 2 })
  assert.equal(out.unknownMethod.error.code, -32601)
  assert.equal(out.unknownMethod.id, 3)
  assert.deepEqual(out.call, { result: { content: [{ type: 'text', text: 'Hello, Alice!' }] }, jsonrpc: '2.0', id: 4 })
  assert.equal(out.unknownServer.subtype, 'error')
  assert.match(out.unknownServer.error, /SDK MCP server not found: nope/)
  assert.equal(out.unknownSubtype.subtype, 'error')
  assert.match(out.unknownSubtype.error, /Unsupported control request subtype: frobnicate/)
})

function callScenario(calls) {
  return `
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const out = []
      for (const [name, args] of ${JSON.stringify(calls)}) {
        out.push(await cli.mcp('demo', { method: 'tools/call', params: { name, arguments: args }, id: out.length + 10 }))
      }
      cli.log(out)
      cli.result()
    }`
}

test('handler failures and rich results: throw, reject, {content,isError} passthrough, images', async () => {
  const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }
  const resource = { type: 'resource', resource: { uri: 'file:///x.txt', text: 'x', mimeType: 'text/plain' } }
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [
      tool('throws', 'd', {}, () => { throw new Error('boom') }),
      tool('rejects', 'd', {}, async () => { throw new Error('async boom') }),
      tool('custom', 'd', {}, async () => ({ content: [{ type: 'text', text: 'nope' }], isError: true })),
      tool('rich', 'd', {}, async () => ({ content: [image, resource] })),
    ],
  })
  const { log, options } = mockOptions(callScenario([['throws', {}], ['rejects', {}], ['custom', {}], ['rich', {}]]), { mcpServers: { demo: server } })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [[thrown, rejected, custom, rich]] = scenarioRecords(log)
  assert.deepEqual(thrown.result, { content: [{ type: 'text', text: 'boom' }], isError: true })
  assert.deepEqual(rejected.result, { content: [{ type: 'text', text: 'async boom' }], isError: true })
  assert.deepEqual(custom.result, { content: [{ type: 'text', text: 'nope' }], isError: true })
  assert.deepEqual(rich.result, { content: [image, resource] })
})

test('invalid arguments become an isError result naming the field; the handler is not called', async () => {
  let called = 0
  let received
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [tool('t', 'd', { city: z.string(), days: z.number().int().default(3) }, async (args) => {
      called++
      received = args
      return { content: [{ type: 'text', text: 'ok' }] }
    })],
  })
  const { log, options } = mockOptions(callScenario([['t', { city: 42 }], ['t', { city: 'Paris' }]]), { mcpServers: { demo: server } })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [[bad, good]] = scenarioRecords(log)
  assert.equal(bad.result.isError, true)
  assert.match(bad.result.content[0].text, /^MCP error -32602: Input validation error: Invalid arguments for tool t: /)
  assert.match(bad.result.content[0].text, /city/)
  assert.deepEqual(good.result, { content: [{ type: 'text', text: 'ok' }] })
  assert.equal(called, 1)
  assert.deepEqual(received, { city: 'Paris', days: 3 }, 'the handler gets the parsed input, defaults filled')
})

test('can_use_tool: allow echoes the input, updatedInput wins, deny, and a throw denies with its message', async () => {
  const scenario = `
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const ask = (tool_name, input, id) => cli.request('can_use_tool', { tool_name, input, tool_use_id: id, permission_suggestions: [] })
      cli.log(await Promise.all([ask('Bash', { command: 'ls' }, 't1'), ask('Edit', { path: 'a' }, 't2'), ask('Write', {}, 't3'), ask('Throw', {}, 't4')]))
      cli.result()
    }`
  const seen = []
  const { log, options } = mockOptions(scenario, {
    canUseTool: async (toolName, input, opts) => {
      seen.push({ toolName, input, toolUseID: opts.toolUseID, aborted: opts.signal.aborted })
      if (toolName === 'Bash') return { behavior: 'allow' }
      if (toolName === 'Edit') return { behavior: 'allow', updatedInput: { path: 'b' } }
      if (toolName === 'Write') return { behavior: 'deny', message: 'no writing' }
      throw new Error('policy engine down')
    },
  })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [[bash, edit, write, thrown]] = scenarioRecords(log)
  assert.deepEqual(bash.response, { behavior: 'allow', updatedInput: { command: 'ls' }, toolUseID: 't1' })
  assert.deepEqual(edit.response, { behavior: 'allow', updatedInput: { path: 'b' }, toolUseID: 't2' })
  assert.deepEqual(write.response, { behavior: 'deny', message: 'no writing', toolUseID: 't3' })
  assert.deepEqual(thrown.response, { behavior: 'deny', message: 'policy engine down', toolUseID: 't4' })
  assert.equal(seen.length, 4)
  // The four prompts run concurrently, so they may reach JS in any order.
  assert.deepEqual(seen.find((s) => s.toolUseID === 't1'), { toolName: 'Bash', input: { command: 'ls' }, toolUseID: 't1', aborted: false })
  const argv = readLog(log).find((r) => r.kind === 'start').argv
  assert.ok(argv.includes('--permission-prompt-tool=stdio'))
})

test('can_use_tool without a canUseTool callback gets an error answer, not silence', async () => {
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.log(await cli.request('can_use_tool', { tool_name: 'Bash', input: {}, tool_use_id: 't' }))
      cli.result()
    }`)
  await collect(query({ prompt: 'go', options }))
  const [answer] = scenarioRecords(log)
  assert.equal(answer.subtype, 'error')
  assert.match(answer.error, /canUseTool/)
})

test('plain JSON Schema tools: arguments the engine certifies skip the JS check; failures are worded by it', async () => {
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [tool('count', 'd', { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] }, async ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] }))],
  })
  const schema = server.instance.tools.get('count').schema
  const validate = schema.validate.bind(schema)
  let jsChecks = 0
  schema.validate = (args) => { jsChecks++; return validate(args) }
  const { log, options } = mockOptions(callScenario([['count', { n: 2 }], ['count', { n: 0 }], ['count', { n: 3 }]]), { mcpServers: { demo: server } })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [[good, bad, again]] = scenarioRecords(log)
  assert.deepEqual(good.result, { content: [{ type: 'text', text: 'n=2' }] })
  assert.deepEqual(again.result, { content: [{ type: 'text', text: 'n=3' }] })
  assert.equal(bad.result.isError, true)
  assert.match(bad.result.content[0].text, /^MCP error -32602: Input validation error: Invalid arguments for tool count: [\s\S]*Too small/)
  assert.equal(jsChecks, 1, 'only the failing call reached the JS validator')
})

test('zod tools with a plain twin: arguments the engine certifies in shape order skip zod; the rest get zod (stripped, reordered, worded)', async () => {
  const shape = { a: z.string(), b: z.number().optional(), c: z.enum(['x', 'y']).nullable(), o: z.object({ x: z.string(), y: z.number() }).optional() }
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [
      tool('echo', 'd', shape, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] })),
      tool('checked', 'd', { a: z.string().min(2) }, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] })),
    ],
  })
  let zodChecks = 0
  for (const name of ['echo', 'checked']) {
    const schema = server.instance.tools.get(name).schema
    const validate = schema.validate.bind(schema)
    schema.validate = (args) => { zodChecks++; return validate(args) }
  }
  const calls = [
    ['echo', { a: 's', b: 1, c: 'x' }], // certified, in order: no zod
    ['echo', { a: 's', c: null }], // certified, optional key absent: no zod
    ['echo', { c: 'y', a: 's' }], // certified, out of order: zod reorders
    ['echo', { a: 's', c: 'x', extra: 1 }], // unknown key: zod strips
    ['echo', { a: 1, c: 'x' }], // invalid: zod words it
    ['checked', { a: 'xy' }], // no twin: zod
    ['echo', { a: 's', c: 'x', o: { x: 'p', y: 1 } }], // certified, nested in order: no zod
    ['echo', { a: 's', c: 'x', o: { y: 1, x: 'p' } }], // certified, nested out of order: zod reorders
  ]
  const { log, options } = mockOptions(callScenario(calls), { mcpServers: { demo: server } })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [answers] = scenarioRecords(log)
  const texts = answers.map((a) => a.result.content[0].text)
  const zodOut = (args) => JSON.stringify(z.object(shape).parse(args))
  assert.deepEqual(texts.slice(0, 4), calls.slice(0, 4).map(([, args]) => zodOut(args)))
  assert.equal(texts[2], '{"a":"s","c":"y"}')
  assert.equal(answers[4].result.isError, true)
  assert.match(texts[4], /^MCP error -32602: Input validation error: Invalid arguments for tool echo: [\s\S]*expected string/)
  assert.equal(texts[5], '{"a":"xy"}')
  assert.deepEqual(texts.slice(6), calls.slice(6).map(([, args]) => zodOut(args)))
  assert.equal(texts[7], '{"a":"s","c":"x","o":{"x":"p","y":1}}')
  assert.equal(zodChecks, 5, 'the three certified calls in shape order skipped zod')
})
