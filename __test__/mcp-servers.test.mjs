// In-process MCP servers beyond tools/call, against the mock CLI: resources, prompts, their
// error paths, outputSchema/structuredContent, run-time changes with list_changed, server ->
// CLI requests (elicitation) and notifications (progress), foreign MCP server objects, our
// instance over any transport (connect()), and a server of a second copy of this package.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { z } from 'zod'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { ToolListChangedNotificationSchema, ListToolsRequestSchema, CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { sdk, collect, mockOptions, scenarioRecords, readStdin } from './helpers/sdk.mjs'
import { root } from './helpers/clis.mjs'

const { query, tool, createSdkMcpServer } = sdk

/** Runs `scenario` (the body of the mock's async function, `cli` in scope) with these servers. */
async function runScenario(body, mcpServers, extra = {}) {
  const { log, options } = mockOptions(`
export default async function (cli) {
  const init = await cli.initialize()
  await cli.nextUserMessage()
  const mcp = (name, m) => cli.mcp(name, m)
  const out = (k, v) => cli.log({ [k]: v })
  // The next message a server sent the CLI (an mcp_message control request of the SDK).
  const fromServer = (method) => cli.next((m) => m.type === 'control_request' && m.request.subtype === 'mcp_message' && (!method || m.request.message.method === method))
  ${body}
  cli.send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} })
}
`, extra)
  const { error } = await collect(query({ prompt: 'hi', options: { ...options, mcpServers } }))
  assert.equal(error, null, error?.stack)
  return Object.assign({}, ...scenarioRecords(log))
}

