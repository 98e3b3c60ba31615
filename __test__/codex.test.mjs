// claude-agent-sdk-native/codex against the real Codex binary (@openai/codex, pinned) and the
// scripted Responses API (testing/responses.js), offline: plain turns side by side with the
// official @openai/codex-sdk (same events, same run() result, resume), in-process tools (one
// server serving a Claude query and a Codex thread at once), approvals, interrupts, bad tool
// results, a missing binary, and no codex process left behind.
import { describe, it, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { spawn } from 'node:child_process'
import { z } from 'zod'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Codex as OfficialCodex } from '@openai/codex-sdk'
import { Codex } from '../codex.mjs'
import { sdk } from './helpers/sdk.mjs'
import { CLIS, root } from './helpers/clis.mjs'
import { startScriptedModel, toolResults, toolResultText, startScriptedResponses, lastFunctionCallOutput } from '../testing/index.mjs'

const { query, createSdkMcpServer, tool } = sdk
const CODEX = path.join(root, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex')
const haveCodex = process.platform === 'linux' && process.arch === 'x64' && fs.existsSync(CODEX)
const skip = haveCodex ? false : 'the linux-x64 Codex binary is not installed'

const models = []
async function fake(turns, options) {
  const model = await startScriptedResponses({ turns, ...options })
  models.push(model)
  return model
}
after(async () => {
  for (const m of models) await m.close()
})

/** Both SDKs' options for one fake: the same binary, environment and config. */
function codexOptions(model) {
  return { codexPathOverride: CODEX, env: model.env(), config: model.config() }
}

/** An event with its thread id (which differs between two threads) blanked. */
const normalize = (events) => events.map((e) => (e.type === 'thread.started' ? { ...e, thread_id: '<id>' } : e))

async function collect(thread, input, turnOptions) {
  const { events } = await thread.runStreamed(input, turnOptions)
  const out = []
  for await (const e of events) out.push(e)
  return out
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z')
  } catch {
    return false
  }
}

async function gone(pid, ms = 10_000) {
  const t0 = Date.now()
  while (alive(pid) && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 50))
  return !alive(pid)
}

const calc = () => createSdkMcpServer({
  name: 'calc',
  version: '1.0.0',
  tools: [
    tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] })),
  ],
})

describe('codex: side by side with @openai/codex-sdk', { skip, concurrency: true }, () => {
  it('a plain turn: the same events from runStreamed() and the same run() result, and resume continues', async () => {
    const script = () => [{ reasoning: 'thinking it over', text: 'hello there' }, { text: 'second answer' }]
    const [ours, theirs] = await Promise.all([fake(script()), fake(script())])
    const cwdA = ours.tempDir()
    const cwdB = theirs.tempDir()
    const a = new Codex(codexOptions(ours)).startThread({ workingDirectory: cwdA, skipGitRepoCheck: true })
    const b = new OfficialCodex(codexOptions(theirs)).startThread({ workingDirectory: cwdB, skipGitRepoCheck: true })
    const [ea, eb] = await Promise.all([collect(a, 'say hi'), collect(b, 'say hi')])
    assert.deepEqual(normalize(ea), normalize(eb))
    assert.equal(ea[0].thread_id, a.id)
    assert.ok(ea.some((e) => e.type === 'item.completed' && e.item.type === 'agent_message' && e.item.text === 'hello there'))
    // resume: a new Codex object continues each thread; the model sees the first turn.
    const ra = new Codex(codexOptions(ours)).resumeThread(a.id, { workingDirectory: cwdA, skipGitRepoCheck: true })
    const rb = new OfficialCodex(codexOptions(theirs)).resumeThread(b.id, { workingDirectory: cwdB, skipGitRepoCheck: true })
    const [rra, rrb] = await Promise.all([ra.run('again'), rb.run('again')])
    assert.deepEqual(rra, rrb)
    assert.equal(rra.finalResponse, 'second answer')
    assert.deepEqual(rra.usage, { input_tokens: 20, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 10, reasoning_output_tokens: 0 })
    const seen = JSON.stringify(ours.requests[1].input)
    assert.ok(seen.includes('say hi') && seen.includes('hello there'), 'the resumed turn carries the first')
    a.close()
    ra.close()
  })

  it('resumeThread of a thread this process holds goes to the app-server holding it', async () => {
    const model = await fake([{ text: 'first' }, { text: 'second' }])
    const codex = new Codex(codexOptions(model))
    const a = codex.startThread({ workingDirectory: model.tempDir() })
    await a.run('one')
    // A second app-server could not take the thread (Codex allows one writer per thread).
    const b = codex.resumeThread(a.id)
    const r = await b.run('two')
    assert.equal(r.finalResponse, 'second')
    assert.equal(b._session, a._session)
    a.close()
  })

  it('a failing model: the same turn.failed event', async () => {
    const [ours, theirs] = await Promise.all([fake([{ error: { status: 400, message: 'bad request from the script' } }]), fake([{ error: { status: 400, message: 'bad request from the script' } }])])
    const a = new Codex(codexOptions(ours)).startThread({ workingDirectory: ours.tempDir(), skipGitRepoCheck: true })
    const b = new OfficialCodex(codexOptions(theirs)).startThread({ workingDirectory: theirs.tempDir(), skipGitRepoCheck: true })
    const ea = await collect(a, 'hi')
    // The official's stream then throws (its `codex exec` exits with code 1); ours ends after
    // `turn.failed`, and run() throws for both.
    const eb = []
    try {
      for await (const e of (await b.runStreamed('hi')).events) eb.push(e)
    } catch {}
    assert.deepEqual(normalize(ea), normalize(eb))
    assert.ok(ea.find((e) => e.type === 'turn.failed'), JSON.stringify(ea))
    const third = await fake([{ error: { status: 400, message: 'bad request from the script' } }])
    const c = new Codex(codexOptions(third)).startThread({ workingDirectory: third.tempDir() })
    await assert.rejects(c.run('hi'), /bad request from the script/)
    c.close()
    a.close()
  })
})

