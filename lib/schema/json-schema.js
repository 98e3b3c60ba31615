// @ts-check
'use strict'
// Plain JSON Schema input schemas (our extension; the official SDK throws for them). The schema is
// listed as given (a JSON copy, `type: "object"` added when missing). Arguments are checked here
// against the common keywords; failures are reported in zod 4's issue format (code, path,
// message …), pretty-printed, inside the official wording, so the model sees one style whichever
// way the tool was defined. Missing properties get their `default`.
const { inputValidationMessage } = require('./messages')

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k)

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** zod's name for a value's type (util.parsedType) for JSON values. */
function typeName(v) {
  if (v === undefined) return 'undefined'
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN'
  return typeof v
}

function stringifyPrimitive(v) {
  if (typeof v === 'string') return `"${v}"`
  if (v !== null && typeof v === 'object') return JSON.stringify(v)
  return `${v}`
}

function deepEqual(a, b) {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => hasOwn(b, k) && deepEqual(a[k], b[k]))
}

/** zod's floatSafeRemainder: 0 when val is a multiple of step, up to floating-point noise. */
function floatSafeRemainder(val, step) {
  const ratio = val / step
  const rounded = Math.round(ratio)
  const tolerance = 4 * Number.EPSILON * Math.max(Math.abs(ratio), 1)
  return Math.abs(ratio - rounded) < tolerance ? 0 : ratio - rounded
}

function codePointLength(s) {
  let n = 0
  for (const _ of s) n++
  return n
}

// --- issues, in zod 4's shapes and English messages -------------------------------------------

function typeIssue(type, value, path) {
  if (type === 'integer') {
    if (typeof value === 'number') {
      return { expected: 'int', format: 'safeint', code: 'invalid_type', path, message: 'Invalid input: expected int, received number' }
    }
    type = 'number'
  }
  return { expected: type, code: 'invalid_type', path, message: `Invalid input: expected ${type}, received ${typeName(value)}` }
}

/** An absent required value with no type to name (zod's nonoptional). */
function missingIssue(path) {
  return { code: 'invalid_type', expected: 'nonoptional', path, message: 'Invalid input: expected nonoptional, received undefined' }
}

function valueIssue(values, path) {
  const message = values.length === 1
    ? `Invalid input: expected ${stringifyPrimitive(values[0])}`
    : `Invalid option: expected one of ${values.map(stringifyPrimitive).join('|')}`
  return { code: 'invalid_value', values, path, message }
}

function sizeIssue(kind, origin, limit, inclusive, path) {
  const adj = inclusive ? (kind === 'too_small' ? '>=' : '<=') : kind === 'too_small' ? '>' : '<'
  const unit = origin === 'string' ? ' characters' : origin === 'array' ? ' items' : origin === 'object' ? ' properties' : ''
  const verb = unit ? 'to have' : 'to be'
  const issue = { origin, code: kind }
  issue[kind === 'too_small' ? 'minimum' : 'maximum'] = limit
  issue.inclusive = inclusive
  issue.path = path
  issue.message = `${kind === 'too_small' ? 'Too small' : 'Too big'}: expected ${origin} ${verb} ${adj}${limit}${unit}`
  return issue
}

function matchesType(type, value) {
  switch (type) {
    case 'string': return typeof value === 'string'
    case 'number': return typeof value === 'number' && Number.isFinite(value)
    case 'integer': return typeof value === 'number' && Number.isInteger(value)
    case 'boolean': return typeof value === 'boolean'
    case 'null': return value === null
    case 'array': return Array.isArray(value)
    case 'object': return isPlainObject(value)
    default: return true // unknown type names are not enforced
  }
}

// --- the validator ------------------------------------------------------------------------------

class JsonSchemaValidator {
  constructor(root) {
    this.root = root
    this.regexes = new Map()
    this.prepare(root, new Set())
  }

  regex(source) {
    let re = this.regexes.get(source)
    if (!re) {
      try {
        re = new RegExp(source, 'u')
      } catch {
        re = new RegExp(source)
      }
      this.regexes.set(source, re)
    }
    return re
  }

