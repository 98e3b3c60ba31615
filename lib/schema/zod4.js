// @ts-check
'use strict'
// zod 4 input schemas: the object schema, its JSON Schema and its validation — built the way
// the official SDK builds them (an object() over the shape, core safeParseAsync, core
// toJSONSchema with target draft-7 and io "input"), object() taken from the zod API the app's
// schemas come from (classic or mini; see flavourOf). zod loads on first use only.
const { isZod4 } = require('./detect')
const { loadZod4, flavourOf, preloadZod4, pendingPreload } = require('./zod-loader')

// --- the official SDK's shape preparation (createSdkMcpServer) -------------------------------
// A field that is optional in and out but holds a default somewhere inside (and no z.lazy) is
// cloned with `optin = "defaulted"`, so an absent key gets its default. zod < 4.5 schemas use a
// slightly different test. Its description is re-registered for the clone.

function isBeforeZod45(schema) {
  const v = schema._zod.version
  return v?.major === 4 && v.minor < 5
}

function containsLazy(schema, skipOptional, seen = new Set()) {
  if (!isZod4(schema) || seen.has(schema)) return false
  seen.add(schema)
  const def = schema._zod.def
  switch (def.type) {
    case 'lazy': return true
    case 'optional': return !skipOptional && containsLazy(def.innerType, skipOptional, seen)
    case 'nullable':
    case 'catch':
    case 'readonly': return containsLazy(def.innerType, skipOptional, seen)
    case 'pipe': return containsLazy(def.in, skipOptional, seen) || containsLazy(def.out, skipOptional, seen)
    case 'union': return def.options?.some((o) => containsLazy(o, skipOptional, seen)) ?? false
    default: return false
  }
}

function containsDefault(schema, seen = new Set()) {
  if (!isZod4(schema) || seen.has(schema)) return false
  seen.add(schema)
  const def = schema._zod.def
  switch (def.type) {
    case 'default':
    case 'prefault': return true
    case 'optional':
    case 'nullable':
    case 'catch':
    case 'readonly': return containsDefault(def.innerType, seen)
    case 'pipe': return containsDefault(def.in, seen)
    case 'union': return def.options?.some((o) => containsDefault(o, seen)) ?? false
    default: return false
  }
}

function markDefaulted(field) {
  const applies = isBeforeZod45(field) ? !containsLazy(field, true) : containsDefault(field) && !containsLazy(field, false)
  if (!applies || field._zod.optin !== 'optional' || field._zod.optout !== 'optional' || typeof field.clone !== 'function') return field
  const clone = field.clone()
  clone._zod.optin = 'defaulted'
  return clone
}

function prepareShape(shape, registry) {
  const entries = []
  for (const [key, field] of Object.entries(shape)) {
    if (!isZod4(field)) {
      entries.push([key, field])
      continue
    }
    const prepared = markDefaulted(field)
    const description = field.description
    if (description && !registry.has(prepared)) registry.add(prepared, { description })
    entries.push([key, prepared])
  }
  return Object.fromEntries(entries)
}

// --- converting without loading zod ----------------------------------------------------------

/** JSON Schema keys that tie one part of a document to another: a field's own conversion holding one could differ inside the object's. */
const LINKING = /"(?:\$ref|\$defs|\$id|\$anchor|\$dynamicRef|definitions)"/

/**
 * The tools/list JSON Schema of a zod 4 raw shape, converted field by field with each field's own
 * `toJSONSchema()` — a method of the app's zod (classic, ≥ 4.1), so no zod module has to be found,
 * imported or evaluated for it: in a process where ours resolves another copy of zod than the app
 * imported (npm link, workspaces), that import was most of a first query (tens of ms).
 * The object around the fields is zod's own for a shape (`type`, `properties`, `required` when
 * not empty; nothing about unknown keys for input), and the fields are the same JSON zod writes
 * inside it. Undefined — convert the whole object with zod, as before — for anything where a
 * field alone could come out differently: no fields, a field without the method (zod mini, zod 3),
 * a default the shape preparation would clone (see markDefaulted), a pipe or catch at the top
 * (zod reads their requiredness through them), definitions or references between parts, a field
 * zod cannot convert (it throws: the whole conversion then reports it as the official does).
 */
