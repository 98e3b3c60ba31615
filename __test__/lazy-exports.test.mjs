// Importing the package loads only what query() needs; the other exports (lib/lazy.js) load on
// first use and behave as the modules' own: same calls, lengths and names, `new`, `extends`,
// `instanceof`, and one object per name for import and require.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const LAZY_MODULES = ['settings', 'sessions', 'prewarm', 'direct-connect', 'file-index', 'command-matcher', 'denied-models']
// Modules a query loads only when it needs them: the undeclared methods, an in-process tool's MCP
// request, a host request, the hostSpawn and process-event options.
const QUERY_LAZY_MODULES = ['query-extra', 'mcp-calls', 'host-requests', 'host-spawn', 'process-events']

test('import and require of the package load none of the modules query() does not need', () => {
  for (const how of ['require', 'import']) {
    const code = `
      const load = ${how === 'require' ? `async () => require(${JSON.stringify(root)})` : `() => import(${JSON.stringify(path.join(root, 'index.mjs'))})`}
      load().then((sdk) => {
        if (typeof sdk.listSessions !== 'function' || typeof sdk.FileIndex !== 'function') throw new Error('exports missing')
        const loaded = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(path.join(root, 'lib') + path.sep)}))
        process.stdout.write(JSON.stringify(loaded.map((f) => require('path').basename(f, '.js'))))
      })`
    const loaded = JSON.parse(execFileSync(process.execPath, ['-e', code], { encoding: 'utf8' }))
    assert.ok(loaded.includes('query'), `${how}: ${loaded}`)
    for (const m of [...LAZY_MODULES, ...QUERY_LAZY_MODULES]) assert.ok(!loaded.includes(m), `${how} loaded lib/${m}.js`)
  }
})

test('lazy functions behave as the modules\' own', async () => {
  const esm = await import('claude-agent-sdk-native')
  const cjs = require('claude-agent-sdk-native')
  const real = (m) => require(path.join(root, 'lib', m))
  const functions = {
    prewarm: 'prewarm', resolveSettings: 'settings', filterEscalatingDefaultMode: 'settings', matchDeniedModels: 'denied-models',
    parseDirectConnectUrl: 'direct-connect', listSessions: 'sessions', getSessionInfo: 'sessions', getSessionMessages: 'sessions',
    listSubagents: 'sessions', getSubagentMessages: 'sessions', renameSession: 'sessions', tagSession: 'sessions',
    archiveSession: 'sessions', unarchiveSession: 'sessions', deleteSession: 'sessions', forkSession: 'sessions',
    importSessionToStore: 'sessions', foldSessionSummary: 'sessions',
  }
  for (const [name, m] of Object.entries(functions)) {
    assert.equal(esm[name], cjs[name], name)
    assert.equal(cjs[name].name, real(m)[name].name, `${name}.name`)
    assert.equal(cjs[name].length, real(m)[name].length, `${name}.length`)
  }
  // Calls forward arguments, results and throws.
  assert.deepEqual(cjs.parseDirectConnectUrl('cc://example.com:8080'), real('direct-connect').parseDirectConnectUrl('cc://example.com:8080'))
  assert.deepEqual(cjs.parseDirectConnectUrl('cc://tok@example.com'), real('direct-connect').parseDirectConnectUrl('cc://tok@example.com'))
  // An error a module's own code makes names the export as its class, whichever export loaded it.
  assert.throws(() => cjs.parseDirectConnectUrl('cc+unix:///tmp/s'), (e) => e.constructor === cjs.DirectConnectError)
  assert.throws(() => cjs.foldSessionSummary(), (e) => { assert.throws(() => real('sessions').foldSessionSummary(), { message: e.message }); return true })
  assert.deepEqual(await cjs.matchDeniedModels(['claude-x', 'claude-y'], ['claude-x']), await real('denied-models').matchDeniedModels(['claude-x', 'claude-y'], ['claude-x']))
  assert.equal(await cjs.getSessionInfo('not-a-uuid', { dir: root }), await real('sessions').getSessionInfo('not-a-uuid', { dir: root }))
  // `this` is passed on.
  const resolved = () => ({ effective: { permissions: { defaultMode: 'bypassPermissions' } }, sources: [] })
  const obj = { f: cjs.filterEscalatingDefaultMode }
  assert.deepEqual(obj.f(resolved()), real('settings').filterEscalatingDefaultMode(resolved()))
})

test('lazy classes behave as the modules\' own', async () => {
  const esm = await import('claude-agent-sdk-native')
  const sdk = require('claude-agent-sdk-native')
  const real = (m) => require(path.join(root, 'lib', m))
  const classes = { FileIndex: 'file-index', CommandMatcher: 'command-matcher', DirectConnectTransport: 'direct-connect', DirectConnectError: 'direct-connect', InMemorySessionStore: 'sessions' }
  for (const [name, m] of Object.entries(classes)) {
    const Real = real(m)[name]
    const Lazy = sdk[name]
    assert.equal(esm[name], Lazy, name)
    assert.equal(typeof Lazy, 'function')
    assert.equal(Lazy.name, name)
    assert.equal(Lazy.length, Real.length)
    assert.equal(Lazy.prototype, Real.prototype)
    assert.deepEqual(Object.getOwnPropertyNames(Lazy).sort(), Object.getOwnPropertyNames(Real).sort())
    assert.deepEqual(Object.getOwnPropertyDescriptor(Lazy, 'prototype'), Object.getOwnPropertyDescriptor(Real, 'prototype'))
    assert.throws(() => Lazy(), TypeError, `${name}() without new`)
    class Sub extends Lazy {}
    assert.ok(Object.getPrototypeOf(Sub.prototype) === Real.prototype)
  }
  const store = new sdk.InMemorySessionStore()
  assert.ok(store instanceof sdk.InMemorySessionStore)
  assert.ok(store instanceof real('sessions').InMemorySessionStore)
  assert.equal(store.constructor, sdk.InMemorySessionStore)
  assert.equal(sdk.InMemorySessionStore.prototype.constructor, sdk.InMemorySessionStore)
  const key = { projectKey: 'p', sessionId: 's' }
  await store.append(key, [{ type: 'user', n: 1 }])
  assert.deepEqual(await store.load(key), [{ type: 'user', n: 1 }])
  class MyStore extends sdk.InMemorySessionStore {
    mine() { return this.store.size }
  }
  const mine = new MyStore()
  await mine.append(key, [{ n: 2 }])
  assert.equal(mine.mine(), 1)
  assert.ok(mine instanceof sdk.InMemorySessionStore && mine instanceof MyStore)
  const err = new sdk.DirectConnectError('boom')
  assert.ok(err instanceof Error && err instanceof sdk.DirectConnectError)
  assert.equal(err.message, 'boom')
  assert.equal(err.constructor, sdk.DirectConnectError)
  assert.equal(mine.constructor, MyStore)
  const index = new sdk.FileIndex()
  assert.ok(index instanceof sdk.FileIndex)
})
