// @ts-check
'use strict'
// runSessionStoreConformance: the behaviour the SDK relies on from a SessionStore, as test cases
// for node:test, bun:test or vitest. The 13 contracts of the official repository's
// examples/session-stores/shared/conformance.ts (same names), then ours: hostile ids, unicode,
// empty and huge entries, many appends, concurrent appends to one session, summaries, mtimes,
// result shapes, uuid idempotency (opt-in) and an unreachable backend (opt-in).
const assert = require('assert')
const { foldSessionSummary } = require('../lib/session-summary')

const KEY = { projectKey: 'proj', sessionId: 'sess' }
const E = (type, extra = {}) => ({ type, ...extra })

/** JSON with object keys sorted: deep equality that ignores key order (Postgres jsonb reorders). */
function canon(v) {
  return JSON.stringify(v, (_k, val) => (val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : val))
}

function expectEntries(actual, expected, message) {
  assert.ok(Array.isArray(actual), `${message ?? 'load()'}: expected an array of ${expected.length} entries, got ${actual === null ? 'null' : typeof actual}`)
  assert.strictEqual(actual.length, expected.length, `${message ?? 'load()'}: expected ${expected.length} entries, got ${actual.length}`)
  assert.strictEqual(canon(actual), canon(expected), message)
}

const sorted = (list) => [...list].sort()

/** Hostile ids: separators, traversal, glob and SQL characters, hash tags, escapes, unicode. */
const HOSTILE = ['a/b', '..', '../x', '.', 'a:b', 'a', 'x%2Fy', '*', '?', '[a]', '{tag}', "';DROP TABLE x;--", '"q"', 'sp ace', 'new\nline', 'tab\t', '\\', 'ü-日本-🙂', 'a'.repeat(200), '__sessions', '__subkeys', 'summary.json', 'part-0000000000001-abcdef.jsonl']

