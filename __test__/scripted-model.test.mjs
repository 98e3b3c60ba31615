// Tests of testing/ (the scripted fake Messages API), against the OFFICIAL
// @anthropic-ai/claude-agent-sdk and both pinned Claude Code CLIs.
// Run: node --test __test__/scripted-model.test.mjs
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLIS, root } from './helpers/clis.mjs'
import { query, createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'
import {
  startScriptedModel,
  toolResults,
  lastToolResult,
  toolResultText,
  lastUserText,
  systemText,
  isAgentTurn,
} from '../testing/index.mjs'


function demoServer(calls) {
  return createSdkMcpServer({
    name: 'demo',
    version: '1.0.0',
    tools: [
      tool('greet', 'Greets someone', { name: z.string() }, async ({ name }) => {
        calls.push(name)
        return { content: [{ type: 'text', text: `Hello, ${name}!` }] }
      }),
    ],
  })
}

async function run(model, cli, prompt, extraOptions = {}) {
  const messages = []
  let stderr = ''
  const q = query({
    prompt,
    options: {
      pathToClaudeCodeExecutable: cli,
      env: model.env(),
      cwd: model.tempDir('scripted-cwd-'),
      mcpServersDelivery: 'argv',
      stderr: (d) => (stderr += d),
      ...extraOptions,
    },
  })
  for await (const m of q) messages.push(m)
  const result = messages.find((m) => m.type === 'result')
  assert.ok(result, `no result message; stderr:\n${stderr}`)
  return { messages, result }
}

for (const [version, cli] of Object.entries(CLIS)) {
  describe(`official SDK + CLI ${version}`, { concurrency: true }, () => {
    it('tool round trip', async () => {
      const calls = []
      const model = await startScriptedModel({
        turns: [
          { toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] },
          (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) }),
        ],
      })
      try {
        const { result, messages } = await run(model, cli, 'Greet Alice', {
          mcpServers: { demo: demoServer(calls) },
          allowedTools: ['mcp__demo__greet'],
        })
        assert.equal(result.subtype, 'success')
        assert.equal(result.result, 'Tool said: Hello, Alice!')
        assert.deepEqual(calls, ['Alice'])
        assert.equal(model.requests.length, 2)
        assert.equal(model.remainingTurns, 0)
        assert.equal(lastUserText(model.requests[0]), 'Greet Alice')
        assert.ok(model.requests[0].tools.some((t) => t.name === 'mcp__demo__greet'))
        assert.equal(model.requests[0].stream, true)
        const [tr] = toolResults(model.requests[1])
        assert.equal(tr.is_error ?? false, false)
        const assistant = messages.find((m) => m.type === 'assistant')
        assert.equal(assistant.message.content[0].type, 'tool_use')
        assert.equal(tr.tool_use_id, assistant.message.content[0].id)
        assert.deepEqual(model.errors, [])
      } finally {
        await model.close()
      }
    })

    it('two parallel tool_use blocks in one turn', async () => {
      const calls = []
      const model = await startScriptedModel({
        turns: [
          {
            text: 'Greeting both.',
            toolUses: [
              { name: 'mcp__demo__greet', input: { name: 'Alice' } },
              { name: 'mcp__demo__greet', input: { name: 'Bob' } },
            ],
          },
          (req) => ({ text: toolResults(req).map(toolResultText).join(' | ') }),
        ],
      })
      try {
        const { result } = await run(model, cli, 'Greet Alice and Bob', {
          mcpServers: { demo: demoServer(calls) },
          allowedTools: ['mcp__demo__greet'],
        })
        assert.equal(result.subtype, 'success')
        assert.equal(result.result, 'Hello, Alice! | Hello, Bob!')
        assert.deepEqual([...calls].sort(), ['Alice', 'Bob'])
        assert.equal(model.requests.length, 2)
        assert.equal(toolResults(model.requests[1]).length, 2)
      } finally {
        await model.close()
      }
    })

    it('plain text answer', async () => {
      const model = await startScriptedModel({ turns: ['Hello from the script'], textChunkSize: 5 })
      try {
        const { result, messages } = await run(model, cli, 'Say hello', {
          systemPrompt: 'You are a test.',
          includePartialMessages: true,
        })
        assert.equal(result.subtype, 'success')
        assert.equal(result.result, 'Hello from the script')
        assert.equal(result.num_turns, 1)
        assert.equal(model.requests.length, 1)
        assert.match(systemText(model.requests[0]), /You are a test\./)
        const deltas = messages
          .filter((m) => m.type === 'stream_event' && m.event.type === 'content_block_delta')
          .map((m) => m.event.delta.text)
        assert.deepEqual(deltas, ['Hello', ' from', ' the ', 'scrip', 't'])
      } finally {
        await model.close()
      }
    })

    it('side queries (prompt suggestion fork, auto-mode classifier) do not consume turns', async () => {
      const model = await startScriptedModel({
        turns: [
          { toolUses: [{ name: 'Bash', input: { command: 'touch f.txt && curl -X POST http://example.invalid', description: 'x' } }] },
          'final answer',
        ],
        sideQuery: { text: 'side answer' },
      })
      try {
        const { result, messages } = await run(model, cli, 'Do it', { permissionMode: 'auto', promptSuggestions: true })
        assert.equal(result.result, 'final answer')
        assert.equal(model.requests.length, 2)
        assert.equal(model.remainingTurns, 0)
        assert.ok(model.sideRequests.length >= 1)
        // 2.1.330 asks the server-side check (absent here); 2.1.197 sends classifier side queries without `tools`.
        assert.ok(model.sideRequests.every((r) => !Array.isArray(r.tools) || lastUserText(r).startsWith('[SUGGESTION MODE:')))
        const suggestion = messages.find((m) => m.type === 'prompt_suggestion')
        if (suggestion) assert.equal(suggestion.suggestion, 'side answer')
      } finally {
        await model.close()
      }
    })
  })
}

