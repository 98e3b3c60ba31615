// The CLI's requests that optional host handlers answer — oauth_token_refresh (getOAuthToken),
// host_auth_token_refresh (getHostAuthToken), remote_control_work_secret (enableRemoteControl's
// refreshWorkSecret) and the ui_* requests (setUiHost) — run side by side with the official SDK
// against the same mock CLI, with the handlers and without: the answers the CLI gets and what
// each handler is called with must be the same.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, mockOptions, scenarioRecords } from './helpers/sdk.mjs'

/** Sends each request once the first prompt is in, and logs every answer (request ids removed). */
const CLI = `
  export default async function (cli) {
    cli.onControlRequest('remote_control', () => ({ bridge_session_id: 'cse_abcd1234', url: 'https://claude.example/rc' }))
    await cli.initialize()
    await cli.nextUserMessage()
    const requests = [
      ['oauth_token_refresh', {}],
      ['oauth_token_refresh', { kind: 'model', token_state: 'refused', refused_call: 'model', refused_bearer_sha256: ['ab'] }],
      ['oauth_token_refresh', { token_state: 'not_refused', refused_call: 'model', decline: true }],
      ['oauth_token_refresh', { fail: true }],
      ['host_auth_token_refresh', { status: 401 }],
      ['host_auth_token_refresh', { status: 403, token_state: 'not_refused', object: true }],
      ['host_auth_token_refresh', { status: 500, token_state: 'refused', none: true }],
      ['remote_control_work_secret', { session_id: 'session_abcd1234' }],
      ['remote_control_work_secret', { session_id: 'session_other999' }],
      ['ui_copy', { text: 'copied' }],
      ['ui_prompt_read', {}],
      ['ui_prompt_fill', { text: 'filled' }],
      ['ui_prompt_paint', { spans: [] }],
      ['ui_prompt_suggest', { suggestions: ['a'] }],
      ['ui_read_selection', {}],
    ]
    for (const [subtype, fields] of requests) {
      const { request_id, ...answer } = await cli.request(subtype, fields)
      cli.log({ subtype, fields, answer })
    }
    await cli.next((m) => m.type === 'user' && m.message.content === 'done')
    cli.systemInit()
    cli.result()
  }`

async function run(sdk, withHandlers) {
  const calls = []
  const record = (name) => (arg, second) => {
    const { signal, onDecline, ...rest } = arg ?? {}
    calls.push([name, rest, second === undefined ? undefined : Object.keys(second)])
    return undefined
  }
  const handlers = withHandlers
    ? {
        getOAuthToken: async (o) => {
          record('getOAuthToken')(o)
          if (o.kind === 'model') return 'tok-1'
          if (o.tokenState === 'not_refused') { o.onDecline('transient'); o.onDecline('not-a-reason'); return null }
          if (o.tokenState === undefined && calls.filter((c) => c[0] === 'getOAuthToken').length === 4) throw new Error('no token today')
          return undefined
        },
        getHostAuthToken: async (o) => {
          record('getHostAuthToken')(o)
          assert.ok(o.signal instanceof AbortSignal)
          if (o.status === 403) return { authToken: 'h-2', expiresAt: 5 }
          if (o.status === 500) return undefined
          return 'h-1'
        },
      }
    // Some other callback, so that both SDKs keep the CLI's input open for its requests.
    : { canUseTool: async () => ({ behavior: 'allow' }) }
  const { log, options } = mockOptions(CLI, handlers)
  let started
  const go = new Promise((r) => (started = r))
  async function* prompt() {
    await go
    yield { type: 'user', message: { role: 'user', content: 'start' }, parent_tool_use_id: null, session_id: '' }
    yield { type: 'user', message: { role: 'user', content: 'done' }, parent_tool_use_id: null, session_id: '' }
  }
  const q = sdk.query({ prompt: prompt(), options })
  if (withHandlers) {
    const ui = {
      copy: async (o, x) => (record('copy')(o, x), { copied: true }),
      promptRead: async (o) => (record('promptRead')(o), { text: 'draft', cursor: 3 }),
      promptFill: async (o) => (record('promptFill')(o), undefined),
      promptPaint: async (o) => (record('promptPaint')(o), null),
      promptSuggest: async () => { throw new Error('no suggestions') },
      // readSelection left out: answered as unsupported.
    }
    q.setUiHost(ui)
    const refreshes = []
    const rc = await q.enableRemoteControl(true, undefined, {
      reattachSessionId: 'session_abcd1234', workSecret: 'opaque',
      refreshWorkSecret: async (sessionId, o) => (refreshes.push([sessionId, Object.keys(o)]), 'secret-2'),
    })
    calls.push(['enableRemoteControl', rc])
    calls.push(['refreshes', refreshes])
  }
  started()
  for await (const m of q) void m
  return { answers: scenarioRecords(log), calls }
}

for (const withHandlers of [true, false]) {
  test(`host requests ${withHandlers ? 'with' : 'without'} handlers are answered as the official answers them`, async () => {
    const mine = await run(ours, withHandlers)
    const theirs = await run(official, withHandlers)
    assert.deepEqual(mine.answers, theirs.answers)
    assert.deepEqual(mine.calls, theirs.calls)
    assert.equal(mine.answers.length, 15)
    if (withHandlers) {
      assert.deepEqual(mine.answers[1].answer, { subtype: 'success', response: { accessToken: 'tok-1' } })
      assert.deepEqual(mine.answers[7].answer, { subtype: 'success', response: { work_secret: 'secret-2' } })
    } else {
      assert.deepEqual(mine.answers[0].answer, { subtype: 'error', error: 'getOAuthToken callback is not provided.' })
      assert.deepEqual(mine.answers[9].answer, { subtype: 'error', error: 'Unsupported control request subtype: ui_copy', error_code: 'unsupported_request' })
    }
  })
}

test('allowedControlRequests refuses host requests before any handler runs, as the official', async () => {
  const cli = `
    export default async function (cli) {
      await cli.initialize()
      const { request_id, ...answer } = await cli.request('oauth_token_refresh', {})
      cli.log(answer)
      await cli.nextUserMessage(); cli.systemInit(); cli.result()
    }`
  const outcome = async (sdk) => {
    let called = 0
    const { log, options } = mockOptions(cli, { allowedControlRequests: ['can_use_tool'], getOAuthToken: async () => (called++, 't') })
    for await (const m of sdk.query({ prompt: 'x', options })) void m
    return { answers: scenarioRecords(log), called }
  }
  const mine = await outcome(ours)
  assert.deepEqual(mine, await outcome(official))
  assert.deepEqual(mine.answers, [{ subtype: 'error', error: 'Control request not allowed by this host' }])
})
