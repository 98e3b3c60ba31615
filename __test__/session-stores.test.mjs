// The maintained session stores (claude-agent-sdk-native/stores/{postgres,redis,s3}) on real
// servers started here (PostgreSQL, Redis, an S3-compatible server: __test__/helpers/store-servers.mjs),
// each put through the conformance kit of claude-agent-sdk-native/testing, with
// InMemorySessionStore; stores that break a contract fail the kit; the adapters' own promises:
// bad options, idempotent setup, all-or-nothing appends, corrupt entries named, the reference
// adapter's Postgres table read as is.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import pg from 'pg'
import Redis from 'ioredis'
import { S3Client, PutObjectCommand, ListObjectsV2Command, DeleteObjectsCommand } from '@aws-sdk/client-s3'
import { PostgresSessionStore } from 'claude-agent-sdk-native/stores/postgres'
import { RedisSessionStore } from 'claude-agent-sdk-native/stores/redis'
import { S3SessionStore } from 'claude-agent-sdk-native/stores/s3'
import { runSessionStoreConformance, sessionStoreContracts } from 'claude-agent-sdk-native/testing'
import { InMemorySessionStore } from 'claude-agent-sdk-native'
import { createRequire } from 'node:module'
import { startPostgres, startRedis, startS3 } from './helpers/store-servers.mjs'

const require = createRequire(import.meta.url)
const { CONTRACTS, contractBody } = require('../testing/conformance.js')

const RUN = crypto.randomBytes(4).toString('hex')
let servers
let pool
let redis
let s3
const tables = []
const ready = (async () => {
  const [postgres, redisServer, s3Server] = await Promise.all([startPostgres(), startRedis(), startS3()])
  servers = { postgres, redis: redisServer, s3: s3Server }
  pool = new pg.Pool({ connectionString: postgres.url, max: 10 })
  pool.on('error', () => {}) // an idle connection the server ends at shutdown
  redis = new Redis(redisServer.url, { lazyConnect: false, maxRetriesPerRequest: 2 })
  s3 = new S3Client({ endpoint: s3Server.endpoint, region: s3Server.region, credentials: s3Server.credentials, forcePathStyle: true })
  await new S3SessionStore({ bucket: s3Server.bucket, client: s3 }).ensureBucket()
})()
// Not before(): bun:test runs a file's before() hooks only around its test() calls, while the
// conformance kit's factories are awaited inside tests anyway.
ready.catch(() => {})

async function postgresStore() {
  await ready
  const tableName = `t_${RUN}_${tables.length}`
  tables.push(tableName)
  const store = new PostgresSessionStore({ pool, tableName })
  await store.ensureSchema()
  return store
}
let prefixes = 0
async function redisStore() {
  await ready
  return new RedisSessionStore({ client: redis, prefix: `test-${RUN}-${prefixes++}` })
}
async function s3Store() {
  await ready
  return new S3SessionStore({ bucket: servers.s3.bucket, prefix: `test-${RUN}/${prefixes++}`, client: s3 })
}

after(async () => {
  await ready.catch(() => {}) // started even when every test was filtered out
  if (!servers) return
  if (servers.postgres.external) for (const t of tables) await pool.query(`DROP TABLE IF EXISTS ${t}, ${t}_summaries`).catch(() => {})
  if (servers.redis.external) {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `test-${RUN}-*`, 'COUNT', 1000)
      if (keys.length) await redis.del(...keys)
      cursor = next
    } while (cursor !== '0')
  }
  if (servers.s3.external) {
    let token
    do {
      const r = await s3.send(new ListObjectsV2Command({ Bucket: servers.s3.bucket, Prefix: `test-${RUN}/`, ContinuationToken: token }))
      if (r.Contents?.length) await s3.send(new DeleteObjectsCommand({ Bucket: servers.s3.bucket, Delete: { Objects: r.Contents.map((o) => ({ Key: o.Key })), Quiet: true } }))
      token = r.IsTruncated ? r.NextContinuationToken : undefined
    } while (token)
  }
  await pool.end()
  redis.disconnect()
  s3.destroy()
  await Promise.all(Object.values(servers).map((s) => s.stop()))
})

