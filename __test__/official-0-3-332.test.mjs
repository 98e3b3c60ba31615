// What the official SDK 0.3.332 added or changed, side by side with it against the same mock CLI:
// setPermissionMode()'s answer, notePromptDraftActivity(), the options it reads without declaring
// (allowedControlRequests, onProcessSpawned, onProcessExit, and the initialize fields
// rapidFollowupPreempt, forwardNestedSubagentToolCalls, offersBypassSwitchBack, keepsBypassHeld),
// the PreSkillShellCommand hook event, the child's env and AbortError's name.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk'
import fs from 'node:fs'
import { sdk as ours, driveControl, mockOptions, readLog, readStdin, scenarioRecords, eventually } from './helpers/sdk.mjs'

const SDKS = [['ours', ours], ['official', official]]

/** Runs `body(q, log)` against a streaming query on `scenario`; what it returned and the CLI's log. */
async function drive(sdk, scenario, body, extra = {}) {
  const { results, log } = await driveControl(sdk, scenario, async (q, out, log) => { out.value = await body(q, log) }, extra)
  return { result: results.value, log }
}

const MODE_CLI = `
  export default async function (cli) {
    const answers = { acceptEdits: { mode: 'acceptEdits' }, plan: { mode: 'manual' }, dontAsk: {}, auto: { mode: 'weird' }, default: { mode: 'toString' } }
    cli.onControlRequest('set_permission_mode', (r) => {
      if (r.mode === 'bypassPermissions') throw new Error('Cannot set permission mode to bypassPermissions: refused by policy')
      return answers[r.mode]
    })
    cli.onControlRequest('prompt_draft_activity', () => ({}))
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    await cli.next((m) => m.type === 'user' && m.message.content === 'done')
    cli.result()
  }`

test('setPermissionMode() resolves with the mode in effect (manual read as default; no or unknown mode: undefined; a refusal rejects), and notePromptDraftActivity() sends prompt_draft_activity, as the official', async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const { result, log } = await drive(sdk, MODE_CLI, async (q) => {
      const out = {}
      for (const mode of ['acceptEdits', 'plan', 'dontAsk', 'auto', 'default', 'bypassPermissions']) {
        out[mode] = await q.setPermissionMode(mode).then((v) => ({ value: v === undefined ? 'undefined' : v }), (e) => ({ rejected: e.message }))
      }
      out.draft = (await q.notePromptDraftActivity()) === undefined
      return out
    })
    const sent = readStdin(log).filter((m) => m.type === 'control_request' && m.request.subtype !== 'initialize').map((m) => m.request)
    runs[label] = { result, sent }
  }
  assert.deepEqual(runs.ours.result.acceptEdits, { value: { mode: 'acceptEdits' } })
  assert.deepEqual(runs.ours.result.plan, { value: { mode: 'default' } })
  assert.deepEqual(runs.ours.result.dontAsk, { value: 'undefined' })
  assert.deepEqual(runs.ours.result.auto, { value: 'undefined' })
  assert.deepEqual(runs.ours.result.default, { value: 'undefined' }, 'a mode name that is an Object.prototype key is no mode')
  assert.match(runs.ours.result.bypassPermissions.rejected, /refused by policy/)
  assert.equal(runs.ours.result.draft, true)
  assert.deepEqual(runs.ours.sent.at(-1), { subtype: 'prompt_draft_activity' })
  assert.deepEqual(runs.ours, runs.official)
})

