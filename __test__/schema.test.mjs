// lib/schema against the official SDK, computed live: every expected value below comes from
// running the same schema / arguments / handler result through the official
// createSdkMcpServer()'s McpServer (tools/list, tools/call over a tiny in-memory transport), so
// these tests fail if either side drifts.
import { test, describe, before } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import * as zm from 'zod/mini'
import { createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk'

const require = createRequire(import.meta.url)
const root = fileURLToPath(new URL('..', import.meta.url))
const schemaLib = require('../lib/schema')
const { compileInputSchema, normalizeToolResult, errorResultFromThrow, InvalidToolResultError, UNCONVERTIBLE_WARNING_CODE } = schemaLib
const { unconvertibleWarning } = require('../lib/schema/unconvertible')

// --- the official side --------------------------------------------------------------------------

/** Warnings the official emits while `fn` runs (instead of printing them). */
async function capturingWarnings(fn) {
  const original = process.emitWarning
  const warnings = []
  process.emitWarning = (message, options) => warnings.push({ message: String(message), code: options?.code })
  try {
    await fn()
  } finally {
    process.emitWarning = original
  }
  return warnings
}

/**
 * An official SDK MCP server with `tools`, reached over a fake transport. Messages are JSON
 * round-tripped, as on the wire. `seen[name]` holds the arguments the handler last received.
 */
async function official(tools) {
  const server = createSdkMcpServer({ name: 'srv', version: '1.0.0', tools })
  const pending = new Map()
  let nextId = 0
  const transport = {
    async start() {},
    async close() {},
    async send(message) {
      const resolve = pending.get(message.id)
      if (resolve) {
        pending.delete(message.id)
        resolve(JSON.parse(JSON.stringify(message)))
      }
    },
  }
  await server.instance.connect(transport)
  const rpc = (method, params) => new Promise((resolve) => {
    const id = ++nextId
    pending.set(id, resolve)
    transport.onmessage({ jsonrpc: '2.0', id, method, params })
  })
  await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } })
  transport.onmessage({ jsonrpc: '2.0', method: 'notifications/initialized' })
  return {
    async list() {
      return (await rpc('tools/list', {})).result.tools
    },
    /** The JSON-RPC response (result or error) of tools/call. */
    call(name, args) {
      return rpc('tools/call', args === undefined ? { name } : { name, arguments: args })
    },
  }
}

const seen = {}
function recordingTool(name, inputSchema) {
  return tool(name, 'd', inputSchema, async (args, ...rest) => {
    seen[name] = { args, argc: 1 + rest.length }
    return { content: [{ type: 'text', text: 'ok' }] }
  })
}

const json = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)))

/** Asserts our compiled tool answers `args` exactly as the official server does. */
async function assertSameValidation(server, name, compiled, args) {
  delete seen[name]
  const response = await server.call(name, args)
  assert.ok(response.result, `official answered tools/call ${name} with a JSON-RPC error: ${JSON.stringify(response.error)}`)
  const ours = await compiled.validate(args)
  const label = `${name} ${JSON.stringify(args)}`
  if (response.result.isError) {
    assert.equal(ours.ok, false, `${label}: official rejected with ${response.result.content[0].text}`)
    assert.equal(ours.message, response.result.content[0].text, label)
    assert.equal(seen[name], undefined, `${label}: the official must not have called the handler`)
  } else {
    assert.equal(ours.ok, true, `${label}: official accepted, ours said ${ours.message}`)
    assert.deepEqual(json(ours.value), json(seen[name].args), label)
  }
}

// --- zod input schemas ----------------------------------------------------------------------------