  /** Compiles every pattern and checks every $ref once, so a broken schema fails up front. */
  prepare(schema, seen) {
    if (!isPlainObject(schema) || seen.has(schema)) return
    seen.add(schema)
    if (typeof schema.pattern === 'string') this.regex(schema.pattern)
    if (isPlainObject(schema.patternProperties)) for (const p of Object.keys(schema.patternProperties)) this.regex(p)
    if (typeof schema.$ref === 'string' && this.resolve(schema.$ref) === undefined) {
      throw new TypeError(`cannot resolve $ref ${JSON.stringify(schema.$ref)} (only local refs such as "#/$defs/name" are supported)`)
    }
    // Only where subschemas live (enum, const, default … hold data, not schemas).
    for (const key of ['additionalProperties', 'additionalItems', 'not', 'items']) this.prepare(schema[key], seen)
    for (const key of ['anyOf', 'oneOf', 'allOf', 'items']) if (Array.isArray(schema[key])) for (const sub of schema[key]) this.prepare(sub, seen)
    for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
      if (isPlainObject(schema[key])) for (const sub of Object.values(schema[key])) this.prepare(sub, seen)
    }
  }

  resolve(ref) {
    if (ref === '#') return this.root
    if (!ref.startsWith('#/')) return undefined
    let node = this.root
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      if (node === null || typeof node !== 'object' || !hasOwn(node, key)) return undefined
      node = node[key]
    }
    return node
  }

  /** Validates `value` (undefined = absent) at `path`; pushes issues; returns the value with defaults. */
  check(schema, value, path, issues) {
    if (schema === true || schema === undefined || schema === null) return value
    if (schema === false) {
      issues.push({ code: 'custom', path, message: 'Invalid input' })
      return value
    }
    if (typeof schema !== 'object') return value
    if (typeof schema.$ref === 'string') return this.check(this.resolve(schema.$ref), value, path, issues)
    if (value === null && schema.nullable === true) return value

    // An absent value with an enum/const is reported as zod's enum/literal would: by its values.
    const valued = value === undefined && (hasOwn(schema, 'const') || Array.isArray(schema.enum))
    if (schema.type !== undefined && !valued) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type]
      if (value === null && types.includes('null')) return value
      const wanted = types.filter((t) => t !== 'null')
      if (!wanted.some((t) => matchesType(t, value))) {
        if (wanted.length === 0) issues.push(typeIssue('null', value, path))
        else if (wanted.length === 1) issues.push(typeIssue(wanted[0], value, path))
        else issues.push({ code: 'invalid_union', errors: wanted.map((t) => [typeIssue(t, value, [])]), path, message: 'Invalid input' })
        return value
      }
    }
    if (hasOwn(schema, 'const') && !deepEqual(value, schema.const)) {
      issues.push(valueIssue([schema.const], path))
      return value
    }
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => deepEqual(value, e))) {
      issues.push(valueIssue(schema.enum, path))
      return value
    }
    const combined = Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.allOf)
    if (value === undefined && !combined) {
      issues.push(missingIssue(path))
      return value
    }

    if (typeof value === 'string') this.checkString(schema, value, path, issues)
    else if (typeof value === 'number') this.checkNumber(schema, value, path, issues)
    else if (Array.isArray(value)) value = this.checkArray(schema, value, path, issues)
    else if (isPlainObject(value)) value = this.checkObject(schema, value, path, issues)

    if (Array.isArray(schema.allOf)) for (const sub of schema.allOf) this.check(sub, value, path, issues)
    if (Array.isArray(schema.anyOf)) this.checkUnion(schema.anyOf, false, value, path, issues)
    if (Array.isArray(schema.oneOf)) this.checkUnion(schema.oneOf, true, value, path, issues)
    if (schema.not !== undefined) {
      const inner = []
      this.check(schema.not, value, [], inner)
      if (inner.length === 0) issues.push({ code: 'custom', path, message: 'Invalid input' })
    }
    return value
  }

  checkString(schema, value, path, issues) {
    if (typeof schema.minLength === 'number' && codePointLength(value) < schema.minLength) {
      issues.push(sizeIssue('too_small', 'string', schema.minLength, true, path))
    }
    if (typeof schema.maxLength === 'number' && codePointLength(value) > schema.maxLength) {
      issues.push(sizeIssue('too_big', 'string', schema.maxLength, true, path))
    }
    if (typeof schema.pattern === 'string' && !this.regex(schema.pattern).test(value)) {
      const pattern = `/${schema.pattern}/`
      issues.push({ origin: 'string', code: 'invalid_format', format: 'regex', pattern, path, message: `Invalid string: must match pattern ${pattern}` })
    }
  }

  checkNumber(schema, value, path, issues) {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema
    if (typeof minimum === 'number') {
      const exclusive = exclusiveMinimum === true // draft 4
      if (exclusive ? value <= minimum : value < minimum) issues.push(sizeIssue('too_small', 'number', minimum, !exclusive, path))
    }
    if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) issues.push(sizeIssue('too_small', 'number', exclusiveMinimum, false, path))
    if (typeof maximum === 'number') {
      const exclusive = exclusiveMaximum === true
      if (exclusive ? value >= maximum : value > maximum) issues.push(sizeIssue('too_big', 'number', maximum, !exclusive, path))
    }
    if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) issues.push(sizeIssue('too_big', 'number', exclusiveMaximum, false, path))
    if (typeof multipleOf === 'number' && multipleOf > 0 && floatSafeRemainder(value, multipleOf) !== 0) {
      issues.push({ origin: 'number', code: 'not_multiple_of', divisor: multipleOf, path, message: `Invalid number: must be a multiple of ${multipleOf}` })
    }
  }

  checkArray(schema, value, path, issues) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) issues.push(sizeIssue('too_small', 'array', schema.minItems, true, path))
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) issues.push(sizeIssue('too_big', 'array', schema.maxItems, true, path))
    let out = value
    const set = (i, v) => {
      if (v === out[i]) return
      if (out === value) out = value.slice()
      out[i] = v
    }
    if (Array.isArray(schema.items)) {
      schema.items.forEach((sub, i) => {
        if (i < value.length) set(i, this.check(sub, value[i], [...path, i], issues))
      })
      if (value.length > schema.items.length) {
        if (schema.additionalItems === false) issues.push(sizeIssue('too_big', 'array', schema.items.length, true, path))
        else if (isPlainObject(schema.additionalItems)) {
          for (let i = schema.items.length; i < value.length; i++) set(i, this.check(schema.additionalItems, value[i], [...path, i], issues))
        }
      }
    } else if (schema.items !== undefined) {
      for (let i = 0; i < value.length; i++) set(i, this.check(schema.items, value[i], [...path, i], issues))
    }
    return out
  }

  checkObject(schema, value, path, issues) {
    let out = value
    const set = (k, v) => {
      if (hasOwn(out, k) && v === out[k]) return
      if (out === value) out = { ...value }
      out[k] = v
    }
    const properties = isPlainObject(schema.properties) ? schema.properties : {}
    const required = Array.isArray(schema.required) ? schema.required : []
    for (const [key, sub] of Object.entries(properties)) {
      if (hasOwn(value, key)) set(key, this.check(sub, value[key], [...path, key], issues))
      else if (required.includes(key)) {
        const before = issues.length
        this.check(sub, undefined, [...path, key], issues)
        if (issues.length === before) issues.push(missingIssue([...path, key])) // e.g. `true` or {} as the schema
      }
      else if (isPlainObject(sub) && hasOwn(sub, 'default')) set(key, structuredClone(sub.default))
    }
    for (const key of required) {
      if (!hasOwn(properties, key) && !hasOwn(value, key)) {
        issues.push(missingIssue([...path, key]))
      }
    }
    const patterns = isPlainObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : []
    const extra = []
    for (const key of Object.keys(value)) {
      if (hasOwn(properties, key)) continue
      let matched = false
      for (const [p, sub] of patterns) {
        if (this.regex(p).test(key)) {
          matched = true
          set(key, this.check(sub, value[key], [...path, key], issues))
        }
      }
      if (!matched) extra.push(key)
    }
    if (extra.length > 0) {
      if (schema.additionalProperties === false) {
        issues.push({ code: 'unrecognized_keys', keys: extra, path, message: `Unrecognized key${extra.length > 1 ? 's' : ''}: ${extra.map(stringifyPrimitive).join(', ')}` })
      } else if (isPlainObject(schema.additionalProperties)) {
        for (const key of extra) set(key, this.check(schema.additionalProperties, value[key], [...path, key], issues))
      }
    }
    return out
  }

  checkUnion(options, exclusive, value, path, issues) {
    const results = options.map((opt) => {
      const inner = []
      this.check(opt, value, [], inner)
      return inner
    })
    const matches = []
    results.forEach((r, i) => r.length === 0 && matches.push(i))
    if (matches.length === 0) {
      issues.push({ code: 'invalid_union', errors: results, path, message: 'Invalid input' })
    } else if (exclusive && matches.length > 1) {
      issues.push({ code: 'invalid_union', errors: [], inclusive: false, matches, path, message: 'Invalid input: more than one option matched' })
    }
  }

  /** @returns {{ok: true, value: unknown} | {ok: false, issues: object[]}} */
  validate(value) {
    const issues = []
    const out = this.check(this.root, value, [], issues)
    return issues.length === 0 ? { ok: true, value: out } : { ok: false, issues }
  }
}