function shapeJsonSchemaByField(shape) {
  const keys = Object.keys(shape)
  if (keys.length === 0) return undefined
  const properties = {}
  const required = []
  let $schema
  for (const key of keys) {
    const field = shape[key]
    if (key === '__proto__' || !isZod4(field) || typeof field.toJSONSchema !== 'function') return undefined
    const type = field._zod.def?.type
    if (type === 'pipe' || type === 'catch' || markDefaulted(field) !== field) return undefined
    const optin = field._zod.optin
    if (optin !== undefined && optin !== 'optional') return undefined
    let text
    try {
      text = JSON.stringify(field.toJSONSchema({ target: 'draft-7', io: 'input' }))
    } catch {
      return undefined
    }
    if (typeof text !== 'string' || LINKING.test(text)) return undefined
    const { $schema: dialect, ...body } = JSON.parse(text)
    if (typeof dialect !== 'string' || ($schema !== undefined && dialect !== $schema)) return undefined
    $schema = dialect
    properties[key] = body
    if (optin === undefined) required.push(key)
  }
  return { $schema, type: 'object', properties, ...(required.length > 0 && { required }) }
}

// --- loading ----------------------------------------------------------------------------------

function wantedVersion(inputSchema, form) {
  if (form === 'schema') return inputSchema._zod.version
  for (const v of Object.values(inputSchema)) if (isZod4(v) && v._zod.version) return v._zod.version
  return undefined
}

/** zod mini sets no locale (classic sets English); the official SDK's bundled classic zod sets English, and so do we. */
function useEnglishByDefault(mini) {
  const core = mini.core
  if (core.globalConfig && !core.globalConfig.localeError && mini.locales?.en) core.config(mini.locales.en())
}

/** The object schema McpServer lists (its normalizeObjectSchema), or undefined. */
function objectSchemaOf(schema) {
  const def = schema._zod?.def
  return def && (def.type === 'object' || def.shape !== undefined) ? schema : undefined
}

/**
 * @param {object} inputSchema a zod 4 raw shape (form 'shape') or zod 4 schema (form 'schema')
 */
function zod4Backend(inputSchema, form) {
  let built
  let direct
  return {
    /** The JSON Schema with no zod module loaded ({@link shapeJsonSchemaByField}), or undefined. */
    directJsonSchema() {
      if (direct === undefined) direct = (form === 'shape' && shapeJsonSchemaByField(inputSchema)) || null
      return direct ?? undefined
    },
    /**
     * What the argument twin is read from: for a shape, the shape as the def of the object zod
     * would make of it (no zod loaded; a field the preparation would clone has no twin anyway).
     */
    twinSource() {
      return form === 'shape' && !built ? { _zod: { def: { type: 'object', shape: inputSchema } } } : this.build().objectSchema
    },
    /** Loads the app's zod as ES modules ahead of build() (a require() would load a second, CommonJS copy). */
    async load() {
      if (built) return
      preloadZod4(inputSchema)
      await pendingPreload()
    },
    build() {
      if (built) return built
      const mini = loadZod4(wantedVersion(inputSchema, form), flavourOf(inputSchema))
      useEnglishByDefault(mini)
      const registry = globalThis.__zod_globalRegistry ?? mini.globalRegistry
      const schema = form === 'shape' ? mini.object(prepareShape(inputSchema, registry)) : inputSchema
      built = { mini, schema, objectSchema: objectSchemaOf(schema) }
      return built
    },
    /** The converter (loading what it needs may throw; converting is left to the caller). */
    jsonSchemaConverter() {
      const { mini } = this.build()
      const toJSONSchema = mini.toJSONSchema ?? mini.core.toJSONSchema
      return (objectSchema) => toJSONSchema(objectSchema, { target: 'draft-7', io: 'input' })
    },
    safeParseAsync(schema, args) {
      return this.build().mini.core.safeParseAsync(schema, args)
    },
    converterVersion() {
      return this.build().mini.core.version
    },
  }
}

module.exports = { zod4Backend, markDefaulted, prepareShape, shapeJsonSchemaByField }