const zodCases = {
  v4_basic: [
    { name: z.string(), n: z.number().default(3), i: z.number().int(), b: z.boolean(), e: z.enum(['a', 'b']), o: z.string().optional(), d: z.string().describe('a desc') },
    [{ name: 1 }, { name: 'x' }, { name: 'x', n: 'y', i: 1.5, b: 'no', e: 'c', o: 3 }, {}, undefined, { name: 'x', extra: 1, i: 1, b: true, e: 'a', d: 'x' }],
  ],
  v4_more: [
    {
      arr: z.array(z.string()).min(1).max(3),
      obj: z.object({ a: z.number(), b: z.string().nullable() }),
      nul: z.string().nullable(),
      u: z.union([z.string(), z.number()]),
      lit: z.literal('x'),
      s: z.string().min(2).max(4),
      num: z.number().min(1).max(10),
      nullish: z.string().nullish(),
      rec: z.record(z.string(), z.number()),
      email: z.email(),
      re: z.string().regex(/^a+$/),
      t: z.string().transform((s) => s.length),
      dt: z.string().default('d').describe('with default'),
      tup: z.tuple([z.string(), z.number()]),
      du: z.discriminatedUnion('k', [z.object({ k: z.literal('a'), x: z.string() }), z.object({ k: z.literal('b') })]),
      optdef: z.number().default(1).optional(),
      any: z.any(),
      unk: z.unknown(),
      date: z.iso.datetime().optional(),
      int: z.int().positive(),
      gt: z.number().gt(0).lt(5),
      meta: z.string().meta({ title: 'T', examples: ['x'] }).optional(),
      lazy: z.lazy(() => z.string()).optional(),
      pipe: z.string().pipe(z.transform((s) => s.toUpperCase())).optional(),
    },
    [
      {},
      { arr: [], obj: { a: 'x' }, nul: null, u: true, lit: 'y', s: 'a', num: 11, rec: { a: 'x' }, email: 'no', re: 'b', t: 5, tup: ['a'], du: { k: 'c' }, int: -1, gt: 0 },
      { arr: ['a'], obj: { a: 1, b: null }, nul: null, u: 1, lit: 'x', s: 'abc', num: 5, rec: { a: 1 }, email: 'a@b.co', re: 'aa', t: 'hello', tup: ['a', 1], du: { k: 'a', x: 'y' }, any: 1, int: 3, gt: 2, pipe: 'p' },
    ],
  ],
  v4_refine: [
    { a: z.string().refine(async (v) => v === 'ok', 'not ok'), b: z.string().refine(() => { throw new Error('refine threw') }).optional() },
    [{}, { a: 'ok' }, { a: 'no' }, { a: 'ok', b: 'x' }],
  ],
  v4_mini: [
    { a: zm.string(), n: zm._default(zm.number(), 4), o: zm.optional(zm.string().check(zm.minLength(2))), e: zm.optional(zm.enum(['x', 'y'])) },
    [{ a: 1, o: 'x' }, { a: 'q' }, { a: 'q', e: 'z' }],
  ],
  v3_basic: [
    { name: z3.string(), n: z3.number().default(3), i: z3.number().int(), b: z3.boolean(), e: z3.enum(['a', 'b']), o: z3.string().optional(), d: z3.string().describe('a desc') },
    [{ name: 1 }, { name: 'x' }, { name: 'x', n: 'y', i: 1.5, b: 'no', e: 'c', o: 3 }, {}, undefined, { name: 'x', extra: 1, i: 1, b: true, e: 'a', d: 'x' }],
  ],
  v3_more: [
    {
      arr: z3.array(z3.string()).min(1).max(3),
      obj: z3.object({ a: z3.number(), b: z3.string().nullable() }),
      nul: z3.string().nullable(),
      u: z3.union([z3.string(), z3.number()]),
      lit: z3.literal('x'),
      s: z3.string().min(2).max(4),
      num: z3.number().min(1).max(10),
      nullish: z3.string().nullish(),
      rec: z3.record(z3.number()),
      email: z3.string().email(),
      re: z3.string().regex(/^a+$/),
      t: z3.string().transform((s) => s.length),
      dt: z3.string().default('d').describe('with default'),
      tup: z3.tuple([z3.string(), z3.number()]),
      du: z3.discriminatedUnion('k', [z3.object({ k: z3.literal('a'), x: z3.string() }), z3.object({ k: z3.literal('b') })]),
      any: z3.any(),
      date: z3.string().datetime().optional(),
      int: z3.number().int().positive(),
      d: z3.date().optional(),
      big: z3.bigint().optional(),
    },
    [
      {},
      { arr: [], obj: { a: 'x' }, nul: null, u: true, lit: 'y', s: 'a', num: 11, rec: { a: 'x' }, email: 'no', re: 'b', t: 5, tup: ['a'], du: { k: 'c' }, int: -1 },
      { arr: ['a'], obj: { a: 1, b: null }, nul: null, u: 1, lit: 'x', s: 'abc', num: 5, rec: { a: 1 }, email: 'a@b.co', re: 'aa', t: 'hello', tup: ['a', 1], du: { k: 'a', x: 'y' }, any: 1, int: 3 },
    ],
  ],
  empty_shape: [{}, [{}, { a: 1 }, undefined]],
  v4_object_schema: [z.object({ a: z.string() }).strict(), [{ a: 'x', b: 1 }, { a: 'x' }]],
  v3_object_schema: [z3.object({ a: z3.string() }).strict(), [{ a: 'x', b: 1 }, { a: 'x' }]],
  v4_non_object_schema: [z.object({ a: z.string() }).transform((o) => ({ ...o, extra: true })), [{ a: 'x' }, { a: 1 }]],
}

