// @ts-check
'use strict'
// The callbacks a Codex thread answers Codex's requests for the user with: `onApproval` (command,
// file-change and permissions approvals; answered like canUseTool), `onUserInput`
// (`request_user_input`) and `onElicitation` (an MCP server asks the user, as in query()). Each
// gets a plain request object and an AbortSignal; the engine turns its answer into Codex's
// (and answers with a decline when there is no callback, or it throws or returns nonsense).

const APPROVALS = {
  'item/commandExecution/requestApproval': 'commandExecution',
  execCommandApproval: 'commandExecution',
  'item/fileChange/requestApproval': 'fileChange',
  applyPatchApproval: 'fileChange',
  'item/permissions/requestApproval': 'permissions',
}

function check(name, fn) {
  if (fn !== undefined && typeof fn !== 'function') throw new TypeError(`Codex thread option ${name} must be a function`)
}

/** Which of the engine's callback kinds the options provide. */
function callbackKinds(options) {
  check('onApproval', options.onApproval)
  check('onUserInput', options.onUserInput)
  check('onElicitation', options.onElicitation)
  const kinds = []
  if (options.onApproval) kinds.push('commandApproval', 'fileChangeApproval', 'permissionsApproval')
  if (options.onUserInput) kinds.push('userInput')
  if (options.onElicitation) kinds.push('elicitation')
  return kinds
}

/** The approval request a callback sees. */
function approvalRequest(method, p) {
  const r = { kind: APPROVALS[method], method, threadId: p.threadId ?? p.conversationId, turnId: p.turnId, itemId: p.itemId ?? p.callId }
  if (p.command !== undefined) r.command = Array.isArray(p.command) ? p.command.join(' ') : p.command
  if (p.cwd !== undefined) r.cwd = p.cwd
  if (p.reason != null) r.reason = p.reason
  if (p.permissions !== undefined) r.permissions = p.permissions
  if (p.changes !== undefined || p.fileChanges !== undefined) r.changes = p.changes ?? p.fileChanges
  if (p.grantRoot != null) r.grantRoot = p.grantRoot
  r.params = p
  return r
}

/** `onUserInput`'s answer as Codex's: `{answers: {id: {answers: [..]}}}`, or a map of id → string(s). */
function userInputAnswer(result) {
  if (!result || typeof result !== 'object') return result
  if (result.answers && typeof result.answers === 'object') return result
  const answers = {}
  for (const [id, a] of Object.entries(result)) answers[id] = { answers: (Array.isArray(a) ? a : [a]).map(String) }
  return { answers }
}

/** The `codexRequest` dispatch callback for these thread options, or undefined if none is given. */
function makeCodexRequest(options) {
  if (!options.onApproval && !options.onUserInput && !options.onElicitation) return undefined
  return async function codexRequest({ method, params }, { signal }) {
    if (APPROVALS[method]) return options.onApproval(approvalRequest(method, params), { signal })
    if (method === 'item/tool/requestUserInput') {
      const r = await options.onUserInput({ threadId: params.threadId, turnId: params.turnId, itemId: params.itemId, questions: params.questions, isBlocking: params.isBlocking, params }, { signal })
      return userInputAnswer(r)
    }
    if (method === 'mcpServer/elicitation/request') {
      const r = await options.onElicitation({ serverName: params.serverName, message: params.message, mode: params.mode, requestedSchema: params.requestedSchema, url: params.url, elicitationId: params.elicitationId, params }, { signal })
      if (!r || typeof r !== 'object') return r
      return { action: r.action, content: r.content ?? null, _meta: r._meta ?? null }
    }
    throw new Error(`No callback answers the Codex request ${method}`)
  }
}

module.exports = { callbackKinds, makeCodexRequest }
