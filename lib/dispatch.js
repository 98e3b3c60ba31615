'use strict'
// The one function the native engine calls into JS with: dispatch(kind, requestId, payload).
// Calls resolve with the answer as JSON text; every failure of user code is turned into the
// answer the official SDK gives (an isError tool result; a rejection the engine maps to a
// deny or an error response), so nothing thrown here can reach the process.
const { normalizeToolResult, errorResultFromThrow, toolNotFoundMessage } = require('./schema')

const answer = (result) => JSON.stringify({ result })
const errorResult = (text) => ({ content: [{ type: 'text', text }], isError: true })

function makeDispatch({ sdkServers, hookCallbacks, canUseTool, stderr, hostProcess }) {
  /** Abort controllers of running calls, by the CLI's request id (control_cancel_request). */
  const running = new Map()

  function track(requestId) {
    const controller = new AbortController()
    running.set(requestId, controller)
    return controller
  }

  async function callTool(requestId, payload) {
    const { server, tool, arguments: args, meta } = JSON.parse(payload)
    const entry = sdkServers.get(server)?.tools.get(tool)
    if (!entry) return answer(errorResult(toolNotFoundMessage(tool)))
    const checked = await entry.schema.validate(args)
    if (!checked.ok) return answer(errorResult(checked.message))
    const controller = track(requestId)
    const extra = {
      signal: controller.signal,
      sessionId: undefined,
      _meta: meta ?? undefined,
      sendNotification: async () => {},
      sendRequest: async () => { throw new Error('sendRequest is not supported for in-process SDK MCP tools') },
      authInfo: undefined,
      requestId: meta && meta.progressToken !== undefined ? meta.progressToken : requestId,
    }
    let result
    try {
      result = entry.schema.passArgs ? await entry.definition.handler(checked.value, extra) : await entry.definition.handler(extra)
    } catch (err) {
      return answer(errorResultFromThrow(err))
    } finally {
      running.delete(requestId)
    }
    try {
      return answer(normalizeToolResult(result))
    } catch (err) {
      // Where the official server answers with a JSON-RPC error (an invalid result).
      if (typeof err.toJsonRpcError === 'function') return JSON.stringify({ error: err.toJsonRpcError() })
      return answer(errorResultFromThrow(err))
    }
  }

  async function permission(requestId, payload) {
    const r = JSON.parse(payload)
    const controller = track(requestId)
    try {
      // The CanUseTool options object, field for field as the official SDK builds it.
      const str = (v) => typeof v === 'string'
      const opts = {
        signal: controller.signal,
        suggestions: r.permission_suggestions,
        blockedPath: r.blocked_path,
        ...(r.mcp_server && { mcpServer: { name: r.mcp_server.name, source: r.mcp_server.source } }),
        decisionReason: r.decision_reason,
        ...(str(r.decision_reason_type) && { decisionReasonType: r.decision_reason_type }),
        ...(str(r.decision_reason_code) && { decisionReasonCode: r.decision_reason_code }),
        ...(typeof r.server_policy_ask_only === 'boolean' && { serverPolicyAskOnly: r.server_policy_ask_only }),
        title: r.title,
        displayName: r.display_name,
        description: r.description,
        defaultToNo: r.default_to_no,
        suppressAlwaysAllowRule: r.suppress_always_allow_rule,
        toolUseID: r.tool_use_id,
        agentID: r.agent_id,
        ...(str(r.plugin) && { plugin: r.plugin }),
        requestId,
        ...(typeof r.requires_user_interaction === 'boolean' && { requiresUserInteraction: r.requires_user_interaction }),
        ...(str(r.server_prompt) && { serverPrompt: r.server_prompt }),
        ...(r.computer_folder && str(r.computer_folder.path) && str(r.computer_folder.computer_name) && {
          computerFolder: { path: r.computer_folder.path, computer_name: r.computer_folder.computer_name },
        }),
        ...(r.matched_ask_rule && {
          matchedAskRule: {
            source: r.matched_ask_rule.source,
            toolName: r.matched_ask_rule.tool_name,
            ...(r.matched_ask_rule.rule_content !== undefined && { ruleContent: r.matched_ask_rule.rule_content }),
          },
        }),
      }
      const result = await canUseTool(r.tool_name, r.input, opts)
      return JSON.stringify(result ?? null)
    } finally {
      running.delete(requestId)
    }
  }

  async function hook(requestId, payload) {
    const r = JSON.parse(payload)
    const fn = hookCallbacks.get(r.callback_id)
    if (!fn) throw new Error(`No hook callback found for ID: ${r.callback_id}`)
    const controller = track(requestId)
    try {
      const out = await fn(r.input, r.tool_use_id, { signal: controller.signal })
      return JSON.stringify(out ?? {})
    } finally {
      running.delete(requestId)
    }
  }

  async function dispatch(kind, requestId, payload) {
    switch (kind) {
      case 'tool': return callTool(requestId, payload)
      case 'can_use_tool': return permission(requestId, payload)
      case 'hook_callback': return hook(requestId, payload)
      case 'cancel': running.get(requestId)?.abort(); return ''
      case 'stderr': if (stderr) stderr(payload); return ''
      // I/O of a process the app started itself (spawnClaudeCodeProcess).
      case 'stdin': hostProcess.proc?.stdin.write(payload); return ''
      case 'stdin_end': hostProcess.proc?.stdin.end(); return ''
      case 'kill': hostProcess.proc?.kill(payload); return ''
      default: throw new Error(`unknown dispatch kind ${kind}`)
    }
  }

  /** Fires the signal of everything still running (the session ended). */
  function abortAll() {
    for (const c of running.values()) c.abort()
    running.clear()
  }

  return { dispatch, abortAll }
}

module.exports = { makeDispatch }