describe('zod input schemas: same JSON Schema and validation as the official SDK', () => {
  let server
  let listed
  before(async () => {
    server = await official(Object.entries(zodCases).map(([name, [schema]]) => recordingTool(name, schema)))
    listed = Object.fromEntries((await server.list()).map((t) => [t.name, t]))
  })

  for (const [name, [schema, argsList]] of Object.entries(zodCases)) {
    test(name, async () => {
      const compiled = compileInputSchema(name, schema)
      assert.equal(compiled.kind, name.startsWith('v3') ? 'zod3' : 'zod4')
      assert.equal(compiled.passArgs, true)
      // deep-equal and the same key order
      assert.deepEqual(compiled.jsonSchema, listed[name].inputSchema)
      assert.equal(JSON.stringify(compiled.jsonSchema), JSON.stringify(listed[name].inputSchema))
      assert.deepEqual(listed[name].execution, { taskSupport: 'forbidden' })
      for (const args of argsList) await assertSameValidation(server, name, compiled, args)
    })
  }

  test('the documented example lists exactly the expected schema', () => {
    assert.deepEqual(listed.v4_basic.inputSchema.$schema, 'http://json-schema.org/draft-07/schema#')
    assert.deepEqual(compileInputSchema('t', { name: z.string() }).jsonSchema, {
      $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { name: { type: 'string' } }, required: ['name'],
    })
  })
})

