// Side by side with the official SDK, against the mock CLI: the `mcpServersDelivery`
// DeprecationWarning (worded, coded and emitted once per process as the official emits it, each
// run in a fresh process), `workspaceTrust` in `initialize` (and dropped when `accepted` has no
// absolute directory), supportedCommands() following the CLI's `commands_changed` pushes, and a
// parked spare's onCommands() (its initialize commands, then each push until the claim).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, collect, mockOptions, readStdin, mockCliPath, mockEnv, tempLogPath } from './helpers/sdk.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OFFICIAL_ENTRY = path.join(root, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs')
const OUR_ENTRY = path.join(root, 'index.mjs')

/**
 * Runs `cases` (option sets) one after another in a fresh process with `entry`'s query() against
 * the mock CLI; returns the warnings that process emitted.
 */
function warningsOf(entry, cases) {
  const script = `
    const sdk = await import(${JSON.stringify(entry)})
    const warnings = []
    process.on('warning', (w) => warnings.push({ name: w.name, code: w.code, message: w.message }))
    for (const c of ${JSON.stringify(cases)}) {
      const options = { pathToClaudeCodeExecutable: ${JSON.stringify(mockCliPath)}, env: ${JSON.stringify(mockEnv({ log: tempLogPath() }))}, ...c }
      if (process.versions.bun) options.executable = process.execPath
      for await (const m of sdk.query({ prompt: 'hi', options })) {}
    }
    await new Promise((r) => setTimeout(r, 20))
    process.stdout.write(JSON.stringify(warnings))`
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 })
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

const STDIO = { srv: { command: 'node', args: ['-e', ''] } }

test('mcpServersDelivery: the official DeprecationWarning, once per process, only when the app starts its own CLI with process servers', { skip: process.versions.bun && 'the script runs under node -e' }, () => {
  const cases = {
    'warned once over two queries': [{ mcpServers: STDIO }, { mcpServers: STDIO }],
    'delivery set: none': [{ mcpServers: STDIO, mcpServersDelivery: 'argv' }],
    'no process servers: none': [{}],
    '--sdk-url launch: none': [{ mcpServers: STDIO, extraArgs: { 'sdk-url': 'ws://127.0.0.1:1' } }],
  }
  for (const [name, c] of Object.entries(cases)) {
    const theirs = warningsOf(OFFICIAL_ENTRY, c)
    const mine = warningsOf(OUR_ENTRY, c).filter((w) => !w.code?.startsWith('CLAUDE_AGENT_SDK_NATIVE_'))
    assert.deepEqual(mine, theirs, name)
    if (name.startsWith('warned')) {
      assert.equal(mine.length, 1)
      assert.equal(mine[0].name, 'DeprecationWarning')
      assert.equal(mine[0].code, 'CLAUDE_SDK_MCP_SERVERS_ARGV_DEPRECATED')
    }
  }
})

test('canUseTool shadowed by bypassPermissions or bare allowedTools, an in-process server in an agent: the official warnings, per query', async () => {
  const server = (sdk) => sdk.createSdkMcpServer({ name: 'inproc', tools: [] })
  const cases = [
    { canUseTool: async () => ({ behavior: 'allow' }), permissionMode: 'bypassPermissions' },
    { canUseTool: async () => ({ behavior: 'allow' }), allowedTools: ['Read', 'Bash(ls:*)', 'Write'] },
    { canUseTool: async () => ({ behavior: 'allow' }), allowedTools: ['Bash(ls:*)'] },
    { allowedTools: ['Read'] },
    { agents: { helper: { description: 'd', prompt: 'p', mcpServers: ['named', { mine: 'SERVER' }, { other: { command: 'x' } }] } } },
  ]
  const run = async (sdk) => {
    const seen = []
    const onWarning = (w) => { if (w.code?.startsWith('CLAUDE_SDK_')) seen.push({ code: w.code, message: w.message }) }
    process.on('warning', onWarning)
    const agentsSent = []
    try {
      for (const c of cases) {
        const options = { ...c }
        if (options.agents) options.agents = { helper: { ...c.agents.helper, mcpServers: c.agents.helper.mcpServers.map((e) => (e.mine ? { mine: server(sdk) } : e)) } }
        const { log, options: mock } = mockOptions(undefined, options)
        const { error } = await collect(sdk.query({ prompt: 'hi', options: mock }))
        assert.equal(error, null, error?.message)
        const init = readStdin(log).find((m) => m.request?.subtype === 'initialize').request
        if (init.agents) agentsSent.push(init.agents)
      }
      await new Promise((r) => setTimeout(r, 20))
    } finally {
      process.off('warning', onWarning)
    }
    return { seen, agentsSent }
  }
  const mine = await run(ours)
  assert.deepEqual(mine.seen.map((w) => w.code), ['CLAUDE_SDK_CAN_USE_TOOL_SHADOWED', 'CLAUDE_SDK_CAN_USE_TOOL_SHADOWED', 'CLAUDE_SDK_AGENT_IN_PROCESS_SERVER'])
  assert.deepEqual(mine.agentsSent[0].helper.mcpServers[1], { mine: { type: 'sdk', name: 'inproc' } })
  assert.deepEqual(mine, await run(official))
})

