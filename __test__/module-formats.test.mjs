// The package as both module formats: `import` (index.mjs) and `require` (index.js) of
// claude-agent-sdk-native and of claude-agent-sdk-native/testing give the same objects, every
// CommonJS export is also a named ES export, each entry point has typings for both conditions,
// and importing the package is cheap: no zod, no native engine, no child process.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import * as esm from 'claude-agent-sdk-native'
import esmDefault, { query, tool, createSdkMcpServer, AbortError } from 'claude-agent-sdk-native'
import * as esmTesting from 'claude-agent-sdk-native/testing'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// Resolved from inside the package: by package self-reference, as an app resolves it.
const require = createRequire(import.meta.url)
const node = process.versions.bun ? 'node' : process.execPath
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))

test('ES named imports are the API', () => {
  assert.equal(typeof query, 'function')
  assert.equal(typeof tool, 'function')
  assert.equal(typeof createSdkMcpServer, 'function')
  assert.equal(typeof AbortError, 'function')
  assert.ok(new AbortError('x') instanceof Error)
  const def = tool('t', 'd', {}, async () => ({ content: [] }))
  assert.equal(def.name, 't')
  assert.equal(typeof def.handler, 'function')
})

test('require() gives the same functions as import', () => {
  const cjs = require('claude-agent-sdk-native')
  assert.equal(cjs.query, query)
  assert.equal(cjs.tool, tool)
  assert.equal(cjs.createSdkMcpServer, createSdkMcpServer)
  assert.equal(cjs.AbortError, AbortError)
  // The default export is the CommonJS exports object.
  assert.equal(esmDefault, cjs)
})

test('every CommonJS export is a named ES export, and the other way round', () => {
  const cjs = require('claude-agent-sdk-native')
  const named = Object.keys(esm).filter((k) => k !== 'default').sort()
  assert.deepEqual(named, Object.keys(cjs).sort())
  for (const k of named) assert.equal(esm[k], cjs[k], k)
})

test('an ESM import of index.js itself sees every export (Node\'s CommonJS export lexer reads each name)', async () => {
  const cjs = require('claude-agent-sdk-native')
  const direct = await import(path.join(root, 'index.js'))
  // Node 23+ also names the whole object 'module.exports' in a CommonJS module's namespace.
  assert.deepEqual(Object.keys(direct).filter((k) => k !== 'default' && k !== 'module.exports').sort(), Object.keys(cjs).sort())
})

test('claude-agent-sdk-native/testing: import and require give the same functions', () => {
  const cjs = require('claude-agent-sdk-native/testing')
  assert.equal(typeof esmTesting.startScriptedModel, 'function')
  const named = Object.keys(esmTesting).filter((k) => k !== 'default').sort()
  assert.deepEqual(named, Object.keys(cjs).sort())
  for (const k of named) assert.equal(esmTesting[k], cjs[k], k)
  assert.equal(esmTesting.default, cjs)
})

/** The file a condition set resolves to in an "exports" entry (first matching key wins). */
function resolveCondition(entry, conditions) {
  if (typeof entry === 'string') return entry
  if (!entry || typeof entry !== 'object') return undefined
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'default' || conditions.includes(key)) {
      const found = resolveCondition(value, conditions)
      if (found !== undefined) return found
    }
  }
  return undefined
}

for (const subpath of ['.', './testing', './stores/postgres', './stores/redis', './stores/s3']) {
  test(`exports["${subpath}"] has typings for import and for require`, () => {
    const entry = pkg.exports[subpath]
    assert.ok(entry, `no exports["${subpath}"]`)
    for (const [mode, conditions] of [['import', ['types', 'import', 'node']], ['require', ['types', 'require', 'node']]]) {
      const types = resolveCondition(entry, conditions)
      assert.ok(types && /\.d\.(m|c)?ts$/.test(types), `${subpath} (${mode}): resolves to ${types}, not a declaration file`)
      assert.ok(fs.existsSync(path.join(root, types)), `${subpath} (${mode}): ${types} does not exist`)
      const js = resolveCondition(entry, conditions.filter((c) => c !== 'types'))
      assert.ok(js && fs.existsSync(path.join(root, js)), `${subpath} (${mode}): runtime file ${js} missing`)
    }
  })
}

/**
 * Runs `code` in a fresh Node process (from the package root, so that the package resolves by
 * self-reference) after recording child_process calls and native addon loads; prints what the
 * import loaded.
 */
