// @ts-check
'use strict'
// Tool input schemas and tool results, as the official SDK's createSdkMcpServer() + McpServer
// handle them. Nothing here loads zod until a zod schema is first converted or used.
// Import cost matters: only ./detect and ./messages load with this file, the rest on first use.
const { classifyInputSchema } = require('./detect')
const {
  emptyObjectJsonSchema, inputValidationMessage, toolDisabledMessage, toolNotFoundMessage, parseErrorMessage, UNCONVERTIBLE_WARNING_CODE,
} = require('./messages')

const { errorText } = require('../thrown')

/**
 * A compiled tool input schema (see compileInputSchema).
 * @typedef {{
 *   kind: 'zod4' | 'zod3' | 'json' | 'none',
 *   passArgs: boolean,
 *   convertsWithoutZod?(): boolean,
 *   jsonSchema: object | undefined,
 *   conversionWarning(serverName: string): string | undefined,
 *   validate(args: unknown): Promise<{ok: true, value: unknown} | {ok: false, message: string}>,
 *   argsCheck?: object,
 *   trusts?(args: any): boolean,
 * }} CompiledInputSchema
 */

function plainJson(value) {
  try {
    return JSON.parse(JSON.stringify(value))
  } catch {
    return value
  }
}

/**
 * No inputSchema: listed as {type:'object', properties:{}}; the handler gets only `extra`.
 * @returns {CompiledInputSchema}
 */
function compileNone() {
  return {
    kind: 'none',
    passArgs: false,
    jsonSchema: emptyObjectJsonSchema(),
    conversionWarning() {
      return undefined
    },
    async validate() {
      return { ok: true, value: undefined }
    },
  }
}

/**
 * @param {string} toolName
 * @param {object} inputSchema
 * @param {'zod3' | 'zod4'} kind
 * @param {any} backend the zod version's backend (./zod3.js, ./zod4.js)
 * @returns {CompiledInputSchema}
 */
function compileZod(toolName, inputSchema, kind, backend) {
  let jsonSchema
  let lastError
  // Like the official `enabled` getter: retried until it succeeds, then kept.
  function convert() {
    if (jsonSchema !== undefined) return jsonSchema
    const direct = backend.directJsonSchema?.()
    if (direct !== undefined) {
      jsonSchema = direct
      return jsonSchema
    }
    const { objectSchema } = backend.build()
    if (!objectSchema) {
      jsonSchema = emptyObjectJsonSchema()
      return jsonSchema
    }
    const toJsonSchema = backend.jsonSchemaConverter() // a missing zod-to-json-schema throws here, loudly
    try {
      jsonSchema = plainJson(toJsonSchema(objectSchema))
      lastError = undefined
    } catch (err) {
      lastError = err
    }
    return jsonSchema
  }
  // The plain JSON Schema twin the engine checks arguments against (./zod-twin), when it has one.
  let twin
  let inShapeOrder
  function plain() {
    if (twin === undefined) {
      const lib = require('./zod-twin')
      twin = lib.plainTwin(backend.twinSource ? backend.twinSource() : backend.build().objectSchema, kind)
      inShapeOrder = lib.inShapeOrder
    }
    return twin
  }
  return {
    kind,
    passArgs: true,
    /** Whether tools/list's schema comes without loading a zod module (then none is preloaded). */
    convertsWithoutZod() {
      return backend.directJsonSchema?.() !== undefined
    },
    get jsonSchema() {
      return convert()
    },
    get argsCheck() {
      return convert() === undefined ? undefined : plain()?.jsonSchema
    },
    trusts(args) {
      const t = plain()
      return t !== null && inShapeOrder(args, t.order)
    },
    conversionWarning(serverName) {
      if (convert() !== undefined) return undefined
      const { unconvertibleWarning } = require('./unconvertible')
      return unconvertibleWarning({ serverName, toolName, inputSchema: /** @type {object} */ (inputSchema), error: lastError, converter: backend.converterVersion() })
    },
    async validate(args) {
      try {
        if (convert() === undefined) return { ok: false, message: toolDisabledMessage(toolName) }
        if (backend.load) await backend.load()
        const { schema } = backend.build()
        const result = await backend.safeParseAsync(schema, args)
        if (result.success) return { ok: true, value: result.data }
        return { ok: false, message: inputValidationMessage(toolName, parseErrorMessage('error' in result ? result.error : 'Unknown error')) }
      } catch (err) {
        // A refinement or transform that throws: the official answers with the bare message.
        return { ok: false, message: errorText(err) }
      }
    },
  }
}