describe('input schema edge cases, against the official SDK', () => {
  test('no inputSchema: {type:object, properties:{}} and the handler gets only `extra`', async () => {
    const server = await official([recordingTool('none', undefined)])
    const [listedTool] = await server.list()
    const compiled = compileInputSchema('none', undefined)
    assert.equal(compiled.kind, 'none')
    assert.equal(compiled.passArgs, false)
    assert.deepEqual(compiled.jsonSchema, listedTool.inputSchema)
    const response = await server.call('none', { a: 1 })
    assert.equal(response.result.isError, undefined)
    assert.equal(seen.none.argc, 1) // handler(extra)
    assert.ok('signal' in seen.none.args)
    assert.deepEqual(await compiled.validate({ a: 1 }), { ok: true, value: undefined })
  })

  test('an unconvertible zod 4 schema: left out of tools/list, calls answer "Tool <name> disabled", same warning', async () => {
    const shape = { when: z.date() }
    let server
    let listedTools
    let response
    const warnings = await capturingWarnings(async () => {
      server = await official([recordingTool('dated', shape), recordingTool('fine', { a: z.string() })])
      listedTools = await server.list()
      response = await server.call('dated', { when: 'x' })
    })
    assert.deepEqual(listedTools.map((t) => t.name), ['fine'])
    const compiled = compileInputSchema('dated', shape)
    assert.equal(compiled.jsonSchema, undefined)
    const ours = await compiled.validate({ when: 'x' })
    assert.deepEqual(ours, { ok: false, message: response.result.content[0].text })
    assert.equal(ours.message, 'MCP error -32602: Tool dated disabled')

    assert.equal(warnings.length, 1)
    assert.equal(warnings[0].code, UNCONVERTIBLE_WARNING_CODE)
    const officialText = warnings[0].message
    // Exactly the official text, given the converter version the official names (its bundled zod)…
    const m = /its own zod (\d+)\.(\d+)\.(\d+)/.exec(officialText)
    const converter = m ? { major: +m[1], minor: +m[2], patch: +m[3] } : { ...z.string()._zod.version }
    const rebuilt = await capturingError(() => z.toJSONSchema(z.object(shape), { target: 'draft-7', io: 'input' }))
    assert.equal(unconvertibleWarning({ serverName: 'srv', toolName: 'dated', inputSchema: shape, error: rebuilt, converter }), officialText)
    // …and ours, naming our own converter, shares everything up to the version remark.
    const head = "The server's other tools are unaffected. Change this tool's schema so that every field can be converted."
    assert.ok(compiled.conversionWarning('srv').startsWith(officialText.slice(0, officialText.indexOf(head) + head.length)))
    assert.equal(compileInputSchema('fine', { a: z.string() }).conversionWarning('srv'), undefined)
  })

  test('a shape mixing zod 3 and zod 4 throws the official error', () => {
    const shape = { a: z.string(), b: z3.string() }
    assert.throws(() => createSdkMcpServer({ name: 'x', tools: [recordingTool('mixed', shape)] }), { message: 'Mixed Zod versions detected in object shape.' })
    assert.throws(() => compileInputSchema('mixed', shape), { message: 'Mixed Zod versions detected in object shape.' })
  })

  test('an object that is neither a shape nor JSON Schema throws the official error', () => {
    const bad = { a: 1 }
    const message = 'inputSchema must be a Zod schema or raw shape, received an unrecognized object'
    assert.throws(() => createSdkMcpServer({ name: 'x', tools: [recordingTool('bad', bad)] }), { message })
    assert.throws(() => compileInputSchema('bad', bad), { message })
  })

  test('a plain JSON Schema: the official throws, we accept it and list it as given', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }
    assert.throws(() => createSdkMcpServer({ name: 'x', tools: [recordingTool('j', schema)] }), {
      message: 'inputSchema must be a Zod schema or raw shape, received an unrecognized object',
    })
    const compiled = compileInputSchema('j', schema)
    assert.equal(compiled.kind, 'json')
    assert.equal(compiled.passArgs, true)
    assert.deepEqual(compiled.jsonSchema, schema)
    assert.notEqual(compiled.jsonSchema, schema) // a copy
  })
})

async function capturingError(fn) {
  try {
    await fn()
  } catch (err) {
    return err
  }
  throw new Error('expected a throw')
}

// --- JSON Schema input schemas --------------------------------------------------------------------
// Each JSON Schema is paired with the zod shape that means the same; our messages for the JSON
// Schema must equal the official's for the zod shape (same wording, zod 4's issue format).

const S = (properties, required = Object.keys(properties), extra = {}) => ({ type: 'object', properties, required, ...extra })

