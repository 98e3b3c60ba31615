// The Query control methods, streaming input and hooks, run side by side with the official SDK
// against the same mock CLI: what each SDK writes to the CLI and what each method returns must
// be the same.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'
import { sdk as ours, collect, mockOptions, readStdin, scenarioRecords, eventually, driveControl } from './helpers/sdk.mjs'

/** A CLI that answers every control method with a canned body and logs what it got. */
const CONTROL_CLI = `
  export default async function (cli) {
    const answers = {
      interrupt: { still_queued: ['q1', 3], cancelled: ['c1'] },
      set_permission_mode: {}, set_model: {}, set_max_thinking_tokens: {}, stop_task: {},
      mcp_status: { mcpServers: [{ name: 'demo', status: 'connected' }] },
      get_context_usage: { totalTokens: 123, maxTokens: 1000 },
      mcp_reconnect: {}, mcp_toggle: {},
      mcp_set_servers: { added: ['extra'], removed: [], errors: {} },
      rewind_files: { canRewind: true, filesChanged: ['a.txt'] },
      set_mcp_permission_mode_override: { applied: true }, apply_flag_settings: {}, update_settings: {},
      get_usage: { totalCostUsd: 0.5 }, read_file: { content: 'hello', encoding: 'utf-8' },
      reload_plugins: { commands: [], plugins: [] }, reload_skills: { skills: [] }, reload_output_styles: { styles: [] },
      seed_read_state: {}, mcp_read_resource: { contents: [{ uri: 'x://y', text: 't' }] },
      background_tasks: { backgrounded: false }, cancel_async_message: { cancelled: true },
    }
    for (const [subtype, body] of Object.entries(answers)) cli.onControlRequest(subtype, () => body)
    cli.onControlRequest('set_model', (r) => { if (r.model === 'bad') throw new Error('Unknown model: bad'); return {} })
    await cli.initialize({ commands: [{ name: 'c' }], models: [{ value: 'm' }], agents: [{ name: 'a' }], account: { email: 'x@y' } })
    await cli.nextUserMessage()
    cli.systemInit()
    // Serve the methods until the test says it is done.
    await cli.next((m) => m.type === 'user' && m.message.content === 'done')
    cli.result()
  }`

async function drive(sdk, body) {
  const { results, stdin } = await driveControl(sdk, CONTROL_CLI, body)
  const sent = stdin.filter((m) => m.type === 'control_request' && m.request.subtype !== 'initialize').map((m) => m.request)
  return { results, sent }
}

