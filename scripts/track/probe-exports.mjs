#!/usr/bin/env node
// Child process of scripts/track.mjs: imports entry files and prints, as JSON on stdout, what each
// exports: for every name its type and, for a value that is not a function, the value itself in a
// JSON form (undefined, functions, symbols, bigints, Maps and Sets spelled out).
//
//   node scripts/track/probe-exports.mjs <entry file>...
import { pathToFileURL } from 'node:url'

function describe(v, seen = new Set()) {
  if (v === undefined) return { undefined: true }
  if (typeof v === 'function') return { function: true } // its name is a minifier's
  if (typeof v === 'symbol') return { symbol: String(v.description) }
  if (typeof v === 'bigint') return { bigint: String(v) }
  if (v === null || typeof v !== 'object') return v
  if (seen.has(v)) return { circular: true }
  seen.add(v)
  try {
    if (Array.isArray(v)) return v.map((x) => describe(x, seen))
    if (v instanceof Map) return { map: [...v].map(([k, x]) => [describe(k, seen), describe(x, seen)]) }
    if (v instanceof Set) return { set: [...v].map((x) => describe(x, seen)) }
    if (v instanceof RegExp) return { regexp: String(v) }
    const out = {}
    for (const k of Object.keys(v).sort()) out[k] = describe(v[k], seen)
    return out
  } finally {
    seen.delete(v)
  }
}

const result = {}
for (const file of process.argv.slice(2)) {
  try {
    const mod = await import(pathToFileURL(file).href)
    const names = {}
    for (const name of Object.keys(mod).sort()) {
      const v = mod[name]
      names[name] = typeof v === 'function' ? { type: 'function' } : { type: v === null ? 'null' : typeof v, value: describe(v) }
    }
    result[file] = { names }
  } catch (err) {
    result[file] = { error: String(err?.message ?? err).split('\n')[0] }
  }
}
process.stdout.write(JSON.stringify(result))
process.exit(0)