const unreachable = {
  postgres: () => new PostgresSessionStore({ pool: new pg.Pool({ connectionString: 'postgresql://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 2000 }) }),
  redis: () => new RedisSessionStore({ client: new Redis({ host: '127.0.0.1', port: 1, maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, retryStrategy: () => null }) }),
  s3: () => new S3SessionStore({ bucket: 'nowhere', client: new S3Client({ endpoint: 'http://127.0.0.1:1', region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, forcePathStyle: true, maxAttempts: 1 }) }),
}

runSessionStoreConformance(() => new InMemorySessionStore(), { name: 'conformance: InMemorySessionStore' })
runSessionStoreConformance(postgresStore, { name: 'conformance: PostgresSessionStore', idempotent: true, makeUnreachableStore: unreachable.postgres })
runSessionStoreConformance(redisStore, { name: 'conformance: RedisSessionStore', idempotent: true, makeUnreachableStore: unreachable.redis })
runSessionStoreConformance(s3Store, { name: 'conformance: S3SessionStore', idempotent: true, makeUnreachableStore: unreachable.s3, timeout: 180000 }) // moto: about 0.1-0.5 s a request on a loaded machine

test('each store entry gives the same class to import and to require', async () => {
  for (const [sub, name] of [['postgres', 'PostgresSessionStore'], ['redis', 'RedisSessionStore'], ['s3', 'S3SessionStore']]) {
    const esm = await import(`claude-agent-sdk-native/stores/${sub}`)
    assert.equal(typeof esm[name], 'function')
    assert.equal(esm[name], require(`claude-agent-sdk-native/stores/${sub}`)[name], sub)
  }
})

describe('the kit', () => {
  test('has the official 13 contracts first, by name, then ours', () => {
    const official = ['append then load returns same entries in same order', 'load unknown key returns null', 'multiple append calls preserve call order', 'append([]) is a no-op', 'subpath keys are stored independently of main', 'projectKey isolation', 'listSessions returns sessionIds for project', 'listSessions excludes subagent subpaths', 'delete main then load returns null', 'delete main cascades to subkeys', 'delete with subpath removes only that subkey', 'listSubkeys returns subpaths for the session', 'listSubkeys excludes main transcript']
    assert.deepEqual(sessionStoreContracts.slice(0, 13).map((c) => c.name), official)
    assert.ok(sessionStoreContracts.length >= 24)
  })

  test('registers through the test functions it is given (vitest-style: name, fn, timeout)', async () => {
    const seen = []
    runSessionStoreConformance(() => new InMemorySessionStore(), { describe: (name, fn) => (seen.push(['describe', name]), fn()), it: (name, fn, timeout) => seen.push([name, typeof fn, timeout]) , timeout: 1234 })
    assert.deepEqual(seen[0], ['describe', 'SessionStore conformance'])
    assert.deepEqual(seen.slice(1).map(([n]) => n), sessionStoreContracts.map((c) => c.name))
    assert.ok(seen.slice(1).every(([, f, t]) => f === 'function' && t === 1234))
  })

  // Stores that each break one promise: the kit must fail them (and names the broken contract).
  const broken = {
    'load reverses the order': (s) => ({ ...bind(s), load: async (k) => (await s.load(k))?.reverse() ?? null }),
    'load gives [] for an unknown key': (s) => ({ ...bind(s), load: async (k) => (await s.load(k)) ?? [] }),
    'subpaths share the main transcript': (s) => ({ ...bind(s), append: (k, e) => s.append({ projectKey: k.projectKey, sessionId: k.sessionId }, e), load: (k) => s.load({ projectKey: k.projectKey, sessionId: k.sessionId }) }),
    'keys joined with "/" unescaped': () => joinedStore(),
    'delete leaves the subpaths': (s) => ({ ...bind(s), delete: async (k) => (k.subpath ? s.delete(k) : void s.store.delete(s.keyToString(k))) }),
    'listSessions lists sessions of every project': (s) => ({ ...bind(s), listSessions: async () => [...(await s.listSessions('proj')), ...(await s.listSessions('P')), ...(await s.listSessions('Q'))] }),
    'appends lose entries when called at once': (s) => {
      let busy = false
      return { ...bind(s), append: async (k, e) => { if (busy) return; busy = true; await new Promise((r) => setTimeout(r, 1)); await s.append(k, e); busy = false } }
    },
    'an outage looks like an empty store': () => ({ append: async () => {}, load: async () => null, listSessions: async () => [] }),
  }
  for (const [what, make] of Object.entries(broken)) {
    test(`a store where ${what} fails the kit`, async () => {
      const failed = []
      const opts = what === 'an outage looks like an empty store' ? { makeUnreachableStore: make } : { idempotent: false }
      for (const [name, run, requires] of CONTRACTS) {
        try {
          await contractBody(async () => make(new InMemorySessionStore()), run, requires, opts)()
        } catch {
          failed.push(name)
        }
      }
      assert.ok(failed.length > 0, `${what}: no contract failed`)
    })
  }
  test('InMemorySessionStore passes every contract when run directly', async () => {
    for (const [name, run, requires] of CONTRACTS) await assert.doesNotReject(contractBody(async () => new InMemorySessionStore(), run, requires, {})(), name)
  })
})

function bind(s) {
  const out = { store: s }
  for (const m of ['append', 'load', 'listSessions', 'listSessionSummaries', 'delete', 'listSubkeys']) out[m] = s[m].bind(s)
  return out
}

/** A store that joins key parts with '/' without escaping (so 'a/b' + 'c' is 'a' + 'b/c'). */
function joinedStore() {
  const m = new Map()
  const k = (key) => [key.projectKey, key.sessionId, key.subpath].filter(Boolean).join('/')
  return {
    append: async (key, entries) => void m.set(k(key), [...(m.get(k(key)) ?? []), ...structuredClone(entries)]),
    load: async (key) => structuredClone(m.get(k(key)) ?? null),
  }
}

// Two store objects (two workers) taking turns on one session: each one's remembered summary
// goes stale when the other writes, and every batch must still be folded in.
for (const [name, make] of [['PostgresSessionStore', () => postgresStore().then((s) => [s, new PostgresSessionStore({ pool, tableName: tables.at(-1) })])], ['RedisSessionStore', () => redisStore().then((s) => [s, new RedisSessionStore({ client: redis, prefix: `test-${RUN}-${prefixes - 1}` })])], ['S3SessionStore', () => s3Store().then((s) => [s, new S3SessionStore({ bucket: servers.s3.bucket, prefix: `test-${RUN}/${prefixes - 1}`, client: s3 })])]]) {
  test(`${name}: two writers taking turns on one session: every batch in the entries and the summary`, async () => {
    const [a, b] = await make()
    const key = { projectKey: 'p', sessionId: 's' }
    const batches = [
      [{ type: 'user', uuid: 'u1', message: { role: 'user', content: 'hello' } }],
      [{ type: 'custom-title', customTitle: 'first' }],
      [{ type: 'tag', tag: 'x' }],
      [{ type: 'custom-title', customTitle: 'second' }],
      [{ type: 'x', gitBranch: 'dev' }],
    ]
    for (const [i, batch] of batches.entries()) await (i % 2 ? b : a).append(key, batch)
    assert.deepEqual(await a.load(key), batches.flat())
    const [summary] = await b.listSessionSummaries('p')
    assert.deepEqual({ ...summary.data }, { isSidechain: false, firstPrompt: 'hello', firstPromptLocked: true, customTitle: 'second', tag: 'x', gitBranch: 'dev' })
  })
}

describe('PostgresSessionStore', () => {
  test('rejects bad options with a clear error', () => {
    assert.throws(() => new PostgresSessionStore({}), /options\.pool must be a pg Pool/)
    assert.throws(() => new PostgresSessionStore({ pool: { query() {}, connect() {} }, tableName: 'x; DROP TABLE y' }), /invalid tableName/)
    assert.throws(() => new PostgresSessionStore({ pool: { query() {}, connect() {} }, tableName: 'a'.repeat(41) }), /invalid tableName/)
  })

  test('bad keys and entries are rejected naming the field', async () => {
    const store = await postgresStore()
    await assert.rejects(store.append({ projectKey: 'p' }, []), /key\.sessionId must be a non-empty string/)
    await assert.rejects(store.append({ projectKey: 'p', sessionId: 's' }, [{ no: 'type' }]), /entry 0 for session "s" \(project "p"\) must be an object with a string "type"/)
    await assert.rejects(store.load({ projectKey: 'p', sessionId: 's', subpath: '' }), /key\.subpath must be a non-empty string or undefined/)
  })

  test('a store used before ensureSchema() says so', async () => {
    await ready
    const store = new PostgresSessionStore({ pool, tableName: `t_${RUN}_missing` })
    await assert.rejects(store.append({ projectKey: 'p', sessionId: 's' }, [{ type: 'a' }]), /the table t_[0-9a-f]+_missing does not exist: call ensureSchema\(\) once at startup/)
    await assert.rejects(store.load({ projectKey: 'p', sessionId: 's' }), /call ensureSchema\(\)/)
  })

  test('ensureSchema is idempotent, also from many callers at once', async () => {
    await ready
    const tableName = `t_${RUN}_schema`
    tables.push(tableName)
    const stores = Array.from({ length: 6 }, () => new PostgresSessionStore({ pool, tableName }))
    await Promise.all(stores.map((s) => s.ensureSchema()))
    await stores[0].append({ projectKey: 'p', sessionId: 's' }, [{ type: 'a' }])
    await stores[1].ensureSchema()
    assert.deepEqual(await stores[2].load({ projectKey: 'p', sessionId: 's' }), [{ type: 'a' }])
  })

  test('an append is all or nothing: a failure at its 2,401st row leaves none of its rows', async () => {
    const store = await postgresStore()
    const t = tables.at(-1)
    await pool.query(`CREATE FUNCTION ${t}_poison() RETURNS trigger AS $$ BEGIN IF NEW.entry::jsonb->>'type' = 'poison' THEN RAISE EXCEPTION 'poisoned entry'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`)
    await pool.query(`CREATE TRIGGER poison BEFORE INSERT ON ${t} FOR EACH ROW EXECUTE FUNCTION ${t}_poison()`)
    const key = { projectKey: 'p', sessionId: 's' }
    await store.append(key, [{ type: 'before' }])
    // 2,500 entries, the poison near the end; the session's summary is known (the one-statement path).
    const batch = Array.from({ length: 2500 }, (_, i) => ({ type: i === 2400 ? 'poison' : 'e', i }))
    await assert.rejects(store.append(key, batch), /poisoned entry/)
    assert.deepEqual(await store.load(key), [{ type: 'before' }])
    // A store object that has not written the session takes the transaction path.
    await assert.rejects(new PostgresSessionStore({ pool, tableName: t }).append(key, batch), /poisoned entry/)
    assert.deepEqual(await store.load(key), [{ type: 'before' }])
    assert.equal((await store.listSessionSummaries('p'))[0].data.firstPrompt, undefined)
  })

  test('a corrupt row is an error naming the session and the entry', async () => {
    const store = await postgresStore()
    const t = tables.at(-1)
    await store.append({ projectKey: 'p', sessionId: 's' }, [{ type: 'ok' }])
    await pool.query(`INSERT INTO ${t} (project_key, session_id, entry) VALUES ('p', 's', '[1,2]')`)
    await assert.rejects(store.load({ projectKey: 'p', sessionId: 's' }), /PostgresSessionStore\.load\(\): corrupt entry 1 of session "s" \(project "p"\): not an object with a string "type"/)
  })

  test('reads and extends a table the official reference adapter wrote (jsonb, no uuid column)', async () => {
    await ready
    const t = `t_${RUN}_legacy`
    tables.push(t)
    await pool.query(`CREATE TABLE ${t} (id BIGSERIAL PRIMARY KEY, project_key TEXT NOT NULL, session_id TEXT NOT NULL, subpath TEXT, entry JSONB NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT NOW())`)
    await pool.query(`INSERT INTO ${t} (project_key, session_id, subpath, entry) VALUES ('p', 'old', NULL, '{"type":"user","uuid":"u1"}'), ('p', 'old', 'subagents/a', '{"type":"x"}')`)
    const store = new PostgresSessionStore({ pool, tableName: t })
    await store.ensureSchema()
    assert.deepEqual((await store.listSessions('p')).map((s) => s.sessionId), ['old'])
    await store.append({ projectKey: 'p', sessionId: 'old' }, [{ type: 'user', uuid: 'u1' }, { type: 'assistant', uuid: 'a1' }])
    const loaded = await store.load({ projectKey: 'p', sessionId: 'old' })
    assert.deepEqual(loaded.map((e) => e.uuid), ['u1', 'u1', 'a1'], 'old rows have no uuid column value: the replay is only caught for rows written since')
    assert.deepEqual(await store.listSubkeys({ projectKey: 'p', sessionId: 'old' }), ['subagents/a'])
  })
})

describe('RedisSessionStore', () => {
  test('rejects bad options', () => {
    assert.throws(() => new RedisSessionStore({}), /options\.client must be an ioredis client/)
    assert.throws(() => new RedisSessionStore({ client: redisLike(), prefix: 3 }), /prefix must be a string/)
  })
  test('a corrupt list item is an error naming the session and the entry', async () => {
    const store = await redisStore()
    const key = { projectKey: 'p:q', sessionId: 's' }
    await store.append(key, [{ type: 'ok' }, { type: 'ok2' }])
    const list = (await redis.keys(`test-${RUN}-${prefixes - 1}:*:e:s`))[0]
    await redis.rpush(list, '{not json')
    await assert.rejects(store.load(key), /RedisSessionStore\.load\(\): corrupt entry 2 of session "s" \(project "p:q"\): not JSON/)
  })
  test('keys stay in one hash slot per project and hold no raw id', async () => {
    const store = await redisStore()
    await store.append({ projectKey: '{evil}:x', sessionId: 'a:b', subpath: 'c/d' }, [{ type: 'e' }])
    await store.append({ projectKey: '{evil}:x', sessionId: 'a:b' }, [{ type: 'e' }])
    const keys = await redis.keys(`test-${RUN}-${prefixes - 1}:*`)
    assert.ok(keys.length >= 4)
    for (const k of keys) assert.match(k, /^test-[0-9a-f]+-\d+:\{%7Bevil%7D%3Ax\}:/, k)
  })
})

describe('S3SessionStore', () => {
  test('rejects bad options', () => {
    assert.throws(() => new S3SessionStore({ client: s3 }), /options\.bucket must be a non-empty string/)
    assert.throws(() => new S3SessionStore({ bucket: 'b' }), /options\.client must be an S3Client/)
  })
  test('ensureBucket is idempotent', async () => {
    await ready
    const store = new S3SessionStore({ bucket: `fresh-${RUN}`, client: s3 })
    await Promise.all([store.ensureBucket(), store.ensureBucket()])
    await store.ensureBucket()
    await store.append({ projectKey: 'p', sessionId: 's' }, [{ type: 'a' }])
    assert.deepEqual(await store.load({ projectKey: 'p', sessionId: 's' }), [{ type: 'a' }])
  })
  test('a corrupt part is an error naming the session and the entry', async () => {
    const store = await s3Store()
    const key = { projectKey: 'p', sessionId: 's' }
    await store.append(key, [{ type: 'ok' }])
    await s3.send(new PutObjectCommand({ Bucket: servers.s3.bucket, Key: `test-${RUN}/${prefixes - 1}/p/s/part-9999999999999-abcdef.jsonl`, Body: '{"type":"fine"}\n"just a string"\n' }))
    await assert.rejects(store.load(key), /S3SessionStore\.load\(\): corrupt entry 2 of session "s" \(project "p"\): not an object/)
  })
  test('a server without conditional writes (501 to If-Match / If-None-Match) gets plain ones', async () => {
    await ready
    const refused = []
    const client = {
      send(command) {
        if (command.input.IfMatch || command.input.IfNoneMatch) {
          refused.push(command.input.Key)
          return Promise.reject(Object.assign(new Error('A header you provided implies functionality that is not implemented'), { name: 'NotImplemented', $metadata: { httpStatusCode: 501 } }))
        }
        return s3.send(command)
      },
    }
    const store = new S3SessionStore({ bucket: servers.s3.bucket, prefix: `test-${RUN}/${prefixes++}`, client })
    const key = { projectKey: 'p', sessionId: 's' }
    await store.append(key, [{ type: 'user', message: { role: 'user', content: 'hi' } }])
    await store.append(key, [{ type: 'custom-title', customTitle: 'T' }])
    assert.equal(refused.length, 1, 'asked once, then plain writes')
    assert.deepEqual((await store.load(key)).map((e) => e.type), ['user', 'custom-title'])
    const [summary] = await store.listSessionSummaries('p')
    assert.equal(summary.data.firstPrompt, 'hi')
    assert.equal(summary.data.customTitle, 'T')
  })

  test('object keys hold no raw separator or traversal', async () => {
    const store = await s3Store()
    await store.append({ projectKey: '../..', sessionId: 'a/b', subpath: '..' }, [{ type: 'e' }])
    const r = await s3.send(new ListObjectsV2Command({ Bucket: servers.s3.bucket, Prefix: `test-${RUN}/${prefixes - 1}/` }))
    assert.equal(r.Contents.length, 1)
    assert.match(r.Contents[0].Key, /^test-[0-9a-f]+\/\d+\/%2E%2E%2F%2E%2E\/a%2Fb\/%2E%2E\/part-\d{13}-[0-9a-f]{6}\.jsonl$/)
  })
})

function redisLike() {
  return { lrange() {}, evalsha() {}, multi() {} }
}
