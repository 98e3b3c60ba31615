// @ts-check
'use strict'
// The exact strings the official SDK (its bundled @modelcontextprotocol/sdk McpServer) answers with.
// An McpError's message is `MCP error ${code}: ${message}`; a tools/call that fails inside the
// server's try block becomes an isError result whose only text is that message.

const INVALID_PARAMS = -32602

/** process.emitWarning code of the official warning for a tool whose schema can't be converted. */
const UNCONVERTIBLE_WARNING_CODE = 'CLAUDE_SDK_MCP_TOOL_SCHEMA_UNCONVERTIBLE'

/** `MCP error -32602: …` — the message of an McpError(InvalidParams, …). */
function mcpErrorMessage(code, message) {
  return `MCP error ${code}: ${message}`
}

/** The isError text for arguments that fail the tool's input schema. */
function inputValidationMessage(toolName, detail) {
  return mcpErrorMessage(INVALID_PARAMS, `Input validation error: Invalid arguments for tool ${toolName}: ${detail}`)
}

/** The isError text for a tool whose input schema can't be converted (the official disables it). */
function toolDisabledMessage(toolName) {
  return mcpErrorMessage(INVALID_PARAMS, `Tool ${toolName} disabled`)
}

/** The isError text for a tool that doesn't exist on the server. */
function toolNotFoundMessage(toolName) {
  return mcpErrorMessage(INVALID_PARAMS, `Tool ${toolName} not found`)
}

/**
 * getParseErrorMessage of @modelcontextprotocol/sdk: what it shows of a failed safeParse's
 * `error` — for a ZodError its `message` (the issues as `JSON.stringify(issues, _, 2)`).
 */
function parseErrorMessage(error) {
  if (error && typeof error === 'object') {
    if ('message' in error && typeof error.message === 'string') return error.message
    if ('issues' in error && Array.isArray(error.issues) && error.issues.length > 0) {
      const first = error.issues[0]
      if (first && typeof first === 'object' && 'message' in first) return String(first.message)
    }
    try {
      return JSON.stringify(error)
    } catch {
      return String(error)
    }
  }
  return String(error)
}

/** The inputSchema the official lists for a tool without a (convertible-to-object) input schema. */
function emptyObjectJsonSchema() {
  return { type: 'object', properties: {} }
}

module.exports = {
  INVALID_PARAMS,
  UNCONVERTIBLE_WARNING_CODE,
  mcpErrorMessage,
  inputValidationMessage,
  toolDisabledMessage,
  toolNotFoundMessage,
  parseErrorMessage,
  emptyObjectJsonSchema,
}
