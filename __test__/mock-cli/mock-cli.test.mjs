// Tests of the mock CLI itself: the test plays the SDK over raw pipes, and
// one check runs the official TypeScript SDK against it.
// Run: node --test __test__/mock-cli/

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { mockCliPath, mockEnv, readLog, readStdin, spawnMockCli, tempLogPath, tempScenario } from './index.mjs'

const T = { timeout: 20_000 }

const initRequest = (extra = {}) => ({
  request_id: 'init_1',
  type: 'control_request',
  request: { subtype: 'initialize', systemPrompt: [''], ...extra },
})
const userMessage = (text) => ({
  type: 'user',
  session_id: '',
  message: { role: 'user', content: [{ type: 'text', text }] },
  parent_tool_use_id: null,
})
const isType = (type, subtype) => (m) => m.type === type && (subtype === undefined || m.subtype === subtype)

test('mock is executable with a node shebang', () => {
  assert.ok(fs.statSync(mockCliPath).mode & 0o111)
  assert.match(fs.readFileSync(mockCliPath, 'utf8'), /^#!\/usr\/bin\/env node\n/)
})

test('default scenario: initialize, echo, result, exit 0 on stdin close; everything logged', T, async () => {
  const log = tempLogPath()
  const cli = spawnMockCli({ log, env: { CLAUDE_X: '1', ANTHROPIC_Y: '2', UNRELATED_SECRET: 's' } })

  cli.sendRaw('this is not json\n') // must be survived, not fatal
  cli.send(initRequest({ sdkMcpServers: ['demo'] }))
  const init = await cli.next(isType('control_response'))
  assert.equal(init.response.subtype, 'success')
  assert.equal(init.response.request_id, 'init_1')
  assert.equal(init.response.response.pid, cli.child.pid)
  assert.ok(Array.isArray(init.response.response.models))

  cli.send(userMessage('hello mock'))
  const sysInit = await cli.next(isType('system', 'init'))
  assert.deepEqual(sysInit.mcp_servers, [{ name: 'demo', status: 'connected', source: 'sdk' }])
  const assistant = await cli.next(isType('assistant'))
  assert.deepEqual(assistant.message.content, [{ type: 'text', text: 'hello mock' }])
  const result = await cli.next(isType('result'))
  assert.equal(result.subtype, 'success')
  assert.equal(result.result, 'hello mock')
  assert.equal(result.session_id, sysInit.session_id)

  cli.end()
  assert.deepEqual(await cli.exited, { code: 0, signal: null })

  const recs = readLog(log)
  const start = recs[0]
  assert.equal(start.kind, 'start')
  assert.equal(start.pid, cli.child.pid)
  assert.deepEqual(start.argv, ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'])
  assert.equal(start.env.CLAUDE_X, '1')
  assert.equal(start.env.ANTHROPIC_Y, '2')
  assert.equal(start.env.UNRELATED_SECRET, undefined) // only names are recorded for other vars
  assert.ok(start.ENV_KEYS.includes('UNRELATED_SECRET'))
  assert.ok(recs.some((r) => r.kind === 'stdin_invalid'))
  assert.deepEqual(readStdin(log).map((m) => m.type), ['control_request', 'user'])
  assert.ok(recs.filter((r) => r.kind === 'stdout').length >= 5)
  assert.deepEqual(recs.at(-1), { kind: 'exit', pid: cli.child.pid, ts: recs.at(-1).ts, code: 0 })
})

test('concurrent cli.mcp calls are correlated by request_id when answered out of order', T, async () => {
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const [a, b] = await Promise.all([
        cli.mcp('demo', { method: 'tools/call', params: { name: 'greet', arguments: { name: 'A' } } }),
        cli.mcp('demo', { method: 'tools/call', params: { name: 'greet', arguments: { name: 'B' } } }),
      ])
      cli.assistantText(a.result.content[0].text + ' ' + b.result.content[0].text)
      cli.result()
      await cli.waitStdinClosed()
    }`)
  const cli = spawnMockCli({ scenario })
  cli.send(initRequest())
  await cli.next(isType('control_response'))
  cli.send(userMessage('go'))

  const reqs = [await cli.next(isType('control_request')), await cli.next(isType('control_request'))]
  for (const r of reqs) {
    assert.equal(r.request.subtype, 'mcp_message')
    assert.equal(r.request.server_name, 'demo')
    assert.equal(r.request.message.jsonrpc, '2.0')
  }
  assert.notEqual(reqs[0].request_id, reqs[1].request_id)
  // An unrelated line in between must not disturb correlation.
  cli.send({ type: 'keep_alive' })
  for (const r of [...reqs].reverse()) {
    const m = r.request.message
    cli.send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: r.request_id,
        response: { mcp_response: { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: `hi ${m.params.arguments.name}` }] } } },
      },
    })
  }
  const assistant = await cli.next(isType('assistant'))
  assert.equal(assistant.message.content[0].text, 'hi A hi B')
  cli.end()
  assert.equal((await cli.exited).code, 0)
})

test('scenario writes stderr then exits with code 3', T, async () => {
  const log = tempLogPath()
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      cli.stderr('fatal: something broke')
      await cli.exit(3)
    }`)
  const cli = spawnMockCli({ scenario, log })
  cli.send(initRequest())
  await cli.next(isType('control_response'))
  assert.deepEqual(await cli.exited, { code: 3, signal: null })
  assert.equal(cli.stderr(), 'fatal: something broke\n')
  assert.equal(readLog(log).at(-1).code, 3)
})