function docs() {
  const server = createSdkMcpServer({ name: 'docs', tools: [tool('greet', 'Greets', { name: z.string() }, async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }))] })
  const s = server.instance
  s.registerResource('readme', 'file:///readme.md', { title: 'Readme', description: 'the readme', mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# hello' }] }))
  s.registerResource('user', new ResourceTemplate('users://{id}/profile', { list: undefined }), { description: 'a user' }, async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `user ${id}` }] }))
  s.registerPrompt('review', { description: 'Review code', argsSchema: { code: z.string().describe('the code'), style: z.string().optional() } }, ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review ${code}` } }] }))
  return server
}

describe('in-process MCP servers: resources and prompts', { concurrency: true }, () => {
  it('lists, reads and gets per the MCP spec; errors name what was wrong', async () => {
    const r = await runScenario(`
      out('init', init.request?.sdkMcpServerManifests ?? init.sdkMcpServerManifests)
      out('list', await mcp('docs', { method: 'resources/list' }))
      out('templates', await mcp('docs', { method: 'resources/templates/list' }))
      out('read', await mcp('docs', { method: 'resources/read', params: { uri: 'file:///readme.md' } }))
      out('readTemplate', await mcp('docs', { method: 'resources/read', params: { uri: 'users://42/profile' } }))
      out('missing', await mcp('docs', { method: 'resources/read', params: { uri: 'file:///nope' } }))
      out('noUri', await mcp('docs', { method: 'resources/read', params: {} }))
      out('prompts', await mcp('docs', { method: 'prompts/list' }))
      out('get', await mcp('docs', { method: 'prompts/get', params: { name: 'review', arguments: { code: 'x = 1' } } }))
      out('badArgs', await mcp('docs', { method: 'prompts/get', params: { name: 'review', arguments: { code: 7 } } }))
      out('noPrompt', await mcp('docs', { method: 'prompts/get', params: { name: 'nope' } }))
    `, { docs: docs() })
    const caps = r.init.docs.initializeResult.capabilities
    assert.deepEqual(caps, { tools: { listChanged: true }, resources: { listChanged: true }, prompts: { listChanged: true } })
    assert.deepEqual(r.list.result.resources, [{ uri: 'file:///readme.md', name: 'readme', title: 'Readme', description: 'the readme', mimeType: 'text/markdown' }])
    assert.deepEqual(r.templates.result.resourceTemplates, [{ name: 'user', uriTemplate: 'users://{id}/profile', description: 'a user' }])
    assert.deepEqual(r.read.result, { contents: [{ uri: 'file:///readme.md', text: '# hello' }] })
    assert.equal(r.readTemplate.result.contents[0].text, 'user 42')
    assert.equal(r.missing.error.code, -32002)
    assert.match(r.missing.error.message, /file:\/\/\/nope/)
    assert.deepEqual(r.missing.error.data, { uri: 'file:///nope' })
    assert.equal(r.noUri.error.code, -32602)
    assert.deepEqual(r.prompts.result.prompts, [{ name: 'review', description: 'Review code', arguments: [{ name: 'code', description: 'the code', required: true }, { name: 'style', required: false }] }])
    assert.equal(r.get.result.messages[0].content.text, 'Review x = 1')
    assert.equal(r.badArgs.error.code, -32602)
    assert.match(r.badArgs.error.message, /Invalid arguments for prompt review/)
    assert.match(r.badArgs.error.message, /"code"/, 'names the argument')
    assert.equal(r.noPrompt.error.code, -32602)
    assert.match(r.noPrompt.error.message, /Prompt nope not found/)
  })

  it('a server without resources or prompts announces neither and answers -32601', async () => {
    const server = createSdkMcpServer({ name: 'plain', tools: [] })
    const r = await runScenario(`
      out('caps', (await mcp('plain', { method: 'initialize', params: { protocolVersion: '2025-06-18' } })).result.capabilities)
      out('res', await mcp('plain', { method: 'resources/list' }))
      out('pr', await mcp('plain', { method: 'prompts/get', params: { name: 'x' } }))
    `, { plain: server })
    assert.deepEqual(r.caps, { tools: { listChanged: true } })
    assert.equal(r.res.error.code, -32601)
    assert.equal(r.pr.error.code, -32601)
  })
})

describe('in-process MCP servers: tools', { concurrency: true }, () => {
  it('outputSchema is listed and structuredContent validated (a violation is an isError result)', async () => {
    const server = createSdkMcpServer({ name: 'calc', tools: [] })
    server.instance.registerTool('double', { description: 'Doubles', inputSchema: { n: z.number() }, outputSchema: { doubled: z.number() } }, async ({ n }) => {
      if (n === 0) return { content: [{ type: 'text', text: 'no structure' }] }
      return { content: [{ type: 'text', text: String(n * 2) }], structuredContent: { doubled: n > 0 ? n * 2 : 'negative' } }
    })
    const r = await runScenario(`
      out('list', await mcp('calc', { method: 'tools/list' }))
      out('ok', await mcp('calc', { method: 'tools/call', params: { name: 'double', arguments: { n: 2 } } }))
      out('bad', await mcp('calc', { method: 'tools/call', params: { name: 'double', arguments: { n: -1 } } }))
      out('none', await mcp('calc', { method: 'tools/call', params: { name: 'double', arguments: { n: 0 } } }))
    `, { calc: server })
    const listed = r.list.result.tools[0]
    assert.equal(listed.outputSchema.type, 'object')
    assert.deepEqual(listed.outputSchema.properties.doubled, { type: 'number' })
    assert.deepEqual(r.ok.result.structuredContent, { doubled: 4 })
    assert.equal(r.ok.result.isError, undefined)
    assert.equal(r.bad.result.isError, true)
    assert.match(r.bad.result.content[0].text, /Output validation error: Invalid structured content for tool double/)
    assert.equal(r.none.result.isError, true)
    assert.match(r.none.result.content[0].text, /has an output schema but no structured content/)
  })

  it('run-time changes: list_changed reaches every session using the server, and the next list reflects them', async () => {
    const server = createSdkMcpServer({ name: 'live', tools: [tool('a', 'A', {}, async () => ({ content: [] }))] })
    const s = server.instance
    let handle
    const body = `
      out('before', (await mcp('live', { method: 'tools/list' })).result.tools.map((t) => t.name))
      cli.send({ type: 'system', subtype: 'status', status: null, session_id: 's', uuid: 'u' })
      const added = await fromServer('notifications/tools/list_changed')
      out('added', added.request)
      out('after', (await mcp('live', { method: 'tools/list' })).result.tools.map((t) => t.name))
      await fromServer('notifications/tools/list_changed')
      out('disabled', (await mcp('live', { method: 'tools/list' })).result.tools.map((t) => t.name))
      out('call', await mcp('live', { method: 'tools/call', params: { name: 'b', arguments: {} } }))
      await fromServer('notifications/tools/list_changed')
      out('removed', (await mcp('live', { method: 'tools/list' })).result.tools.map((t) => t.name))
      await fromServer('notifications/prompts/list_changed')
      out('caps', (await mcp('live', { method: 'initialize', params: {} })).result.capabilities)
    `
    const one = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage(); const mcp = (n, m) => cli.mcp(n, m); const out = (k, v) => cli.log({ [k]: v }); const fromServer = (method) => cli.next((m) => m.type === 'control_request' && m.request.subtype === 'mcp_message' && m.request.message.method === method); ${body}; cli.send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} }) }`)
    const two = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage(); const got = []; for (let i = 0; i < 4; i++) got.push((await cli.next((m) => m.type === 'control_request' && m.request.subtype === 'mcp_message')).request.message.method); cli.log({ got }); cli.send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} }) }`)
    const q1 = query({ prompt: 'hi', options: { ...one.options, mcpServers: { live: server } } })
    const q2 = query({ prompt: 'hi', options: { ...two.options, mcpServers: { other: server } } })
    const run2 = collect(q2)
    let step = 0
    const run1 = (async () => {
      const out = []
      for await (const m of q1) {
        out.push(m)
        if (m.type === 'system' && m.subtype === 'status' && step === 0) {
          step = 1
          handle = s.registerTool('b', { description: 'B' }, async () => ({ content: [{ type: 'text', text: 'b ran' }] }))
          handle.disable()
          handle.remove()
          s.registerPrompt('p', {}, () => ({ messages: [] }))
        }
      }
      return out
    })()
    await run1
    const r = Object.assign({}, ...scenarioRecords(one.log))
    assert.deepEqual(r.before, ['a'])
    assert.equal(r.added.server_name, 'live')
    assert.deepEqual(r.added.message, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' })
    // The list is read after the changes that followed; each change sent its own notification.
    assert.deepEqual(r.removed, ['a'])
    assert.equal(r.caps.prompts.listChanged, true)
    assert.equal(r.call.result.isError, true)
    const { error } = await run2
    assert.equal(error, null)
    const r2 = Object.assign({}, ...scenarioRecords(two.log))
    assert.deepEqual(r2.got, ['notifications/tools/list_changed', 'notifications/tools/list_changed', 'notifications/tools/list_changed', 'notifications/prompts/list_changed'], 'the other session, under its own name')
    // A later session's manifest reflects the changes.
    assert.deepEqual(JSON.parse(s.native().manifest()).toolsListResult.tools.map((t) => t.name), ['a'])
    assert.equal(s.isConnected(), false, 'both queries ended')
  })

  it('a handler reaches the CLI: elicitation/create through extra.sendRequest, progress under its token', async () => {
    const seen = []
    const server = createSdkMcpServer({ name: 'ask', tools: [] })
    server.instance.registerTool('confirm', { description: 'Asks' }, async (extra) => {
      await extra.sendNotification({ method: 'notifications/progress', params: { progress: 1, total: 2 } })
      const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } })
      seen.push(answer)
      return { content: [{ type: 'text', text: `user said ${answer.action}` }] }
    })
    const r = await runScenario(`
      const call = mcp('ask', { method: 'tools/call', params: { name: 'confirm', arguments: {}, _meta: { progressToken: 'tok' } } })
      const progress = await fromServer('notifications/progress')
      out('progress', progress.request.message)
      const ask = await fromServer('elicitation/create')
      out('ask', ask.request.message)
      await mcp('ask', { jsonrpc: '2.0', id: ask.request.message.id, result: { action: 'accept', content: { ok: true } } })
      out('call', await call)
    `, { ask: server })
    assert.deepEqual(r.progress.params, { progress: 1, total: 2, progressToken: 'tok' })
    assert.equal(r.ask.params.message, 'Sure?')
    assert.deepEqual(seen, [{ action: 'accept', content: { ok: true } }])
    assert.equal(r.call.result.content[0].text, 'user said accept')
  })
})

describe('foreign MCP server objects', { concurrency: true }, () => {
  function foreign() {
    const calls = []
    const server = new McpServer({ name: 'ext', version: '2.0.0' })
    server.registerTool('echo', { description: 'Echoes', inputSchema: { text: z.string() } }, async ({ text }, extra) => {
      calls.push(text)
      if (text === 'slow') {
        await new Promise((resolve) => extra.signal.addEventListener('abort', resolve))
        calls.push('aborted')
      }
      return { content: [{ type: 'text', text: `echo: ${text}` }] }
    })
    server.registerResource('note', 'note://1', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'a note' }] }))
    return { server, calls }
  }

  const body = `
    out('init', await mcp('ext', { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli', version: '1' } } }))
    await mcp('ext', { method: 'notifications/initialized' })
    out('tools', await mcp('ext', { method: 'tools/list' }))
    out('call', await mcp('ext', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }))
    out('read', await mcp('ext', { method: 'resources/read', params: { uri: 'note://1' } }))
    out('unknown', await mcp('ext', { method: 'tools/call', params: { name: 'nope', arguments: {} } }))
  `

  function check(r) {
    assert.equal(r.init.result.serverInfo.name, 'ext')
    assert.ok(r.init.result.capabilities.resources)
    assert.deepEqual(r.tools.result.tools.map((t) => t.name), ['echo'])
    assert.deepEqual(r.call.result.content, [{ type: 'text', text: 'echo: hi' }])
    assert.equal(r.read.result.contents[0].text, 'a note')
    assert.equal(r.unknown.result.isError, true)
  }

  it('an McpServer of @modelcontextprotocol/sdk is connected through a transport (ours)', async () => {
    const { server, calls } = foreign()
    const r = await runScenario(body, { ext: { type: 'sdk', name: 'ext', instance: server } })
    check(r)
    assert.deepEqual(calls, ['hi'])
    assert.equal(server.isConnected(), false, 'disconnected when the query ended')
  })

  it('the same McpServer object, side by side with the official SDK', async () => {
    const official = await import('@anthropic-ai/claude-agent-sdk')
    const { server, calls } = foreign()
    for (const q of [official.query, query, official.query]) {
      const { log, options } = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage(); const mcp = (n, m) => cli.mcp(n, m); const out = (k, v) => cli.log({ [k]: v }); ${body}; cli.send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} }) }`)
      const { error } = await collect(q({ prompt: 'hi', options: { ...options, mcpServers: { ext: { type: 'sdk', name: 'ext', instance: server } } } }))
      assert.equal(error, null)
      check(Object.assign({}, ...scenarioRecords(log)))
    }
    assert.deepEqual(calls, ['hi', 'hi', 'hi'])
  })

  it('a cancelled forwarded call reaches the server (extra.signal) and is not answered late', async () => {
    const { server, calls } = foreign()
    const r = await runScenario(`
      await mcp('ext', { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli', version: '1' } } })
      const slow = cli.request('mcp_message', { server_name: 'ext', message: { jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'echo', arguments: { text: 'slow' } } } })
      await cli.sleep(100)
      await mcp('ext', { method: 'notifications/cancelled', params: { requestId: 77, reason: 'user' } })
      out('slow', (await slow).response)
    `, { ext: { type: 'sdk', name: 'ext', instance: server } })
    // The handler saw its signal fire (it only returns then); the CLI gets an answer, not silence.
    assert.deepEqual(calls, ['slow', 'aborted'])
    assert.equal(r.slow.mcp_response.error.code, -32800)
  })

  it('a low-level Server of @modelcontextprotocol/sdk works the same way', async () => {
    const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'up', inputSchema: { type: 'object' } }] }))
    server.setRequestHandler(CallToolRequestSchema, async (req) => ({ content: [{ type: 'text', text: String(req.params.arguments?.s ?? '').toUpperCase() }] }))
    const r = await runScenario(`
      await mcp('low', { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
      out('tools', await mcp('low', { method: 'tools/list' }))
      out('call', await mcp('low', { method: 'tools/call', params: { name: 'up', arguments: { s: 'abc' } } }))
    `, { low: { type: 'sdk', name: 'low', instance: server } })
    assert.deepEqual(r.tools.result.tools.map((t) => t.name), ['up'])
    assert.equal(r.call.result.content[0].text, 'ABC')
  })

  it('an object that is no MCP server is refused with a clear message', async () => {
    const { error } = await collect(query({ prompt: 'x', options: { mcpServers: { bad: { type: 'sdk', name: 'bad', instance: {} } } } }))
    assert.match(error?.message, /mcpServers\.bad: `instance` must be an MCP server/)
  })
})

