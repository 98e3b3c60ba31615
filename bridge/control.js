// @ts-check
'use strict'
// control_request frames from claude.ai, answered as the official `./bridge` answers them in a
// bridge session: initialize, interrupt, set_model, set_max_thinking_tokens,
// set_permission_mode, rename_session, stop_task, background_tasks and mcp_status are handled
// (through the host's callbacks where it gave them); the CLI-only requests are answered "not
// supported in this context"; an outbound-only session refuses everything but initialize.
// A callback that throws or rejects gets an error reply, never an exception in the host.
const { success, failure, unsupported, rejectionText, notice } = require('./control-replies.js')
const { cleanText } = require('./service-text.js')
const { debug } = require('./debug.js')

const PERMISSION_MODES = ['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan']
const INVALID_MODE = `Cannot set permission mode: must be one of ${PERMISSION_MODES.join(', ')}`
const THINKING_DISPLAYS = ['summarized', 'omitted', 'highlights']
const INVALID_THINKING = `set_max_thinking_tokens: max_thinking_tokens must be an integer or null and thinking_display must be ${THINKING_DISPLAYS.map((d) => `"${d}"`).join(', ')}, or null`
const OUTBOUND_ONLY = 'This session is outbound-only. Enable Remote Control locally to allow inbound control.'
const SET_MODEL_CODES = new Set(['invalid_request', 'catalog_unknown', 'not_found', 'restricted_by_org', 'unavailable_for_account', 'not_offered', 'alias_1m_disabled', 'alias_1m_unsupported', 'blocked_by_hook', 'hooks_unchecked', 'hooks_unchecked_plugin_not_loaded', 'check_failed', 'check_unreachable', 'check_server_error', 'check_rejected', 'credits_required', 'rate_limit', 'auth_failed', 'oauth_org_not_allowed', 'model_not_current', 'verdict_pending', 'internal_error'])
const NOT_REGISTERED = {
  set_color: 'set_color is not supported in this context (onSetColor callback not registered)',
  file_suggestions: 'file_suggestions is not supported in this context (onFileSuggestions callback not registered)',
  read_file: 'read_file is not supported in this context (onReadFile callback not registered)',
  get_workspace_diff: 'get_workspace_diff is not supported in this context (onGetWorkspaceDiff callback not registered)',
  get_context_usage: 'get_context_usage is not supported in this context (onGetContextUsage callback not registered)',
  get_usage: 'get_usage is not supported in this context',
  mcp_authenticate: 'mcp_authenticate is not supported in this context (callback not registered)',
  mcp_oauth_callback_url: 'mcp_oauth_callback_url is not supported in this context (callback not registered)',
  mcp_reconnect: 'mcp_reconnect is not supported in this context (callback not registered)',
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v)
const isThenable = (v) => v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.then === 'function'

function validThinking(req) {
  const t = req.max_thinking_tokens
  const d = req.thinking_display
  return (t === undefined || t === null || (typeof t === 'number' && Number.isInteger(t))) &&
    (d === undefined || d === null || THINKING_DISPLAYS.includes(d))
}

function flagSettingsError(settings) {
  if (!isObject(settings)) return 'apply_flag_settings: settings must be an object'
  const keys = Object.keys(settings).filter((k) => k !== 'effortLevel' && k !== 'ultracode')
  if (keys.length > 0) {
    const shown = keys.slice(0, 5).map((k) => cleanText(k).slice(0, 40))
    const more = keys.length > shown.length ? ` (+${keys.length - shown.length} more)` : ''
    return `apply_flag_settings: ${shown.join(', ')}${more} cannot be changed over Remote Control (only effortLevel and ultracode can)`
  }
  if ('effortLevel' in settings && settings.effortLevel !== null && typeof settings.effortLevel !== 'string') return 'apply_flag_settings: effortLevel must be a string or null'
  if ('ultracode' in settings && typeof settings.ultracode !== 'boolean') return 'apply_flag_settings: ultracode must be a boolean'
  if (!('effortLevel' in settings) && !('ultracode' in settings)) return 'apply_flag_settings: nothing to apply — only effortLevel and ultracode can be changed over Remote Control'
  return undefined
}

