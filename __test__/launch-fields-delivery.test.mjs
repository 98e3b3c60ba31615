// The options the official SDK 0.3.332 reads beyond its Options type that change the launch:
// managedSettingsDelivery, settingsDelivery and disallowedToolsDelivery ('initialize' moves the
// value from argv to the initialize request, which the CLI must confirm before the prompt goes),
// workload (`--workload`) and hostSpawn (the app's spawn). Each runs side by side with the
// official against the same mock CLI: argv, the initialize request, the errors and what the
// app's hostSpawn is called with must be the same.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, execFileSync } from 'node:child_process'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, collect, mockOptions, readLog, readStdin } from './helpers/sdk.mjs'

/** A CLI that answers initialize with `applied` and then one turn per prompt. */
const cli = (applied) => `
  export default async function (cli) {
    await cli.initialize(${JSON.stringify(applied)})
    for (;;) { await cli.nextUserMessage(); cli.systemInit(); cli.result() }
  }`

const CONFIRMED = { managed_settings_applied: true, settings_applied: true, disallowed_tools_applied: true }

async function launch(sdk, extra, applied = CONFIRMED) {
  const { log, options } = mockOptions(cli(applied), extra)
  let q
  try {
    q = sdk.query({ prompt: 'hello', options })
  } catch (e) {
    return { thrown: e.message }
  }
  const { messages, error } = await collect(q)
  const records = readLog(log)
  const start = records.find((r) => r.kind === 'start')
  const stdin = readStdin(log)
  const init = stdin.find((m) => m.type === 'control_request' && m.request.subtype === 'initialize')
  return {
    argv: start?.argv,
    initialize: init && JSON.stringify(init.request),
    promptSent: stdin.some((m) => m.type === 'user'),
    types: messages.map((m) => m.type),
    error: error?.message,
  }
}

const CASES = {
  'all three in initialize': {
    managedSettingsDelivery: 'initialize', managedSettings: { permissions: { deny: ['WebFetch'] } },
    settingsDelivery: 'initialize', settings: { model: 'claude-x' }, sandbox: { enabled: true },
    disallowedToolsDelivery: 'initialize', disallowedTools: ['Bash', 'Write'],
  },
  'settings JSON text in initialize': { settingsDelivery: 'initialize', settings: ' {"model":"m"} ' },
  'sandbox alone in initialize': { settingsDelivery: 'initialize', sandbox: { enabled: true, network: { allowedDomains: ['a.example'] } } },
  'a settings path stays on argv': { settingsDelivery: 'initialize', settings: '/tmp/settings.json', disallowedToolsDelivery: 'initialize', disallowedTools: [] },
  'argv deliveries': { managedSettingsDelivery: 'argv', managedSettings: { a: 1 }, settingsDelivery: 'argv', settings: { b: 2 }, disallowedToolsDelivery: 'argv', disallowedTools: ['Bash'] },
  'managed settings only': { managedSettingsDelivery: 'initialize', managedSettings: { a: 1 }, disallowedTools: ['Bash'] },
  'workload': { workload: 'batch-eval', extraArgs: { foo: 'bar', workload: 'overridden' } },
  'workload empty': { workload: '', extraArgs: { foo: null } },
}

for (const [name, extra] of Object.entries(CASES)) {
  test(`launch fields: ${name}`, async () => {
    const mine = await launch(ours, extra)
    const theirs = await launch(official, extra)
    assert.deepEqual(mine, theirs)
    assert.equal(mine.error, undefined)
    assert.ok(mine.promptSent)
  })
}

test('launch fields: all three in initialize puts them there and off argv', async () => {
  const mine = await launch(ours, CASES['all three in initialize'])
  assert.ok(mine.argv.includes('--managed-settings-in-initialize'))
  assert.ok(mine.argv.includes('--initialize-fields=settings,disallowedTools'))
  assert.ok(!mine.argv.some((a) => a.startsWith('--disallowedTools') || a === '--settings'))
  const init = JSON.parse(mine.initialize)
  assert.deepEqual(init.disallowedTools, ['Bash', 'Write'])
  assert.equal(init.settings.model, 'claude-x')
})