async function methods(q, out) {
  out.interrupt = await q.interrupt()
  out.setPermissionMode = await q.setPermissionMode('acceptEdits')
  out.setModel = await q.setModel('claude-x')
  out.setModelError = await q.setModel('bad').then(() => 'resolved', (e) => e.message)
  out.setMaxThinkingTokens = await q.setMaxThinkingTokens(1024)
  out.supportedCommands = await q.supportedCommands()
  out.supportedModels = await q.supportedModels()
  out.supportedAgents = await q.supportedAgents()
  out.accountInfo = await q.accountInfo()
  out.mcpServerStatus = await q.mcpServerStatus()
  out.getContextUsage = await q.getContextUsage()
  out.reconnectMcpServer = await q.reconnectMcpServer('demo')
  out.toggleMcpServer = await q.toggleMcpServer('demo', false)
  out.rewindFiles = await q.rewindFiles('msg-1', { dryRun: true })
  out.stopTask = await q.stopTask('task-1')
  out.setMcpServers = await q.setMcpServers({ remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' } })
  out.setMcpPermissionModeOverride = await q.setMcpPermissionModeOverride('demo', 'acceptEdits')
  out.applyFlagSettings = await q.applyFlagSettings({ model: 'x' })
  out.updateSettings = await q.updateSettings('userSettings', { theme: 'dark' })
  out.usage = await q.usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET({ skipBehaviors: true })
  out.readFile = await q.readFile('a.txt', { maxBytes: 10 })
  out.reloadPlugins = await q.reloadPlugins({ refuseIfBusy: true })
  out.reloadSkills = await q.reloadSkills()
  out.reloadOutputStyles = await q.reloadOutputStyles()
  out.seedReadState = await q.seedReadState('a.txt', 123)
  out.readMcpResource = await q.readMcpResource('demo', 'x://y')
  out.backgroundTasks = await q.backgroundTasks('toolu_1')
  out.cancelAsyncMessage = await q.cancelAsyncMessage('uuid-1')
  const init = await q.initializationResult()
  out.initializationResult = { commands: init.commands, models: init.models, agents: init.agents, account: init.account }
}

test('every control method sends what the official SDK sends and returns what it returns', async () => {
  const mine = await drive(ours, methods)
  const theirs = await drive(official, methods)
  assert.deepEqual(mine.sent, theirs.sent)
  assert.deepEqual(mine.results, theirs.results)
  assert.match(mine.results.setModelError, /Unknown model: bad/)
})

test('streaming input: messages are written as they arrive, streamInput() adds more', async () => {
  const scenario = `
    export default async function (cli) {
      await cli.initialize()
      const texts = []
      for (let i = 0; i < 3; i++) {
        const m = await cli.nextUserMessage()
        texts.push(m.message.content)
        cli.assistantText('echo ' + m.message.content)
        cli.result()
      }
      cli.log(texts)
      await cli.waitStdinClosed()
    }`
  const run = async (sdk) => {
    const { log, options } = mockOptions(scenario)
    let release
    const gate = new Promise((r) => (release = r))
    let finish
    const end = new Promise((r) => (finish = r))
    async function* prompt() {
      yield { type: 'user', message: { role: 'user', content: 'one' }, parent_tool_use_id: null, session_id: '' }
      await gate
      yield { type: 'user', message: { role: 'user', content: 'two' }, parent_tool_use_id: null, session_id: '' }
      await end // the input stays open until the test is done
    }
    const q = sdk.query({ prompt: prompt(), options })
    const seen = []
    for await (const m of q) {
      if (m.type === 'assistant') seen.push(m.message.content[0].text)
      if (m.type !== 'result') continue
      // Each next message is written only after the previous turn finished, while the input
      // stayed open: the generator's second message, then one added with streamInput().
      if (seen.length === 1) release()
      if (seen.length === 2) await q.streamInput((async function* () { yield { type: 'user', message: { role: 'user', content: 'three' }, parent_tool_use_id: null, session_id: '' } })())
      if (seen.length === 3) break
    }
    finish()
    // Our break returns at once (the CLI ends in the background): wait for its last log line.
    await eventually(() => scenarioRecords(log).length > 0, 10000, 'the scenario log')
    return { seen, texts: scenarioRecords(log)[0] }
  }
  const mine = await run(ours)
  assert.deepEqual(mine.seen, ['echo one', 'echo two', 'echo three'])
  assert.deepEqual(mine, await run(official))
})

test('hooks: matchers registered in initialize, hook_callback routed with (input, toolUseID, {signal})', async () => {
  const scenario = `
    export default async function (cli) {
      const init = await cli.initialize()
      await cli.nextUserMessage()
      const ids = init.hooks.PreToolUse.flatMap((m) => m.hookCallbackIds)
      const out = { hooks: init.hooks, answers: [] }
      out.answers.push(await cli.request('hook_callback', { callback_id: ids[0], input: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }, tool_use_id: 'toolu_9' }))
      out.answers.push(await cli.request('hook_callback', { callback_id: ids[1], input: { hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { path: 'a' } }, tool_use_id: 'toolu_10' }))
      out.answers.push(await cli.request('hook_callback', { callback_id: 'hook_999', input: {}, tool_use_id: null }))
      out.answers.push(await cli.request('hook_callback', { callback_id: init.hooks.PostToolUse[0].hookCallbackIds[0], input: { hook_event_name: 'PostToolUse' }, tool_use_id: 't' }))
      cli.log(out)
      cli.result()
    }`
  const run = async (sdk) => {
    const calls = []
    const { log, options } = mockOptions(scenario, {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [async (input, toolUseID, { signal }) => {
            calls.push({ input, toolUseID, signal: signal instanceof AbortSignal })
            return { decision: 'block', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' } }
          }] },
          { matcher: 'Edit', timeout: 30, hooks: [async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { path: 'b' } } })] },
        ],
        PostToolUse: [{ hooks: [async () => { throw new Error('observer failed') }] }],
      },
    })
    const { error } = await collect(sdk.query({ prompt: 'go', options }))
    assert.equal(error, null)
    const [out] = scenarioRecords(log)
    return { out: { ...out, answers: out.answers.map(({ request_id, ...a }) => a) }, calls }
  }
  const mine = await run(ours)
  const theirs = await run(official)
  assert.deepEqual(mine.out.hooks, theirs.out.hooks)
  assert.deepEqual(mine.out.answers, theirs.out.answers)
  assert.deepEqual(mine.calls, theirs.calls)
  assert.equal(mine.out.answers[0].response.hookSpecificOutput.permissionDecision, 'deny')
})