describe('in-process MCP servers: more error paths and notifications', { concurrency: true }, () => {
  it('disabled tools, template list callbacks, throwing callbacks, logging', async () => {
    const server = createSdkMcpServer({ name: 'm', tools: [] })
    const s = server.instance
    const off = s.registerTool('off', { description: 'disabled' }, async () => ({ content: [{ type: 'text', text: 'ran' }] }))
    off.disable()
    s.registerResource('items', new ResourceTemplate('items://{n}', { list: async () => ({ resources: [{ uri: 'items://1', name: 'one' }] }) }), { mimeType: 'text/plain' }, async (uri, { n }) => ({ contents: [{ uri: uri.href, text: `item ${n}` }] }))
    s.registerResource('broken', 'broken://x', {}, async () => { throw new Error('the disk is gone') })
    s.registerPrompt('plain', { description: 'no args' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'plain prompt' } }] }))
    s.registerTool('log', { description: 'logs' }, async (extra) => {
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'working' } })
      return { content: [{ type: 'text', text: 'logged' }] }
    })
    const r = await runScenario(`
      out('off', await mcp('m', { method: 'tools/call', params: { name: 'off', arguments: {} } }))
      out('list', await mcp('m', { method: 'resources/list' }))
      out('item', await mcp('m', { method: 'resources/read', params: { uri: 'items://7' } }))
      out('broken', await mcp('m', { method: 'resources/read', params: { uri: 'broken://x' } }))
      out('plain', await mcp('m', { method: 'prompts/get', params: { name: 'plain' } }))
      const call = mcp('m', { method: 'tools/call', params: { name: 'log', arguments: {} } })
      out('logged', (await fromServer('notifications/message')).request.message)
      out('call', await call)
    `, { m: server })
    assert.equal(r.off.result.isError, true)
    assert.match(r.off.result.content[0].text, /Tool off not found/)
    assert.deepEqual(r.list.result.resources, [{ uri: 'broken://x', name: 'broken' }, { mimeType: 'text/plain', uri: 'items://1', name: 'one' }], 'static ones, then what the template lists')
    assert.equal(r.item.result.contents[0].text, 'item 7')
    assert.equal(r.broken.error.code, -32603)
    assert.match(r.broken.error.message, /the disk is gone/)
    assert.equal(r.plain.result.messages[0].content.text, 'plain prompt')
    assert.deepEqual(r.logged.params, { level: 'info', data: 'working' })
    assert.equal(r.call.result.content[0].text, 'logged')
  })

  it('registering twice throws as McpServer does; bad arguments are named', async () => {
    const s = createSdkMcpServer({ name: 'dup', tools: [tool('t', 'T', {}, async () => ({ content: [] }))] }).instance
    assert.throws(() => s.registerTool('t', {}, async () => ({ content: [] })), /Tool t is already registered/)
    s.registerResource('r', 'x://r', {}, async () => ({ contents: [] }))
    assert.throws(() => s.resource('r2', 'x://r', async () => ({ contents: [] })), /Resource x:\/\/r is already registered/)
    s.prompt('p', () => ({ messages: [] }))
    assert.throws(() => s.prompt('p', () => ({ messages: [] })), /Prompt p is already registered/)
    assert.throws(() => s.registerTool('h', {}, 'not a function'), /callback must be a function/)
    assert.throws(() => s.registerResource('bad', 42, {}, async () => ({ contents: [] })), /expected a URI string or a ResourceTemplate/)
    await assert.rejects(s.elicitInput({ message: 'x' }), /not connected to Claude Code/)
  })

  it('setMcpServers() connects a foreign server to a running query and drops it again', async () => {
    const ext = new McpServer({ name: 'ext', version: '1' })
    ext.registerTool('hi', { description: 'Hi' }, async () => ({ content: [{ type: 'text', text: 'hi from ext' }] }))
    const { log, options } = mockOptions(`export default async function (cli) {
      cli.onControlRequest('mcp_set_servers', () => ({ added: [], removed: [], errors: {} }))
      await cli.initialize(); await cli.nextUserMessage()
      cli.send({ type: 'system', subtype: 'status', status: null, session_id: 's', uuid: 'u' })
      await cli.nextControlRequest('mcp_set_servers')
      await cli.mcp('ext', { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
      cli.log({ call: await cli.mcp('ext', { method: 'tools/call', params: { name: 'hi', arguments: {} } }) })
      cli.send({ type: 'system', subtype: 'status', status: null, session_id: 's', uuid: 'v' })
      await cli.nextControlRequest('mcp_set_servers')
      cli.log({ gone: await cli.request('mcp_message', { server_name: 'ext', message: { jsonrpc: '2.0', id: 9, method: 'tools/list' } }) })
      cli.send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} })
    }`)
    let step = 0
    async function* input() {
      yield { type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: 'hi' }] }, parent_tool_use_id: null }
      await new Promise(() => {})
    }
    const q = query({ prompt: input(), options })
    for await (const m of q) {
      if (m.type === 'system' && m.subtype === 'status') {
        step++
        if (step === 1) await q.setMcpServers({ ext: { type: 'sdk', name: 'ext', instance: ext } })
        if (step === 2) {
          assert.equal(ext.isConnected(), true)
          await q.setMcpServers({})
        }
      }
      if (m.type === 'result') break
    }
    const r = Object.assign({}, ...scenarioRecords(log))
    assert.equal(r.call.result.content[0].text, 'hi from ext')
    assert.match(r.gone.error, /SDK MCP server not found: ext/)
    assert.equal(ext.isConnected(), false, 'its transport was closed')
  })
})

