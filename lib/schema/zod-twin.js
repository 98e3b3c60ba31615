// @ts-check
'use strict'
// A zod object schema's plain JSON Schema twin, for the engine's argument check
// (crates/agent-core/src/mcp/validate.rs): arguments the twin accepts are ones zod accepts and
// returns unchanged, so the tool call can skip zod's safeParseAsync (at 64 calls in flight it was
// about a sixth of the JS thread's work per call).
//
// Only schemas where that holds have a twin: objects of fields that are strings, numbers,
// booleans, null, enums of strings, literals, objects of the same kind, or arrays of any of those —
// each field optional and/or nullable — with no checks (min, max, int, email: zod and JSON Schema
// count and word them differently), no coercion, defaults, transforms, refinements, unions or
// records, and at most MAX_DEPTH objects deep. Everything else keeps zod. What zod would still
// change in accepted arguments:
// - unknown keys (stripped): every object of the twin says `additionalProperties: false`, so the
//   engine defers arguments that have any;
// - key order (zod's output follows the shape): `inShapeOrder()` checks it on the JS thread, at
//   every depth.

/** Objects within objects (and arrays) a twin goes down to; a deeper or recursive schema has none. */
const MAX_DEPTH = 6

const jsonLiteral = (v) => typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))
/** `def` has no keys but these (and zod's error options and descriptions, which change no value). */
const onlyKeys = (def, keys) => Object.keys(def).every((k) => keys.includes(k) || k === 'error' || k === 'errorMap' || k === 'description')
const noChecks = (checks) => checks === undefined || (Array.isArray(checks) && checks.length === 0)

/**
 * What a zod 4 or zod 3 schema is, in one vocabulary: `{ type, inner?, element?, values?, shape? }`
 * with `type` one of string, number, boolean, null, enum, literal, array, object, optional,
 * nullable — or null for anything else, or anything with a check, coercion or option that changes
 * what is accepted or returned.
 */
function view(schema, kind) {
  if (kind === 'zod4') {
    const def = schema?._zod?.def
    if (!def) return null
    switch (def.type) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'null':
        return onlyKeys(def, ['type', 'checks', 'coerce']) && noChecks(def.checks) && !def.coerce ? { type: def.type } : null
      case 'enum': {
        const values = Object.values(def.entries ?? {})
        return onlyKeys(def, ['type', 'entries']) && values.length && values.every((v) => typeof v === 'string') ? { type: 'enum', values } : null
      }
      case 'literal':
        return onlyKeys(def, ['type', 'values']) && Array.isArray(def.values) && def.values.length && def.values.every(jsonLiteral) ? { type: 'literal', values: def.values } : null
      case 'array':
        return onlyKeys(def, ['type', 'element', 'checks']) && noChecks(def.checks) ? { type: 'array', element: def.element } : null
      case 'optional':
      case 'nullable':
        return onlyKeys(def, ['type', 'innerType']) ? { type: def.type, inner: def.innerType } : null
      case 'object':
        // catchall: none (strip) or never (strict); anything else keeps unknown keys.
        if (!onlyKeys(def, ['type', 'shape', 'catchall', 'checks']) || !noChecks(def.checks)) return null
        if (def.catchall !== undefined && def.catchall?._zod?.def?.type !== 'never') return null
        return def.shape && typeof def.shape === 'object' ? { type: 'object', shape: def.shape } : null
      default:
        return null
    }
  }
  const def = schema?._def
  if (!def) return null
  switch (def.typeName) {
    case 'ZodString':
    case 'ZodNumber':
    case 'ZodBoolean':
    case 'ZodNull':
      return onlyKeys(def, ['typeName', 'checks', 'coerce']) && noChecks(def.checks) && !def.coerce ? { type: def.typeName.slice(3).toLowerCase() } : null
    case 'ZodEnum':
      return onlyKeys(def, ['typeName', 'values']) && Array.isArray(def.values) && def.values.length && def.values.every((v) => typeof v === 'string') ? { type: 'enum', values: [...def.values] } : null
    case 'ZodLiteral':
      return onlyKeys(def, ['typeName', 'value']) && jsonLiteral(def.value) ? { type: 'literal', values: [def.value] } : null
    case 'ZodArray':
      if (!onlyKeys(def, ['typeName', 'type', 'minLength', 'maxLength', 'exactLength'])) return null
      return def.minLength === null && def.maxLength === null && def.exactLength === null ? { type: 'array', element: def.type } : null
    case 'ZodOptional':
    case 'ZodNullable':
      return onlyKeys(def, ['typeName', 'innerType']) ? { type: def.typeName.slice(3).toLowerCase(), inner: def.innerType } : null
    case 'ZodObject':
      if (!onlyKeys(def, ['typeName', 'shape', 'unknownKeys', 'catchall'])) return null
      if ((def.unknownKeys !== 'strip' && def.unknownKeys !== 'strict') || def.catchall?._def?.typeName !== 'ZodNever') return null
      return typeof def.shape === 'function' ? { type: 'object', shape: def.shape() } : null
    default:
      return null
  }
}