describe('scripted model HTTP behaviour', () => {
  let model
  before(async () => {
    model = await startScriptedModel({
      turns: [{ text: 'one' }, { toolUses: [{ name: 'X', input: { a: 1 }, id: 'toolu_x' }] }],
      fallback: { text: 'fallback' },
      sideQuery: { text: 'side' },
    })
  })
  after(() => model.close())

  const post = (p, body, headers = {}) =>
    fetch(model.url + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

  it('listens on 127.0.0.1', () => {
    assert.match(model.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('answers probes, count_tokens and unknown paths without consuming turns', async () => {
    assert.equal((await fetch(model.url + '/', { method: 'HEAD' })).status, 200)
    const ct = await post('/v1/messages/count_tokens', { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [] })
    assert.equal(ct.status, 200)
    assert.ok((await ct.json()).input_tokens > 0)
    const nf = await fetch(model.url + '/v1/nope')
    assert.equal(nf.status, 404)
    assert.equal((await nf.json()).error.type, 'not_found_error')
    assert.equal(model.turnCount, 0)
  })

  it('side queries (no tools / fork markers) get sideQuery and do not consume turns', async () => {
    const noTools = await post('/v1/messages', { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'classify' }] })
    assert.equal((await noTools.json()).content[0].text, 'side')
    const fork = await post('/v1/messages', {
      model: 'm',
      max_tokens: 64,
      tools: [{ name: 'Bash' }],
      messages: [{ role: 'user', content: '[SUGGESTION MODE: Suggest what the user might naturally type next]' }],
    })
    assert.equal((await fork.json()).content[0].text, 'side')
    assert.equal(model.turnCount, 0)
    assert.equal(model.sideRequests.length, 2)
    assert.equal(isAgentTurn({ tools: [], messages: [{ role: 'user', content: 'x' }] }), true)
  })

  it('non-stream and stream turns, then fallback', async () => {
    const body = { model: 'claude-x', max_tokens: 10, tools: [], messages: [{ role: 'user', content: 'hi' }] }
    const r1 = await (await post('/v1/messages?beta=true', body)).json()
    assert.equal(r1.type, 'message')
    assert.equal(r1.model, 'claude-x')
    assert.deepEqual(r1.content, [{ type: 'text', text: 'one' }])
    assert.equal(r1.stop_reason, 'end_turn')

    const r2 = await post('/v1/messages?beta=true', { ...body, stream: true })
    assert.match(r2.headers.get('content-type'), /text\/event-stream/)
    const events = (await r2.text())
      .trim()
      .split('\n\n')
      .map((chunk) => {
        const [ev, data] = chunk.split('\n')
        return { event: ev.slice('event: '.length), data: JSON.parse(data.slice('data: '.length)) }
      })
    assert.deepEqual(
      events.map((e) => e.event),
      ['message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
    )
    assert.deepEqual(events[2].data.content_block, { type: 'tool_use', id: 'toolu_x', name: 'X', input: {} })
    assert.deepEqual(events[3].data.delta, { type: 'input_json_delta', partial_json: '{"a":1}' })
    assert.equal(events[5].data.delta.stop_reason, 'tool_use')

    const r3 = await (await post('/v1/messages', body)).json()
    assert.equal(r3.content[0].text, 'fallback')
    assert.equal(model.requests.length, 3)
  })

  it('env() isolates the CLI', () => {
    const env = model.env({ EXTRA_VAR: 'x' })
    assert.equal(env.ANTHROPIC_BASE_URL, model.url)
    assert.equal(env.ANTHROPIC_API_KEY, 'sk-test')
    assert.equal(env.ENABLE_TOOL_SEARCH, 'false')
    assert.equal(env.EXTRA_VAR, 'x')
    assert.ok(env.CLAUDE_CONFIG_DIR.startsWith(env.HOME))
    assert.notEqual(model.env().HOME, env.HOME)
    assert.equal(env.PATH, process.env.PATH)
    assert.equal(env.CLAUDE_AGENT_SDK_VERSION, undefined)
  })

  it('a throwing turn function answers 400 and is recorded', async () => {
    const m = await startScriptedModel({
      turns: [
        () => {
          throw new Error('bad script')
        },
      ],
    })
    try {
      const r = await fetch(m.url + '/v1/messages', {
        method: 'POST',
        body: JSON.stringify({ model: 'm', tools: [], messages: [{ role: 'user', content: 'x' }] }),
      })
      assert.equal(r.status, 400)
      assert.match((await r.json()).error.message, /bad script/)
      assert.equal(m.errors.length, 1)
    } finally {
      await m.close()
    }
  })
})
