// The official Query's methods that its sdk.d.ts does not declare (getSettings, askSideQuestion,
// enableRemoteControl, the auth flows, the dialogs, ...), run side by side with the official SDK
// against the same mock CLI: what each SDK writes to the CLI and what each method returns or
// throws must be the same.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, mockOptions, driveControl } from './helpers/sdk.mjs'

/** A CLI that answers every method's subtype with a canned body (some with an error). */
const CLI = `
  export default async function (cli) {
    const answers = {
      get_settings: { effective: { model: 'm' }, sources: [] },
      get_hooks_listing: { hooks: [{ event: 'PreToolUse', matcher: 'Bash' }] },
      get_task_output: { output: 'done', status: 'completed' },
      list_permission_rules: { state: { rules: [{ behavior: 'allow', source: 'session', ruleValue: { toolName: 'Bash' } }], workspaceDirectories: [] } },
      set_cwd: { cwd: '/tmp/x', trusted: true },
      set_chrome_browser_hints: { ignored: true }, set_prompt_suggestions_paused: { ignored: true }, channel_enable: { ignored: true },
      mcp_authenticate: { authUrl: 'https://auth.example/x', requiresUserAction: true },
      mcp_clear_auth: { cleared: true },
      mcp_oauth_callback_url: { ok: true },
      claude_authenticate: { manualUrl: 'https://claude.example/m', automaticUrl: 'https://claude.example/a' },
      claude_oauth_callback: { ok: true },
      claude_oauth_wait_for_completion: { account: { email: 'x@y' } },
      get_memory_dialog: { files: [] }, get_skills_dialog: { skills: [] }, get_status: { model: 'm', cwd: '/' },
      export_conversation: { text: 'hello' }, get_chrome_dialog: { connected: false },
      get_chrome_browsers: { browsers: [{ device_id: 'd1' }] }, select_chrome_browser: { selected: 'd1' },
      get_sandbox_dialog: { enabled: false }, get_plan: { plan: null },
      read_cloud_sessions: { sessions: [] }, log_host_events: { logged: 2 }, dictate: { text: 'hi' },
      submit_feedback: { feedback_id: 'f1' }, submit_survey_feedback: { ok: true },
      rename_session: { ignored: true },
      generate_session_title: { title: 'A title' },
      ultrareview_launch: { launched: true, id: 'u1' },
      message_rated: { ignored: true },
      claim_session: { claimed: true, initialize: { commands: [{ name: 'claimed' }], models: [], hooks_applied: false } },
      remote_control: { bridge_session_id: 'cse_abcd1234', url: 'https://claude.example/rc' },
    }
    for (const [subtype, body] of Object.entries(answers)) cli.onControlRequest(subtype, () => body)
    cli.onControlRequest('side_question', (r) => {
      if (r.question === 'none?') return { response: null }
      if (r.question === 'refused?') return { response: 'fallback text', refusal_fallback: { original_model: 'a', fallback_model: 'b', content: [{ type: 'text', text: 'x' }] } }
      if (r.question === 'fail?') throw new Error('side questions are off')
      // Answered only after the SDK has given up on it (the test aborts its signal).
      if (r.question === 'slow?') return new Promise((resolve) => setTimeout(() => resolve({ response: 'too late' }), 400))
      return { response: 'an answer', synthetic: true }
    })
    cli.onControlRequest('get_plan', (r) => { throw new Error('no plan mode') })
    await cli.initialize({ mcp_servers_applied: true })
    await cli.nextUserMessage()
    cli.systemInit()
    await cli.next((m) => m.type === 'user' && m.message.content === 'done')
    cli.result()
  }`

async function drive(sdk, body) {
  const { results, stdin } = await driveControl(sdk, CLI, body)
  // Requests as written, and each withdrawal as the subtype of the request it withdrew.
  const subtypeOf = (id) => stdin.find((m) => m.type === 'control_request' && m.request_id === id)?.request.subtype
  const sent = stdin
    .filter((m) => (m.type === 'control_request' && m.request.subtype !== 'initialize') || m.type === 'control_cancel_request')
    .map((m) => (m.type === 'control_cancel_request' ? { cancelled: subtypeOf(m.request_id) } : m.request))
  return { results, sent }
}

/** What a call resolved with, or the message it rejected with. */
const outcome = (p) => p.then((value) => ({ value }), (e) => ({ error: e instanceof Error ? e.message : String(e) }))