// Answers a request whose handler settles later.
function answerLater(frame, ctx, work) {
  Promise.resolve().then(work).then(
    (response) => ctx.send(success(frame.request_id, response ?? {})),
    (err) => ctx.send(failure(frame.request_id, rejectionText(frame.request.subtype, err, cleanText))),
  )
}

// A set_model verdict that arrives later. A rejection, or a value that cannot be read (a getter
// that throws), is answered with an error; neither may become an unhandled rejection.
function answerSetModel(frame, ctx, verdict) {
  Promise.resolve(verdict).then((v) => v ?? { ok: true }).then((v) => {
    const model = typeof v.model === 'string' ? cleanText(v.model) : undefined
    if (v.ok) {
      if (Array.isArray(v.notices)) for (const n of v.notices.filter((x) => typeof x === 'string').map(cleanText)) ctx.send(notice(n, ctx.sessionId), { raw: true })
      ctx.send({ type: 'control_response', response: { subtype: 'success', request_id: frame.request_id, ...(model !== undefined && { response: { model } }) } })
      return
    }
    const lines = typeof v.error === 'string' ? v.error.split('\n') : ['']
    const code = SET_MODEL_CODES.has(v.code) ? v.code : undefined
    ctx.send(failure(frame.request_id, lines.map(cleanText).join('\n'), code, model))
  }).catch((err) => {
    debug(`set_model verdict rejected: ${err?.message ?? err}`)
    ctx.send(failure(frame.request_id, 'set_model failed', 'internal_error'))
  })
}

function verdictReply(requestId, verdict) {
  return verdict && verdict.ok === false ? failure(requestId, cleanText(verdict.error)) : success(requestId)
}

