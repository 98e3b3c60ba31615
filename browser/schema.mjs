// @ts-check
// Tool input schemas in the browser entry, as the official createSdkMcpServer() and its
// McpServer treat them: a zod 4 raw shape or object schema (zod ≥ 4, or zod 3.25's 'zod/v4'),
// listed as JSON Schema (draft-7, io "input") and checked with safeParseAsync before the
// handler runs; no schema lists {type:'object', properties:{}}. A plain JSON Schema object is
// listed as given and not checked here (the remote session validates against what it lists).
// zod comes from the app's own 'zod/v4' (zod is a peer dependency).
import * as z from 'zod/v4'

const UNRECOGNIZED = 'inputSchema must be a Zod schema or raw shape, received an unrecognized object'
const JSON_SCHEMA_KEYS = ['type', 'properties', 'required', 'additionalProperties', '$schema', '$ref', 'anyOf', 'oneOf', 'allOf']

function isParseable(v) {
  return v !== null && typeof v === 'object' && typeof v.parse === 'function' && typeof v.safeParse === 'function'
}
function isZodSchema(v) {
  return '_def' in v || '_zod' in v || isParseable(v)
}
function isRawShape(v) {
  if (typeof v !== 'object' || v === null || isZodSchema(v)) return false
  return Object.keys(v).length === 0 || Object.values(v).some(isParseable)
}

/** The MCP error text for arguments that fail a tool's schema (the official's exact words). */
export function inputValidationMessage(toolName, detail) {
  return `MCP error -32602: Input validation error: Invalid arguments for tool ${toolName}: ${detail}`
}

/**
 * @returns {{ jsonSchema: object, validate(args): Promise<{ok: true, value} | {ok: false, message: string}>, passArgs: boolean }}
 */
export function compileInputSchema(toolName, inputSchema) {
  if (!inputSchema) {
    return { jsonSchema: { type: 'object', properties: {} }, passArgs: false, validate: async () => ({ ok: true, value: undefined }) }
  }
  let schema
  if (isRawShape(inputSchema)) {
    const fields = Object.values(inputSchema)
    if (!fields.every((f) => f && '_zod' in f)) {
      throw new Error(`Tool ${toolName}: the browser entry takes zod 4 schemas (zod 4, or 'zod/v4' of zod 3.25); this shape holds zod 3 schemas`)
    }
    schema = z.object(inputSchema)
  } else if (isZodSchema(inputSchema)) {
    if (!('_zod' in inputSchema)) {
      throw new Error(`Tool ${toolName}: the browser entry takes zod 4 schemas (zod 4, or 'zod/v4' of zod 3.25); this is a zod 3 schema`)
    }
    schema = inputSchema
  } else if (JSON_SCHEMA_KEYS.some((k) => Object.prototype.hasOwnProperty.call(inputSchema, k))) {
    const jsonSchema = JSON.parse(JSON.stringify(inputSchema))
    return { jsonSchema, passArgs: true, validate: async (args) => ({ ok: true, value: args }) }
  } else {
    throw new Error(UNRECOGNIZED)
  }
  const def = schema._zod.def
  const isObject = def.type === 'object' || def.shape !== undefined
  const jsonSchema = isObject ? JSON.parse(JSON.stringify(z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }))) : { type: 'object', properties: {} }
  return {
    jsonSchema,
    passArgs: true,
    async validate(args) {
      const r = await z.safeParseAsync(schema, args)
      if (r.success) return { ok: true, value: r.data }
      return { ok: false, message: inputValidationMessage(toolName, r.error.message) }
    },
  }
}
