// lib/schema/zod-twin: which zod schemas get a plain JSON Schema twin for the engine's argument
// check, and the promise that lets a call skip zod: arguments the twin accepts (checked here by
// the JS validator, which accepts everything the engine's check accepts and more) and that come
// in shape order are exactly what zod's safeParse returns for them.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import * as zm from 'zod/mini'

const require = createRequire(import.meta.url)
const { plainTwin, inShapeOrder } = require('../lib/schema/zod-twin')
const { JsonSchemaValidator } = require('../lib/schema/json-schema')
const { compileInputSchema } = require('../lib/schema')

const twin4 = (shape) => plainTwin(z.object(shape), 'zod4')
const twin3 = (shape) => plainTwin(z3.object(shape), 'zod3')

test('plain shapes have a twin: scalars, enums, literals, arrays, optional and nullable (zod 4, zod mini, zod 3)', () => {
  const t = twin4({ a: z.string(), b: z.number().optional(), c: z.enum(['x', 'y']).nullable(), d: z.array(z.boolean()), e: z.literal(3), f: z.null(), g: z.array(z.string().nullable()).optional().nullable() })
  assert.deepEqual(t.jsonSchema, {
    type: 'object',
    properties: {
      a: { type: 'string' }, b: { type: 'number' }, c: { enum: ['x', 'y'], nullable: true }, d: { type: 'array', items: { type: 'boolean' } },
      e: { enum: [3] }, f: { type: 'null' }, g: { type: 'array', items: { type: 'string', nullable: true }, nullable: true },
    },
    required: ['a', 'c', 'd', 'e', 'f'],
    additionalProperties: false,
  })
  assert.deepEqual([...t.order.keys.keys()], ['a', 'b', 'c', 'd', 'e', 'f', 'g'])
  // Objects within objects and arrays of objects: each object says additionalProperties false.
  const nested = twin4({ o: z.object({ x: z.string(), y: z.array(z.object({ k: z.number() })).optional() }).nullable() })
  assert.deepEqual(nested.jsonSchema.properties.o, {
    type: 'object',
    properties: { x: { type: 'string' }, y: { type: 'array', items: { type: 'object', properties: { k: { type: 'number' } }, required: ['k'], additionalProperties: false } } },
    required: ['x'],
    additionalProperties: false,
    nullable: true,
  })
  assert.equal(inShapeOrder({ o: { x: 's', y: [{ k: 1 }] } }, nested.order), true)
  assert.equal(inShapeOrder({ o: { y: [], x: 's' } }, nested.order), false, 'a nested object out of order')
  assert.equal(inShapeOrder({ o: null }, nested.order), true)
  assert.ok(twin3({ o: z3.object({ x: z3.string() }) }), 'zod 3 nested objects')
  assert.deepEqual(plainTwin(zm.object({ a: zm.string(), b: zm.optional(zm.number()) }), 'zod4').jsonSchema.required, ['a'])
  assert.deepEqual(plainTwin(z.strictObject({ a: z.string() }), 'zod4').jsonSchema.properties, { a: { type: 'string' } })
  const t3 = twin3({ a: z3.string(), b: z3.number().optional(), c: z3.enum(['x', 'y']).nullable(), d: z3.array(z3.boolean()), e: z3.literal('k') })
  assert.deepEqual(t3.jsonSchema.required, ['a', 'c', 'd', 'e'])
  assert.deepEqual(t3.jsonSchema.properties.e, { enum: ['k'] })
  // Descriptions (the usual way to document a field) and metadata change nothing zod checks.
  assert.deepEqual(twin4({ a: z.string().describe('the a'), b: z.number().optional().describe('the b'), c: z.string().meta({ title: 'C' }) }).jsonSchema.required, ['a', 'c'])
  assert.deepEqual(twin3({ a: z3.string().describe('the a'), b: z3.number().optional().describe('the b') }).jsonSchema.required, ['a'])
  assert.deepEqual(twin4({}).jsonSchema, { type: 'object', properties: {}, required: [], additionalProperties: false })
})

test('anything zod could change, word differently or check beyond JSON Schema has no twin', () => {
  const none4 = {
    'a check': { a: z.string().min(1) },
    'an int': { a: z.int() },
    'a number check': { a: z.number().int() },
    'a format': { a: z.email() },
    coercion: { a: z.coerce.number() },
    'a default': { a: z.string().default('x') },
    'a transform': { a: z.string().transform((s) => s.length) },
    'a refinement': { a: z.string().refine((s) => s !== 'x') },
    'a nested object with a check': { a: z.object({ b: z.string().min(1) }) },
    'a nested loose object': { a: z.looseObject({ b: z.string() }) },
    'a union': { a: z.union([z.string(), z.number()]) },
    'an array check': { a: z.array(z.string()).min(1) },
    'nested arrays': { a: z.array(z.array(z.string())) },
    'optional array items': { a: z.array(z.string().optional()) },
    'a numeric enum': { a: z.enum({ A: 1, B: 2 }) },
    'a bigint literal': { a: z.literal(1n) },
    'a catch': { a: z.string().catch('x') },
    'any': { a: z.any() },
    'a record': { a: z.record(z.string(), z.string()) },
    '__proto__ key': Object.defineProperty({}, '__proto__', { value: z.string(), enumerable: true, configurable: true, writable: true }),
  }
  for (const [what, shape] of Object.entries(none4)) assert.equal(twin4(shape), null, what)
  assert.equal(plainTwin(z.looseObject({ a: z.string() }), 'zod4'), null, 'unknown keys kept')
  assert.equal(plainTwin(z.object({ a: z.string() }).catchall(z.string()), 'zod4'), null, 'a catchall')
  assert.equal(plainTwin(z.object({ a: z.string() }).refine(() => true), 'zod4'), null, 'an object refinement')
  assert.equal(plainTwin(z.string(), 'zod4'), null, 'not an object')
  // A recursive schema (getters) has none: it is deeper than any twin goes.
  const Node = z.object({ name: z.string(), get children() { return z.array(Node) } })
  assert.equal(plainTwin(Node, 'zod4'), null, 'recursive')
  assert.equal(plainTwin(undefined, 'zod4'), null, 'no object schema')
  const none3 = {
    'a check': { a: z3.string().min(1) },
    'an int': { a: z3.number().int() },
    'a default': { a: z3.string().default('x') },
    'a transform': { a: z3.string().transform((s) => s.length) },
    'a nested passthrough object': { a: z3.object({ b: z3.string() }).passthrough() },
    'an array check': { a: z3.array(z3.string()).nonempty() },
    coercion: { a: z3.coerce.string() },
  }
  for (const [what, shape] of Object.entries(none3)) assert.equal(twin3(shape), null, what)
  assert.equal(plainTwin(z3.object({ a: z3.string() }).passthrough(), 'zod3'), null, 'passthrough')
  assert.equal(plainTwin(z3.object({ a: z3.string() }).strict(), 'zod3') !== null, true, 'strict keeps a twin')
})

