// What the two packages do when run: the exports of each entry point and the values of their
// constants (scripts/track/probe-exports.mjs), the option keys query() reads and the environment
// it gives the CLI (scripts/track/probe-query.mjs, against the fake CLI of scripts/fake-cli.mjs).
// Each probe runs in a child process of its own with a small fixed environment.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const SHOWN = 200

function runProbe(script, args, env) {
  return new Promise((resolve, reject) => {
    const node = process.versions.bun ? 'node' : process.execPath
    execFile(node, [path.join(here, script), ...args], { env, timeout: 90_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout))
      } catch {
        reject(new Error(`${script} failed: ${err?.message ?? ''} ${String(stderr).slice(-2000)}`))
      }
    })
  })
}

/** The environment probes run with: nothing the caller's environment could add to the CLI's. */
export function probeEnv(scratch) {
  const home = path.join(scratch, 'home')
  fs.mkdirSync(home, { recursive: true })
  const env = { PATH: process.env.PATH, HOME: home, TRACK_INHERITED: 'from-the-caller' }
  if (process.platform === 'win32') env.SystemRoot = process.env.SystemRoot
  return env
}

/** @returns {Promise<Record<string, { names?: Record<string, { type, value? }>, error?: string }>>} */
export function probeExports(files, env) {
  return runProbe('probe-exports.mjs', files, env)
}

/**
 * @returns {Promise<{ optionKeysRead: string[], env: Record<string, string> | null, error: string | null }>}
 */
export function probeQuery(entry, scratch, env, candidates = []) {
  return runProbe('probe-query.mjs', [entry, scratch, JSON.stringify(candidates)], env)
}

const show = (v) => {
  const s = JSON.stringify(v)
  return s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s
}
const isPlain = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Lines saying how the value `b` (ours) differs from `a` (official), under `label`. */
export function diffValues(label, a, b, out = []) {
  if (JSON.stringify(a) === JSON.stringify(b)) return out
  if (Array.isArray(a) && Array.isArray(b)) {
    const flat = [...a, ...b].every((x) => x === null || typeof x !== 'object')
    if (flat) {
      const key = (x) => JSON.stringify(x)
      const onlyA = a.filter((x) => !b.some((y) => key(y) === key(x)))
      const onlyB = b.filter((x) => !a.some((y) => key(y) === key(x)))
      if (onlyA.length) out.push(`${label}: official has ${onlyA.map(show).join(', ')}; ours does not`)
      if (onlyB.length) out.push(`${label}: ours has ${onlyB.map(show).join(', ')}; official does not`)
      if (!onlyA.length && !onlyB.length) out.push(`${label}: the same items in another order or number (official ${show(a)}; ours ${show(b)})`)
      return out
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length) out.push(`${label}[${i}]: only in ours (${show(b[i])})`)
      else if (i >= b.length) out.push(`${label}[${i}]: missing in ours (official ${show(a[i])})`)
      else diffValues(`${label}[${i}]`, a[i], b[i], out)
    }
    return out
  }
  if (isPlain(a) && isPlain(b)) {
    for (const k of Object.keys(a)) if (!(k in b)) out.push(`${label}.${k}: missing in ours (official ${show(a[k])})`)
    for (const k of Object.keys(b)) if (!(k in a)) out.push(`${label}.${k}: only in ours (${show(b[k])})`)
    for (const k of Object.keys(a)) if (k in b) diffValues(`${label}.${k}`, a[k], b[k], out)
    return out
  }
  out.push(`${label}: official ${show(a)}; ours ${show(b)}`)
  return out
}

/**
 * Exports that are another package's namespace, not the SDK's own values: ./browser's `z` is
 * the official's bundled zod and the app's own `zod/v4` in ours, so its members follow the zod
 * version installed, not the SDK release. Compared by kind only.
 */
const FOREIGN_NAMESPACES = new Set(['z'])

/** Lines for the runtime exports and constants of one entry point. */
export function compareExports(entry, official, ours) {
  const where = entry === '.' ? '' : ` ${entry}`
  const lines = []
  if (official.error || ours.error) {
    if (official.error) lines.push(`runtime${where}: the official entry could not be imported (${official.error})`)
    if (ours.error) lines.push(`runtime${where}: our entry could not be imported (${ours.error})`)
    return lines
  }
  const o = official.names
  const n = ours.names
  for (const name of Object.keys(o)) {
    if (!(name in n)) lines.push(`runtime${where}: ${name} (${o[name].type}) is missing in ours`)
    else if (o[name].type !== n[name].type) lines.push(`runtime${where}: ${name} is a ${o[name].type} in official, a ${n[name].type} in ours`)
    else if (o[name].type !== 'function' && !FOREIGN_NAMESPACES.has(name)) diffValues(`constant${where} ${name}`, o[name].value, n[name].value, lines)
  }
  for (const name of Object.keys(n)) if (!(name in o)) lines.push(`runtime${where}: ${name} (${n[name].type}) is exported by ours only`)
  return lines
}

/**
 * The variables query() gives the CLI beyond those of the probe's own environment (added, or
 * with another value), with the probe's scratch folder written as <scratch>.
 */
export function childEnvDefaults(recorded, parentEnv, scratch) {
  const out = new Map()
  if (!recorded) return out
  for (const [k, v] of Object.entries(recorded)) {
    if (parentEnv[k] === v) continue
    out.set(k, String(v).split(scratch).join('<scratch>'))
  }
  return out
}

export function compareEnv(official, ours) {
  const lines = []
  for (const [k, v] of official) {
    if (!ours.has(k)) lines.push(`env ${k}: the official sets ${JSON.stringify(v)}; ours does not set it`)
    else if (ours.get(k) !== v) lines.push(`env ${k}: the official sets ${JSON.stringify(v)}; ours ${JSON.stringify(ours.get(k))}`)
  }
  for (const [k, v] of ours) if (!official.has(k)) lines.push(`env ${k}: ours sets ${JSON.stringify(v)}; the official does not set it`)
  return lines
}
