// onElicitation and onUserDialog: the CLI's `elicitation` and `request_user_dialog` control
// requests reach them like canUseTool — with the request object and options the official SDK
// gives, concurrently, cancellable through their AbortSignal — and what they answer (or throw)
// is the control response. Side by side with the official SDK where it answers; where it stays
// silent (a dialog nobody answers) ours answers with an error instead of leaving the CLI waiting.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, collect, mockOptions, scenarioRecords } from './helpers/sdk.mjs'

const ELICIT = { mcp_server_name: 'srv', message: 'Your name?', mode: 'form', requested_schema: { type: 'object', properties: { name: { type: 'string' } } }, elicitation_id: 'e1', title: 'T', display_name: 'D', description: 'Desc' }
const DIALOG = { dialog_kind: 'fixture_kind', payload: { a: 1 }, tool_use_id: 'toolu_1' }

/** Runs `body` (a scenario function body) against a package; the scenario's log and the callbacks' arguments. */
async function run(sdk, body, options) {
  const calls = []
  const wrap = (name, fn) => fn && (async (req, opts) => {
    calls.push({ name, req, requestId: opts.requestId, signal: opts.signal instanceof AbortSignal })
    return fn(req, opts)
  })
  const { log, options: mock } = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage(); ${body}; cli.result() }`, {
    ...options,
    onElicitation: wrap('onElicitation', options.onElicitation),
    onUserDialog: wrap('onUserDialog', options.onUserDialog),
  })
  const { error } = await collect(sdk.query({ prompt: 'go', options: mock }))
  assert.equal(error, null, error?.message)
  return { logged: scenarioRecords(log), calls }
}

test('elicitation: the callback gets the official request and options; its answer is the response', async () => {
  const body = `cli.log(await cli.request('elicitation', ${JSON.stringify(ELICIT)}))`
  const options = { onElicitation: async () => ({ action: 'accept', content: { name: 'Ann' } }) }
  const mine = await run(ours, body, options)
  const theirs = await run(official, body, options)
  assert.deepEqual(mine, theirs)
  assert.deepEqual(mine.logged[0].response, { action: 'accept', content: { name: 'Ann' } })
  assert.equal(mine.calls[0].req.serverName, 'srv')
})

test('elicitation without onElicitation is declined, as the official', async () => {
  const body = `cli.log(await cli.request('elicitation', ${JSON.stringify(ELICIT)}))`
  const mine = await run(ours, body, {})
  assert.deepEqual(mine.logged, (await run(official, body, {})).logged)
  assert.deepEqual(mine.logged[0].response, { action: 'decline' })
})

test('user dialog: the callback gets the official request and options; its answer is the response', async () => {
  const body = `cli.log(await cli.request('request_user_dialog', ${JSON.stringify(DIALOG)}))`
  const options = { onUserDialog: async (req) => ({ kind: req.dialogKind, chosen: 'yes' }), supportedDialogKinds: ['fixture_kind'] }
  const mine = await run(ours, body, options)
  assert.deepEqual(mine, await run(official, body, options))
  assert.deepEqual(mine.logged[0].response, { kind: 'fixture_kind', chosen: 'yes' })
  assert.deepEqual(mine.calls[0].req, { dialogKind: 'fixture_kind', payload: { a: 1 }, toolUseID: 'toolu_1' })
})

test('a throwing callback gets an error response with its message (both callbacks), as the official', async () => {
  const body = `cli.log(await cli.request('elicitation', ${JSON.stringify(ELICIT)})); cli.log(await cli.request('request_user_dialog', ${JSON.stringify(DIALOG)}))`
  const options = { onElicitation: async () => { throw new Error('elicit broke') }, onUserDialog: async () => { throw new Error('dialog broke') } }
  const mine = await run(ours, body, options)
  assert.deepEqual(mine.logged.map((l) => [l.subtype, l.error]), [['error', 'elicit broke'], ['error', 'dialog broke']])
  assert.deepEqual(mine.logged, (await run(official, body, options)).logged)
})

test('no answer is never silence: a null answer or a missing onUserDialog still answers the CLI', async () => {
  const body = `cli.log(await cli.request('elicitation', ${JSON.stringify(ELICIT)})); cli.log(await cli.request('request_user_dialog', ${JSON.stringify(DIALOG)}))`
  const { logged } = await run(ours, body, { onElicitation: async () => null, onUserDialog: async () => null })
  assert.deepEqual(logged[0].response, { action: 'cancel' })
  assert.equal(logged[1].subtype, 'error')
  assert.match(logged[1].error, /gave no answer/)
  const none = await run(ours, `cli.log(await cli.request('request_user_dialog', ${JSON.stringify(DIALOG)}))`, {})
  assert.equal(none.logged[0].subtype, 'error')
  assert.match(none.logged[0].error, /No onUserDialog callback/)
})

test('the callbacks run concurrently: two elicitations and a dialog are all in flight at once', async () => {
  let inFlight = 0
  let release
  const all = new Promise((r) => (release = r))
  const enter = async (answer) => {
    if (++inFlight === 3) release()
    await all // resolves only once all three are running: a serial router would hang here
    return answer
  }
  const body = `const rs = await Promise.all([cli.request('elicitation', ${JSON.stringify(ELICIT)}), cli.request('elicitation', ${JSON.stringify({ ...ELICIT, elicitation_id: 'e2' })}), cli.request('request_user_dialog', ${JSON.stringify(DIALOG)})]); cli.log(rs.map((r) => r.response))`
  const { logged } = await run(ours, body, { onElicitation: (req) => enter({ action: 'accept', content: { id: req.elicitationId } }), onUserDialog: () => enter({ ok: true }) })
  assert.deepEqual(logged[0], [{ action: 'accept', content: { id: 'e1' } }, { action: 'accept', content: { id: 'e2' } }, { ok: true }])
})

test("control_cancel_request fires the callback's AbortSignal (elicitation and dialog)", async () => {
  const aborted = []
  const waitAbort = (name) => (req, { signal }) => new Promise((resolve) => {
    signal.addEventListener('abort', () => { aborted.push(name); resolve(name === 'elicit' ? { action: 'cancel' } : { cancelled: true }) })
  })
  const body = `
    const a = cli.request('elicitation', ${JSON.stringify(ELICIT)})
    const b = cli.request('request_user_dialog', ${JSON.stringify(DIALOG)})
    await cli.sleep(100)
    cli.send({ type: 'control_cancel_request', request_id: 'req_1' })
    cli.send({ type: 'control_cancel_request', request_id: 'req_2' })
    cli.log([(await a).response, (await b).response])`
  const { logged } = await run(ours, body, { onElicitation: waitAbort('elicit'), onUserDialog: waitAbort('dialog') })
  assert.deepEqual(aborted.sort(), ['dialog', 'elicit'])
  assert.deepEqual(logged[0], [{ action: 'cancel' }, { cancelled: true }])
})

test('closing the query aborts a callback still running, and nothing hangs', async () => {
  let signalled = false
  let entered
  const running = new Promise((r) => (entered = r))
  const { options: mock } = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage(); cli.request('elicitation', ${JSON.stringify(ELICIT)}).catch(() => {}); await cli.sleep(5000) }`, {
    onElicitation: (req, { signal }) => new Promise((resolve) => {
      signal.addEventListener('abort', () => { signalled = true; resolve(null) })
      entered()
    }),
  })
  const q = ours.query({ prompt: 'go', options: mock })
  running.then(() => q.close())
  const { error } = await collect(q)
  assert.equal(error, null)
  assert.equal(signalled, true)
})

test('supportedDialogKinds needs onUserDialog: the official error', async () => {
  const { options } = mockOptions(undefined, { supportedDialogKinds: ['k'] })
  const thrown = (sdk) => { try { sdk.query({ prompt: 'x', options }); return null } catch (e) { return e.message } }
  assert.equal(thrown(ours), thrown(official))
  assert.match(thrown(ours), /supportedDialogKinds requires an onUserDialog callback/)
})
