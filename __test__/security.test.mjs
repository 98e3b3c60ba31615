// Security: no shell and no argument injection when spawning the CLI; NUL bytes refused; tool
// arguments validated before the handler runs; diagnostics never print secrets.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import crypto from 'node:crypto'
import { sdk, collect, mockOptions, readLog, scenarioRecords } from './helpers/sdk.mjs'
import { runHost, entry, root, within } from './helpers/process.mjs'

const { query, tool, createSdkMcpServer } = sdk

function argvOf(log) {
  return readLog(log).find((r) => r.kind === 'start')?.argv
}

test('hostile option values reach the CLI as exactly one argv entry each, without a shell', async () => {
  const { log, options } = mockOptions(undefined, {
    model: '--dangerously-skip-permissions',
    fallbackModel: 'x" --evil "y',
    resume: "a\nb --print 'c'",
    additionalDirectories: ['--add-dir', "/tmp/it's here; rm -rf ~", '-'],
    allowedTools: ['Bash(rm -rf /)', '--evil'],
    disallowedTools: ['$(touch /tmp/pwned)', '`id`'],
    betas: ['a b', '--c'],
    extraArgs: { 'evil-flag': '--dangerously-skip-permissions', quoted: `"'; rm -rf ~ #`, newline: 'a\nb --x', dash: '-', boolflag: null },
    settings: '{"k":"--v"}',
  })
  const { error } = await collect(query({ prompt: 'hi', options }))
  assert.equal(error, null)
  const argv = argvOf(log)
  assert.deepEqual(argv.slice(0, 5), ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'])
  // A value that looks like a flag is glued to its flag with '='; any other value is the next entry.
  const glued = [
    '--model=--dangerously-skip-permissions',
    '--fallback-model=x" --evil "y',
    "--resume=a\nb --print 'c'",
    '--add-dir=--add-dir',
    "--add-dir=/tmp/it's here; rm -rf ~",
    '--add-dir=-',
    '--allowedTools=Bash(rm -rf /),--evil',
    '--disallowedTools=$(touch /tmp/pwned),`id`',
    '--betas=a b,--c',
    '--evil-flag=--dangerously-skip-permissions',
    '--boolflag',
  ]
  const pairs = [['--quoted', `"'; rm -rf ~ #`], ['--newline', 'a\nb --x'], ['--dash', '-'], ['--settings', '{"k":"--v"}']]
  const rest = argv.slice(5)
  assert.deepEqual([...rest].sort(), [...glued, ...pairs.flat()].sort(), 'exactly these entries, nothing split or added')
  for (const [flag, value] of pairs) assert.equal(rest[rest.indexOf(flag) + 1], value, `${flag} is followed by its value`)
  assert.ok(!rest.includes('--dangerously-skip-permissions') && !rest.includes('--evil') && !rest.includes('--print'), 'no value became a flag')
})

test('a NUL byte in an argument is a clear error, and nothing is spawned', async () => {
  const cases = {
    model: ['a\0b', /NUL byte/],
    resume: ['r\0', /NUL byte/],
    allowedTools: [['Bash\0'], /NUL byte/],
    additionalDirectories: [['/tmp\0x'], /NUL byte/],
    extraArgs: [{ 'fl\0ag': 'v' }, /NUL byte/],
    executableArgs: [['--inspect\0'], /NUL byte|nul byte/],
    executable: ['node\0x', /NUL byte|nul byte/],
  }
  for (const [key, [value, expected]] of Object.entries(cases)) {
    const { log, options } = mockOptions(undefined, { [key]: value })
    const { error, messages } = await within(collect(query({ prompt: 'hi', options })), 10000, `${key} to fail`)
    assert.ok(error instanceof Error, `${key}: an error`)
    assert.match(error.message, expected, `${key}: ${error.message}`)
    assert.deepEqual(messages, [])
    assert.deepEqual(readLog(log), [], `${key}: no CLI was started`)
  }
  // An env value with a NUL byte is refused without echoing the (possibly secret) value.
  const { log, options } = mockOptions(undefined)
  options.env = { ...options.env, SOME_TOKEN: 'tok-SECRET\0tail' }
  const { error } = await collect(query({ prompt: 'hi', options }))
  assert.match(error?.message ?? '', /SOME_TOKEN/)
  assert.ok(!error.message.includes('tok-SECRET'), error.message)
  assert.deepEqual(readLog(log), [])
})

test('a JSON-Schema-typed tool: arguments are validated before the handler runs', async () => {
  const received = []
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [tool('t', 'd', { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, async (args) => {
      received.push(args)
      return { content: [{ type: 'text', text: `n=${args.n}` }] }
    })],
  })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const out = []
      for (const args of [{ n: 'x' }, {}, { n: 1 }]) out.push(await cli.mcp('demo', { method: 'tools/call', params: { name: 't', arguments: args } }))
      cli.log(out)
      cli.result()
    }`, { mcpServers: { demo: server } })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [[wrongType, missing, good]] = scenarioRecords(log)
  for (const [r, what] of [[wrongType, 'expected number, received string'], [missing, 'expected number, received undefined']]) {
    assert.equal(r.result.isError, true)
    assert.match(r.result.content[0].text, /^MCP error -32602: Input validation error: Invalid arguments for tool t: /)
    assert.ok(r.result.content[0].text.includes(what), r.result.content[0].text)
  }
  assert.deepEqual(good.result, { content: [{ type: 'text', text: 'n=1' }] })
  assert.deepEqual(received, [{ n: 1 }], 'only the valid call reached the handler')
})

test('DEBUG_CLAUDE_AGENT_SDK=1 tracing never prints the API key, env values or tool arguments', async () => {
  const apiKey = `sk-ant-api03-${crypto.randomBytes(24).toString('hex')}`
  const envSecret = `env-secret-${crypto.randomBytes(8).toString('hex')}`
  const argSecret = `TOOL-ARG-SECRET-${crypto.randomBytes(8).toString('hex')}`
  const mockIndex = path.join(root, '__test__/mock-cli/index.mjs')
  const hostEnv = { ...process.env, DEBUG_CLAUDE_AGENT_SDK: '1', ANTHROPIC_API_KEY: apiKey, MY_DB_PASSWORD: envSecret }
  delete hostEnv.CLAUDE_AGENT_SDK_LOG // the default filter: debug level
  const host = runHost(`
    import { query, tool, createSdkMcpServer } from ${JSON.stringify(entry)}
    import { mockCliPath, mockEnv, tempScenario, tempLogPath } from ${JSON.stringify(mockIndex)}
    const ARG = ${JSON.stringify(argSecret)}
    const server = createSdkMcpServer({ name: 'demo', tools: [
      tool('login', 'd', { type: 'object', properties: { password: { type: 'string' } }, required: ['password'] }, async ({ password }) => ({ content: [{ type: 'text', text: 'ok ' + password.length } ] })),
    ] })
    const scenario = tempScenario(\`
      export default async function (cli) {
        const KEY = process.env.ANTHROPIC_API_KEY
        const ARG = \${JSON.stringify(ARG)}
        await cli.initialize()
        await cli.nextUserMessage()
        cli.systemInit()
        const id = cli.assistantToolUse('mcp__demo__login', { password: ARG })
        await cli.mcp('demo', { method: 'tools/call', params: { name: 'login', arguments: { password: ARG }, _meta: { 'claudecode/toolUseId': id } } })
        await cli.mcp('demo', { method: 'tools/call', params: { name: 'login', arguments: { password: { nested: ARG } } } })
        await cli.mcp('demo', { method: 'tools/call', params: { name: 'nope', arguments: { password: ARG } } })
        await cli.request('can_use_tool', { tool_name: 'Bash', input: { command: 'login --password ' + ARG }, tool_use_id: 't1' })
        await cli.request('hook_callback', { callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse', tool_input: { password: ARG } }, tool_use_id: 't2' })
        await cli.request('frobnicate', { password: ARG })
        // Garbage on stdout: a truncated tool_use line, and an error line quoting the key.
        await cli.sendRaw('{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"password":"' + ARG + '"\\\\n')
        await cli.sendRaw('Error: invalid x-api-key ' + KEY + '\\\\n')
        cli.toolResult(id, 'ok')
        cli.result()
        await cli.stderr('auth: using key ' + KEY)
        await cli.exit(1)
      }\`)
    let error = null
    try {
      for await (const m of query({ prompt: 'log in with ' + ARG, options: {
        pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario, log: tempLogPath() }), mcpServers: { demo: server },
        canUseTool: async (name, input) => ({ behavior: 'allow', updatedInput: input }),
        hooks: { PreToolUse: [{ hooks: [async (input) => ({ continue: true })] }] },
      } })) {}
    } catch (e) {
      error = e.message
    }
    report({ error })
  `, { env: hostEnv })
  try {
    const { error } = await host.next((r) => 'error' in r, 20000)
    await within(host.exited, 10000, 'the host to exit')
    const stderr = host.stderr()
    if (process.env.SHOW_TRACE) console.log(stderr)
    assert.match(stderr, /DEBUG.*spawned/, `tracing was on, at debug level:\n${stderr}`)
    assert.match(error ?? '', /^Claude Code process exited with code 1\. stderr: auth: using key /)
    assert.ok(!error.includes(apiKey), 'the error message masks the key')
    for (const [what, secret] of [['the API key', apiKey], ['an env value', envSecret], ['a tool argument', argSecret]]) {
      const at = stderr.indexOf(secret)
      assert.equal(at, -1, `tracing printed ${what}: ...${stderr.slice(Math.max(0, stderr.lastIndexOf('\n', at)), at + secret.length + 40)}`)
    }
  } finally {
    host.child.kill('SIGKILL')
  }
})