describe('our instance over any transport', { concurrency: true }, () => {
  it('instance.connect(transport) serves an MCP client (the way the official SDK connects it)', async () => {
    const server = docs()
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await server.instance.connect(serverSide)
    const client = new Client({ name: 'test', version: '1' })
    await client.connect(clientSide)
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['greet'])
    assert.equal((await client.callTool({ name: 'greet', arguments: { name: 'Ann' } })).content[0].text, 'Hello, Ann!')
    assert.equal((await client.readResource({ uri: 'file:///readme.md' })).contents[0].text, '# hello')
    assert.equal((await client.getPrompt({ name: 'review', arguments: { code: 'y' } })).messages[0].content.text, 'Review y')
    await assert.rejects(client.readResource({ uri: 'file:///missing' }), /-32002/)
    const changed = new Promise((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, resolve))
    server.instance.tool('later', async () => ({ content: [] }))
    await changed
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name), ['greet', 'later'])
    assert.equal(server.instance.isConnected(), true)
    await server.instance.close()
    assert.equal(server.instance.isConnected(), false)
  })

  it('our server, used by the official SDK query()', async () => {
    const official = await import('@anthropic-ai/claude-agent-sdk')
    const server = docs()
    const { log, options } = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage();
      cli.log({ read: await cli.mcp('docs', { method: 'resources/read', params: { uri: 'file:///readme.md' } }) })
      cli.log({ call: await cli.mcp('docs', { method: 'tools/call', params: { name: 'greet', arguments: { name: 'Bo' } } }) })
      cli.send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} }) }`)
    const { error } = await collect(official.query({ prompt: 'hi', options: { ...options, mcpServers: { docs: server } } }))
    assert.equal(error, null)
    const r = Object.assign({}, ...scenarioRecords(log))
    assert.equal(r.read.result.contents[0].text, '# hello')
    assert.equal(r.call.result.content[0].text, 'Hello, Bo!')
  })
})

describe('two copies of this package in one process', () => {
  it('a server created by copy A works in a query of copy B', async () => {
    // Copy B: the package's JS in a temp dir, with its own node_modules link, so it resolves to
    // different module instances (another SdkMcpServer class) than copy A.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-copy-'))
    for (const f of ['index.js', 'package.json']) fs.copyFileSync(path.join(root, f), path.join(dir, f))
    fs.cpSync(path.join(root, 'lib'), path.join(dir, 'lib'), { recursive: true })
    fs.cpSync(path.join(root, 'native'), path.join(dir, 'native'), { recursive: true })
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
    const copyB = createRequire(path.join(dir, 'index.js'))(path.join(dir, 'index.js'))
    assert.notEqual(copyB.query, query)
    const calls = []
    const fromA = createSdkMcpServer({ name: 'a', tools: [tool('hello', 'Hello', { who: z.string() }, async ({ who }) => (calls.push(who), { content: [{ type: 'text', text: `hi ${who}` }] }))] })
    fromA.instance.registerResource('r', 'mem://r', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'from A' }] }))
    const { log, options } = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage();
      await cli.mcp('a', { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })
      cli.log({ call: await cli.mcp('a', { method: 'tools/call', params: { name: 'hello', arguments: { who: 'B' } } }) })
      cli.log({ read: await cli.mcp('a', { method: 'resources/read', params: { uri: 'mem://r' } }) })
      cli.send({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: 's', duration_ms: 1, duration_api_ms: 1, num_turns: 1, total_cost_usd: 0, usage: {} }) }`)
    const { error } = await collect(copyB.query({ prompt: 'hi', options: { ...options, mcpServers: { a: fromA } } }))
    assert.equal(error, null, error?.stack)
    const r = Object.assign({}, ...scenarioRecords(log))
    assert.equal(r.call.result.content[0].text, 'hi B')
    assert.equal(r.read.result.contents[0].text, 'from A')
    assert.deepEqual(calls, ['B'])
    fs.rmSync(dir, { recursive: true, force: true })
  })
})