/** The contracts: `[name, async (makeStore, opts) => void, requires?]`. */
const CONTRACTS = [
  ['append then load returns same entries in same order', async (make) => {
    const store = await make()
    const entries = [E('a', { n: 1, nested: { x: [1, 2] } }), E('b', { n: 2 })]
    await store.append(KEY, entries)
    expectEntries(await store.load(KEY), entries)
  }],
  ['load unknown key returns null', async (make) => {
    const store = await make()
    assert.strictEqual(await store.load(KEY), null)
    assert.strictEqual(await store.load({ ...KEY, subpath: 'subagents/a' }), null)
  }],
  ['multiple append calls preserve call order', async (make) => {
    const store = await make()
    await store.append(KEY, [E('a')])
    await store.append(KEY, [E('b'), E('c')])
    await store.append(KEY, [E('d')])
    expectEntries(await store.load(KEY), [E('a'), E('b'), E('c'), E('d')])
  }],
  ['append([]) is a no-op', async (make) => {
    const store = await make()
    await store.append(KEY, [])
    assert.strictEqual(await store.load(KEY), null)
    await store.append(KEY, [E('a')])
    await store.append(KEY, [])
    expectEntries(await store.load(KEY), [E('a')])
  }],
  ['subpath keys are stored independently of main', async (make) => {
    const store = await make()
    await store.append(KEY, [E('main')])
    await store.append({ ...KEY, subpath: 'subagents/x' }, [E('sub')])
    expectEntries(await store.load(KEY), [E('main')])
    expectEntries(await store.load({ ...KEY, subpath: 'subagents/x' }), [E('sub')])
  }],
  ['projectKey isolation', async (make) => {
    const store = await make()
    const A = { projectKey: 'A', sessionId: 's' }
    const B = { projectKey: 'B', sessionId: 's' }
    await store.append(A, [E('a')])
    await store.append(B, [E('b')])
    expectEntries(await store.load(A), [E('a')])
    expectEntries(await store.load(B), [E('b')])
  }],
  ['listSessions returns sessionIds for project', async (make) => {
    const store = await make()
    await store.append({ projectKey: 'P', sessionId: 's1' }, [E('a')])
    await store.append({ projectKey: 'P', sessionId: 's2' }, [E('b')])
    await store.append({ projectKey: 'Q', sessionId: 's3' }, [E('c')])
    const listed = await store.listSessions('P')
    assert.deepStrictEqual(sorted(listed.map((s) => s.sessionId)), ['s1', 's2'])
    assert.ok(listed.every((s) => s.mtime > 1e12), `mtimes are epoch ms: ${JSON.stringify(listed)}`)
    assert.deepStrictEqual(await store.listSessions('never-seen'), [])
  }, 'listSessions'],
  ['listSessions excludes subagent subpaths', async (make) => {
    const store = await make()
    await store.append({ projectKey: 'P', sessionId: 's1', subpath: 'subagents/x' }, [E('sub')])
    assert.ok(!(await store.listSessions('P')).map((s) => s.sessionId).includes('s1'))
  }, 'listSessions'],
  ['delete main then load returns null', async (make) => {
    const store = await make()
    await store.append(KEY, [E('a')])
    await store.delete(KEY)
    assert.strictEqual(await store.load(KEY), null)
    await store.delete({ projectKey: 'x', sessionId: 'never' })
  }, 'delete'],
  ['delete main cascades to subkeys', async (make) => {
    const store = await make()
    await store.append(KEY, [E('main')])
    await store.append({ ...KEY, subpath: 'subagents/a' }, [E('sa')])
    await store.append({ ...KEY, subpath: 'subagents/b' }, [E('sb')])
    await store.append({ projectKey: 'proj', sessionId: 'other' }, [E('o')])
    await store.append({ projectKey: 'proj2', sessionId: 'sess' }, [E('p2')])
    await store.delete(KEY)
    assert.strictEqual(await store.load(KEY), null)
    assert.strictEqual(await store.load({ ...KEY, subpath: 'subagents/a' }), null)
    assert.strictEqual(await store.load({ ...KEY, subpath: 'subagents/b' }), null)
    expectEntries(await store.load({ projectKey: 'proj', sessionId: 'other' }), [E('o')])
    expectEntries(await store.load({ projectKey: 'proj2', sessionId: 'sess' }), [E('p2')])
    if (store.listSubkeys) assert.deepStrictEqual(await store.listSubkeys(KEY), [])
  }, 'delete'],
  ['delete with subpath removes only that subkey', async (make) => {
    const store = await make()
    await store.append(KEY, [E('main')])
    await store.append({ ...KEY, subpath: 'subagents/a' }, [E('sa')])
    await store.append({ ...KEY, subpath: 'subagents/b' }, [E('sb')])
    await store.delete({ ...KEY, subpath: 'subagents/a' })
    expectEntries(await store.load(KEY), [E('main')])
    assert.strictEqual(await store.load({ ...KEY, subpath: 'subagents/a' }), null)
    expectEntries(await store.load({ ...KEY, subpath: 'subagents/b' }), [E('sb')])
  }, 'delete'],
  ['listSubkeys returns subpaths for the session', async (make) => {
    const store = await make()
    await store.append({ ...KEY, subpath: 'subagents/a' }, [E('sa')])
    await store.append({ ...KEY, subpath: 'subagents/b' }, [E('sb')])
    await store.append({ projectKey: 'proj', sessionId: 'other', subpath: 'subagents/c' }, [E('sc')])
    assert.deepStrictEqual(sorted(await store.listSubkeys(KEY)), ['subagents/a', 'subagents/b'])
  }, 'listSubkeys'],
  ['listSubkeys excludes main transcript', async (make) => {
    const store = await make()
    await store.append(KEY, [E('main')])
    assert.deepStrictEqual(await store.listSubkeys(KEY), [])
    assert.deepStrictEqual(await store.listSubkeys({ projectKey: 'x', sessionId: 'never' }), [])
  }, 'listSubkeys'],

  // --- beyond the official 13 ---------------------------------------------------------------
  ['hostile ids: each project, session and subpath is its own, read back exactly', async (make) => {
    const store = await make()
    const keys = []
    for (const id of HOSTILE) {
      keys.push({ projectKey: id, sessionId: 's' }, { projectKey: 'p', sessionId: id }, { projectKey: 'p', sessionId: 's', subpath: id })
    }
    // Neighbours a naive join would merge: 'a:b' vs 'a' + subpath 'b', 'x/y'+'z' vs 'x'+'y/z'.
    keys.push({ projectKey: 'x/y', sessionId: 'z' }, { projectKey: 'x', sessionId: 'y/z' }, { projectKey: 'p', sessionId: 'a', subpath: 'b' }, { projectKey: 'p:a', sessionId: 'b' })
    await Promise.all(keys.map((key, i) => store.append(key, [E('k', { i })])))
    const loaded = await Promise.all(keys.map((key) => store.load(key)))
    for (const [i, key] of keys.entries()) expectEntries(loaded[i], [E('k', { i })], `load(${JSON.stringify(key)})`)
    if (store.listSessions) {
      // Project 'p' has a main transcript for each hostile id (session 's' has only subpaths).
      assert.deepStrictEqual(sorted((await store.listSessions('p')).map((s) => s.sessionId)), sorted(HOSTILE), 'listSessions("p") gives each hostile session id exactly')
      assert.deepStrictEqual((await store.listSessions('x/y')).map((s) => s.sessionId), ['z'])
    }
    if (store.listSubkeys) assert.deepStrictEqual(sorted(await store.listSubkeys({ projectKey: 'p', sessionId: 's' })), sorted(HOSTILE))
    if (store.delete) {
      await store.delete({ projectKey: 'p', sessionId: '..' })
      assert.strictEqual(await store.load({ projectKey: 'p', sessionId: '..' }), null)
      const after = await Promise.all(keys.map((key) => store.load(key)))
      for (const [i, key] of keys.entries()) {
        if (key.projectKey === 'p' && key.sessionId === '..') continue
        expectEntries(after[i], [E('k', { i })], `after deleting session "..": load(${JSON.stringify(key)})`)
      }
    }
  }],
  ['unicode and escapes round-trip', async (make) => {
    const store = await make()
    const text = 'emoji 🙂🏳️‍🌈, CJK 日本語, RTL עברית, combining é, NUL \u0000, line sep \u2028\u2029, controls \u0001\u001f, quote " backslash \\ '
    const entries = [E('user', { message: { role: 'user', content: text }, [text]: text, lone: '\ud800', n: [0, -1.5, 1e300, null, true, false] })]
    await store.append(KEY, entries)
    expectEntries(await store.load(KEY), entries)
  }],
  ['minimal entries, a 1 MiB entry and a 2,000-entry batch', async (make) => {
    const store = await make()
    const big = E('assistant', { message: { content: [{ type: 'text', text: 'x'.repeat(1 << 20) }] } })
    await store.append(KEY, [E('t'), E('t', {}), big])
    const many = Array.from({ length: 2000 }, (_, i) => E('e', { i, uuid: `u-${i}` }))
    await store.append(KEY, many)
    expectEntries(await store.load(KEY), [E('t'), E('t'), big, ...many])
  }],
  ['100 appends in a row keep their order (same millisecond or not)', async (make) => {
    const store = await make()
    for (let i = 0; i < 100; i++) await store.append(KEY, [E('e', { i })])
    expectEntries(await store.load(KEY), Array.from({ length: 100 }, (_, i) => E('e', { i })))
  }],
  ['concurrent appends to one session: every entry once, each batch in its order', async (make) => {
    const store = await make()
    const batches = Array.from({ length: 16 }, (_, b) => Array.from({ length: 5 }, (_, i) => E('e', { b, i, uuid: `b${b}-i${i}` })))
    await Promise.all(batches.map((batch) => store.append(KEY, batch)))
    const got = await store.load(KEY)
    assert.ok(Array.isArray(got))
    assert.strictEqual(got.length, 80, `80 entries, got ${got.length}`)
    for (let b = 0; b < 16; b++) {
      assert.deepStrictEqual(got.filter((e) => e.b === b).map((e) => e.i), [0, 1, 2, 3, 4], `batch ${b} once, in order`)
    }
  }],
  ['concurrent appends to many sessions stay apart', async (make) => {
    const store = await make()
    const keys = Array.from({ length: 12 }, (_, i) => ({ projectKey: 'proj', sessionId: `c${i}` }))
    await Promise.all(keys.map((key, i) => store.append(key, [E('e', { i }), E('e', { i, second: true })])))
    for (const [i, key] of keys.entries()) expectEntries(await store.load(key), [E('e', { i }), E('e', { i, second: true })])
  }],
  ['mtime is integer epoch ms and moves forward on append', async (make) => {
    const store = await make()
    await store.append(KEY, [E('a')])
    const [first] = await store.listSessions('proj')
    assert.ok(Number.isInteger(first.mtime) && first.mtime > 1e12, `integer epoch ms: ${first.mtime}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await store.append(KEY, [E('b')])
    const [second] = await store.listSessions('proj')
    assert.ok(second.mtime > first.mtime, `mtime ${second.mtime} after ${first.mtime}`)
  }, 'listSessions'],
  ['listSessionSummaries folds what was appended (main transcripts only)', async (make) => {
    const store = await make()
    const a = { projectKey: 'S', sessionId: 'one' }
    const batch1 = [E('user', { uuid: 'u1', timestamp: '2026-01-02T03:04:05.000Z', cwd: '/w', message: { role: 'user', content: 'first prompt' } })]
    const batch2 = [E('custom-title', { customTitle: 'My title' }), E('tag', { tag: 'blue' })]
    await store.append(a, batch1)
    await store.append(a, batch2)
    await store.append({ ...a, subpath: 'subagents/x' }, [E('user', { message: { role: 'user', content: 'sub prompt' } })])
    await store.append({ projectKey: 'S', sessionId: 'two' }, [E('x')])
    await store.append({ projectKey: 'T', sessionId: 'three' }, [E('x')])
    const list = await store.listSessionSummaries('S')
    assert.deepStrictEqual(sorted(list.map((s) => s.sessionId)), ['one', 'two'])
    const one = list.find((s) => s.sessionId === 'one')
    const expected = foldSessionSummary(foldSessionSummary(undefined, a, batch1), a, batch2)
    assert.strictEqual(canon(one.data), canon(expected.data))
    assert.ok(Number.isInteger(one.mtime) && one.mtime > 1e12)
    if (store.listSessions) {
      const listed = await store.listSessions('S')
      assert.strictEqual(one.mtime, listed.find((s) => s.sessionId === 'one').mtime, 'the same mtime as listSessions')
    }
    if (store.delete) {
      await store.delete(a)
      assert.deepStrictEqual((await store.listSessionSummaries('S')).map((s) => s.sessionId), ['two'])
    }
    assert.deepStrictEqual(await store.listSessionSummaries('never-seen'), [])
  }, 'listSessionSummaries'],
  ['concurrent appends fold every batch into the summary', async (make) => {
    const store = await make()
    const batches = Array.from({ length: 10 }, (_, i) => [E('user', { message: { role: 'user', content: `p${i}` } }), E(`t${i}`, { gitBranch: 'main' })])
    await Promise.all(batches.map((b) => store.append(KEY, b)))
    const [summary] = await store.listSessionSummaries('proj')
    assert.strictEqual(summary.data.gitBranch, 'main')
    assert.match(String(summary.data.firstPrompt), /^p\d$/)
  }, 'listSessionSummaries'],
  ['results have the documented shapes', async (make) => {
    const store = await make()
    await store.append(KEY, [E('a')])
    await store.append({ ...KEY, subpath: 'subagents/a' }, [E('b')])
    const loaded = await store.load(KEY)
    assert.ok(Array.isArray(loaded) && loaded.every((e) => e && typeof e === 'object' && typeof e.type === 'string'))
    if (store.listSessions) {
      for (const s of await store.listSessions('proj')) assert.ok(typeof s.sessionId === 'string' && Number.isInteger(s.mtime), JSON.stringify(s))
    }
    if (store.listSubkeys) {
      const subs = await store.listSubkeys(KEY)
      assert.ok(Array.isArray(subs) && subs.every((s) => typeof s === 'string'))
    }
  }],
  ['a replayed entry (same uuid) is stored once; entries without uuid are not deduplicated', async (make) => {
    const store = await make()
    const batch = [E('user', { uuid: 'u1' }), E('custom-title', { customTitle: 't' }), E('assistant', { uuid: 'a1' })]
    await store.append(KEY, batch)
    await store.append(KEY, batch)
    await store.append(KEY, [E('assistant', { uuid: 'a2' })])
    expectEntries(await store.load(KEY), [...batch, E('custom-title', { customTitle: 't' }), E('assistant', { uuid: 'a2' })])
    // The same uuid in another session, or subpath, is another entry.
    await store.append({ ...KEY, subpath: 'subagents/a' }, [E('user', { uuid: 'u1' })])
    expectEntries(await store.load({ ...KEY, subpath: 'subagents/a' }), [E('user', { uuid: 'u1' })])
  }, 'idempotent'],
  ['an unreachable backend rejects every call (never resolves with empty data)', async (_make, opts) => {
    const store = await opts.makeUnreachableStore()
    /** @type {[string, () => unknown][]} */
    const calls = [['append', () => store.append(KEY, [E('a')])], ['load', () => store.load(KEY)]]
    for (const m of ['listSessions', 'listSessionSummaries']) if (store[m]) calls.push([m, () => store[m]('proj')])
    if (store.listSubkeys) calls.push(['listSubkeys', () => store.listSubkeys(KEY)])
    if (store.delete) calls.push(['delete', () => store.delete(KEY)])
    for (const [name, call] of calls) {
      let p
      assert.doesNotThrow(() => (p = call()), `${name}() returns a promise instead of throwing`)
      await assert.rejects(Promise.resolve(p), `${name}() rejects`)
    }
  }, 'unreachable'],
]

/** Whether `store` (or the options) make a contract apply. */
function applies(requires, store, opts) {
  if (!requires) return true
  if (requires === 'idempotent') return opts.idempotent === true
  if (requires === 'unreachable') return typeof opts.makeUnreachableStore === 'function'
  return typeof store[requires] === 'function'
}

/**
 * The test functions to register with: given ones, else bun:test, vitest's globals or node:test;
 * `nodeStyle` when they take options before the function (node:test) rather than a timeout after.
 */
function framework(opts) {
  const nodeTest = /** @type {typeof import('node:test')} */ (globalThis.Bun || process.env.VITEST ? null : require('node:test'))
  if (opts.test || opts.it) {
    const test = opts.test ?? opts.it
    let nodeStyle = false
    try {
      const t = require('node:test')
      nodeStyle = test === t.test || test === t.it || test === t
    } catch {}
    return { test, describe: opts.describe, nodeStyle }
  }
  if (globalThis.Bun) {
    // @ts-expect-error -- Bun's own module: no typings outside Bun
    const bun = require('bun:test')
    return { test: bun.test, describe: bun.describe, nodeStyle: false }
  }
  if (process.env.VITEST) {
    if (typeof globalThis.test === 'function') return { test: globalThis.test, describe: globalThis.describe, nodeStyle: false }
    throw new Error("runSessionStoreConformance under vitest without globals: pass { describe, it } from 'vitest'")
  }
  return { test: nodeTest.test, describe: nodeTest.describe, nodeStyle: true }
}

/** One contract as a test body: a contract needing an optional method the store lacks passes. */
function contractBody(makeStore, run, requires, opts) {
  return async () => {
    const make = async () => {
      const store = await makeStore()
      if (!store || typeof store.append !== 'function' || typeof store.load !== 'function') throw new TypeError('makeStore() must return a SessionStore (with append and load)')
      return store
    }
    if (requires === 'idempotent' || requires === 'unreachable') {
      if (applies(requires, {}, opts)) await run(make, opts)
      return
    }
    if (!requires) return run(make, opts)
    const first = await make()
    if (!applies(requires, first, opts)) return
    let handed = false
    await run(async () => (handed ? make() : ((handed = true), first)), opts)
  }
}

/**
 * Registers one test per contract. `makeStore` must give a fresh, empty, isolated store on
 * every call (a new table, key prefix or bucket prefix). Options: `{ describe, it | test }` (the
 * test functions; found when not given), `name` (of the describe block; `describe: false` for
 * none), `timeout` (ms per contract, default 60000), `idempotent: true` (the store drops a
 * replayed uuid), `makeUnreachableStore` (a store whose backend cannot be reached).
 */
function runSessionStoreConformance(makeStore, opts = {}) {
  if (typeof makeStore !== 'function') throw new TypeError('runSessionStoreConformance(makeStore): makeStore must be a function returning a (fresh) SessionStore')
  const { test, describe, nodeStyle } = framework(opts)
  const timeout = opts.timeout ?? 60000
  const register = () => {
    for (const [name, run, requires] of CONTRACTS) {
      const body = contractBody(makeStore, run, requires, opts)
      if (nodeStyle) test(name, { timeout }, body)
      else test(name, body, timeout)
    }
  }
  if (describe && opts.describe !== false) describe(opts.name ?? 'SessionStore conformance', register)
  else register()
}

/** The contracts' names, in order (official 13 first). */
const sessionStoreContracts = CONTRACTS.map(([name, , requires]) => ({ name, requires: requires ?? null }))

module.exports = { runSessionStoreConformance, sessionStoreContracts, contractBody, CONTRACTS }
