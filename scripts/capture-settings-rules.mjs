#!/usr/bin/env node
// Regenerates lib/settings-rules.json: what the CLI's settings schema does with an ill-typed value
// of each top-level setting, as the OFFICIAL SDK's resolveSettings() (the devDependency) shows
// it. For a user/project/local file: the whole file is not used ('reject', the default), or the
// key alone is dropped ('drop'; 'undefined' where the key stays, undefined), or a fixed value
// takes its place ({ sub }). For a policy document
// (server-managed settings, managed-settings.json): the key is dropped (the default) or replaced by
// its fail-closed substitute ({ sub }). Run after a version bump, with lib/settings-schema.json
// current:
//
//   node scripts/capture-settings-rules.mjs
//
// A rule is kept only when two different ill-typed values give the same outcome.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const schema = require(path.join(ROOT, 'lib/settings-schema.json'))
const official = await import(path.join(ROOT, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs'))

const { valid } = require(path.join(ROOT, 'lib/settings-validate.js'))
/** Two ill-typed values of different kinds for a node (none for `unknown`). */
function wrongs(node) {
  return [12345, 'not-valid', { notValid: 1 }, ['not-valid', 2], true].filter((v) => !valid(node, v)).slice(0, 2)
}

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'settings-rules-')))
const home = path.join(dir, 'config')
fs.mkdirSync(home)
process.env.CLAUDE_CONFIG_DIR = home

async function outcome(key, value, where) {
  const doc = { model: 'keep', [key]: value }
  let r
  if (where === 'file') {
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify(doc))
    r = await official.resolveSettings({ cwd: dir, settingSources: ['user'] })
  } else {
    r = await official.resolveSettings({ cwd: dir, settingSources: [], serverManagedSettings: doc })
  }
  const settings = r.sources[0]?.settings
  if (!settings) return 'reject'
  if (!Object.hasOwn(settings, key)) return 'drop'
  // The CLI's parse can leave the key in place, undefined.
  return settings[key] === undefined ? 'undefined' : { sub: settings[key] }
}

const rules = { file: {}, policy: {} }
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b)
for (const [key, prop] of Object.entries(schema.settings.props)) {
  const values = wrongs(prop.s)
  if (values.length < 2) continue
  for (const where of ['file', 'policy']) {
    const [a, b] = [await outcome(key, values[0], where), await outcome(key, values[1], where)]
    if (!same(a, b)) continue
    if (where === 'file' && a === 'reject') continue
    if (where === 'policy' && a === 'drop') continue
    rules[where][key] = a
  }
}
// An object setting with one ill-typed member: the whole file or document fails ('reject'), the
// setting is dropped ('dropKey'), or only the member is ({ field: 'drop' }) or replaced
// ({ field: { sub } }). Kept where two different ill-typed values agree.
const deref = (n) => (n.t === 'ref' ? deref(schema.defs[n.name]) : n)
function sample(n) {
  n = deref(n)
  switch (n.t) {
    case 's': return 'x'
    case 'n': return 1
    case 'b': return true
    case 'u': return 'anything'
    case 'lit': return n.v
    case 'or': return sample(n.of[0])
    case 'arr': return [sample(n.of)]
    case 'tup': return n.items.map(sample)
    case 'obj': {
      const o = {}
      for (const [k, p] of Object.entries(n.props)) if (!p.opt) o[k] = sample(p.s)
      return o
    }
  }
}
async function nestedOutcome(key, base, member, value, where) {
  const r = await outcome(key, { ...base, [member]: value }, where)
  if (r === 'reject' || r === 'drop' || r === 'undefined') return r === 'reject' ? 'reject' : 'dropKey'
  const got = r.sub
  if (got === null || typeof got !== 'object' || !Object.hasOwn(got, member)) return { field: 'drop' }
  return same(got[member], value) ? 'kept' : { field: { sub: got[member] } }
}
rules.nested = { file: {}, policy: {} }
for (const [key, prop] of Object.entries(schema.settings.props)) {
  const node = deref(prop.s)
  if (node.t !== 'obj') continue
  for (const [member, p] of Object.entries(node.props)) {
    // The setting's required members, or else one other member, so that what is left is not empty.
    const base = sample(node)
    const other = Object.entries(node.props).find(([k]) => k !== member)
    if (Object.keys(base).length === 0 && other) base[other[0]] = sample(other[1].s)
    const values = wrongs(p.s)
    if (values.length < 2) continue
    for (const where of ['file', 'policy']) {
      const [a, b] = [await nestedOutcome(key, base, member, values[0], where), await nestedOutcome(key, base, member, values[1], where)]
      if (!same(a, b) || a === 'kept' || (where === 'file' && a === 'reject')) continue
      ;(rules.nested[where][key] ??= {})[member] = a
    }
  }
}

// Policy settings that stay, empty, when their only member is dropped.
rules.keepsEmpty = []
for (const [key, members] of Object.entries(rules.nested.policy)) {
  const dropped = Object.entries(members).find(([, r]) => r.field === 'drop')
  if (!dropped) continue
  const node = deref(schema.settings.props[key].s)
  const r = await outcome(key, { [dropped[0]]: wrongs(node.props[dropped[0]].s)[0] }, 'policy')
  if (same(r, { sub: {} })) rules.keepsEmpty.push(key)
}

// Number settings: which take only whole numbers, and the range each takes (found by bisection
// from a value it takes; bounds beyond ±1e9 are left open).
rules.integers = []
rules.ranges = {}
const LIMIT = 1e9
for (const [key, prop] of Object.entries(schema.settings.props)) {
  if (!valid(prop.s, 1)) continue
  const taken = async (v) => same(await outcome(key, v, 'file'), { sub: v })
  let start
  for (const v of [1, 100, 1000, 100000, 0.5, 0]) if (await taken(v)) { start = v; break }
  if (start === undefined) continue
  const integer = Number.isInteger(start) && !(await taken(start + 0.5)) && !(await taken(start - 0.5))
  if (integer) rules.integers.push(key)
  const step = integer ? 1 : 1e-6
  // The smallest and the largest value taken.
  const bound = async (dir) => {
    let inside = start
    let outside = dir < 0 ? -LIMIT : LIMIT
    if (await taken(outside)) return undefined
    while (Math.abs(outside - inside) > step) {
      let mid = (inside + outside) / 2
      if (integer) mid = Math.round(mid)
      if (mid === inside || mid === outside) break
      if (await taken(mid)) inside = mid
      else outside = mid
    }
    return integer ? inside : Math.round(inside * 1e6) / 1e6
  }
  const [min, max] = [await bound(-1), await bound(1)]
  if (min !== undefined || max !== undefined) rules.ranges[key] = { ...(min !== undefined && { min }), ...(max !== undefined && { max }) }
}
fs.rmSync(dir, { recursive: true, force: true })
const out = path.join(ROOT, 'lib/settings-rules.json')
fs.writeFileSync(out, JSON.stringify({ note: 'Generated by scripts/capture-settings-rules.mjs from the official SDK; do not edit.', ...rules }, null, 1) + '\n')
console.log(`wrote ${path.relative(ROOT, out)}: ${Object.keys(rules.file).length} lenient file keys, ${Object.keys(rules.policy).length} policy substitutes, ${rules.integers.length} whole-number settings, ${Object.keys(rules.ranges).length} ranges`)