/** A value's schema with its optional/nullable wrappers peeled: `{ v, optional, nullable }` or null. */
function peel(schema, kind) {
  let optional = false
  let nullable = false
  for (let v = view(schema, kind); v; v = view(v.inner, kind)) {
    if (v.type === 'optional') optional = true
    else if (v.type === 'nullable') nullable = true
    else return { v, optional, nullable }
  }
  return null
}

/**
 * The twin of an (unwrapped) value schema: `{ json, order }`, where `order` is what
 * `inShapeOrder()` checks in such a value — an object's key order (a Map of key to
 * `{ index, order }`), an array's items' (`{ items }`), or null — or null when it has none.
 */
function twinOf(v, kind, depth) {
  switch (v.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      return { json: { type: v.type }, order: null }
    case 'enum':
    case 'literal':
      return { json: { enum: v.values }, order: null }
    case 'array': {
      const el = peel(v.element, kind)
      // Array items are never absent; nested arrays are left to zod.
      if (!el || el.optional || el.v.type === 'array') return null
      const item = twinOf(el.v, kind, depth)
      if (!item) return null
      return { json: { type: 'array', items: el.nullable ? { ...item.json, nullable: true } : item.json }, order: item.order && { items: item.order } }
    }
    case 'object': {
      if (depth >= MAX_DEPTH) return null
      const properties = {}
      const required = []
      const keys = new Map()
      for (const key of Object.keys(v.shape)) {
        if (key === '__proto__') return null
        const field = v.shape[key]
        const f = peel(field, kind)
        if (!f) return null
        // zod 4 decides requiredness by `optin`; it must agree with the wrappers seen.
        if (kind === 'zod4' && (field._zod.optin === 'optional') !== f.optional) return null
        const t = twinOf(f.v, kind, depth + 1)
        if (!t) return null
        properties[key] = f.nullable ? { ...t.json, nullable: true } : t.json
        if (!f.optional) required.push(key)
        keys.set(key, { index: keys.size, order: t.order })
      }
      return { json: { type: 'object', properties, required, additionalProperties: false }, order: { keys } }
    }
    default:
      return null
  }
}

/**
 * The twin of a zod object schema (`kind` 'zod4' or 'zod3'), or null when it has none.
 * @returns {{ jsonSchema: object, order: object } | null}
 */
function plainTwin(objectSchema, kind) {
  const v = view(objectSchema, kind)
  const t = v?.type === 'object' ? twinOf(v, kind, 0) : null
  return t && { jsonSchema: t.json, order: t.order }
}

/**
 * Whether the keys of `value` (arguments the twin accepted) come in the shape's order at every
 * depth, as zod would return them.
 */
function inShapeOrder(value, order) {
  if (order === null || value === null || typeof value !== 'object') return true
  if (order.items) {
    for (const item of value) if (!inShapeOrder(item, order.items)) return false
    return true
  }
  let last = -1
  for (const key in value) {
    const k = order.keys.get(key)
    if (k === undefined || k.index < last || !inShapeOrder(value[key], k.order)) return false
    last = k.index
  }
  return true
}

module.exports = { plainTwin, inShapeOrder }
