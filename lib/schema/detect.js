// @ts-check
'use strict'
// Which form an inputSchema has, decided the way the official createSdkMcpServer() and its
// McpServer.registerTool() decide it, so the same inputs are accepted and the same ones throw
// (with the same messages). Nothing here loads zod.

/** A zod 4 schema (classic, mini or core): it carries `_zod`. */
function isZod4(value) {
  return typeof value === 'object' && value !== null && '_zod' in value
}

/** Has `parse` and `safeParse` functions (the MCP SDK's "zod type-like" test). */
function isParseable(value) {
  return value !== null && typeof value === 'object' &&
    'parse' in value && typeof value.parse === 'function' &&
    'safeParse' in value && typeof value.safeParse === 'function'
}

/** A zod schema of either major version (or something parseable like one). */
function isZodSchema(value) {
  // `in` on a primitive throws a TypeError, as the official does for e.g. a string inputSchema.
  return '_def' in value || '_zod' in value || isParseable(value)
}

/** A zod raw shape: an object that isn't a schema, empty or holding at least one schema. */
function isRawShape(value) {
  if (typeof value !== 'object' || value === null) return false
  if (isZodSchema(value)) return false
  if (Object.keys(value).length === 0) return true
  return Object.values(value).some(isParseable)
}

// Keys that mark a plain object as a JSON Schema (our extension: the official throws for these).
const JSON_SCHEMA_KEYS = ['type', 'properties', 'required', 'additionalProperties', '$schema', '$ref', 'anyOf', 'oneOf', 'allOf']

function isJsonSchemaLike(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value) &&
    JSON_SCHEMA_KEYS.some((k) => Object.prototype.hasOwnProperty.call(value, k))
}

const UNRECOGNIZED = 'inputSchema must be a Zod schema or raw shape, received an unrecognized object'
const MIXED = 'Mixed Zod versions detected in object shape.'

/**
 * Classifies an inputSchema.
 * @returns {{form: 'none'} | {form: 'shape', zod: 3|4} | {form: 'schema', zod: 3|4} | {form: 'json'}}
 * @throws the official's errors for a mixed zod 3/4 shape and for an unrecognized object
 *   (except that a JSON-Schema-like object is accepted here as `form: 'json'`).
 */
function classifyInputSchema(inputSchema) {
  if (!inputSchema) return { form: 'none' }
  if (isRawShape(inputSchema)) {
    const values = Object.values(inputSchema)
    if (values.length === 0 || values.every((v) => !!v._zod)) return { form: 'shape', zod: 4 }
    if (values.every((v) => !v._zod)) return { form: 'shape', zod: 3 }
    throw new Error(MIXED)
  }
  if (!isZodSchema(inputSchema)) {
    if (isJsonSchemaLike(inputSchema)) return { form: 'json' }
    throw new Error(UNRECOGNIZED)
  }
  return { form: 'schema', zod: inputSchema._zod ? 4 : 3 }
}

module.exports = { classifyInputSchema, isZod4, isParseable, isZodSchema, isRawShape, isJsonSchemaLike, UNRECOGNIZED, MIXED }