// Returns the reply to send now, or undefined when the reply is sent later.
function reply(frame, ctx) {
  const id = frame.request_id
  const req = frame.request
  const cb = ctx.callbacks
  if (ctx.outboundOnly && req.subtype !== 'initialize') return failure(id, OUTBOUND_ONLY)
  switch (req.subtype) {
    case 'initialize': {
      const pending = ctx.getPendingPrompts()
      return {
        type: 'control_response',
        response: {
          subtype: 'success',
          request_id: id,
          response: { commands: [], agents: [], output_style: 'normal', available_output_styles: ['normal'], models: [], account: {}, pid: process.pid, ...(ctx.claudeCodeVersion !== undefined && { claude_code_version: ctx.claudeCodeVersion }) },
          pending_permission_requests: pending.filter((p) => p.request.subtype === 'can_use_tool'),
          pending_user_dialog_requests: pending.filter((p) => p.request.subtype === 'request_user_dialog'),
        },
      }
    }
    case 'set_model': {
      if (req.model != null && typeof req.model !== 'string') return failure(id, 'set_model: model must be a string')
      if (req.only_if_model_is_current !== undefined && req.only_if_model_is_current !== false) return failure(id, 'set_model: Remote Control does not implement only_if_model_is_current. The request changed nothing.')
      const verdict = cb.onSetModel?.(req.model ?? undefined)
      if (isThenable(verdict)) return answerSetModel(frame, ctx, verdict)
      return verdict && !verdict.ok ? failure(id, cleanText(verdict.error)) : success(id)
    }
    case 'set_max_thinking_tokens': {
      if (!validThinking(req)) return failure(id, INVALID_THINKING)
      const verdict = cb.onSetMaxThinkingTokens?.(req.max_thinking_tokens, req.thinking_display)
      if (isThenable(verdict)) {
        // Reading the settled value can throw too (a getter): that is answered like a rejection.
        Promise.resolve(verdict).then((v) => verdictReply(id, v)).then((r) => ctx.send(r), (err) => ctx.send(failure(id, rejectionText(req.subtype, err, cleanText))))
        return undefined
      }
      return verdictReply(id, verdict)
    }
    case 'set_permission_mode': {
      const wanted = req.mode === 'manual' ? 'default' : req.mode
      const mode = PERMISSION_MODES.find((m) => m === wanted)
      const verdict = mode === undefined
        ? { ok: false, error: INVALID_MODE, code: 'invalid_mode' }
        : cb.onSetPermissionMode?.(mode) ?? { ok: false, error: 'set_permission_mode is not supported in this context (onSetPermissionMode callback not registered)', code: 'unsupported_request' }
      return verdict.ok ? success(id) : failure(id, cleanText(verdict.error), verdict.code)
    }
    case 'rename_session': {
      if (typeof req.title !== 'string') return failure(id, 'rename_session: title must be a string')
      const verdict = cb.onRenameSession?.(req.title)
      if (!verdict) return unsupported(id, 'rename_session is not supported in this context (onRenameSession callback not registered)')
      return verdict.ok ? success(id) : failure(id, cleanText(verdict.error))
    }
    case 'interrupt': {
      const noStop = (req.send_now === true && req.cancel_queued !== true) ||
        (typeof id === 'string' && (id.startsWith('late-bind-interrupt-') || id.startsWith('relay-runner-interrupt-'))) ||
        req.worker_epoch !== undefined
      cb.onInterrupt?.({ sparesBackgroundTasks: req.spare_background_tasks === true, ...(noStop && { isNoStop: true }) })
      return success(id)
    }
    case 'mcp_status':
      return success(id, { mcpServers: [] })
    case 'apply_flag_settings':
      return failure(id, flagSettingsError(req.settings) ?? 'apply_flag_settings is not supported in this context (onApplyFlagSettings callback not registered)', flagSettingsError(req.settings) === undefined ? 'unsupported_request' : undefined)
    case 'mcp_set_servers': {
      if (req.servers === undefined && typeof req.hint === 'string') return success(id, { added: [], removed: [], errors: {} })
      if (!isObject(req.servers)) return failure(id, 'mcp_set_servers: servers must be an object')
      return unsupported(id, 'mcp_set_servers is not supported in this context (onMcpSetServers callback not registered)')
    }
    case 'stop_task': {
      if (typeof req.task_id !== 'string') return failure(id, 'stop_task: task_id must be a string')
      if (!cb.onStopTask) return unsupported(id, 'stop_task is not supported in this context (callback not registered)')
      return answerLater(frame, ctx, () => cb.onStopTask(req.task_id))
    }
    case 'background_tasks': {
      const raw = req.tool_use_id
      if (raw != null && raw !== '' && typeof raw !== 'string') return failure(id, 'background_tasks: tool_use_id must be a string')
      const toolUseId = raw == null || raw === '' ? undefined : raw
      if (!cb.onBackgroundTasks) return unsupported(id, 'background_tasks is not supported in this context (callback not registered)')
      if (process.env.CLAUDE_CODE_DISABLE_BACKGROUND_TASKS) return failure(id, 'Background tasks are disabled in this session.')
      return answerLater(frame, ctx, async () => {
        const found = await cb.onBackgroundTasks(toolUseId)
        return toolUseId === undefined ? {} : { backgrounded: found }
      })
    }
    case 'cancel_async_message':
      if (typeof req.message_uuid !== 'string') return failure(id, 'cancel_async_message: message_uuid must be a string')
      return unsupported(id, 'cancel_async_message is not supported in this context (callback not registered)')
    case 'side_question': {
      const h = req.history
      const valid = typeof req.question === 'string' && (h === undefined || (Array.isArray(h) && h.every((x) => isObject(x) && typeof x.question === 'string' && typeof x.response === 'string' && (x.fallback_notice === undefined || typeof x.fallback_notice === 'string'))))
      if (!valid) return failure(id, 'side_question: question must be a string and history an array of {question, response} strings')
      return unsupported(id, 'side_question is not supported in this context (onSideQuestion callback not registered)')
    }
    case 'fork_conversation':
      return success(id, { forked: false, error: 'unsupported', reason: 'requires_remote_control_server' })
    default:
      if (Object.hasOwn(NOT_REGISTERED, req.subtype)) return unsupported(id, NOT_REGISTERED[req.subtype])
      return unsupported(id, `REPL bridge does not handle control_request subtype: ${cleanText(String(req.subtype))}`)
  }
}

function handleControlRequest(frame, ctx) {
  let now
  try {
    now = reply(frame, ctx)
  } catch (err) {
    // A host callback threw synchronously: the request gets an error reply.
    debug(`[bridge:repl] ${frame.request.subtype} handler threw: ${err?.message ?? err}`)
    now = failure(frame.request_id, rejectionText(frame.request.subtype, err, cleanText))
  }
  if (now !== undefined) ctx.send(now)
}

module.exports = { handleControlRequest }