test('control_cancel_request fires the AbortSignal of the running tool handler', async () => {
  let signalled
  const server = ours.createSdkMcpServer({
    name: 'demo',
    tools: [ours.tool('wait', 'waits until cancelled', { n: z.number().optional() }, (args, extra) => new Promise((resolve) => {
      extra.signal.addEventListener('abort', () => { signalled = true; resolve({ content: [{ type: 'text', text: 'cancelled' }] }) })
    }))],
  })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const call = cli.mcp('demo', { method: 'tools/call', params: { name: 'wait', arguments: {} }, id: 1 })
      await cli.sleep(100)
      cli.send({ type: 'control_cancel_request', request_id: 'req_1' })
      cli.log(await call)
      cli.result()
    }`, { mcpServers: { demo: server } })
  const { error } = await collect(ours.query({ prompt: 'go', options }))
  assert.equal(error, null)
  assert.equal(signalled, true)
  assert.deepEqual(scenarioRecords(log)[0].result, { content: [{ type: 'text', text: 'cancelled' }] })
})

test('a control method after the session ended rejects with a clear error', async () => {
  const { options } = mockOptions(undefined)
  const q = ours.query({ prompt: 'hi', options })
  for await (const _ of q) { /* drain */ }
  await assert.rejects(q.setModel('x'), /query has ended/)
  await assert.rejects(q.interrupt(), (e) => e instanceof Error && e.code === 'SESSION_CLOSED' && /query has ended/.test(e.message))
})

test('engine errors thrown at start carry their code', async () => {
  const { error } = await collect(ours.query({ prompt: 'hi', options: { pathToClaudeCodeExecutable: '/nonexistent/claude' } }))
  assert.ok(error instanceof Error)
  assert.equal(error.code, 'CLI_NOT_FOUND')
  assert.match(error.message, /\/nonexistent\/claude/)
})

test('unknown option keys are ignored with one warning each, as the official ignores them', async () => {
  const warnings = []
  const onWarning = (w) => { if (w.code === 'CLAUDE_AGENT_SDK_NATIVE_UNKNOWN_OPTION') warnings.push(w.message) }
  process.on('warning', onWarning)
  try {
    // Names no other test uses (warnings are once per process, and Bun runs every file in one).
    const a = `legacyOptionA${process.pid}`
    const b = `legacyOptionB${process.pid}`
    for (let i = 0; i < 2; i++) {
      const { options } = mockOptions(undefined)
      const { messages, error } = await collect(ours.query({ prompt: 'hi', options: { ...options, [a]: 'legacy', [b]: 1 } }))
      assert.equal(error, null)
      assert.equal(messages.at(-1).type, 'result')
    }
    await new Promise((r) => setTimeout(r, 50))
    assert.equal(warnings.filter((w) => w.includes(`\`${a}\``)).length, 1, warnings.join('\n'))
    assert.equal(warnings.filter((w) => w.includes(`\`${b}\``)).length, 1, warnings.join('\n'))
  } finally {
    process.off('warning', onWarning)
  }
})