describe('codex: in-process tools', { skip, concurrency: true }, () => {
  it('one server serves a Claude query and a Codex thread at the same time', async () => {
    const server = calc()
    const codexModel = await fake([
      { functionCalls: [{ namespace: 'calc', name: 'add', arguments: { a: 2, b: 3 } }] },
      (req) => ({ text: `codex got ${lastFunctionCallOutput(req)}` }),
    ])
    const claudeModel = await startScriptedModel({
      turns: [{ toolUses: [{ name: 'mcp__calc__add', input: { a: 40, b: 2 } }] }, (req) => ({ text: `claude got ${toolResultText(toolResults(req)[0])}` })],
    })
    try {
      const thread = new Codex(codexOptions(codexModel)).startThread({ workingDirectory: codexModel.tempDir(), mcpServers: { calc: server } })
      const claude = (async () => {
        let result
        for await (const m of query({ prompt: 'add', options: { pathToClaudeCodeExecutable: CLIS['2.1.330'], env: claudeModel.env(), cwd: claudeModel.tempDir('codex-'), mcpServers: { calc: server }, allowedTools: ['mcp__calc__add'] } })) {
          if (m.type === 'result') result = m
        }
        return result
      })()
      const [events, claudeResult] = await Promise.all([collect(thread, 'add 2 and 3'), claude])
      assert.equal(claudeResult.result, 'claude got 42')
      const call = events.find((e) => e.type === 'item.completed' && e.item.type === 'mcp_tool_call')
      assert.deepEqual(call.item, { id: call.item.id, type: 'mcp_tool_call', server: 'calc', tool: 'add', status: 'completed', arguments: { a: 2, b: 3 }, result: { content: [{ type: 'text', text: '5' }], structured_content: null } })
      assert.ok(events.some((e) => e.type === 'item.started' && e.item.type === 'mcp_tool_call' && e.item.status === 'in_progress'))
      assert.equal(events.findLast((e) => e.type === 'item.completed').item.text, 'codex got 5')
      // The model was offered the namespace with the tool's JSON Schema.
      const offered = codexModel.requests[0].tools.find((t) => t.type === 'namespace' && t.name === 'calc')
      assert.ok(offered, JSON.stringify(codexModel.requests[0].tools.map((t) => t.name)))
      thread.close()
    } finally {
      await claudeModel.close()
    }
  })

  it('bad tool results, a schema violation and unknown names reach the model as failures; the host survives', async () => {
    const server = createSdkMcpServer({
      name: 'bad',
      tools: [
        tool('throws', 'Throws', {}, async () => { throw new Error('the handler blew up') }),
        tool('nonsense', 'Returns a number', {}, async () => 42),
        tool('typed', 'Wants a number', { n: z.number() }, async ({ n }) => ({ content: [{ type: 'text', text: `n=${n}` }] })),
        tool('flagged', 'An isError result', {}, async () => ({ content: [{ type: 'text', text: 'tool said no' }], isError: true })),
      ],
    })
    const model = await fake([
      { functionCalls: [
        { namespace: 'bad', name: 'throws', arguments: {} },
        { namespace: 'bad', name: 'nonsense', arguments: {} },
        { namespace: 'bad', name: 'typed', arguments: { n: 'not a number' } },
        { namespace: 'bad', name: 'flagged', arguments: {} },
        { namespace: 'bad', name: 'missing', arguments: {} },
        { namespace: 'nowhere', name: 'x', arguments: {} },
      ] },
      { text: 'done' },
    ])
    const thread = new Codex(codexOptions(model)).startThread({ workingDirectory: model.tempDir(), mcpServers: { bad: server } })
    const events = await collect(thread, 'go')
    const outputs = model.requests[1].input.filter((i) => i.type === 'function_call_output').map((o) => lastFunctionCallOutput({ input: [o] }))
    assert.equal(outputs.length, 6, JSON.stringify(model.requests[1].input))
    const [throws, nonsense, typed, flagged, missing, nowhere] = outputs
    assert.match(throws, /the handler blew up/)
    assert.match(nonsense, /^MCP error -32602: Invalid tools\/call result/)
    assert.match(typed, /\bn\b/)
    assert.match(typed, /number/i)
    assert.equal(flagged, 'tool said no')
    // Codex itself refuses names it did not declare (our engine names them too, when asked).
    assert.match(missing, /missing/)
    assert.match(nowhere, /nowhere/)
    const failed = events.filter((e) => e.type === 'item.completed' && e.item.type === 'mcp_tool_call' && e.item.status === 'failed')
    assert.ok(failed.length >= 4, JSON.stringify(events))
    assert.equal(events.at(-1).type, 'turn.completed')
    thread.close()
  })

  it('a foreign McpServer of @modelcontextprotocol/sdk serves a Codex thread too', async () => {
    const foreign = new McpServer({ name: 'ext', version: '1.0.0' })
    foreign.registerTool('shout', { description: 'Upper-cases', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }))
    const model = await fake([{ functionCalls: [{ namespace: 'ext', name: 'shout', arguments: { text: 'hi' } }] }, (req) => ({ text: `got ${lastFunctionCallOutput(req)}` })])
    const thread = new Codex(codexOptions(model)).startThread({ workingDirectory: model.tempDir(), mcpServers: { ext: { type: 'sdk', name: 'ext', instance: foreign } } })
    const r = await thread.run('shout')
    assert.equal(r.finalResponse, 'got HI')
    const offered = model.requests[0].tools.find((t) => t.type === 'namespace' && t.name === 'ext')
    assert.deepEqual(offered.tools.map((t) => t.name), ['shout'])
    thread.close()
  })

  it('two parallel calls of a slow tool overlap', async () => {
    let running = 0
    let most = 0
    const server = createSdkMcpServer({
      name: 'slow',
      tools: [tool('wait', 'Waits', { ms: z.number() }, async ({ ms }) => {
        most = Math.max(most, ++running)
        await new Promise((r) => setTimeout(r, ms))
        running--
        return { content: [{ type: 'text', text: 'waited' }] }
      })],
    })
    const model = await fake([{ functionCalls: [{ namespace: 'slow', name: 'wait', arguments: { ms: 300 } }, { namespace: 'slow', name: 'wait', arguments: { ms: 300 } }] }, { text: 'ok' }])
    const thread = new Codex(codexOptions(model)).startThread({ workingDirectory: model.tempDir(), mcpServers: { slow: server } })
    const r = await thread.run('go')
    assert.equal(most, 2)
    assert.equal(r.items.filter((i) => i.type === 'mcp_tool_call' && i.status === 'completed').length, 2)
    thread.close()
  })

  it('an interrupt during a slow tool fires the handler\'s signal and ends the run with an AbortError', async () => {
    let sawAbort
    const started = Promise.withResolvers ? Promise.withResolvers() : (() => { let resolve; const promise = new Promise((r) => (resolve = r)); return { promise, resolve } })()
    const server = createSdkMcpServer({
      name: 'slow',
      tools: [tool('hang', 'Hangs until aborted', {}, async (_args, extra) => {
        started.resolve()
        await new Promise((resolve) => extra.signal.addEventListener('abort', () => { sawAbort = true; resolve() }, { once: true }))
        return { content: [{ type: 'text', text: 'aborted' }] }
      })],
    })
    const model = await fake([{ functionCalls: [{ namespace: 'slow', name: 'hang', arguments: {} }] }, { text: 'after' }, { text: 'next turn' }])
    const thread = new Codex(codexOptions(model)).startThread({ workingDirectory: model.tempDir(), mcpServers: { slow: server } })
    const controller = new AbortController()
    const run = thread.run('go', { signal: controller.signal })
    await started.promise
    controller.abort()
    await assert.rejects(run, (e) => e.name === 'AbortError')
    const t0 = Date.now()
    while (!sawAbort && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20))
    assert.equal(sawAbort, true)
    // The thread goes on.
    const next = await thread.run('again')
    assert.ok(['after', 'next turn'].includes(next.finalResponse), next.finalResponse)
    thread.close()
  })
})