const ASKING_CLI = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    const hook = await cli.request('hook_callback', { callback_id: 'hook_0', input: { hook_event_name: 'PreSkillShellCommand', session_id: 's', transcript_path: '/t', cwd: '/', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'x', command_name: 'c', invoked_by: 'user' }, tool_use_id: 'x' })
    const ask = await cli.request('can_use_tool', { tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'toolu_1' })
    const odd = await cli.request('remote_plumbing_status', {})
    cli.log({ hook, ask, odd })
    await cli.next((m) => m.type === 'user' && m.message.content === 'done')
    cli.result()
  }`

test('allowedControlRequests: requests of other subtypes are refused with "Control request not allowed by this host", listed ones are served, as the official', async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const seen = []
    const options = {
      allowedControlRequests: ['can_use_tool'],
      canUseTool: async (name) => (seen.push(name), { behavior: 'allow', updatedInput: { command: 'ls -l' } }),
      hooks: { PreSkillShellCommand: [{ hooks: [async () => (seen.push('hook'), { hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', permissionDecision: 'deny' } })] }] },
    }
    const { log } = await drive(sdk, ASKING_CLI, (q, log) => eventually(() => scenarioRecords(log).length > 0, 10000, 'the CLI\'s requests answered'), options)
    const { hook, ask, odd } = scenarioRecords(log)[0]
    const strip = ({ request_id, ...r }) => r
    runs[label] = { seen, hook: strip(hook), ask: strip(ask), odd: strip(odd) }
  }
  assert.deepEqual(runs.ours.seen, ['Bash'])
  assert.equal(runs.ours.hook.error, 'Control request not allowed by this host')
  assert.equal(runs.ours.odd.error, 'Control request not allowed by this host')
  assert.deepEqual(runs.ours.ask.response, { behavior: 'allow', updatedInput: { command: 'ls -l' }, toolUseID: 'toolu_1' })
  assert.deepEqual(runs.ours, runs.official)
})

test('the initialize request carries rapidFollowupPreempt, forwardNestedSubagentToolCalls, offersBypassSwitchBack and keepsBypassHeld as given, as the official sends them', async () => {
  const fields = { rapidFollowupPreempt: true, forwardNestedSubagentToolCalls: true, offersBypassSwitchBack: false, keepsBypassHeld: { x: 1 } }
  const inits = {}
  for (const [label, sdk] of SDKS) {
    const { log, options } = mockOptions(undefined, fields)
    for await (const m of sdk.query({ prompt: 'hi', options })) void m
    const init = readStdin(log).find((m) => m.type === 'control_request' && m.request.subtype === 'initialize').request
    inits[label] = Object.fromEntries(Object.keys(fields).map((k) => [k, init[k]]))
  }
  assert.deepEqual(inits.ours, fields)
  assert.deepEqual(inits.ours, inits.official)
})

const EXIT_CLI = (code) => `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    cli.result()
    await cli.exit(${code})
  }`

test('onProcessSpawned(pid, { spawnSyncMs }) and onProcessExit(code) are called for the CLI, as the official calls them; a throwing callback changes nothing', async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const calls = []
    let exited
    const exitSeen = new Promise((r) => (exited = r))
    const { options } = mockOptions(EXIT_CLI(0), {
      onProcessSpawned: (pid, info) => { calls.push(['spawned', typeof pid, Object.keys(info), typeof info.spawnSyncMs]); throw new Error('ignored') },
      onProcessExit: (code) => { calls.push(['exit', code]); exited(); throw new Error('ignored too') },
    })
    const types = []
    for await (const m of sdk.query({ prompt: 'hi', options })) types.push(m.type)
    await Promise.race([exitSeen, new Promise((r) => setTimeout(r, 5000))])
    runs[label] = { calls, types }
  }
  assert.deepEqual(runs.ours.calls, [['spawned', 'number', ['spawnSyncMs'], 'number'], ['exit', 0]])
  assert.deepEqual(runs.ours, runs.official)
})

test('onProcessExit gets the exit code of a CLI that fails', async () => {
  for (const [label, sdk] of SDKS) {
    let code
    const seen = new Promise((resolve) => {
      const { options } = mockOptions(EXIT_CLI(3), { onProcessExit: (c) => { code = c; resolve() } })
      ;(async () => { try { for await (const m of sdk.query({ prompt: 'hi', options })) void m } catch {} })()
    })
    await Promise.race([seen, new Promise((r) => setTimeout(r, 10000))])
    assert.equal(code, 3, label)
  }
})

test('the CLI gets BUN_ENABLE_CRASH_REPORTING=0 unless the app sets a Bun crash-report variable, and CLAUDE_AGENT_SDK_VERSION names the release mirrored, as the official', async () => {
  const cases = [{}, { BUN_ENABLE_CRASH_REPORTING: '1' }, { BUN_ENABLE_CRASH_REPORTING: '' }, { BUN_CRASH_REPORT_URL: 'http://127.0.0.1:9/x' }]
  const runs = {}
  for (const [label, sdk] of SDKS) {
    runs[label] = []
    for (const extraEnv of cases) {
      const { log, options } = mockOptions(undefined)
      options.env = { ...options.env, ...extraEnv }
      for await (const m of sdk.query({ prompt: 'hi', options })) void m
      const start = readLog(log).find((r) => r.kind === 'start')
      const keys = start.ENV_KEYS.filter((k) => k.startsWith('BUN_'))
      runs[label].push({ keys, version: start.env.CLAUDE_AGENT_SDK_VERSION })
    }
  }
  const officialVersion = JSON.parse(fs.readFileSync(new URL('../node_modules/@anthropic-ai/claude-agent-sdk/package.json', import.meta.url), 'utf8')).version
  assert.equal(runs.ours[0].version, officialVersion)
  assert.deepEqual(runs.ours[0].keys, ['BUN_ENABLE_CRASH_REPORTING'])
  assert.deepEqual(runs.ours, runs.official)
})

test('PreSkillShellCommand is a hook event, and AbortError instances are named Error, as in the official', () => {
  assert.ok(ours.HOOK_EVENTS.includes('PreSkillShellCommand'))
  assert.deepEqual(ours.HOOK_EVENTS, official.HOOK_EVENTS)
  const a = new ours.AbortError('x'), b = new official.AbortError('x')
  assert.equal(a.name, b.name)
  assert.equal(String(a), String(b))
  assert.ok(a instanceof Error && a instanceof ours.AbortError)
})

const REMOTE_CLI = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    for (const [i, subtype] of ['remote_tool_call', 'remote_plumbing_call', 'remote_tools_probe', 'remote_tools_reannounce'].entries()) {
      cli.send({ type: 'control_request', request_id: 'remote_' + i, request: { subtype } })
    }
    // Answered after those: had they been answered, their answers came first.
    const ask = await cli.request('can_use_tool', { tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'toolu_1' })
    cli.log({ ask })
    await cli.next((m) => m.type === 'user' && m.message.content === 'done')
    cli.result()
  }`

test('requests for the machine serving the session\'s tools (remote_tool_call, ...) are left unanswered, as the official leaves them', async () => {
  const runs = {}
  for (const [label, sdk] of SDKS) {
    const options = { canUseTool: async () => ({ behavior: 'allow', updatedInput: {} }) }
    const { log } = await drive(sdk, REMOTE_CLI, (q, log) => eventually(() => scenarioRecords(log).length > 0, 10000, 'the can_use_tool answer'), options)
    const answered = readStdin(log).filter((m) => m.type === 'control_response').map((m) => m.response.request_id).filter((id) => !id.startsWith('req_'))
    runs[label] = { answered, ask: scenarioRecords(log)[0].ask.subtype }
  }
  assert.deepEqual(runs.ours, { answered: [], ask: 'success' })
  assert.deepEqual(runs.ours, runs.official)
})
