// The Rust SDK's session stores on real servers: PostgreSQL and Redis are started here
// (__test__/helpers/store-servers.mjs), a TypeScript worker writes a session into each through
// claude-agent-sdk-native/stores/*, then `cargo test --release -p claude-agent-sdk --features
// testing,postgres,redis --test session_stores` runs with the servers' URLs: the conformance
// runner against the in-memory store, broken stores and both database stores, and the interop
// half (the Rust store loads and extends the TypeScript session, writes its own), a server that
// goes away and comes back (through a proxy), a corrupt entry on resume. Back here, the
// TypeScript stores read what Rust wrote: one database, two languages.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import Redis from 'ioredis'
import { PostgresSessionStore } from 'claude-agent-sdk-native/stores/postgres'
import { RedisSessionStore } from 'claude-agent-sdk-native/stores/redis'
import { foldSessionSummary } from 'claude-agent-sdk-native'
import { startPostgres, startRedis } from './helpers/store-servers.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const RUN = crypto.randomBytes(4).toString('hex')
const TABLE = `interop_${RUN}`
const PREFIX = `interop-${RUN}`
const PROJECT = 'interop/project'

/** What the TypeScript store writes: prompts, titles, a tag, unicode, odd numbers, uuids. */
const ENTRIES = [
  { type: 'user', uuid: 'js-1', timestamp: '2026-01-02T03:04:05.000Z', cwd: '/srv/app', gitBranch: 'main', message: { role: 'user', content: 'hello from TypeScript 🙂 日本語 \u2028 "quoted" \\ NUL \u0000' } },
  { type: 'assistant', uuid: 'js-2', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, n: [0, -1.5, 1e300, null, true] },
  { type: 'custom-title', customTitle: 'Shared session' },
  { type: 'tag', tag: 'blue' },
]

let servers
const ready = (async () => {
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()])
  servers = { postgres, redis }
  const pool = new pg.Pool({ connectionString: postgres.url, max: 4 })
  pool.on('error', () => {})
  const client = new Redis(redis.url)
  const stores = { postgres: new PostgresSessionStore({ pool, tableName: TABLE }), redis: new RedisSessionStore({ client, prefix: PREFIX }) }
  await stores.postgres.ensureSchema()
  for (const store of Object.values(stores)) {
    await store.append({ projectKey: PROJECT, sessionId: 'from-js' }, ENTRIES)
    await store.append({ projectKey: PROJECT, sessionId: 'from-js', subpath: 'subagents/agent-js' }, [{ type: 'user', uuid: 'js-sub-1' }])
  }
  return { pool, client, stores }
})()
ready.catch(() => {})

after(async () => {
  const r = await ready.catch(() => null)
  if (r) {
    if (servers.postgres.external) await r.pool.query(`DROP TABLE IF EXISTS ${TABLE}, ${TABLE}_summaries`).catch(() => {})
    if (servers.redis.external) {
      const keys = await r.client.keys(`${PREFIX}:*`)
      if (keys.length) await r.client.del(...keys)
    }
    await r.pool.end()
    r.client.disconnect()
  }
  if (servers) await Promise.all(Object.values(servers).map((s) => s.stop()))
})

/** Runs a command, its output kept; resolves with { code, output }. */
function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code: code ?? signal, output }))
  })
}