function importReport(importCode) {
  const prelude = `
    const cp = require('node:child_process')
    const spawned = []
    for (const fn of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
      const orig = cp[fn]
      cp[fn] = function (...args) { spawned.push(fn + ' ' + String(args[0])); return orig.apply(this, args) }
    }
    const dlopened = []
    const dlopen = process.dlopen
    process.dlopen = function (module, file, ...rest) { dlopened.push(file); return dlopen.call(this, module, file, ...rest) }
    globalThis.__report = async () => {
      await new Promise((r) => setTimeout(r, 100))
      let children = []
      try {
        const fs = require('node:fs')
        for (const t of fs.readdirSync('/proc/self/task')) {
          children.push(...fs.readFileSync('/proc/self/task/' + t + '/children', 'utf8').trim().split(/\\s+/).filter(Boolean))
        }
      } catch {}
      const loaded = Object.keys(require.cache)
      process.stdout.write(JSON.stringify({ loaded, spawned, dlopened, children }))
    }
  `
  const script = path.join(root, '.tmp', `module-formats-${process.pid}-${Math.random().toString(36).slice(2)}.cjs`)
  fs.mkdirSync(path.dirname(script), { recursive: true })
  fs.writeFileSync(script, `${prelude}\n(async () => { ${importCode}; await globalThis.__report() })().catch((e) => { console.error(e); process.exit(1) })\n`)
  try {
    return JSON.parse(execFileSync(node, [script], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }))
  } finally {
    fs.rmSync(script, { force: true })
  }
}

for (const [label, code] of [
  ['require()', `const sdk = require('claude-agent-sdk-native'); if (typeof sdk.query !== 'function') throw new Error('no query')`],
  ['import', `const sdk = await import('claude-agent-sdk-native'); if (typeof sdk.query !== 'function') throw new Error('no query')`],
  ['require() of /testing', `require('claude-agent-sdk-native/testing')`],
]) {
  test(`${label} of the package loads no zod, no native engine and starts no process`, () => {
    const report = importReport(code)
    assert.ok(report.loaded.some((f) => f.startsWith(path.join(root, 'lib') + path.sep) || f.startsWith(path.join(root, 'testing') + path.sep)), 'the package itself was not loaded through require')
    const zod = report.loaded.filter((f) => /[\\/]node_modules[\\/](zod|zod-to-json-schema)[\\/]/.test(f))
    assert.deepEqual(zod, [], 'zod was loaded at import')
    assert.deepEqual(report.loaded.filter((f) => f.endsWith('.node')), [], 'a native addon was loaded at import')
    assert.deepEqual(report.dlopened, [], 'a native addon was loaded at import')
    assert.deepEqual(report.spawned, [], 'a process was spawned at import')
    assert.deepEqual(report.children, [], 'the process has children after import')
  })
}

/** Whether npm's `files` list (dirs, globs, files) includes a path relative to the root. */
function inFiles(files, rel) {
  return files.some((entry) => {
    const e = entry.replace(/^\.\//, '').replace(/\/$/, '')
    if (e.includes('*')) {
      const re = new RegExp('^' + e.split('**').map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')).join('.*') + '(/.*)?$')
      return re.test(rel)
    }
    return rel === e || rel.startsWith(e + '/')
  })
}

test('the typings, every declaration file they import, and the license of the inlined types are published', () => {
  assert.ok(Array.isArray(pkg.files), 'package.json has no "files" list')
  const needed = new Set()
  const visit = (rel) => {
    if (needed.has(rel)) return
    needed.add(rel)
    const text = fs.readFileSync(path.join(root, rel), 'utf8')
    for (const m of text.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[1]))
      const candidates = [target.replace(/\.js$/, '.d.ts'), target.replace(/\.mjs$/, '.d.mts'), `${target}.d.ts`, target]
      const found = candidates.find((c) => fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile())
      assert.ok(found, `${rel} imports ${m[1]}, which has no declaration file`)
      visit(found)
    }
    for (const m of text.matchAll(/see (types\/LICENSE[^\s;)]+)/g)) needed.add(m[1].replace(/\.$/, ''))
  }
  for (const subpath of ['.', './testing', './stores/postgres', './stores/redis', './stores/s3']) {
    for (const conditions of [['types', 'import', 'node'], ['types', 'require', 'node']]) visit(resolveCondition(pkg.exports[subpath], conditions).replace(/^\.\//, ''))
  }
  visit(pkg.types.replace(/^\.\//, ''))
  const missing = [...needed].filter((rel) => !inFiles(pkg.files, rel))
  assert.deepEqual(missing, [], `not in package.json "files": ${missing.join(', ')}`)
})

test('index.d.ts declares exactly the values the package exports', () => {
  const index = fs.readFileSync(path.join(root, 'index.d.ts'), 'utf8')
  // index.d.ts and the declaration files it re-exports with `export *`.
  const reexported = [...index.matchAll(/^export \* from '\.\/(types\/[a-z-]+)\.js'/gm)].map((m) => fs.readFileSync(path.join(root, m[1] + '.d.ts'), 'utf8'))
  const dts = [index, ...reexported].join('\n')
  const declared = [...dts.matchAll(/^export declare (?:function|class|const) ([A-Za-z0-9_$]+)/gm)].map((m) => m[1])
  const runtime = Object.keys(require('claude-agent-sdk-native'))
  assert.deepEqual([...new Set(declared)].sort(), runtime.sort())
})
