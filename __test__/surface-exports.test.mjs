// Every runtime name the official package exports — from its root and from each of its subpaths
// — is exported by ours, from the ES entry and from the CommonJS entry, with the same kind of value.
//
// Names that another part of the work adds are listed in PENDING, by owner: each may be missing
// (absent, or undefined) until it lands; the moment a build exports it, it is checked like any
// other. Nothing else may be missing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))

/** Names owned by other work in progress: the session functions and stores (sessions), ./extract (platforms). */
const PENDING = {
  sessions: new Set([
    'listSessions', 'getSessionInfo', 'getSessionMessages', 'listSubagents', 'getSubagentMessages', 'renameSession', 'tagSession',
    'archiveSession', 'unarchiveSession', 'deleteSession', 'forkSession', 'importSessionToStore', 'InMemorySessionStore', 'foldSessionSummary',
  ]),
  platforms: new Set(['./extract']),
}
const pendingName = (name) => PENDING.sessions.has(name)

/** The official subpaths with runtime code, and those only for types. Not ./browser, ./bridge (not in scope). */
const RUNTIME_SUBPATHS = ['.', './core', './extract']
const TYPES_ONLY_SUBPATHS = ['./sdk-tools', './sdk-tools.js']

const kind = (v) => (typeof v === 'function' ? 'function' : Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v)

async function officialNames(subpath) {
  const spec = subpath === '.' ? '@anthropic-ai/claude-agent-sdk' : `@anthropic-ai/claude-agent-sdk/${subpath.slice(2)}`
  const mod = await import(spec)
  return Object.fromEntries(Object.keys(mod).filter((k) => k !== 'default').map((k) => [k, kind(mod[k])]))
}

for (const subpath of RUNTIME_SUBPATHS) {
  test(`every official runtime export of "${subpath}" is ours, from import and from require`, async () => {
    const spec = subpath === '.' ? 'claude-agent-sdk-native' : `claude-agent-sdk-native/${subpath.slice(2)}`
    if (!pkg.exports[subpath]) {
      assert.ok(PENDING.platforms.has(subpath), `package.json has no exports["${subpath}"]`)
      return
    }
    const official = await officialNames(subpath)
    assert.ok(Object.keys(official).length > 0)
    const esm = await import(spec)
    const cjs = require(spec)
    const missing = []
    for (const [name, k] of Object.entries(official)) {
      for (const [label, mod] of [['import', esm], ['require', cjs]]) {
        const value = mod[name]
        if (value === undefined && pendingName(name)) continue
        if (value === undefined) missing.push(`${name} (${label})`)
        else assert.equal(kind(value), k, `${name} (${label}): a ${kind(value)}, the official one a ${k}`)
      }
      // The two entries give the same objects.
      assert.equal(esm[name], cjs[name], `${name}: import and require differ`)
    }
    assert.deepEqual(missing, [], `missing: ${missing.join(', ')}`)
  })
}

test('a named ES import of every official root name links (no "does not provide an export named")', async () => {
  const names = Object.keys(await officialNames('.')).filter((n) => !pendingName(n))
  const dir = fs.mkdtempSync(path.join(root, '.tmp', 'named-imports-'))
  try {
    const file = path.join(dir, 'app.mjs')
    fs.writeFileSync(file, `import { ${names.join(', ')} } from 'claude-agent-sdk-native'\nexport default [${names.join(', ')}].map((v) => typeof v)\n`)
    const { default: kinds } = await import(file)
    assert.equal(kinds.length, names.length)
    assert.ok(!kinds.includes('undefined'))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

for (const subpath of [...RUNTIME_SUBPATHS, ...TYPES_ONLY_SUBPATHS]) {
  test(`exports["${subpath}"] has typings for import and for require`, () => {
    const entry = pkg.exports[subpath]
    if (!entry && PENDING.platforms.has(subpath)) return
    assert.ok(entry, `no exports["${subpath}"]`)
    const files = new Set()
    const collect = (e) => {
      if (typeof e === 'string') files.add(e)
      else if (e && typeof e === 'object') for (const [k, v] of Object.entries(e)) if (k === 'types' || typeof v === 'object') collect(v)
    }
    collect(entry)
    assert.ok(files.size > 0, `exports["${subpath}"] names no typings`)
    for (const f of files) assert.ok(fs.existsSync(path.join(root, f)), `${subpath}: ${f} does not exist`)
  })
}

test('./sdk-tools declares the official tool input and output types', () => {
  const officialText = fs.readFileSync(path.join(path.dirname(require.resolve('@anthropic-ai/claude-agent-sdk')), 'sdk-tools.d.ts'), 'utf8')
  const names = [...officialText.matchAll(/^export (?:interface|type) ([A-Za-z0-9_]+)/gm)].map((m) => m[1])
  assert.ok(names.includes('BashInput') && names.includes('FileEditInput'))
  // Ours re-exports the declarations the CLI package we run ships: the same file.
  const ours = require.resolve('@anthropic-ai/claude-code/sdk-tools.d.ts', { paths: [root] })
  const oursText = fs.readFileSync(ours, 'utf8')
  for (const n of names) assert.match(oursText, new RegExp(`^export (?:interface|type) ${n}\\b`, 'm'), n)
})
