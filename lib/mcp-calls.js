// @ts-check
'use strict'
// The requests of an in-process server that run user code: tools/call, resources/read,
// prompts/get (and resources/list when a template lists resources). The engine routes and
// answers everything else; whoever carries the request (a query's session, or a transport given
// to instance.connect()) calls runMcpCall() with the engine's payload and sends back the answer:
// JSON text of `{"result": ...}` or `{"error": {code, message, data?}}`.
const { normalizeToolResult, errorResultFromThrow, toolNotFoundMessage } = require('./schema')

/**
 * @typedef {InstanceType<typeof import('./mcp-server').SdkMcpServer>} SdkMcpServer
 * @typedef {import('./mcp-link').JsonRpcMessage} JsonRpcMessage
 * @typedef {{ signal: AbortSignal }} CallController the call's abort signal (made when asked for)
 * @typedef {{ send: (message: JsonRpcMessage) => void, request: (message: JsonRpcMessage, options?: { signal?: AbortSignal, timeout?: number, relatedRequestId?: unknown }) => Promise<unknown> }} Channel
 * @typedef {{ uri?: string, name?: string, arguments?: Record<string, unknown>, _meta?: Record<string, unknown> }} RequestParams
 * @typedef {{
 *   server: string, id?: string | number,
 *   tool?: string, arguments?: unknown, meta?: Record<string, unknown>, validated?: boolean,
 *   method?: string, params?: RequestParams,
 * }} McpCallPayload the engine's payload of one call (a tools/call, or another request)
 */

/** @param {unknown} result */
const answer = (result) => JSON.stringify({ result })
/** @param {number} code @param {string} message @param {unknown} [data] */
const rpcError = (code, message, data) => JSON.stringify({ error: data === undefined ? { code, message } : { code, message, data } })
/** @param {string} text */
const errorResult = (text) => ({ content: [{ type: 'text', text }], isError: true })
const { errorText, field } = require('./thrown')

const INVALID_PARAMS = -32602
const INTERNAL_ERROR = -32603
const RESOURCE_NOT_FOUND = -32002

/**
 * The `extra` a handler gets, as the MCP SDK's RequestHandlerExtra: `signal`, `requestId`,
 * `_meta`, and `sendNotification` / `sendRequest`, which reach the CLI through `channel`
 * (`{send(message), request(message, options)}`; undefined when nothing can carry them).
 * @param {CallController} controller
 * @param {string | number | undefined} id
 * @param {Record<string, unknown> | undefined} meta
 * @param {Channel | undefined} channel
 */
function makeExtra(controller, id, meta, channel) {
  return {
    get signal() { return controller.signal },
    sessionId: undefined,
    _meta: meta ?? undefined,
    /** @param {JsonRpcMessage} notification */
    sendNotification: async (notification) => {
      if (!channel) return
      // Progress goes out under the call's own progressToken when the handler gives none.
      /** @type {JsonRpcMessage & { params?: Record<string, unknown> }} */
      let message = { jsonrpc: '2.0', .../** @type {JsonRpcMessage & { params?: Record<string, unknown> }} */ (notification) }
      if (message.method === 'notifications/progress' && meta && meta.progressToken !== undefined && message.params?.progressToken === undefined) {
        message = { ...message, params: { ...message.params, progressToken: meta.progressToken } }
      }
      channel.send(message)
    },
    /**
     * @param {JsonRpcMessage} request
     * @param {{ parse?: (value: unknown) => unknown } | undefined} resultSchema
     * @param {{ signal?: AbortSignal, timeout?: number }} [options]
     */
    sendRequest: async (request, resultSchema, options) => {
      if (!channel) throw new Error('sendRequest: this call has no connection to Claude Code')
      const result = await channel.request(request, { signal: controller.signal, ...options, relatedRequestId: id })
      return resultSchema && typeof resultSchema.parse === 'function' ? resultSchema.parse(result) : result
    },
    authInfo: undefined,
    requestId: id,
  }
}

/**
 * Runs one host request of the server `server` (an SdkMcpServer); resolves with the answer text.
 * (A plain function: no extra async frame on the tool-call path.)
 * @param {SdkMcpServer | undefined} server
 * @param {McpCallPayload} payload
 * @param {CallController} controller
 * @param {Channel | undefined} channel
 * @returns {Promise<string>}
 */
function runMcpCall(server, payload, controller, channel) {
  if (!server) return Promise.resolve(payload.tool !== undefined ? answer(errorResult(toolNotFoundMessage(payload.tool))) : rpcError(INTERNAL_ERROR, `SDK MCP server not found: ${payload.server}`))
  return payload.tool !== undefined ? callTool(server, /** @type {McpCallPayload & { tool: string }} */ (payload), controller, channel) : otherRequest(server, payload, controller, channel)
}