const jsonCases = [
  ['types', S({ s: { type: 'string' }, n: { type: 'number' }, i: { type: 'integer' }, b: { type: 'boolean' } }), { s: z.string(), n: z.number(), i: z.int(), b: z.boolean() },
    [{}, { s: 1, n: 'x', i: 1.5, b: 'true' }, { s: 'a', n: 1, i: 'x', b: false }, { s: 'a', n: 1.5, i: 2, b: true }, undefined]],
  ['enums', S({ e: { type: 'string', enum: ['a', 'b'] }, c: { const: 'x' }, n: { enum: [1, 2] } }), { e: z.enum(['a', 'b']), c: z.literal('x'), n: z.literal([1, 2]) },
    [{ e: 'c', c: 'y', n: 3 }, { e: 'a', c: 'x', n: 1 }, {}]],
  ['strings', S({ a: { type: 'string', minLength: 2 }, b: { type: 'string', maxLength: 3 }, p: { type: 'string', pattern: '^a+$' } }), { a: z.string().min(2), b: z.string().max(3), p: z.string().regex(/^a+$/) },
    [{ a: 'x', b: 'long', p: 'b' }, { a: 'xx', b: 'abc', p: 'aaa' }]],
  ['numbers', S({ a: { type: 'number', minimum: 1 }, b: { type: 'number', maximum: 3 }, c: { type: 'number', exclusiveMinimum: 0 }, d: { type: 'number', exclusiveMaximum: 10 }, m: { type: 'number', multipleOf: 0.5 } }),
    { a: z.number().min(1), b: z.number().max(3), c: z.number().gt(0), d: z.number().lt(10), m: z.number().multipleOf(0.5) },
    [{ a: 0, b: 4, c: 0, d: 10, m: 0.3 }, { a: 1, b: 3, c: 0.1, d: 9, m: 1.5 }]],
  ['arrays', S({ a: { type: 'array', items: { type: 'string' } }, b: { type: 'array', minItems: 1 }, c: { type: 'array', maxItems: 1 } }), { a: z.array(z.string()), b: z.array(z.any()).min(1), c: z.array(z.any()).max(1) },
    [{ a: ['x', 1], b: [], c: [1, 2] }, { a: 'x', b: {}, c: null }, { a: [], b: [1], c: [] }]],
  ['nested', S({ o: S({ x: { type: 'number' }, deep: S({ y: { type: 'string' } }) }) }), { o: z.object({ x: z.number(), deep: z.object({ y: z.string() }) }) },
    [{ o: { x: 'a', deep: { y: 1 } } }, { o: [] }, { o: { x: 1, deep: { y: 'q' } } }]],
  ['unions', S({ u: { anyOf: [{ type: 'string' }, { type: 'number' }] }, t: { type: ['string', 'number'] }, o: { anyOf: [{ type: 'string' }, S({ b: { type: 'number' } })] } }),
    { u: z.union([z.string(), z.number()]), t: z.union([z.string(), z.number()]), o: z.union([z.string(), z.object({ b: z.number() })]) },
    [{ u: true, t: true, o: { b: 'x' } }, { u: 'a', t: 1, o: 's' }]],
  ['nullable', S({ a: { type: ['string', 'null'] }, b: { type: 'string', nullable: true } }), { a: z.string().nullable(), b: z.string().nullable() },
    [{ a: null, b: null }, { a: 1, b: 2 }, {}]],
  ['defaults', S({ n: { type: 'number', default: 3 }, s: { type: 'string' } }, ['s']), { n: z.number().default(3), s: z.string() },
    [{ s: 'x' }, { s: 'x', n: 5 }, { n: 1 }]],
  ['optional', S({ o: { type: 'string' }, r: { type: 'string' } }, ['r']), { o: z.string().optional(), r: z.string() },
    [{}, { r: 'x' }, { r: 'x', o: 1 }]],
  ['oneof', S({ x: { oneOf: [{ type: 'number' }, { type: 'integer' }] } }), { x: z.xor([z.number(), z.int()]) },
    [{ x: 1 }, { x: 1.5 }, { x: 'a' }]],
]