test('ill-typed options fail before anything is spawned', async () => {
  const { log, options } = mockOptions(undefined)
  const bad = [
    [{ maxTurns: 'three' }, /Invalid option `maxTurns`.*expected u64/],
    [{ canUseTool: 'yes' }, /Invalid option `canUseTool`: expected a function/],
    [{ allowedTools: 'Read' }, /Invalid option `allowedTools`/],
    [{ abortController: {} }, /Invalid option `abortController`/],
    [{ systemPrompt: { type: 'nope' } }, /Invalid option `systemPrompt`/],
  ]
  for (const [extra, re] of bad) {
    const { error } = await collect(ours.query({ prompt: 'hi', options: { ...options, ...extra } }))
    assert.match(error?.message ?? '', re, JSON.stringify(extra))
  }
  assert.deepEqual(readStdin(log), [], 'nothing was spawned')
})

test('canUseTool receives the same options object as from the official SDK; full PermissionResult passes', async () => {
  const scenario = `
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.log(await cli.request('can_use_tool', {
        tool_name: 'Write', input: { file_path: '/tmp/x', content: 'y' }, tool_use_id: 'toolu_7', agent_id: 'agent-1',
        permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'allow', destination: 'localSettings' }],
        blocked_path: '/tmp/x', decision_reason: 'outside workspace', decision_reason_type: 'workingDir',
        title: 'Write a file', display_name: 'Write', description: 'writes', mcp_server: { name: 'm', source: 'sdk' },
        matched_ask_rule: { source: 'userSettings', tool_name: 'Write', rule_content: '/tmp/**' }, requires_user_interaction: false,
      }))
      cli.result()
    }`
  const run = async (sdk) => {
    let seen
    const { log, options } = mockOptions(scenario, {
      canUseTool: async (toolName, input, opts) => {
        const { signal, ...rest } = opts
        seen = { toolName, input, signal: signal instanceof AbortSignal, ...rest }
        return { behavior: 'allow', updatedInput: input, updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }
      },
    })
    const { error } = await collect(sdk.query({ prompt: 'go', options }))
    assert.equal(error, null)
    return { seen, answer: scenarioRecords(log)[0].response }
  }
  const mine = await run(ours)
  const theirs = await run(official)
  assert.deepEqual(mine.seen, theirs.seen)
  assert.deepEqual(mine.answer, theirs.answer)
})

test('spawnClaudeCodeProcess: the app starts the CLI; same spawn options as the official SDK; the engine drives it', async () => {
  const { spawn } = await import('node:child_process')
  const run = async (sdk, scenario) => {
    const spawned = []
    const { log, options } = mockOptions(scenario, {
      spawnClaudeCodeProcess: ({ command, args, cwd, env, signal }) => {
        spawned.push({ command: command === process.execPath || command === 'node' || command === 'bun' ? '<runtime>' : command, args, cwd, env: Object.keys(env).filter((k) => k.startsWith('CLAUDE_')).sort(), signal: signal instanceof AbortSignal })
        return spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
      },
    })
    const result = await collect(sdk.query({ prompt: 'hi there', options }))
    return { ...result, spawned, stdin: readStdin(log) }
  }
  const mine = await run(ours, undefined)
  const theirs = await run(official, undefined)
  assert.equal(mine.error, null)
  assert.deepEqual(mine.messages.map((m) => m.type), ['system', 'assistant', 'result'])
  assert.equal(mine.messages[1].message.content[0].text, 'hi there')
  assert.deepEqual(mine.spawned, theirs.spawned.map((s) => ({ ...s, command: s.command === 'node' || s.command === 'bun' ? '<runtime>' : s.command })))
  assert.deepEqual(mine.stdin.map((m) => m.type), theirs.stdin.map((m) => m.type))

  // A failing host process rejects like a spawned one.
  const failing = await run(ours, `
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.stderr('remote died')
      await cli.exit(7)
    }`)
  assert.match(failing.error?.message ?? '', /exited with code 7/)
})