/** @param {SdkMcpServer} server @param {McpCallPayload & { tool: string }} payload @param {CallController} controller @param {Channel | undefined} channel */
async function callTool(server, payload, controller, channel) {
  const { tool, id, arguments: args, meta, validated } = payload
  const entry = server.tools.get(tool)
  if (!entry) return answer(errorResult(toolNotFoundMessage(tool)))
  // `validated`: the engine found the arguments pass this tool's plain JSON Schema (its own, or
  // its zod schema's twin) and so its validator would return them unchanged.
  const checked = validated && entry.schema.trusts?.(args) ? { ok: /** @type {const} */ (true), value: args } : await entry.schema.validate(args)
  if (!checked.ok) return answer(errorResult(checked.message))
  const extra = makeExtra(controller, id, meta, channel)
  let result
  try {
    result = entry.schema.passArgs ? await entry.definition.handler(checked.value, extra) : await entry.definition.handler(extra)
  } catch (err) {
    return answer(errorResultFromThrow(err))
  }
  let normalized
  try {
    normalized = normalizeToolResult(result)
  } catch (err) {
    // Where the official server answers with a JSON-RPC error (an invalid result).
    if (typeof field(err, 'toJsonRpcError') === 'function') return JSON.stringify({ error: err.toJsonRpcError() })
    return answer(errorResultFromThrow(err))
  }
  if (entry.output && !normalized.isError) {
    // As the MCP SDK's McpServer: a tool with an outputSchema must return conforming
    // structuredContent; a violation is an isError result the model reads.
    if (!normalized.structuredContent) {
      return answer(errorResult(`MCP error -32602: Output validation error: Tool ${tool} has an output schema but no structured content was provided`))
    }
    const out = await entry.output.validate(normalized.structuredContent)
    if (!out.ok) return answer(errorResult(`MCP error -32602: Output validation error: Invalid structured content for tool ${tool}: ${out.detail ?? out.message}`))
  }
  // A result JSON drops whole (an object whose toJSON() gives undefined) is the handler's error.
  const text = answer(normalized)
  return text === '{}' ? answer(errorResult(`Tool ${tool} returned an object whose toJSON() returned undefined, which JSON cannot represent`)) : text
}

/** @param {SdkMcpServer} server @param {McpCallPayload} payload @param {CallController} controller @param {Channel | undefined} channel */
async function otherRequest(server, payload, controller, channel) {
  const { method, id } = payload
  // A request without params fails where its handler reads them (answered as an internal error).
  const params = /** @type {RequestParams} */ (payload.params)
  const extra = makeExtra(controller, id, params?._meta, channel)
  try {
    switch (method) {
      case 'resources/read': return await readResource(server, params, extra)
      case 'resources/list': return answer(await server._listResources(extra))
      case 'prompts/get': return await getPrompt(server, params, extra)
      default: return rpcError(-32601, `Method not found: ${method}`)
    }
  } catch (err) {
    const code = field(err, 'code')
    if (Number.isInteger(code)) return rpcError(code, errorText(err), field(err, 'data'))
    return rpcError(INTERNAL_ERROR, errorText(err))
  }
}

/** @param {SdkMcpServer} server @param {RequestParams} params @param {ReturnType<typeof makeExtra>} extra */
async function readResource(server, params, extra) {
  const uri = /** @type {string} */ (params.uri)
  const found = server._findResource(uri)
  if (!found) return rpcError(RESOURCE_NOT_FOUND, `MCP error ${RESOURCE_NOT_FOUND}: Resource ${uri} not found`, { uri })
  let url
  try {
    url = new URL(uri)
  } catch {
    url = uri
  }
  const result = found.variables ? await found.entry.readCallback(url, found.variables, extra) : await found.entry.readCallback(url, extra)
  if (!result || !Array.isArray(result.contents)) {
    return rpcError(INTERNAL_ERROR, `Resource ${uri}: the read callback must return { contents: [...] }`)
  }
  return answer(result)
}

/** @param {SdkMcpServer} server @param {RequestParams} params @param {ReturnType<typeof makeExtra>} extra */
async function getPrompt(server, params, extra) {
  const entry = server.prompts.get(params.name)
  if (!entry || !entry.enabled) return rpcError(INVALID_PARAMS, `MCP error -32602: Prompt ${params.name} ${entry ? 'disabled' : 'not found'}`)
  let result
  if (entry.args) {
    const checked = await entry.args.validate(params.arguments ?? {})
    if (!checked.ok) return rpcError(INVALID_PARAMS, `MCP error -32602: Invalid arguments for prompt ${params.name}: ${checked.detail ?? checked.message}`)
    result = await entry.callback(checked.value, extra)
  } else {
    result = await entry.callback(extra)
  }
  if (!result || !Array.isArray(result.messages)) {
    return rpcError(INTERNAL_ERROR, `Prompt ${params.name}: the callback must return { messages: [...] }`)
  }
  return answer(result)
}

module.exports = { runMcpCall, makeExtra, errorText }