/** A JSON copy of the schema as it will be listed; throws a TypeError for what tools/list can't carry. */
function normalizeJsonSchema(toolName, schema) {
  let copy
  try {
    copy = JSON.parse(JSON.stringify(schema))
  } catch (err) {
    throw new TypeError(`tool ${JSON.stringify(toolName)}: its JSON Schema inputSchema is not JSON-serializable (${err.message})`)
  }
  if (copy.type === undefined) copy = { type: 'object', ...copy }
  if (copy.type !== 'object') {
    throw new TypeError(`tool ${JSON.stringify(toolName)}: a JSON Schema inputSchema must have type "object", got ${JSON.stringify(copy.type)}`)
  }
  if (copy.properties !== undefined && (!isPlainObject(copy.properties) || !Object.values(copy.properties).every(isPlainObject))) {
    throw new TypeError(`tool ${JSON.stringify(toolName)}: inputSchema.properties must be an object of schemas`)
  }
  if (copy.required !== undefined && !(Array.isArray(copy.required) && copy.required.every((r) => typeof r === 'string'))) {
    throw new TypeError(`tool ${JSON.stringify(toolName)}: inputSchema.required must be an array of strings`)
  }
  return copy
}

/**
 * The compiled form of a JSON Schema inputSchema (see ./index.js for the shape).
 * @returns {import('./index').CompiledInputSchema}
 */
function compileJsonSchema(toolName, schema) {
  const jsonSchema = normalizeJsonSchema(toolName, schema)
  let validator
  try {
    validator = new JsonSchemaValidator(jsonSchema)
  } catch (err) {
    throw new TypeError(`tool ${JSON.stringify(toolName)}: invalid JSON Schema inputSchema: ${err.message}`)
  }
  return {
    kind: 'json',
    passArgs: true,
    jsonSchema,
    argsCheck: jsonSchema,
    trusts: () => true,
    conversionWarning() {
      return undefined
    },
    async validate(args) {
      const r = validator.validate(args)
      if (r.ok) return r
      return { ok: false, message: inputValidationMessage(toolName, JSON.stringify(r.issues, null, 2)) }
    },
  }
}

module.exports = { compileJsonSchema, JsonSchemaValidator, normalizeJsonSchema }
