// One option model: the option keys of the typings (types/options.d.ts), of the official SDK's
// Options type, of the engine (agent_core::options::QueryOptions, whose every field
// crates/agent-core/src/options/mapping.rs checks reaches the CLI) and of the JS host
// (lib/option-keys.js) agree. An option added in one place and not the others fails here.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const keys = require('../lib/option-keys.js')
const { splitOptions } = require('../lib/options.js')

/** The top-level keys of `<head> {...}` in a .d.ts (members indented by `indent` spaces, the block closed in column 0). */
function typeKeys(file, head, indent) {
  const text = fs.readFileSync(file, 'utf8')
  const start = text.indexOf(head)
  assert.ok(start >= 0, `${head} in ${file}`)
  const end = text.indexOf('\n}', start)
  const body = text.slice(start, end)
  const re = new RegExp(`^ {${indent}}([A-Za-z_$][\\w$]*)\\??:`, 'gm')
  return new Set([...body.matchAll(re)].map((m) => m[1]))
}

const ours = typeKeys(new URL('../types/options.d.ts', import.meta.url), 'export type Options = {', 2)
const official = typeKeys(new URL('../node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts', import.meta.url), 'export declare type Options = {', 4)
const engine = new Set(keys.engineKeys())
const host = new Set(keys.HOST)
const untyped = new Set([...keys.OFFICIAL_UNTYPED, ...keys.OURS])
const minus = (a, b) => [...a].filter((k) => !b.has(k)).sort()

test('the typings name every option of the official Options type, and no other', () => {
  assert.ok(official.size > 60, `read ${official.size} official keys`)
  assert.deepEqual(minus(official, ours), [], 'official options missing from types/options.d.ts')
  assert.deepEqual(minus(ours, new Set([...official, ...keys.OURS])), [], 'options in types/options.d.ts the official does not have (nor are ours)')
})

test('every engine option is typed (or listed as read-but-untyped by the official, or ours)', () => {
  assert.ok(engine.size > 60, `the engine names ${engine.size} options`)
  assert.deepEqual(minus(engine, new Set([...ours, ...untyped, ...keys.DERIVED])), [],
    'engine options (agent_core::options::QueryOptions) missing from types/options.d.ts')
  assert.deepEqual(minus(new Set([...ours, ...untyped]), new Set([...engine, ...host])), [],
    'typed options that neither the engine nor the JS host takes')
})

test('the JS host handles only options that exist, and the rest cross to the engine as given', () => {
  assert.deepEqual(minus(host, new Set([...ours, ...untyped])), [], 'HOST keys that are no option')
  assert.deepEqual(minus(new Set(keys.OURS), engine), [], 'our own options are engine options')
  for (const key of keys.dataKeys()) {
    const value = { sentinel: key }
    const { data } = splitOptions({ [key]: value, env: {} })
    assert.equal(data[key], value, `${key} crosses as given`)
  }
  for (const key of keys.knownKeys()) assert.ok(engine.has(key) || host.has(key), key)
})
