'use strict'
// A zod object schema's plain JSON Schema twin, for the engine's argument check
// (crates/agent-core/src/mcp/validate.rs): arguments the twin accepts are ones zod accepts and
// returns unchanged, so the tool call can skip zod's safeParseAsync (at 64 calls in flight it was
// about a sixth of the JS thread's work per call).
//
// Only schemas where that holds have a twin: an object of fields that are strings, numbers,
// booleans, null, enums of strings, literals, or arrays of those — each optional and/or nullable —
// with no checks (min, max, int, email: zod and JSON Schema count and word them differently),
// no coercion, defaults, transforms, refinements, unions or nested objects. Everything else keeps
// zod. What zod would still change in accepted arguments:
// - unknown keys (stripped): the twin says `additionalProperties: false`, so the engine defers
//   arguments that have any;
// - key order (zod's output follows the shape): `inShapeOrder()` checks it on the JS thread.

const SCALARS = { string: 'string', number: 'number', boolean: 'boolean', null: 'null' }
const SCALARS3 = { ZodString: 'string', ZodNumber: 'number', ZodBoolean: 'boolean', ZodNull: 'null' }

const emptyChecks = (checks) => checks === undefined || (Array.isArray(checks) && checks.length === 0)
const jsonLiteral = (v) => typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v))
/** `def` has no keys but these (and a zod error option, which only words failures). */
const onlyKeys = (def, keys) => Object.keys(def).every((k) => keys.includes(k) || k === 'error' || k === 'errorMap' || k === 'description')

/** zod 4: a field's {schema, optional, nullable} with its optional/nullable wrappers peeled. */
function peel4(field) {
  let optional = false
  let nullable = false
  let s = field
  for (;;) {
    const def = s?._zod?.def
    if (!def) return null
    if (def.type === 'optional' && onlyKeys(def, ['type', 'innerType'])) optional = true
    else if (def.type === 'nullable' && onlyKeys(def, ['type', 'innerType'])) nullable = true
    else return { def, optional, nullable }
    s = def.innerType
  }
}

/** zod 4: the JSON Schema of a field's inner (unwrapped) schema, or null. */
function leaf4(def, inArray) {
  if (SCALARS[def.type]) return onlyKeys(def, ['type', 'checks', 'coerce']) && emptyChecks(def.checks) && !def.coerce ? { type: SCALARS[def.type] } : null
  if (def.type === 'enum' && onlyKeys(def, ['type', 'entries'])) {
    const values = Object.values(def.entries ?? {})
    return values.length && values.every((v) => typeof v === 'string') ? { enum: values } : null
  }
  if (def.type === 'literal' && onlyKeys(def, ['type', 'values'])) {
    return Array.isArray(def.values) && def.values.length && def.values.every(jsonLiteral) ? { enum: def.values } : null
  }
  if (def.type === 'array' && !inArray && onlyKeys(def, ['type', 'element', 'checks']) && emptyChecks(def.checks)) {
    const el = peel4(def.element)
    if (!el || el.optional) return null
    const items = leaf4(el.def, true)
    return items && { type: 'array', items: el.nullable ? { ...items, nullable: true } : items }
  }
  return null
}

/** zod 3: as peel4. */
function peel3(field) {
  let optional = false
  let nullable = false
  let s = field
  for (;;) {
    const def = s?._def
    if (!def || typeof def.typeName !== 'string') return null
    if (def.typeName === 'ZodOptional' && onlyKeys(def, ['typeName', 'innerType'])) optional = true
    else if (def.typeName === 'ZodNullable' && onlyKeys(def, ['typeName', 'innerType'])) nullable = true
    else return { def, optional, nullable }
    s = def.innerType
  }
}

function leaf3(def, inArray) {
  const t = def.typeName
  if (SCALARS3[t]) return onlyKeys(def, ['typeName', 'checks', 'coerce']) && emptyChecks(def.checks) && !def.coerce ? { type: SCALARS3[t] } : null
  if (t === 'ZodEnum' && onlyKeys(def, ['typeName', 'values'])) {
    return Array.isArray(def.values) && def.values.length && def.values.every((v) => typeof v === 'string') ? { enum: [...def.values] } : null
  }
  if (t === 'ZodLiteral' && onlyKeys(def, ['typeName', 'value'])) return jsonLiteral(def.value) ? { enum: [def.value] } : null
  if (t === 'ZodArray' && !inArray && onlyKeys(def, ['typeName', 'type', 'minLength', 'maxLength', 'exactLength'])) {
    if (def.minLength !== null || def.maxLength !== null || def.exactLength !== null) return null
    const el = peel3(def.type)
    if (!el || el.optional) return null
    const items = leaf3(el.def, true)
    return items && { type: 'array', items: el.nullable ? { ...items, nullable: true } : items }
  }
  return null
}

/** The object's shape and whether it is one zod strips or rejects unknown keys of, or null. */
function objectShape(schema, kind) {
  if (kind === 'zod4') {
    const def = schema?._zod?.def
    if (!def || def.type !== 'object' || !onlyKeys(def, ['type', 'shape', 'catchall', 'checks']) || !emptyChecks(def.checks)) return null
    // catchall: none (strip) or never (strict); anything else keeps unknown keys.
    if (def.catchall !== undefined && def.catchall?._zod?.def?.type !== 'never') return null
    return def.shape
  }
  const def = schema?._def
  if (!def || def.typeName !== 'ZodObject' || !onlyKeys(def, ['typeName', 'shape', 'unknownKeys', 'catchall'])) return null
  if (def.unknownKeys !== 'strip' && def.unknownKeys !== 'strict') return null
  if (def.catchall?._def?.typeName !== 'ZodNever') return null
  return typeof def.shape === 'function' ? def.shape() : null
}

/**
 * The twin of a zod object schema (`kind` 'zod4' or 'zod3'), or null when it has none.
 * @returns {{ jsonSchema: object, order: Map<string, number> } | null}
 */
function plainTwin(objectSchema, kind) {
  const shape = objectShape(objectSchema, kind)
  if (!shape || typeof shape !== 'object') return null
  const properties = {}
  const required = []
  const order = new Map()
  for (const key of Object.keys(shape)) {
    if (key === '__proto__') return null
    const field = kind === 'zod4' ? peel4(shape[key]) : peel3(shape[key])
    if (!field) return null
    // zod 4 decides requiredness by `optin`; it must agree with the wrappers seen.
    if (kind === 'zod4' && (shape[key]._zod.optin === 'optional') !== field.optional) return null
    const leaf = kind === 'zod4' ? leaf4(field.def, false) : leaf3(field.def, false)
    if (!leaf) return null
    properties[key] = field.nullable ? { ...leaf, nullable: true } : leaf
    if (!field.optional) required.push(key)
    order.set(key, order.size)
  }
  return { jsonSchema: { type: 'object', properties, required, additionalProperties: false }, order }
}

/** Whether the (known) keys of `args` come in the shape's order, as zod would return them. */
function inShapeOrder(args, order) {
  let last = -1
  for (const key in args) {
    const i = order.get(key)
    if (i === undefined || i < last) return false
    last = i
  }
  return true
}

module.exports = { plainTwin, inShapeOrder }