let cargo
test('cargo test --test session_stores: the runner, both stores on the real servers, the Rust half of the interop', { timeout: 30 * 60 * 1000 }, async () => {
  await ready
  cargo = await run('cargo', ['test', '--release', '-p', 'claude-agent-sdk', '--features', 'testing,postgres,redis', '--test', 'session_stores'], {
    SESSION_STORE_POSTGRES_URL: servers.postgres.url,
    SESSION_STORE_REDIS_URL: servers.redis.url,
    CASN_INTEROP_PG_TABLE: TABLE,
    CASN_INTEROP_REDIS_PREFIX: PREFIX,
    CASN_INTEROP_ENTRIES: JSON.stringify(ENTRIES),
    // Nothing may skip for lack of a server here.
    CLAUDE_AGENT_SDK_REQUIRE_E2E: '1',
    RUST_BACKTRACE: '0',
  })
  const result = cargo.output.match(/test result: (\w+)\. (\d+) passed; (\d+) failed/)
  assert.equal(cargo.code, 0, `cargo test failed:\n${cargo.output.slice(-6000)}`)
  assert.ok(result, `no test result line:\n${cargo.output.slice(-3000)}`)
  assert.equal(Number(result[3]), 0)
  const names = ['the_in_memory_store_passes_every_contract', 'stores_that_break_a_promise_fail_the_runner_naming_the_contract', 'a_contract_that_hangs_or_panics_fails_instead_of_stopping_the_run', 'a_resume_from_a_store_holding_a_corrupt_entry_names_it_and_writes_nothing']
  names.push('postgres::passes_the_conformance_runner', 'postgres::keeps_its_promises', 'postgres::recovers_from_an_outage_and_names_a_corrupt_entry_on_resume', 'postgres::shares_a_database_with_the_typescript_store')
  names.push('redis::passes_the_conformance_runner', 'redis::keys_are_the_typescript_stores_and_corrupt_items_are_named', 'redis::recovers_from_an_outage', 'redis::shares_a_database_with_the_typescript_store')
  for (const name of names) {
    assert.match(cargo.output, new RegExp(`^test ${name} \\.\\.\\. ok$`, 'm'), `${name} ran and passed`)
  }
})

for (const backend of ['postgres', 'redis']) {
  test(`${backend}: the TypeScript store reads what the Rust store wrote`, async (t) => {
    if (cargo?.code !== 0) return t.skip('the cargo run failed (reported above)')
    const { stores } = await ready
    const store = stores[backend]
    // The Rust session, entry for entry, and its subagent.
    assert.deepEqual(await store.load({ projectKey: PROJECT, sessionId: 'from-rust' }), ENTRIES)
    assert.deepEqual(await store.load({ projectKey: PROJECT, sessionId: 'from-rust', subpath: 'subagents/agent-rs' }), [{ type: 'user', uuid: 'rs-sub-1' }])
    assert.deepEqual(await store.listSubkeys({ projectKey: PROJECT, sessionId: 'from-rust' }), ['subagents/agent-rs'])
    // The TypeScript session, extended by Rust: its replayed entry dropped, the new one after.
    const extended = [...ENTRIES, { type: 'custom-title', customTitle: 'renamed in Rust' }]
    assert.deepEqual(await store.load({ projectKey: PROJECT, sessionId: 'from-js' }), extended)
    // Summaries folded by Rust are the ones TypeScript folds.
    const summaries = await store.listSessionSummaries(PROJECT)
    const byId = Object.fromEntries(summaries.map((s) => [s.sessionId, s]))
    const fold = (id, ...batches) => batches.reduce((prev, b) => foldSessionSummary(prev, { projectKey: PROJECT, sessionId: id }, b), undefined).data
    assert.deepEqual({ ...byId['from-rust'].data }, fold('from-rust', ENTRIES))
    assert.deepEqual({ ...byId['from-js'].data }, fold('from-js', ENTRIES, [ENTRIES[0], ...extended.slice(-1)]))
    assert.equal(byId['from-js'].data.customTitle, 'renamed in Rust')
    const listed = await store.listSessions(PROJECT)
    assert.deepEqual(listed.map((s) => s.sessionId).sort(), ['from-js', 'from-rust'])
    // TypeScript appends again after Rust's write (its remembered summary is stale now).
    await store.append({ projectKey: PROJECT, sessionId: 'from-js' }, [{ type: 'tag', tag: '' }])
    const [again] = (await store.listSessionSummaries(PROJECT)).filter((s) => s.sessionId === 'from-js')
    assert.equal(again.data.tag, undefined)
    assert.equal(again.data.customTitle, 'renamed in Rust')
  })
}