/**
 * Compiles a tool's inputSchema: a zod 4 or zod 3 raw shape (or object schema), a plain JSON
 * Schema object, or nothing.
 *
 * @param {string} toolName
 * @param {unknown} inputSchema
 * @returns {CompiledInputSchema}
 *   `argsCheck`: a plain JSON Schema the engine checks arguments against before they cross to JS;
 *   arguments it accepts skip `validate` when `trusts(args)` (they are what `validate` returns).
 *   `jsonSchema` is the tools/list inputSchema (a getter: zod loads on first read); undefined when
 *   the schema can't be converted, in which case the official leaves the tool out of tools/list,
 *   emits `conversionWarning(serverName)` (code UNCONVERTIBLE_WARNING_CODE) and `validate`
 *   answers "MCP error -32602: Tool <name> disabled".
 *   `passArgs` false (no inputSchema): the official calls the handler with `extra` only.
 *   `validate` never rejects; `value` is the parsed input (defaults filled, transforms applied).
 * @throws {Error} the official's errors: "Mixed Zod versions detected in object shape." and
 *   "inputSchema must be a Zod schema or raw shape, received an unrecognized object";
 *   a TypeError for a JSON Schema that tools/list could not carry.
 */
function compileInputSchema(toolName, inputSchema) {
  const { form, zod } = /** @type {{ form: string, zod?: 3 | 4 }} */ (classifyInputSchema(inputSchema))
  if (form === 'none') return compileNone()
  // Any other form is an object (./detect.js).
  const schema = /** @type {object} */ (inputSchema)
  if (form === 'json') return require('./json-schema').compileJsonSchema(toolName, inputSchema)
  return shared(toolName, schema, form, () => zod === 4
    ? compileZod(toolName, schema, 'zod4', require('./zod4').zod4Backend(schema, form))
    : compileZod(toolName, schema, 'zod3', require('./zod3').zod3Backend(schema, form)))
}

/**
 * Compiled zod schemas, by schema object and then tool name: an app that makes a server per query
 * (the official SDK's server instance serves one query at a time) compiles the same tool again
 * and again, and its servers share one compilation — its JSON Schema, argument twin and zod object
 * — instead of converting and holding a copy each. A raw shape is a plain object the app may
 * change in between: its fields are compared too.
 * @type {WeakMap<object, Map<string, { fields: unknown[] | undefined, compiled: CompiledInputSchema }>>}
 */
const compiledZod = new WeakMap()

/**
 * @param {string} toolName
 * @param {object} schema
 * @param {string} form
 * @param {() => CompiledInputSchema} compile
 * @returns {CompiledInputSchema}
 */
function shared(toolName, schema, form, compile) {
  let byName = compiledZod.get(schema)
  if (!byName) compiledZod.set(schema, (byName = new Map()))
  const fields = form === 'shape' ? Object.entries(schema).flat() : undefined
  const hit = byName.get(toolName)
  if (hit && (fields === undefined || (hit.fields !== undefined && hit.fields.length === fields.length && hit.fields.every((f, i) => f === fields[i])))) {
    return hit.compiled
  }
  const compiled = compile()
  byName.set(toolName, { fields, compiled })
  return compiled
}

/**
 * The CallToolResult the official server sends for a handler's return value (see ./tool-result.js).
 * @throws {InvalidToolResultError} where the official answers the tools/call with a JSON-RPC error.
 */
function normalizeToolResult(value) {
  return require('./tool-result').normalizeToolResult(value)
}

/** The isError CallToolResult for what a handler threw or rejected with (see ./tool-error.js). */
function errorResultFromThrow(err) {
  return require('./tool-error').errorResultFromThrow(err)
}

module.exports = {
  compileInputSchema,
  normalizeToolResult,
  errorResultFromThrow,
  toolNotFoundMessage,
  UNCONVERTIBLE_WARNING_CODE,
  get InvalidToolResultError() { return require('./tool-result').InvalidToolResultError },
}
