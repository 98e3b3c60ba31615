// @ts-check
'use strict'
// The warning the official SDK emits (process.emitWarning, code below) when a tool's input
// schema can't be converted to JSON Schema; it then leaves the tool out of tools/list and
// answers calls to it with "MCP error -32602: Tool <name> disabled".
const { isZod4 } = require('./detect')

const { UNCONVERTIBLE_WARNING_CODE } = require('./messages')

const { errorText, isError } = require('../thrown')

function stripSuffix(text, suffix) {
  return text.endsWith(suffix) ? text.slice(0, text.length - suffix.length) : text
}

/** The hints after the first sentence (official `_We`), for `converter` = {major, minor, patch}. */
function hints(inputSchema, err, converter) {
  if (isError(err, ReferenceError)) {
    return ["Something this tool's schema reads, such as a z.lazy target or a default value, is not defined yet. Define every schema this tool uses before passing the server to query(), startup() or setMcpServers(). A zod 4 z.lazy whose function has thrown once stays broken, so create the schema, its tool and the server again to get the tool back."]
  }
  const own = `${converter.major}.${converter.minor}.${converter.patch}`
  const other = Object.values(inputSchema).filter(isZod4).map((s) => s._zod?.version)
    .find((v) => typeof v?.major === 'number' && (v.major !== converter.major || v.minor !== converter.minor || v.patch !== converter.patch))
  const differs = other && `this tool's schema was built with zod ${other.major}.${other.minor}.${other.patch}, and this SDK converts schemas with its own zod ${own}`
  const minor = `${converter.major}.${converter.minor}`
  if (!isError(err, TypeError)) {
    const out = ["Change this tool's schema so that every field can be converted."]
    if (differs) out.push(`A different zod version can also cause this: ${differs}, so building the schema with zod ${minor} may fix it.`)
    return out
  }
  const causes = 'a schema this tool uses is not defined yet, or a zod 3 schema is nested inside a zod 4 one. Define every schema this tool uses before passing the server to query(), startup() or setMcpServers(). Build the whole schema with zod 3 or with zod 4, not a mix of the two. A zod 4 z.lazy whose function has thrown once stays broken, so create the schema, its tool and the server again to get the tool back.'
  if (!other) return [`This can mean ${causes}`]
  const out = [`The zod versions differ: ${differs}. Conversion can fail across versions, so build the schema with zod ${minor}, or use an SDK release that bundles your zod version.`]
  const oldRecord = other.major === 4 && other.minor <= 3
  if (oldRecord) out.push(`On zod ${other.major}.${other.minor}, a z.record given only one argument also causes this; pass both, as in z.record(keySchema, valueSchema).`)
  out.push(`If ${oldRecord ? 'neither is the cause' : 'the version difference is not the cause'}, it can mean ${causes}`)
  return out
}

/**
 * The official warning text.
 * @param {{serverName: string, toolName: string, inputSchema: object, error: unknown, converter: {major:number, minor:number, patch:number}}} p
 */
function unconvertibleWarning({ serverName, toolName, inputSchema, error, converter }) {
  const reason = stripSuffix(errorText(error), '.')
  return [
    `Tool "${toolName}" on SDK MCP server "${serverName}" was left out of the server's tool list, because its input schema cannot be converted to JSON Schema${reason ? `: ${reason}` : ''}. The server's other tools are unaffected.`,
    ...hints(inputSchema, error, converter),
  ].join(' ')
}

module.exports = { unconvertibleWarning, UNCONVERTIBLE_WARNING_CODE }