test('malformed output line, split line and invalid UTF-8 reach the reader as written', T, async () => {
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      await cli.sendRaw('{"type":"assistant", oops\\n')
      await cli.sendBytes(Buffer.from([0xff, 0xfe, 0x0a]))
      const line = JSON.stringify({ type: 'system', subtype: 'split', text: 'x'.repeat(100) }) + '\\n'
      await cli.sendChunks([line.slice(0, 7), line.slice(7, 60), line.slice(60)], 30)
      cli.result()
      await cli.waitStdinClosed()
    }`)
  const cli = spawnMockCli({ scenario })
  cli.send(initRequest())
  await cli.next(isType('control_response'))
  const split = await cli.next(isType('system', 'split'))
  assert.equal(split.text, 'x'.repeat(100))
  await cli.next(isType('result'))
  assert.ok(cli.lines.includes('{"type":"assistant", oops'))
  assert.ok(cli.lines.includes('\ufffd\ufffd'))
  cli.end()
  assert.equal((await cli.exited).code, 0)
})

test('control requests from the SDK: defaults, custom handler, unknown subtype', T, async () => {
  const scenario = tempScenario(`
    export default async function (cli) {
      cli.onControlRequest('set_model', (req) => ({ model: req.model, custom: true }))
      await cli.initialize()
      await cli.waitStdinClosed()
    }`)
  const cli = spawnMockCli({ scenario })
  cli.send(initRequest())
  await cli.next(isType('control_response'))
  const ask = (request_id, request) => {
    cli.send({ type: 'control_request', request_id, request })
    return cli.next((m) => m.type === 'control_response' && m.response.request_id === request_id)
  }
  assert.deepEqual((await ask('r1', { subtype: 'interrupt' })).response, { subtype: 'success', request_id: 'r1', response: {} })
  assert.deepEqual((await ask('r2', { subtype: 'set_model', model: 'm' })).response.response, { model: 'm', custom: true })
  const unknown = (await ask('r3', { subtype: 'no_such_thing' })).response
  assert.equal(unknown.subtype, 'error')
  assert.match(unknown.error, /no_such_thing/)
  cli.end()
  assert.equal((await cli.exited).code, 0)
})

test('a reader that goes away (EPIPE) does not crash the mock', T, async () => {
  const log = tempLogPath()
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      for (let i = 0; i < 200; i++) await cli.send({ type: 'system', subtype: 'spam', pad: 'y'.repeat(10000) })
      cli.log('wrote everything')
      await cli.waitStdinClosed()
    }`)
  const cli = spawnMockCli({ scenario, log })
  cli.send(initRequest())
  await cli.next(isType('control_response'))
  cli.child.stdout.destroy()
  cli.send(userMessage('go'))
  await new Promise((r) => setTimeout(r, 300))
  cli.end()
  assert.deepEqual(await cli.exited, { code: 0, signal: null })
  const recs = readLog(log)
  assert.ok(recs.some((r) => r.kind === 'stream_error' && r.code === 'EPIPE'))
  assert.ok(recs.some((r) => r.kind === 'scenario' && r.data === 'wrote everything'))
})

test('cli.kill dies by the signal after flushing output', T, async () => {
  const scenario = tempScenario(`
    export default async function (cli) {
      await cli.initialize()
      cli.systemInit()
      await cli.kill('SIGKILL')
    }`)
  const cli = spawnMockCli({ scenario })
  cli.send(initRequest())
  await cli.next(isType('system', 'init'))
  assert.deepEqual(await cli.exited, { code: null, signal: 'SIGKILL' })
})

test('official @anthropic-ai/claude-agent-sdk query() runs against the default scenario', T, async () => {
  const { query } = await import('@anthropic-ai/claude-agent-sdk')
  const log = tempLogPath()
  const seen = []
  for await (const m of query({
    prompt: 'hi',
    options: { pathToClaudeCodeExecutable: mockCliPath, env: { ...process.env, ...mockEnv({ log }) } },
  })) {
    seen.push(m)
  }
  assert.deepEqual(
    seen.map((m) => [m.type, m.subtype]),
    [['system', 'init'], ['assistant', undefined], ['result', 'success']],
  )
  assert.deepEqual(seen[1].message.content, [{ type: 'text', text: 'hi' }])
  assert.equal(seen[2].result, 'hi')

  // The SDK runs a .mjs path through node (`node mock-cli.mjs <args>`), sends
  // initialize and the prompt without waiting, then closes stdin after result.
  const recs = readLog(log)
  assert.ok(recs[0].argv.includes('--input-format'))
  assert.equal(recs[0].env.CLAUDE_CODE_ENTRYPOINT, 'sdk-ts')
  assert.deepEqual(readStdin(log).map((m) => m.request?.subtype ?? m.type), ['initialize', 'user'])
  assert.ok(recs.some((r) => r.kind === 'stdin_end'))
  assert.equal(recs.at(-1).code, 0)
})
