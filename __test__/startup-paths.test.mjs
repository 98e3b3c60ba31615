// What the first query loads: no second copy of zod beside the app's, and the engine's binary
// chosen without the process report (which costs a first query ≈ 5 ms). Timings themselves are
// measured by `npm run bench`, never here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const native = require('../lib/native.js')
const zodLoader = require('../lib/schema/zod-loader.js')

/** A minimal ELF header followed by an interpreter path, as the loader string sits in a binary. */
function fakeElf(dir, name, interp) {
  const file = path.join(dir, name)
  const head = Buffer.alloc(1024)
  head.write('\x7fELF', 0, 'latin1')
  if (interp) head.write(interp + '\0', 0x238, 'latin1')
  fs.writeFileSync(file, head)
  return file
}

test('the loader an executable names tells musl from glibc', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'elf-'))
  try {
    assert.equal(native.elfInterpreter(fakeElf(dir, 'musl', '/lib/ld-musl-aarch64.so.1')), '/lib/ld-musl-aarch64.so.1')
    assert.equal(native.elfInterpreter(fakeElf(dir, 'gnu', '/lib64/ld-linux-x86-64.so.2')), '/lib64/ld-linux-x86-64.so.2')
    assert.equal(native.elfInterpreter(fakeElf(dir, 'static', null)), undefined)
    fs.writeFileSync(path.join(dir, 'script'), '#!/bin/sh\n# /lib/ld-musl-x86_64.so.1\n')
    assert.equal(native.elfInterpreter(path.join(dir, 'script')), undefined, 'not ELF')
    assert.equal(native.elfInterpreter(path.join(dir, 'absent')), undefined)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  if (process.platform === 'linux' && !process.versions.bun) {
    const own = native.elfInterpreter(process.execPath)
    // Decided without the process report (whether or not musl is installed beside glibc).
    const getReport = process.report.getReport
    let reports = 0
    process.report.getReport = function (...args) { reports++; return getReport.apply(this, args) }
    try {
      if (own) assert.equal(native.isMusl(), own.includes('musl'))
    } finally {
      process.report.getReport = getReport
    }
    assert.equal(reports, 0)
  }
})

test('a tool whose listing needs zod is compiled with the app\'s own classic zod module (no second zod graph)', async () => {
  const { z } = await import('zod')
  const { createSdkMcpServer, tool } = await import('claude-agent-sdk-native')
  assert.equal(zodLoader.flavourOf({ text: z.string() }), 'classic')
  // A transform: its field cannot be listed on its own (see shapeJsonSchemaByField), so zod loads.
  const shape = { text: z.string().transform((s) => s.trim()) }
  assert.equal(require('../lib/schema').compileInputSchema('echo', shape).convertsWithoutZod(), false)
  createSdkMcpServer({ name: 'startup-paths', tools: [tool('echo', 'Echo', shape, async (a) => ({ content: [{ type: 'text', text: a.text }] }))] })
  await zodLoader.pendingPreload()
  const used = zodLoader.loadZod4(undefined, 'classic')
  const root = await import('zod')
  assert.equal(used.object, root.object, 'object() comes from the module the app imported')
  assert.equal(used.core, root.core)
})

test('a plain zod shape is listed without loading any zod module, as zod lists it, and still validated by zod', async () => {
  const { z } = await import('zod')
  const { createSdkMcpServer, tool } = await import('claude-agent-sdk-native')
  const { compileInputSchema } = require('../lib/schema')
  const shape = { text: z.string().describe('what to echo'), times: z.number().int().min(1).optional(), mode: z.enum(['a', 'b']).nullable() }
  createSdkMcpServer({ name: 'startup-paths-plain', tools: [tool('echo', 'Echo', shape, async () => ({ content: [] }))] })
  assert.equal(zodLoader.pendingPreload(), null, 'nothing loads ahead: the first query waits for no zod')
  const compiled = compileInputSchema('echo', shape)
  assert.equal(compiled.convertsWithoutZod(), true)
  assert.equal(JSON.stringify(compiled.jsonSchema), JSON.stringify(z.toJSONSchema(z.object(shape), { target: 'draft-7', io: 'input' })))
  // Arguments zod must check still get zod's own answer (zod loads as ESM for the first of them).
  const bad = await compiled.validate({ text: 'x', times: 0, mode: null })
  assert.equal(bad.ok, false)
  assert.match(bad.message, /times/)
  assert.deepEqual(await compiled.validate({ text: 'x', mode: 'a' }), { ok: true, value: { text: 'x', mode: 'a' } })
})