describe('JSON Schema input schemas: messages as the official gives for the equivalent zod shape', () => {
  let server
  before(async () => {
    server = await official([
      ...jsonCases.map(([name, , shape]) => recordingTool(name, shape)),
      recordingTool('strict', z.object({ a: z.string() }).strict()),
    ])
  })

  for (const [name, jsonSchema, , argsList] of jsonCases) {
    test(name, async () => {
      const compiled = compileInputSchema(name, jsonSchema)
      assert.equal(compiled.kind, 'json')
      for (const args of argsList) await assertSameValidation(server, name, compiled, args)
    })
  }

  test('additionalProperties: false reports unrecognized keys like .strict()', async () => {
    const compiled = compileInputSchema('strict', S({ a: { type: 'string' } }, ['a'], { additionalProperties: false }))
    for (const args of [{ a: 1, b: 1, c: 2 }, { a: 'x', b: 1 }, { a: 'x' }]) await assertSameValidation(server, 'strict', compiled, args)
  })
})

describe('JSON Schema input schemas: our own rules', () => {
  test('type "object" is added when missing; another top-level type is refused', () => {
    assert.deepEqual(compileInputSchema('t', { properties: { a: { type: 'string' } } }).jsonSchema, { type: 'object', properties: { a: { type: 'string' } } })
    assert.throws(() => compileInputSchema('t', { type: 'string' }), TypeError)
    assert.throws(() => compileInputSchema('t', { type: 'object', required: 'a' }), TypeError)
    assert.throws(() => compileInputSchema('t', { type: 'object', properties: { a: { $ref: '#/nope' } } }), TypeError)
  })

  test('unlisted properties are kept (JSON Schema allows them unless additionalProperties is false)', async () => {
    const c = compileInputSchema('keep', S({ a: { type: 'string' } }))
    assert.deepEqual(await c.validate({ a: 'x', extra: 1 }), { ok: true, value: { a: 'x', extra: 1 } })
  })

  test('the message names the offending field path', async () => {
    const c = compileInputSchema('deep', S({ list: { type: 'array', items: S({ id: { type: 'integer', minimum: 1 } }) } }))
    const r = await c.validate({ list: [{ id: 1 }, { id: 0 }] })
    assert.equal(r.ok, false)
    assert.ok(r.message.startsWith('MCP error -32602: Input validation error: Invalid arguments for tool deep: ['))
    const issues = JSON.parse(r.message.slice(r.message.indexOf('[')))
    assert.deepEqual(issues, [{ origin: 'number', code: 'too_small', minimum: 1, inclusive: true, path: ['list', 1, 'id'], message: 'Too small: expected number to be >=1' }])
  })

  test('defaults are filled (nested too) without touching the input; $ref and allOf work', async () => {
    const c = compileInputSchema('d', {
      type: 'object',
      $defs: { opts: { type: 'object', properties: { depth: { type: 'integer', default: 2 } } } },
      properties: { q: { type: 'string' }, opts: { $ref: '#/$defs/opts' }, tags: { type: 'array', default: [] }, n: { allOf: [{ type: 'number' }, { minimum: 0 }] } },
      required: ['q'],
    })
    const input = { q: 'x', opts: {} }
    assert.deepEqual(await c.validate(input), { ok: true, value: { q: 'x', opts: { depth: 2 }, tags: [] } })
    assert.deepEqual(input, { q: 'x', opts: {} })
    const bad = await c.validate({ q: 'x', n: -1 })
    assert.equal(bad.ok, false)
    assert.match(bad.message, /"path": \[\n\s+"n"\n\s+\]/)
  })
})

// --- handler results and throws -------------------------------------------------------------------

