#!/usr/bin/env node
// The tracking routine: what an official release of @anthropic-ai/claude-agent-sdk has that ours
// does not (and the reverse), one line per difference, each naming what to change. Exit status 1
// when anything differs, 0 when nothing does, 2 when the comparison itself could not run.
//
//   npm run track                 # the newest 0.3.x release (npm view), against this package
//   npm run track -- 0.3.332      # that release
//   node scripts/track.mjs [version] [--ours-dir DIR] [--official-dir DIR]
//
// --official-dir takes an unpacked package folder instead of a release from the registry (which
// is fetched with `npm pack` into .tmp/track/<version>/ once); --ours-dir another folder than this
// package (e.g. a git worktree of an older commit, or a second official release).
//
// Compared, in this order (the lines start with the word in brackets):
//   [version]  the package version ours declares (it names the release it mirrors) and the release's
//   [entry]    entry points of package.json "exports" the official has and ours lacks
//   [types]    declarations, entry by entry: exported names missing or extra, and for each shared
//              name whether the types are structurally the same, down to the member that differs
//              (scripts/track/declarations.mjs, with tsc)
//   [runtime] / [constant]  the exports of each entry point, and every exported non-function value
//   [option]   the keys of `options` the official's query() reads (or its Options type declares)
//              against those ours knows (lib/option-keys.js; for a folder without it, the keys its
//              query() reads and its Options declares)
//   [control]  control-request subtypes each sends to the CLI and handles from it
//   [env]      the environment query() gives the CLI process, beyond the caller's own
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { describePackage, fetchRelease, newestRelease, ENTRIES } from './track/packages.mjs'
import { compareDeclarations } from './track/declarations.mjs'
import { controlSubtypes } from './track/control-subtypes.mjs'
import { probeEnv, probeExports, probeQuery, compareExports, childEnvDefaults, compareEnv } from './track/runtime.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

const USAGE = 'usage: node scripts/track.mjs [version] [--ours-dir DIR] [--official-dir DIR]'