describe('codex: approvals, questions, faults and hygiene', { skip, concurrency: true }, () => {
  it('a command approval allowed runs it; one denied does not; without a callback it is declined', async () => {
    const script = () => [
      { functionCalls: [{ name: 'exec_command', arguments: { cmd: 'echo allowed-ran' } }] },
      (req) => ({ text: `out: ${lastFunctionCallOutput(req)}` }),
    ]
    const [m1, m2, m3] = await Promise.all([fake(script()), fake(script()), fake(script())])
    const requests = []
    const allow = new Codex(codexOptions(m1)).startThread({ workingDirectory: m1.tempDir(), approvalPolicy: 'untrusted', onApproval: async (r) => (requests.push(r), { behavior: 'allow' }) })
    const deny = new Codex(codexOptions(m2)).startThread({ workingDirectory: m2.tempDir(), approvalPolicy: 'untrusted', onApproval: async () => ({ behavior: 'deny', message: 'not today' }) })
    const none = new Codex(codexOptions(m3)).startThread({ workingDirectory: m3.tempDir(), approvalPolicy: 'untrusted' })
    const [ra, rd, rn] = await Promise.all([allow.run('run it'), deny.run('run it'), none.run('run it')])
    assert.equal(requests[0].kind, 'commandExecution')
    assert.match(requests[0].command, /echo allowed-ran/)
    const cmd = (r) => r.items.find((i) => i.type === 'command_execution')
    assert.equal(cmd(ra).status, 'completed')
    assert.match(cmd(ra).aggregated_output, /allowed-ran/)
    assert.match(ra.finalResponse, /allowed-ran/)
    assert.equal(cmd(rd).status, 'declined')
    assert.doesNotMatch(rd.finalResponse, /allowed-ran\n/)
    assert.equal(cmd(rn).status, 'declined')
    for (const t of [allow, deny, none]) t.close()
  })

  it('request_user_input reaches onUserInput and its answer reaches the model', async () => {
    const model = await fake([
      { functionCalls: [{ name: 'request_user_input', arguments: { questions: [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'red', description: 'warm' }, { label: 'blue', description: 'cool' }] }] } }] },
      (req) => ({ text: `answer: ${lastFunctionCallOutput(req)}` }),
    ])
    let asked
    // request_user_input outside plan mode is behind a feature flag of Codex's.
    const options = codexOptions(model)
    options.config = { ...options.config, features: { ...options.config.features, default_mode_request_user_input: true } }
    const thread = new Codex(options).startThread({ workingDirectory: model.tempDir(), onUserInput: async (r) => ((asked = r), { color: 'blue' }) })
    const r = await thread.run('ask me')
    assert.ok(asked, `onUserInput was not called; the model saw: ${r.finalResponse}`)
    assert.equal(asked.questions[0].id, 'color')
    assert.match(r.finalResponse, /blue/)
    thread.close()
  })

  it('a missing Codex is an Error with code CODEX_NOT_FOUND naming the path', async () => {
    const thread = new Codex({ codexPathOverride: '/nonexistent/codex' }).startThread()
    await assert.rejects(thread.run('hi'), (e) => e.code === 'CODEX_NOT_FOUND' && /\/nonexistent\/codex/.test(e.message))
  })

  it('no codex process is left after a break out of the events and close()', async () => {
    const model = await fake([{ text: 'one' }, { functionCalls: [{ namespace: 'calc', name: 'add', arguments: { a: 1, b: 1 } }] }, { text: 'two' }, { text: 'three' }])
    const thread = new Codex(codexOptions(model)).startThread({ workingDirectory: model.tempDir(), mcpServers: { calc: calc() } })
    await thread.run('first')
    const pid = thread._session.native.pid
    assert.ok(alive(pid))
    const { events } = await thread.runStreamed('second')
    for await (const e of events) if (e.type === 'item.started') break
    await thread.run('third')
    thread.close()
    assert.ok(await gone(pid), `codex ${pid} outlived close()`)
  })

  it('codex dies with a SIGKILLed host', async () => {
    const model = await fake([{ functionCalls: [{ namespace: 'slow', name: 'hang', arguments: {} }] }])
    const script = `
      import { Codex } from ${JSON.stringify(path.join(root, 'codex.mjs'))}
      import { createSdkMcpServer, tool } from ${JSON.stringify(path.join(root, 'index.mjs'))}
      const [options, cwd] = JSON.parse(process.argv[1])
      const server = createSdkMcpServer({ name: 'slow', tools: [tool('hang', 'Hangs', {}, async () => { console.log('PID ' + thread._session.native.pid); return new Promise(() => {}) })] })
      const thread = new Codex(options).startThread({ workingDirectory: cwd, mcpServers: { slow: server } })
      thread.run('go')
      setInterval(() => {}, 1000)
    `
    const host = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([codexOptions(model), model.tempDir()])], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    const pid = await new Promise((resolve, reject) => {
      host.stdout.on('data', (d) => {
        out += d
        const m = /PID (\d+)/.exec(out)
        if (m) resolve(Number(m[1]))
      })
      host.on('exit', () => reject(new Error(`the host exited first: ${out}`)))
    })
    assert.ok(alive(pid))
    host.kill('SIGKILL')
    assert.ok(await gone(pid), `codex ${pid} outlived its SIGKILLed host`)
  })

  it('codex exiting mid-turn is an Error with code CODEX_EXITED; a broken line from it is reported and the session goes on', async () => {
    const model = await fake([{ functionCalls: [{ namespace: 'slow', name: 'die', arguments: {} }] }, { text: 'fine' }])
    const dir = model.tempDir()
    // A wrapper that writes one line that is not JSON-RPC before Codex's own output.
    const wrapper = path.join(dir, 'codex-noisy')
    fs.writeFileSync(wrapper, `#!/bin/sh\necho 'this is not json'\nexec "${CODEX}" "$@"\n`, { mode: 0o755 })
    const warnings = []
    const onWarning = (w) => warnings.push(String(w.message))
    process.on('warning', onWarning)
    try {
      const good = await fake([{ text: 'fine' }])
      const g = new Codex({ ...codexOptions(good), codexPathOverride: wrapper }).startThread({ workingDirectory: good.tempDir() })
      assert.equal((await g.run('hi')).finalResponse, 'fine')
      assert.ok(warnings.some((w) => /not JSON-RPC/.test(w)), JSON.stringify(warnings))
      g.close()
      let thread
      const server = createSdkMcpServer({ name: 'slow', tools: [tool('die', 'Kills Codex', {}, async () => {
        process.kill(thread._session.native.pid, 'SIGKILL')
        return new Promise(() => {})
      })] })
      thread = new Codex(codexOptions(model)).startThread({ workingDirectory: dir, mcpServers: { slow: server } })
      await assert.rejects(thread.run('go'), (e) => e.code === 'CODEX_EXITED' && e.signal === 'SIGKILL' && /Codex app-server was terminated by signal SIGKILL/.test(e.message))
      thread.close()
    } finally {
      process.off('warning', onWarning)
    }
  })
})