const png = 'iVBORw0KGgo='
const resultCases = {
  undefined: () => undefined,
  null: () => null,
  string: () => 'hello',
  number: () => 42,
  array: () => [1],
  emptyObject: () => ({}),
  noContent: () => ({ foo: 1 }),
  contentAndIsError: () => ({ content: [{ type: 'text', text: 'x' }], isError: true }),
  extraKeys: () => ({ content: [{ type: 'text', text: 'x', extra: 1 }], foo: 2, _meta: { a: 1 }, structuredContent: { b: 2 } }),
  contentNotArray: () => ({ content: 'x' }),
  textWithoutText: () => ({ content: [{ type: 'text' }] }),
  unknownBlockType: () => ({ content: [{ type: 'weird', text: 'x' }] }),
  isErrorOnly: () => ({ isError: true }),
  emptyContent: () => ({ content: [] }),
  reordered: () => ({ isError: false, content: [{ text: 'a', type: 'text' }] }),
  image: () => ({ content: [{ type: 'image', data: png, mimeType: 'image/png' }] }),
  badBase64: () => ({ content: [{ type: 'image', data: '!!!', mimeType: 'image/png' }] }),
  isErrorString: () => ({ content: [{ type: 'text', text: 'x' }], isError: 'yes' }),
  annotations: () => ({ content: [{ type: 'text', text: 'x', annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-01T00:00Z' }, _meta: { k: 1 } }] }),
  badAnnotations: () => ({ content: [{ type: 'text', text: 'x', annotations: { priority: 2, lastModified: 'yesterday' } }] }),
  resourceLink: () => ({ content: [{ type: 'resource_link', uri: 'file:///x', name: 'x', extra: 1, icons: [{ src: 'a' }] }] }),
  embedded: () => ({ content: [{ type: 'resource', resource: { uri: 'file:///x', text: 'hi', zzz: 1 } }, { type: 'resource', resource: { uri: 'u', blob: png } }] }),
  structured: () => ({ content: [], structuredContent: { a: [1, { b: 2 }] } }),
  structuredArray: () => ({ content: [], structuredContent: [1] }),
  badMeta: () => ({ _meta: { progressToken: 1.5 }, content: [] }),
  meta: () => ({ content: [], _meta: { progressToken: 'x', other: 1 } }),
  task: () => ({ task: { taskId: 'x' } }),
  classInstance: () => new (class Result { constructor() { this.content = [{ type: 'text', text: 'c' }] } })(),
}

const throwCases = {
  throwError: () => { throw new Error('boom') },
  throwString: () => { throw 'str' }, // eslint-disable-line no-throw-literal
  rejectError: () => Promise.reject(new Error('rej')),
  rejectObject: () => Promise.reject({ a: 1 }), // eslint-disable-line prefer-promise-reject-errors
  rejectUndefined: () => Promise.reject(undefined), // eslint-disable-line prefer-promise-reject-errors
  rejectString: () => Promise.reject('rs'), // eslint-disable-line prefer-promise-reject-errors
  throwNumber: () => { throw 42 }, // eslint-disable-line no-throw-literal
  throwNull: () => { throw null }, // eslint-disable-line no-throw-literal
  throwErrorNoMessage: () => { throw new Error() },
  throwObjectWithMessage: () => { throw { message: 'objmsg' } }, // eslint-disable-line no-throw-literal
  throwTypeError: () => { throw new TypeError('bad type') },
  throwSymbol: () => { throw Symbol('s') },
}

describe('handler results and throws, as the official server sends them', () => {
  let server
  before(async () => {
    server = await official([
      ...Object.entries(resultCases).map(([name, make]) => tool(name, 'd', {}, async () => make())),
      ...Object.entries(throwCases).map(([name, make]) => tool(name, 'd', {}, async () => make())),
    ])
  })

  for (const [name, make] of Object.entries(resultCases)) {
    test(`normalizeToolResult: ${name}`, async () => {
      const response = await server.call(name, {})
      const value = make()
      if (response.result) {
        const ours = normalizeToolResult(value)
        assert.deepEqual(json(ours), response.result)
        assert.equal(JSON.stringify(ours), JSON.stringify(response.result)) // same key order
      } else {
        const err = capturingErrorSync(() => normalizeToolResult(value))
        assert.ok(err instanceof InvalidToolResultError)
        assert.deepEqual(err.toJsonRpcError(), response.error)
        assert.equal(err.message, response.error.message)
        assert.equal(err.code, -32602)
      }
    })
  }

  test('a well-formed {content, isError} passes through as the same object', () => {
    for (const value of [
      { content: [{ type: 'text', text: 'x' }], isError: true },
      { content: [{ type: 'text', text: 'x' }] },
      { content: [] },
      { content: [{ type: 'image', data: png, mimeType: 'image/png' }], structuredContent: { a: 1 }, isError: false },
    ]) {
      const copy = structuredClone(value)
      assert.equal(normalizeToolResult(value), value)
      assert.deepEqual(value, copy)
    }
  })

  for (const [name, make] of Object.entries(throwCases)) {
    test(`errorResultFromThrow: ${name}`, async () => {
      const response = await server.call(name, {})
      let thrown
      try {
        await make()
      } catch (err) {
        thrown = err
      }
      assert.deepEqual(errorResultFromThrow(thrown), response.result)
    })
  }
})

function capturingErrorSync(fn) {
  try {
    fn()
  } catch (err) {
    return err
  }
  throw new Error('expected a throw')
}

// --- import cost ----------------------------------------------------------------------------------

test('a zod tool compiled again (a server per query) shares its compilation, until its shape changes', async () => {
  const shape = { text: z.string() }
  const first = compileInputSchema('echo', shape)
  assert.equal(compileInputSchema('echo', shape), first)
  assert.notEqual(compileInputSchema('other', shape), first, 'per tool name (its messages name the tool)')
  const object = z.object({ n: z.number() })
  assert.equal(compileInputSchema('obj', object), compileInputSchema('obj', object))
  assert.deepEqual(await first.validate({ text: 'a' }), { ok: true, value: { text: 'a' } })
  shape.count = z.number()
  const changed = compileInputSchema('echo', shape)
  assert.notEqual(changed, first)
  assert.deepEqual(changed.jsonSchema.required, ['text', 'count'])
  assert.equal((await changed.validate({ text: 'a' })).ok, false)
  assert.equal(compileInputSchema('echo', shape), changed)
  // Servers made from one tool list it alike and call it alike.
  const { createSdkMcpServer: ours, tool: ourTool } = require('..')
  const t = ourTool('echo', 'Echo', { text: z.string() }, async (a) => ({ content: [{ type: 'text', text: a.text }] }))
  const [a, b] = [ours({ name: 's', tools: [t] }), ours({ name: 's', tools: [t] })]
  assert.deepEqual(a.instance.listTools(), b.instance.listTools())
  assert.equal(a.instance.native().manifest(), b.instance.native().manifest())
})

test('requiring lib/schema loads no zod; neither do JSON Schema tools, results and throws', () => {
  const script = `
    const loaded = () => Object.keys(require.cache).filter((k) => /node_modules[\\\\/](zod|zod-to-json-schema)[\\\\/]/.test(k)).length
    const s = require('./lib/schema')
    const atImport = loaded()
    const fakeZod4 = { _zod: { def: { type: 'string' } }, parse() {}, safeParse() {} }
    const kinds = [s.compileInputSchema('z', { a: fakeZod4 }).kind, s.compileInputSchema('n', undefined).kind]
    const j = s.compileInputSchema('j', { type: 'object', properties: { a: { type: 'string' } } })
    j.validate({ a: 'x' }).then((r) => {
      s.errorResultFromThrow(new Error('x'))
      s.normalizeToolResult({ content: [{ type: 'text', text: 'x' }] })
      console.log(JSON.stringify({ atImport, after: loaded(), kinds, ok: r.ok }))
    })`
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' }))
  assert.deepEqual(out, { atImport: 0, after: 0, kinds: ['zod4', 'none'], ok: true })
})
