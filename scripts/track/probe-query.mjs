#!/usr/bin/env node
// Child process of scripts/track.mjs: runs one package's query() against the fake claude CLI and
// prints, as JSON on stdout, the option keys query() read and the environment the CLI was given.
//
//   node scripts/track/probe-query.mjs <entry file> <scratch dir> [<JSON array of more key names>]
//
// The options object is a Proxy over { pathToClaudeCodeExecutable }: every property read (get,
// `in`, getOwnPropertyDescriptor) of a string key is recorded, for the whole run. A copy of it
// (`{ ...options }`, or the rest of a destructuring, as the official's query() makes) is a plain
// object the Proxy does not see: for the candidate names (the keys destructured from such a rest in
// the entry's source, and the names given), a getter on Object.prototype records reads of a missing
// key on any object holding our pathToClaudeCodeExecutable. The caller starts this process with a
// small fixed environment, so what the CLI's environment adds or changes is what the SDK supplies.
import fs from 'node:fs'
import { pathToFileURL } from 'node:url'
import { writeFakeCli, readFakeCliRecord } from '../fake-cli.mjs'
import { keysDestructuredFromRests } from './rest-keys.mjs'

const [entry, dir, more = '[]'] = process.argv.slice(2)
const cli = writeFakeCli(dir, { actions: [] })
const read = new Set()
const target = { pathToClaudeCodeExecutable: cli }
const note = (key) => { if (typeof key === 'string') read.add(key) }
const options = new Proxy(target, {
  get(t, key, receiver) { note(key); return Reflect.get(t, key, receiver) },
  has(t, key) { note(key); return Reflect.has(t, key) },
  getOwnPropertyDescriptor(t, key) { note(key); return Reflect.getOwnPropertyDescriptor(t, key) },
})

const candidates = new Set([...keysDestructuredFromRests(fs.readFileSync(entry, 'utf8')), ...JSON.parse(more)])

// Names whose presence on every object would change what the language or common code does.
const UNSAFE = new Set(['get', 'set', 'value', 'writable', 'enumerable', 'configurable', 'then', 'length', 'name', 'prototype', 'toJSON', 'type'])
for (const name of candidates) {
  if (name in Object.prototype || UNSAFE.has(name)) continue
  Object.defineProperty(Object.prototype, name, {
    configurable: true,
    enumerable: false,
    get() {
      if (this !== target && Object.prototype.hasOwnProperty.call(this, 'pathToClaudeCodeExecutable') && this.pathToClaudeCodeExecutable === cli) note(name)
      return undefined
    },
    set(value) {
      Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true })
    },
  })
}

const result = { optionKeysRead: [], env: null, error: null }
try {
  const mod = await import(pathToFileURL(entry).href)
  const q = mod.query({ prompt: 'track probe', options })
  const timer = setTimeout(() => { result.error = 'query() did not finish within 20 s'; q.return?.() }, 20000)
  try {
    for await (const m of q) if (m.type === 'result') break
  } finally {
    clearTimeout(timer)
  }
} catch (err) {
  result.error = String(err?.stack ?? err)
}
const start = readFakeCliRecord(dir).find((r) => r.kind === 'start')
result.env = start ? start.data.env : null
result.optionKeysRead = [...read].sort()
process.stdout.write(JSON.stringify(result))
// Whatever the SDK left running (timers, the CLI's pipe) does not keep the probe alive.
process.exit(0)