test('mcpServersDelivery initialize: the prompt waits for the answer; a CLI too old to confirm the servers ends the session, one that did not load them warns — as the official', async () => {
  const run = async (sdk, applied) => {
    const warnings = []
    const onWarning = (w) => { if (w.code?.startsWith('CLAUDE_SDK_')) warnings.push(w.code) }
    process.on('warning', onWarning)
    try {
      const answer = applied === undefined ? '' : JSON.stringify({ mcp_servers_applied: applied })
      const { log, options } = mockOptions(`export default async function (cli) { await cli.initialize(${answer}); await cli.nextUserMessage(); cli.result() }`, { mcpServersDelivery: 'initialize', mcpServers: { s: { command: 'node', args: ['x'] } } })
      const { messages, error } = await collect(sdk.query({ prompt: 'hi', options }))
      await new Promise((r) => setTimeout(r, 20))
      return { error: error?.message ?? null, types: messages.map((m) => m.type), prompts: readStdin(log).filter((m) => m.type === 'user').length, warnings }
    } finally {
      process.off('warning', onWarning)
    }
  }
  for (const applied of [undefined, false, true]) {
    const mine = await run(ours, applied)
    assert.deepEqual(mine, await run(official, applied), String(applied))
    if (applied === undefined) {
      assert.match(mine.error, /is too old to read MCP servers from the initialize request/)
      assert.equal(mine.prompts, 0)
    } else assert.equal(mine.prompts, 1)
  }
})

/** The initialize request a query sent to the mock CLI. */
async function initializeSent(sdk, extra) {
  const { log, options } = mockOptions(undefined, extra)
  const { error } = await collect(sdk.query({ prompt: 'hi', options }))
  assert.equal(error, null, error?.message)
  return readStdin(log).find((m) => m.type === 'control_request' && m.request.subtype === 'initialize').request
}

test('workspaceTrust reaches initialize as the official sends it; accepted without an absolute directory is dropped', async () => {
  for (const workspaceTrust of [{ accepted: true, directory: '/srv/project' }, { accepted: false, directory: 'relative' }, { accepted: true, directory: 'relative' }, { accepted: true }, undefined]) {
    const mine = await initializeSent(ours, { workspaceTrust })
    const theirs = await initializeSent(official, { workspaceTrust })
    assert.deepEqual(mine.workspaceTrust, theirs.workspaceTrust, JSON.stringify(workspaceTrust))
    assert.deepEqual(Object.keys(mine).indexOf('workspaceTrust') >= 0, workspaceTrust !== undefined && !(workspaceTrust.accepted && !workspaceTrust.directory?.startsWith('/')))
  }
})

const PUSHES = `
  export default async function (cli) {
    await cli.initialize({ commands: [{ name: 'first', description: '', argumentHint: '' }] })
    // After the SDK has had the time to call onCommands on a parked spare.
    await new Promise((r) => setTimeout(r, 300))
    await cli.send({ type: 'system', subtype: 'commands_changed', commands: [{ name: 'pushed-1', description: '', argumentHint: '' }], uuid: 'u1', session_id: 's' })
    await cli.send({ type: 'system', subtype: 'commands_changed', commands: [{ name: 'pushed-2', description: '', argumentHint: '' }], uuid: 'u2', session_id: 's' })
    await cli.nextUserMessage()
    cli.log('prompt')
    cli.result()
  }`

test('supportedCommands() follows the commands_changed pushes, as the official', async () => {
  const seen = async (sdk) => {
    const { options } = mockOptions(PUSHES)
    const q = sdk.query({ prompt: 'hi', options })
    const before = (await q.supportedCommands()).map((c) => c.name)
    const messages = []
    for await (const m of q) messages.push(m.type === 'system' ? m.subtype : m.type)
    return { before, after: (await q.supportedCommands()).map((c) => c.name), pushes: messages.filter((t) => t === 'commands_changed').length }
  }
  const mine = await seen(ours)
  assert.deepEqual(mine.after, ['pushed-2'])
  assert.deepEqual(mine, await seen(official))
})

test('SpareProcess.onCommands: the parked process\'s commands, then each push, until the claim', async () => {
  const run = async (sdk) => {
    const { options } = mockOptions(PUSHES)
    const spare = await sdk.prewarm({ options })
    const calls = []
    spare.onCommands((commands) => calls.push(commands.map((c) => c.name)))
    const deadline = Date.now() + 10000
    while (calls.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    const snapshot = calls.map((c) => c.join()).sort()
    spare.close()
    await spare.exited
    return snapshot
  }
  const mine = await run(ours)
  assert.deepEqual(mine, ['first', 'pushed-1', 'pushed-2'])
  assert.deepEqual(mine, await run(official))
})

test('SpareProcess.onCommands: a throwing callback is logged, never thrown at the app', async () => {
  const { options } = mockOptions(PUSHES)
  const spare = await ours.prewarm({ options })
  let calls = 0
  spare.onCommands(() => { calls++; throw new Error('callback broke') })
  const deadline = Date.now() + 10000
  while (calls < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  assert.equal(calls, 3)
  spare.close()
  await spare.exited
})