async function methods(q, out) {
  out.getSettings = await outcome(q.getSettings())
  out.getHooksListing = await outcome(q.getHooksListing())
  out.getTaskOutput = await outcome(q.getTaskOutput('task-1'))
  out.listPermissionRules = await outcome(q.listPermissionRules())
  out.setCwd = await outcome(q.setCwd('/tmp/x', { trustAccepted: true, trustedDirectory: '/tmp' }))
  out.setCwdPlain = await outcome(q.setCwd('/tmp/y'))
  out.setChromeBrowserHints = await outcome(q.setChromeBrowserHints({ preferred: 'd1', headless: false }))
  out.setPromptSuggestionsPaused = await outcome(q.setPromptSuggestionsPaused(true))
  out.enableChannel = await outcome(q.enableChannel('demo'))
  out.mcpAuthenticate = await outcome(q.mcpAuthenticate('demo', 'http://127.0.0.1:1/cb', { redirectUriOnly: true }))
  out.mcpAuthenticatePlain = await outcome(q.mcpAuthenticate('demo'))
  out.mcpClearAuth = await outcome(q.mcpClearAuth('demo'))
  out.mcpSubmitOAuthCallbackUrl = await outcome(q.mcpSubmitOAuthCallbackUrl('demo', 'http://127.0.0.1:1/cb?code=c'))
  out.claudeAuthenticate = await outcome(q.claudeAuthenticate(true, { consoleProfile: 'p' }))
  out.claudeOAuthCallback = await outcome(q.claudeOAuthCallback('code-1', 'state-1'))
  out.claudeOAuthWaitForCompletion = await outcome(q.claudeOAuthWaitForCompletion())
  out.getMemoryDialog = await outcome(q.getMemoryDialog())
  out.getSkillsDialog = await outcome(q.getSkillsDialog())
  out.getStatus = await outcome(q.getStatus())
  out.exportConversation = await outcome(q.exportConversation())
  out.getChromeDialog = await outcome(q.getChromeDialog())
  out.getChromeBrowsers = await outcome(q.getChromeBrowsers())
  out.selectChromeBrowser = await outcome(q.selectChromeBrowser('d1'))
  out.getSandboxDialog = await outcome(q.getSandboxDialog({ section: 'network' }))
  out.getPlan = await outcome(q.getPlan())
  out.readCloudSessions = await outcome(q.readCloudSessions({ subtype: 'read_cloud_sessions', limit: 5 }))
  out.logHostEvents = await outcome(q.logHostEvents({ subtype: 'log_host_events', events: [{ name: 'e' }] }, {}))
  out.dictate = await outcome(q.dictate({ subtype: 'dictate', audio: 'AAAA' }))
  out.submitFeedback = await outcome(q.submitFeedback('it broke', { surface: 'sdk', type: 'bug', attach_transcript: false }))
  out.submitSurveyFeedback = await outcome(q.submitSurveyFeedback({ survey_id: 's1', rating: 4 }))
  out.renameSession = await outcome(q.renameSession('New name', 'sess-1'))
  out.generateSessionTitle = await outcome(q.generateSessionTitle('a chat about x', { persist: true }))
  out.askSideQuestion = await outcome(q.askSideQuestion('why?', { history: [{ role: 'user', content: 'h' }] }))
  out.askSideQuestionNull = await outcome(q.askSideQuestion('none?'))
  out.askSideQuestionFallback = await outcome(q.askSideQuestion('refused?', { history: [] }))
  out.askSideQuestionError = await outcome(q.askSideQuestion('fail?'))
  const aborted = new AbortController()
  aborted.abort(new Error('gave up'))
  out.askSideQuestionAborted = await outcome(q.askSideQuestion('never sent', { signal: aborted.signal }))
  const abortedNoReason = new AbortController()
  abortedNoReason.abort('string reason')
  out.readCloudSessionsAborted = await outcome(q.readCloudSessions({ subtype: 'read_cloud_sessions' }, { signal: abortedNoReason.signal }))
  const later = new AbortController()
  const slow = outcome(q.askSideQuestion('slow?', { signal: later.signal }))
  await new Promise((r) => setTimeout(r, 100))
  later.abort(new Error('changed my mind'))
  out.askSideQuestionAbortedLater = await slow
  await new Promise((r) => setTimeout(r, 500)) // its late answer arrives, and is dropped
  out.launchUltrareview = await outcome(q.launchUltrareview('--fast', { confirm: true }))
  out.launchUltrareviewPlain = await outcome(q.launchUltrareview(''))
  out.messageRated = await outcome(q.messageRated({ messageUuid: 'u-1', sentiment: 'good', surface: 'sdk' }))
  out.enableRemoteControl = await outcome(q.enableRemoteControl(true, 'my host', { keepSessionOnExit: true }))
  out.disableRemoteControl = await outcome(q.enableRemoteControl(false))
  out.setUiHost = q.setUiHost({})
  out.isClosedWhileRunning = q.isClosed()
  out.claimSession = await outcome(q.claimSession({ cwd: '/tmp', permission_mode: 'plan' }))
  const init = await q.initializationResult()
  out.initializationAfterClaim = { commands: init.commands, hooks_applied: init.hooks_applied, mcp_servers_applied: init.mcp_servers_applied }
  out.claimSessionNoInit = await outcome(q.claimSession({ cwd: '/tmp', include_initialize: false }))
}