/** A small deterministic generator (xorshift). */
function rng(seed) {
  let x = seed
  return () => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5
    return ((x >>> 0) % 1000) / 1000
  }
}

test('arguments the twin accepts, in shape order, are exactly what zod returns (zod 4 and zod 3, generated cases)', async () => {
  const r = rng(12345)
  const pick = (xs) => xs[Math.floor(r() * xs.length)]
  const values = ['s', '', 'ünï', 0, -1.5, 7, true, false, null, [], ['a', 'b'], [1, 2], [true, null], { x: 1 }, 'x', 'y', 3,
    { x: 's' }, { x: 's', y: 1 }, { y: 1, x: 's' }, { x: 's', z: 1 }, [{ x: 's' }, { x: 't', y: 2 }], [{ y: 2, x: 't' }], [{ x: 's', q: 0 }]]
  const kinds4 = [() => z.string(), () => z.number(), () => z.boolean(), () => z.null(), () => z.enum(['x', 'y']), () => z.literal(3), () => z.array(z.string()), () => z.array(z.number().nullable()),
    () => z.object({ x: z.string(), y: z.number().optional() }), () => z.array(z.object({ x: z.string(), y: z.number().optional() }))]
  const kinds3 = [() => z3.string(), () => z3.number(), () => z3.boolean(), () => z3.null(), () => z3.enum(['x', 'y']), () => z3.literal(3), () => z3.array(z3.string()), () => z3.array(z3.number().nullable()),
    () => z3.object({ x: z3.string(), y: z3.number().optional() }), () => z3.array(z3.object({ x: z3.string(), y: z3.number().optional() }))]
  let trusted = 0
  let checked = 0
  for (const [zz, kinds, kind] of [[z, kinds4, 'zod4'], [z3, kinds3, 'zod3']]) {
    for (let i = 0; i < 150; i++) {
      const shape = {}
      const keys = ['k1', 'k2', 'k3', 'k4'].slice(0, 1 + Math.floor(r() * 4))
      for (const k of keys) {
        let f = pick(kinds)()
        if (r() < 0.3) f = f.optional()
        if (r() < 0.3) f = f.nullable()
        shape[k] = f
      }
      const schema = zz.object(shape)
      const t = plainTwin(schema, kind)
      assert.ok(t, `a twin for ${Object.keys(shape)}`)
      const validator = new JsonSchemaValidator(t.jsonSchema)
      for (let j = 0; j < 30; j++) {
        const args = {}
        const order = r() < 0.7 ? keys : [...keys].reverse()
        for (const k of order) if (r() < 0.85) args[k] = pick(values)
        if (r() < 0.1) args.extra = 1
        const argsCopy = JSON.parse(JSON.stringify(args))
        checked++
        if (!validator.validate(args).ok || !inShapeOrder(args, t.order)) continue
        trusted++
        const out = await schema.safeParseAsync(args)
        assert.ok(out.success, `zod accepts ${JSON.stringify(args)}`)
        assert.equal(JSON.stringify(out.data), JSON.stringify(args), 'same keys, same order, same values')
        assert.deepEqual(out.data, argsCopy)
      }
    }
  }
  assert.ok(trusted > 200 && trusted < checked, `${trusted} of ${checked} argument sets trusted`)
})

test('a compiled zod tool offers its twin to the engine and trusts only arguments in shape order', () => {
  const s = compileInputSchema('t', { a: z.string(), b: z.number().optional() })
  assert.deepEqual(s.argsCheck.required, ['a'])
  assert.equal(s.trusts({ a: 'x', b: 1 }), true)
  assert.equal(s.trusts({ b: 1, a: 'x' }), false)
  assert.equal(compileInputSchema('t', { a: z.string().min(2) }).argsCheck, undefined)
  assert.equal(compileInputSchema('t', { a: z.string().min(2) }).trusts({ a: 'xy' }), false)
  const json = compileInputSchema('t', { type: 'object', properties: { a: { type: 'string' } } })
  assert.equal(json.argsCheck, json.jsonSchema)
  assert.equal(compileInputSchema('t', undefined).argsCheck, undefined)
})