const UNCONFIRMED = {
  'managed settings': [{ managedSettingsDelivery: 'initialize', managedSettings: { a: 1 } }, {}],
  'settings and disallowed tools': [{ settingsDelivery: 'initialize', settings: { a: 1 }, disallowedToolsDelivery: 'initialize', disallowedTools: ['Bash'] }, { settings_applied: false }],
  'disallowed tools only': [{ settingsDelivery: 'initialize', settings: { a: 1 }, disallowedToolsDelivery: 'initialize', disallowedTools: ['Bash'] }, { settings_applied: true }],
}

for (const [name, [extra, applied]] of Object.entries(UNCONFIRMED)) {
  test(`launch fields: ${name} not confirmed ends the session before the prompt`, async () => {
    const mine = await launch(ours, extra, applied)
    const theirs = await launch(official, extra, applied)
    assert.equal(mine.error, theirs.error)
    assert.match(mine.error, /did not confirm/)
    assert.equal(mine.promptSent, false)
    assert.equal(theirs.promptSent, false)
  })
}

test('launch fields: a delivery other than argv or initialize is refused by query() itself', async () => {
  for (const key of ['pluginDelivery', 'managedSettingsDelivery', 'settingsDelivery', 'disallowedToolsDelivery', 'mcpServersDelivery']) {
    for (const value of ['stdin', null]) {
      const mine = await launch(ours, { [key]: value })
      assert.deepEqual(mine, await launch(official, { [key]: value }), `${key}: ${value}`)
      assert.equal(mine.thrown, `Invalid ${key}. Expected 'argv' or 'initialize'.`)
    }
  }
})

test('hostSpawn: called as the official calls it, its process runs the session', async () => {
  const run = async (sdk) => {
    const calls = []
    const events = []
    const hostSpawn = (command, args, opts) => {
      const { env, signal, ...rest } = opts
      calls.push({ args: args.slice(1), rest, env: typeof env, signal: signal instanceof AbortSignal })
      return spawn(command, args, opts)
    }
    const out = await launch(sdk, {
      hostSpawn,
      onProcessSpawned: (pid, info) => events.push(['spawned', typeof pid, Object.keys(info)]),
      onProcessExit: (code) => events.push(['exit', code]),
    })
    return { out: { ...out, argv: undefined }, calls, events: events.filter((e, i, all) => all.findIndex((x) => JSON.stringify(x) === JSON.stringify(e)) === i) }
  }
  const mine = await run(ours)
  const theirs = await run(official)
  assert.deepEqual(mine.calls, theirs.calls)
  assert.equal(mine.calls.length, 1)
  assert.deepEqual(mine.calls[0].rest.stdio, ['pipe', 'pipe', 'pipe'])
  assert.deepEqual(mine.out, theirs.out)
  assert.deepEqual(mine.events, theirs.events)
  assert.deepEqual(mine.events.map((e) => e[0]), ['spawned', 'exit'])
})

test('loading the SDK sets NoDefaultCurrentDirectoryInExePath=1 in the process env (the CLI inherits it), as the official', () => {
  const probe = (specifier) => {
    const env = { ...process.env }
    delete env.NoDefaultCurrentDirectoryInExePath
    const code = `import(${JSON.stringify(specifier)}).then(() => console.log(JSON.stringify(process.env.NoDefaultCurrentDirectoryInExePath)))`
    return execFileSync(process.execPath, ['-e', code], { env, encoding: 'utf8' }).trim()
  }
  const mine = probe(new URL('../index.mjs', import.meta.url).href)
  assert.equal(mine, probe('@anthropic-ai/claude-agent-sdk'))
  assert.equal(mine, '"1"')
})