export function parseArgs(argv) {
  const args = { version: null, oursDir: null, officialDir: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a folder\n${USAGE}`)
      return path.resolve(v)
    }
    if (a === '--ours-dir') args.oursDir = value()
    else if (a === '--official-dir') args.officialDir = value()
    else if (a === '--help' || a === '-h') throw new Error(USAGE)
    else if (!a.startsWith('-') && !args.version && /^\d+\.\d+\.\d+/.test(a)) args.version = a
    else throw new Error(`unknown argument ${JSON.stringify(a)}\n${USAGE}`)
  }
  if (args.version && args.officialDir) throw new Error(`give a version or --official-dir, not both\n${USAGE}`)
  return args
}

/** What the package in `dir` knows of options: lib/option-keys.js when it has one. */
function knownOptionKeys(dir) {
  const file = path.join(dir, 'lib', 'option-keys.js')
  if (!fs.existsSync(file)) return null
  const { KNOWN, NOT_IMPLEMENTED } = createRequire(file)(file)
  return { known: new Set(KNOWN), notImplemented: new Set(NOT_IMPLEMENTED ?? []) }
}

/** The keys of the `Options` type a declaration file declares (members of its top-level object). */
function declaredOptionKeys(typesFile) {
  if (!typesFile) return new Set()
  const m = /^export declare (?:type Options = |interface Options )\{\n([\s\S]*?)^\}/m.exec(fs.readFileSync(typesFile, 'utf8').replace(/\r\n/g, '\n'))
  return new Set(m ? [...m[1].matchAll(/^ {4}(?:readonly )?([A-Za-z_$][\w$]*)\??:/gm)].map((k) => k[1]) : [])
}

const core = (v) => String(v).split(/[-+]/)[0]

/**
 * @returns {Promise<string[]>} one line per difference
 */
export async function track({ officialDir, oursDir }) {
  const official = describePackage(officialDir)
  const ours = describePackage(oursDir)
  const lines = []

  if (core(ours.version) !== core(official.version)) lines.push(`version: ours declares ${ours.version}; the release is ${official.version}`)

  const both = []
  for (const entry of ENTRIES) {
    const o = official.entries.get(entry)
    if (!o) continue
    const n = ours.entries.get(entry)
    if (!n) { lines.push(`entry ${entry}: missing in ours (the official's ${path.basename(o.runtime ?? o.types ?? '?')})`); continue }
    if (o.types && !n.types) lines.push(`entry ${entry}: ours has no typings (the official's ${path.basename(o.types)})`)
    if (o.runtime && !n.runtime) lines.push(`entry ${entry}: ours has no JavaScript (the official's ${path.basename(o.runtime)})`)
    both.push({ entry, o, n })
  }

  fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true })
  const scratch = fs.mkdtempSync(path.join(ROOT, '.tmp', 'track-run-'))
  try {
    const env = probeEnv(scratch)
    const withRuntime = both.filter(({ o, n }) => o.runtime && n.runtime)
    const oursKeys = knownOptionKeys(ours.dir)
    const oMain = official.entries.get('.')?.runtime
    const nMain = ours.entries.get('.')?.runtime
    const [typeLines, oExports, nExports, oQuery, nQuery] = await Promise.all([
      compareDeclarations(ROOT, both.filter(({ o, n }) => o.types && n.types).map(({ entry, o, n }) => ({ entry, officialTypes: o.types, oursTypes: n.types }))),
      probeExports(withRuntime.map(({ o }) => o.runtime), env),
      probeExports(withRuntime.map(({ n }) => n.runtime), env),
      oMain ? probeQuery(oMain, path.join(scratch, 'official'), env, oursKeys ? [...oursKeys.known] : []) : null,
      nMain ? probeQuery(nMain, path.join(scratch, 'ours'), env) : null,
    ])
    lines.push(...typeLines)
    for (const { entry, o, n } of withRuntime) lines.push(...compareExports(entry, oExports[o.runtime], nExports[n.runtime]))

    if (oQuery && nQuery) {
      if (oQuery.error) lines.push(`option: the official's query() failed against the fake CLI (${oQuery.error.split('\n')[0]})`)
      if (nQuery.error) lines.push(`option: our query() failed against the fake CLI (${nQuery.error.split('\n')[0]})`)
      // The official's keys: those its query() read in the probe, and those its Options type
      // declares (some are read only on paths the probe does not take, e.g. a resume).
      const read = new Set(oQuery.optionKeysRead)
      const declared = declaredOptionKeys(official.entries.get('.')?.types)
      const officialKeys = new Set([...read, ...declared])
      const known = oursKeys ? oursKeys.known : new Set([...nQuery.optionKeysRead, ...declaredOptionKeys(ours.entries.get('.')?.types)])
      const where = oursKeys ? 'lib/option-keys.js' : 'its query() and Options'
      const how = (k) => (read.has(k) ? "read by the official's query()" : "declared in the official's Options")
      for (const k of [...officialKeys].sort()) {
        if (!known.has(k)) lines.push(`option ${k}: ${how(k)}; ours does not know it (${where})`)
        else if (oursKeys?.notImplemented.has(k)) lines.push(`option ${k}: ${how(k)}; ours lists it as not implemented (lib/option-keys.js)`)
      }
      for (const k of [...known].sort()) if (!officialKeys.has(k)) lines.push(`option ${k}: known to ours (${where}); the official neither reads nor declares it`)
      lines.push(...compareEnv(childEnvDefaults(oQuery.env, env, path.join(scratch, 'official')), childEnvDefaults(nQuery.env, env, path.join(scratch, 'ours'))))
    }

    const oc = controlSubtypes(official.dir, oMain)
    const nc = controlSubtypes(ours.dir, nMain)
    const sorted = (s) => [...s].sort()
    for (const s of sorted(oc.sent)) if (!nc.sent.has(s)) lines.push(`control ${s}: sent by the official; ours never sends it`)
    for (const s of sorted(nc.sent)) if (!oc.sent.has(s)) lines.push(`control ${s}: sent by ours; the official never sends it`)
    for (const s of sorted(oc.handled)) if (!nc.handled.has(s)) lines.push(`control ${s}: handled by the official (a request from the CLI); ours does not handle it`)
    for (const s of sorted(nc.handled)) if (!oc.handled.has(s)) lines.push(`control ${s}: handled by ours; the official does not handle it`)
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  // An entry point that re-exports the root's (./core) repeats the root's lines: said once.
  const rootLines = new Set(lines)
  return lines.filter((line) => {
    const m = /^(\w+) (\.\/[\w-]+)(:| )/.exec(line)
    return !m || !rootLines.has(line.replace(` ${m[2]}`, ''))
  })
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args
  try {
    args = parseArgs(process.argv.slice(2))
    const version = args.officialDir ? null : args.version ?? newestRelease()
    const officialDir = args.officialDir ?? fetchRelease(ROOT, version)
    const oursDir = args.oursDir ?? ROOT
    const started = Date.now()
    console.error(`track: official ${describePackage(officialDir).version} (${officialDir}) against ours ${describePackage(oursDir).version} (${oursDir})`)
    const lines = await track({ officialDir, oursDir })
    for (const line of lines) console.log(line)
    console.error(`track: ${lines.length} ${lines.length === 1 ? 'difference' : 'differences'} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    process.exitCode = lines.length ? 1 : 0
  } catch (err) {
    console.error(`track: ${err.message}`)
    process.exitCode = 2
  }
}