test('field by field, a shape is listed exactly as zod lists the whole object, or left to zod (generated shapes)', async () => {
  const { z } = await import('zod')
  const mini = await import('zod/v4/mini')
  const { shapeJsonSchemaByField, prepareShape } = require('../lib/schema/zod4')
  const Tree = z.object({ name: z.string(), get children() { return z.array(Tree) } })
  const Shared = z.string().meta({ id: 'SharedId' })
  const fields = [
    () => z.string(), () => z.number(), () => z.boolean(), () => z.null(), () => z.int(), () => z.email(), () => z.url(), () => z.uuid(),
    () => z.string().min(2).max(9), () => z.string().regex(/^a+$/), () => z.number().int().positive(), () => z.number().gte(0).lt(10),
    () => z.enum(['x', 'y']), () => z.literal('k'), () => z.literal(3), () => z.literal(true), () => z.literal(null), () => z.literal(['a', 1]),
    () => z.array(z.string()).min(1), () => z.array(z.object({ a: z.string(), b: z.number().optional() })), () => z.tuple([z.string(), z.number()]),
    () => z.object({ a: z.string().describe('inner') }), () => z.strictObject({ a: z.string() }), () => z.looseObject({ a: z.string() }),
    () => z.union([z.string(), z.number()]), () => z.discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b'), n: z.number() })]),
    () => z.record(z.string(), z.number()), () => z.any(), () => z.unknown(), () => z.date(), () => z.bigint(), () => z.string().default('d'),
    () => z.number().default(1).optional(), () => z.string().optional().default('x'), () => z.string().transform((s) => s.length), () => z.string().catch('c'),
    () => z.string().pipe(z.string().min(1)), () => z.string().meta({ title: 'T', examples: ['e'] }), () => Shared, () => Tree, () => z.lazy(() => z.string()),
    () => z.string().describe('described'), () => z.string().optional().describe('described optional'), () => z.string().nullable().optional(),
    () => z.string().readonly(), () => z.nan(), () => z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    () => z.templateLiteral(['a', z.number()]), () => z.stringbool(), () => z.iso.datetime(), () => z.map(z.string(), z.string()),
  ]
  let seed = 7
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
  let direct = 0
  let total = 0
  for (let i = 0; i < 400; i++) {
    const shape = {}
    for (const key of ['a', 'b', 'c'].slice(0, 1 + Math.floor(rand() * 3))) {
      let f = fields[Math.floor(rand() * fields.length)]()
      if (rand() < 0.25) f = f.optional()
      if (rand() < 0.2) f = f.nullable()
      if (rand() < 0.15) f = f.describe(`field ${key}`)
      shape[key] = f
    }
    let whole
    try {
      whole = JSON.stringify(z.toJSONSchema(z.object(prepareShape(shape, z.globalRegistry)), { target: 'draft-7', io: 'input' }))
    } catch {
      whole = undefined
    }
    const byField = shapeJsonSchemaByField(shape)
    total++
    if (byField === undefined) continue
    direct++
    assert.equal(JSON.stringify(byField), whole, `shape ${Object.entries(shape).map(([k, v]) => `${k}: ${v._zod.def.type}`).join(', ')}`)
  }
  assert.ok(direct > total / 3, `${direct} of ${total} shapes listed field by field`)
  assert.equal(shapeJsonSchemaByField({}), undefined, 'no fields: zod')
  assert.equal(shapeJsonSchemaByField({ a: mini.string() }), undefined, 'zod mini has no toJSONSchema() method: zod')
  assert.equal(shapeJsonSchemaByField({ a: Tree }), undefined, 'a recursive field refers to itself: zod')
  assert.equal(shapeJsonSchemaByField({ a: Shared }), undefined, 'a field with an id becomes a definition: zod')
})

test('a tool made with zod mini is compiled with zod mini', async () => {
  const mini = await import('zod/v4/mini')
  assert.equal(zodLoader.flavourOf({ n: mini.number() }), 'mini')
  assert.equal(zodLoader.flavourOf(mini.object({ n: mini.number() })), 'mini')
  assert.equal(zodLoader.flavourOf({}), 'classic')
})