test('startup(): the CLI is spawned and initialized ahead of the first query', async () => {
  const { log, options } = mockOptions(undefined)
  const warm = await ours.startup({ options })
  // Initialized, and nothing but initialize has been written yet.
  assert.deepEqual(readStdin(log).map((m) => m.request?.subtype ?? m.type), ['initialize'])
  const { messages, error } = await collect(warm.query('warm hello'))
  assert.equal(error, null)
  assert.equal(messages.find((m) => m.type === 'assistant').message.content[0].text, 'warm hello')
  assert.throws(() => warm.query('again'), /only be called once/)

  const unused = await ours.startup({ options: mockOptions(undefined).options })
  unused.close()
  await assert.rejects(ours.startup({ options: { ...mockOptions('export default async function (cli) { await new Promise(() => {}) }').options }, initializeTimeoutMs: 300 }), /did not answer the initialize request within 300 ms/)
})

test('spawnClaudeCodeProcess: close() ends the app\'s process as the official SDK does (stdin, then kill()) even when it ignores both', async () => {
  const { spawn } = await import('node:child_process')
  const { PassThrough } = await import('node:stream')
  const run = async (sdk) => {
    const events = []
    let child
    const { options } = mockOptions(`
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        cli.systemInit()
        await cli.sleep(60000)
      }`, {
      spawnClaudeCodeProcess: ({ command, args, cwd, env }) => {
        // The signal is ignored, and so is the end of stdin: only kill() can end it.
        child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] })
        const stdin = new PassThrough()
        stdin.on('data', (d) => child.stdin.write(d))
        stdin.on('finish', () => events.push('stdin end'))
        return {
          stdin,
          stdout: child.stdout,
          get killed() { return child.killed },
          get exitCode() { return child.exitCode },
          kill: (sig) => { events.push(`kill ${sig ?? ''}`.trim()); return child.kill(sig) },
          on: (e, f) => child.on(e, f),
          once: (e, f) => child.once(e, f),
          off: (e, f) => child.off(e, f),
        }
      },
    })
    const q = sdk.query({ prompt: 'hi', options })
    for await (const m of q) if (m.type === 'system') break
    const exited = new Promise((r) => child.once('exit', r))
    await Promise.race([exited, new Promise((r) => setTimeout(r, 8000))])
    const gone = child.exitCode !== null || child.signalCode !== null
    if (!gone) child.kill('SIGKILL')
    return { events, gone }
  }
  const mine = await run(ours)
  const theirs = await run(official)
  assert.deepEqual(theirs, { events: ['stdin end', 'kill SIGTERM'], gone: true })
  assert.deepEqual(mine, theirs)
})

test('an error result before a non-zero exit: the error has the result\'s text (as the official) and keeps the exit code and stderr', async () => {
  const scenario = `
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      cli.result({ subtype: 'error_during_execution', is_error: true, result: undefined, errors: ['it broke'] })
      await cli.stderr('boom on stderr')
      await cli.exit(2)
    }`
  const run = async (sdk) => (await collect(sdk.query({ prompt: 'hi', options: mockOptions(scenario).options }))).error
  const [mine, theirs] = [await run(ours), await run(official)]
  assert.equal(mine.message, theirs.message)
  assert.match(mine.message, /^Claude Code returned an error result: it broke/)
  assert.equal(mine.code, 'PROCESS_EXITED')
  assert.equal(mine.exitCode, 2)
  assert.match(mine.stderr, /boom on stderr/)
})