test('every undeclared control method sends what the official sends and returns what it returns', async () => {
  const mine = await drive(ours, methods)
  const theirs = await drive(official, methods)
  assert.deepEqual(mine.sent, theirs.sent)
  assert.deepEqual(mine.results, theirs.results)
  // The comparison means something: answers and errors both came through.
  assert.equal(mine.results.generateSessionTitle.value, 'A title')
  assert.match(mine.results.getPlan.error, /no plan mode/)
  assert.equal(mine.results.askSideQuestionAborted.error, 'gave up')
  assert.ok(!mine.sent.some((r) => r.question === 'never sent'))
  assert.equal(mine.results.askSideQuestionAbortedLater.error, 'changed my mind')
  assert.deepEqual(mine.results.initializationAfterClaim, { commands: [{ name: 'claimed' }], hooks_applied: false, mcp_servers_applied: true })
  assert.ok(mine.sent.some((r) => r.cancelled === 'side_question'))
})

test('the methods are on the prototype, not own enumerable members, as in the official Query', async () => {
  const names = ['getSettings', 'askSideQuestion', 'enableRemoteControl', 'setUiHost', 'messageRated', 'getPlan']
  const { options } = mockOptions(`export default async function (cli) { await cli.initialize(); await cli.waitStdinClosed() }`)
  for (const sdk of [ours, official]) {
    const q = sdk.query({ prompt: 'x', options })
    for (const name of names) {
      assert.equal(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(q), name)?.enumerable, false, name)
      assert.equal(typeof q[name], 'function', name)
      assert.ok(!Object.keys(q).includes(name), name)
    }
    assert.equal(q.isClosed(), false)
    q.close()
    assert.equal(q.isClosed(), true)
  }
})

test('answers without a body: each method resolves or throws as the official does', async () => {
  // Every request is answered `{subtype: 'success', request_id}`, with no `response` at all.
  const cli = `
    export default async function (cli) {
      const bare = (r, msg) => { cli.send({ type: 'control_response', response: { subtype: 'success', request_id: msg.request_id } }); return cli.SILENT }
      for (const s of ['get_settings', 'get_status', 'mcp_clear_auth', 'generate_session_title', 'side_question', 'remote_control', 'mcp_status',
        'get_context_usage', 'mcp_read_resource', 'rewind_files', 'interrupt', 'set_permission_mode', 'background_tasks', 'cancel_async_message',
        'set_mcp_permission_mode_override', 'reload_skills', 'set_model', 'claim_session']) cli.onControlRequest(s, bare)
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      await cli.next((m) => m.type === 'user' && m.message.content === 'done')
      cli.result()
    }`
  // A TypeError (reading a member of the missing body) by its kind: its text names the source
  // expression under Bun.
  const outcome = (p) => p.then((value) => ({ value }), (e) => ({ error: e instanceof TypeError ? 'TypeError' : e.message }))
  const body = async (q, out) => {
    out.getSettings = await outcome(q.getSettings())
    out.getStatus = await outcome(q.getStatus())
    out.mcpClearAuth = await outcome(q.mcpClearAuth('demo'))
    out.generateSessionTitle = await outcome(q.generateSessionTitle('x'))
    out.askSideQuestion = await outcome(q.askSideQuestion('why?'))
    out.enableRemoteControl = await outcome(q.enableRemoteControl(true))
    out.mcpServerStatus = await outcome(q.mcpServerStatus())
    out.getContextUsage = await outcome(q.getContextUsage())
    out.readMcpResource = await outcome(q.readMcpResource('demo', 'x://y'))
    out.rewindFiles = await outcome(q.rewindFiles('m'))
    out.interrupt = await outcome(q.interrupt())
    out.setPermissionMode = await outcome(q.setPermissionMode('plan'))
    out.backgroundTasks = await outcome(q.backgroundTasks())
    out.cancelAsyncMessage = await outcome(q.cancelAsyncMessage('u'))
    out.setMcpPermissionModeOverride = await outcome(q.setMcpPermissionModeOverride('demo', 'plan'))
    out.reloadSkills = await outcome(q.reloadSkills())
    out.setModel = await outcome(q.setModel('m'))
    out.claimSession = await outcome(q.claimSession({ cwd: '/tmp' }))
    out.initializationAfterClaim = typeof (await q.initializationResult())
  }
  const mine = await driveControl(ours, cli, body)
  const theirs = await driveControl(official, cli, body)
  assert.deepEqual(mine.results, theirs.results)
  assert.deepEqual(mine.results.getSettings, { value: undefined })
  assert.equal(mine.results.generateSessionTitle.error, 'TypeError')
})

test('Query\'s prototype has every method of lib/query-extra.js, with its name and length, from the start', () => {
  const require = createRequire(import.meta.url)
  const { Query } = require('../lib/query.js')
  const { methods } = require('../lib/query-extra.js')
  const proto = Query.prototype
  for (const [name, fn] of Object.entries(methods)) {
    const stub = Object.getOwnPropertyDescriptor(proto, name)
    assert.equal(typeof stub?.value, 'function', name)
    assert.equal(stub.value.name, name)
    assert.equal(stub.value.length, fn.length, name)
    assert.equal(stub.enumerable, false, name)
  }
})
