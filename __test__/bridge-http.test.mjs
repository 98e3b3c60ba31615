// claude-agent-sdk-native/bridge side by side with the official `./bridge`: createCodeSession,
// fetchRemoteCredentials and the guards, against the same local fake of the endpoints. For each
// scenario both packages must send the same requests and return the same value.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk/bridge'
import * as ours from 'claude-agent-sdk-native/bridge'
import { startBridgeFake, normalizeRequest } from './helpers/bridge-fake.mjs'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)

const PACKAGES = { official, ours }

// Runs `call(pkg, url)` for each package against its own fake with the same routes.
async function sideBySide(routes, call) {
  const out = {}
  for (const [name, pkg] of Object.entries(PACKAGES)) {
    const fake = await startBridgeFake(routes)
    try {
      let result, error
      try {
        result = await call(pkg, fake.url)
      } catch (err) {
        error = err
      }
      out[name] = { result, error, requests: fake.log.map((e) => normalizeRequest(e)) }
    } finally {
      await fake.close()
    }
  }
  assert.deepStrictEqual(out.ours.requests, out.official.requests, 'requests')
  assert.deepStrictEqual(out.ours.result, out.official.result, 'result')
  assert.equal(out.ours.error?.message, out.official.error?.message, 'error')
  return out.official
}

const answer = (status, body, extra = {}) => ({ answer: (e) => (e.path === '/v1/code/sessions' || e.path.endsWith('/bridge') ? { status, body, ...extra } : undefined) })

test('createCodeSession: happy path, every argument', async () => {
  const r = await sideBySide({}, (pkg, url) => pkg.createCodeSession(url, 'oauth-1', 'My title', 5000, ['a', 'b'], { gitRepoUrl: 'https://github.com/acme/widgets.git', branch: 'feature/x', defaultBranch: 'main' }, '/work/dir', 'claude-opus-4-1', 'grp_1'))
  assert.equal(r.result, 'cse_fake1')
  assert.equal(r.requests.length, 1)
  assert.equal(r.requests[0].body.config.sources[0].url, 'https://github.com/acme/widgets')
})

test('createCodeSession: minimal arguments, 201', async () => {
  const r = await sideBySide({ answer: (e) => ({ status: 201, body: { session: { id: 'cse_2' } } }) }, (pkg, url) => pkg.createCodeSession(url, 'tok', 't', 5000))
  assert.equal(r.result, 'cse_2')
})

test('createCodeSession: git contexts (ssh, shorthand, gitlab, default branch, no default, unparsable, HEAD)', async () => {
  const contexts = [
    { gitRepoUrl: 'git@github.com:acme/widgets.git', branch: 'main', defaultBranch: 'main' },
    { gitRepoUrl: 'acme/widgets', branch: 'dev' },
    { gitRepoUrl: 'https://gitlab.com/group/sub/project.git', branch: 'b', defaultBranch: 'main' },
    { gitRepoUrl: 'ssh://git@github.com:22/acme/widgets', branch: 'x', defaultBranch: 'y' },
    { gitRepoUrl: 'not a url', branch: 'x', defaultBranch: 'y' },
    { gitRepoUrl: 'https://github.com/acme/widgets', branch: 'HEAD', defaultBranch: 'trunk' },
    { gitRepoUrl: '', branch: 'x' },
  ]
  for (const ctx of contexts) {
    const dedup = {}
    await sideBySide({}, async (pkg, url) => {
      const id = await pkg.createCodeSession(url, 'tok', 't', 5000, [], ctx, '/w', undefined, undefined, dedup)
      return { id, dedup: { ...dedup } }
    })
  }
})

test("createCodeSession: with neither branch nor default branch, the revision is the working repository's origin default branch", () => {
  // Each case runs in a process of its own (both packages read the repository once per process).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-git-'))
  try {
    const repo = (name, files) => {
      for (const [file, text] of Object.entries({ HEAD: 'ref: refs/heads/main\n', ...files })) {
        fs.mkdirSync(path.dirname(path.join(dir, name, '.git', file)), { recursive: true })
        fs.writeFileSync(path.join(dir, name, '.git', file), text)
      }
      return path.join(dir, name)
    }
    const sha = '0123456789012345678901234567890123456789\n'
    const cases = {
      trunk: repo('symref', { 'refs/remotes/origin/HEAD': 'ref: refs/remotes/origin/trunk\n', 'refs/remotes/origin/trunk': sha }),
      master: repo('packed', { 'packed-refs': `# pack-refs with: peeled\n${sha.trim()} refs/remotes/origin/master\n` }),
      main: repo('dangling', { 'refs/remotes/origin/HEAD': 'ref: refs/remotes/origin/gone\n' }),
    }
    const script = path.join(dir, 'run.mjs')
    fs.writeFileSync(script, `
const pkg = await import(process.argv[2])
const { startBridgeFake } = await import(${JSON.stringify(pathToFileURL(fileURLToPath(new URL('./helpers/bridge-fake.mjs', import.meta.url))).href)})
const f = await startBridgeFake()
await pkg.createCodeSession(f.url, 't', 't', 2000, [], { gitRepoUrl: 'acme/widgets', branch: '' })
process.stdout.write(f.log[0].body.config.sources[0].revision)
await f.close()
`)
    const entries = { official: require.resolve('@anthropic-ai/claude-agent-sdk/bridge'), ours: fileURLToPath(new URL('../bridge/index.mjs', import.meta.url)) }
    for (const [expected, cwd] of Object.entries(cases)) {
      for (const [name, entry] of Object.entries(entries)) {
        const r = spawnSync(process.execPath, [script, pathToFileURL(entry).href], { cwd, encoding: 'utf8' })
        assert.equal(r.stdout, expected, `${name} in ${cwd}: ${r.stderr}`)
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

test('createCodeSession: failures and rejections', async () => {
  const cases = [
    [401, { error: { message: 'bad token' } }],
    [400, { error: { message: 'Title is too long' } }],
    [400, { error: { message: 'two  spaces' } }],
    [403, { message: 'line one\nline two' }],
    [404, { error: { type: 'not_found_error', resource_type: 'session_grouping', message: 'no grouping' } }],
    [403, { error: { reason: 'public_grouping_hosted_only' } }],
    [422, { error: { reason: 'feature_disabled' } }],
    [408, {}], [429, {}], [500, { error: {} }], [503, {}],
    [200, { session: { id: 'not-cse' } }],
    [200, { session: { id: 'cse_bad/id' } }],
    [200, {}],
    [200, { session: null }],
    [201, 'not json'],
  ]
  for (const [status, body] of cases) {
    await sideBySide(typeof body === 'string' ? { answer: () => ({ status, raw: body }) } : answer(status, body), (pkg, url) => pkg.createCodeSession(url, 'tok', 't', 5000, undefined, undefined, '/w', undefined, 'grp'))
  }
})

test('createCodeSession: timeout, network error, empty body', async () => {
  await sideBySide({ answer: () => ({ status: 200, delayMs: 1500, body: { session: { id: 'cse_late' } } }) }, (pkg, url) => pkg.createCodeSession(url, 'tok', 't', 200, undefined, undefined, '/w'))
  await sideBySide({ answer: () => ({ destroy: true }) }, (pkg, url) => pkg.createCodeSession(url, 'tok', 't', 2000, undefined, undefined, '/w'))
  await sideBySide({ answer: () => ({ status: 200, raw: '' }) }, (pkg, url) => pkg.createCodeSession(url, 'tok', 't', 2000, undefined, undefined, '/w'))
  for (const [name, pkg] of Object.entries(PACKAGES)) assert.equal(await pkg.createCodeSession('http://127.0.0.1:1', 'tok', 't', 2000), null, name)
})

test('createCodeSession: the OAuth-rejected callback (11th argument) fires on 401 only', async () => {
  for (const status of [401, 400]) {
    await sideBySide(answer(status, {}), async (pkg, url) => {
      let fired = 0
      const r = await pkg.createCodeSession(url, 'tok', 't', 5000, undefined, undefined, '/w', undefined, undefined, undefined, () => fired++)
      return { r, fired }
    })
  }
})

test('fetchRemoteCredentials: happy path, trusted device token, string epoch, mcp_config', async () => {
  const bodies = [
    { worker_jwt: 'jwt', api_base_url: 'https://api.example', expires_in: 3600, worker_epoch: 9 },
    { worker_jwt: 'jwt', api_base_url: 'https://api.example', expires_in: 3600, worker_epoch: '12', mcp_config: { content: '{"mcpServers":{}}' } },
    { worker_jwt: 'jwt', api_base_url: 'https://api.example', expires_in: 3600, worker_epoch: 1, mcp_config: { content: '' } },
  ]
  for (const body of bodies) {
    const r = await sideBySide(answer(200, body), (pkg, url) => pkg.fetchRemoteCredentials('cse_abc', url, 'oauth', 5000, 'device-tok'))
    assert.equal(r.requests[0].headers['x-trusted-device-token'], 'device-tok')
  }
})

test('fetchRemoteCredentials: failures and rejections', async () => {
  const cases = [
    [401, {}],
    [403, { error: { resource: 'untrusted_device' } }],
    [403, { error: { resource: 'untrusted_device', sub_reason: 'bound_unattested' } }],
    [403, { error: { resource: 'untrusted_device', sub_reason: 'served_call_unsigned' } }],
    [403, { error: { resource: 'untrusted_device', sub_reason: 'something_new' } }],
    [403, { error: { resource: 'untrusted_device', sub_reason: 'Not Snake Case' } }],
    [403, { error: { resource: 'untrusted_device', sub_reason: 42 } }],
    [403, { error: { resource: 'session_stale_relogin' } }],
    [403, { error: { resource: 'session_security_tier_below_org_policy' } }],
    [403, { error: { message: 'nope' } }, { 'request-id': 'req_abc123' }],
    [403, { error: { message: 'nope' } }, { 'cf-ray': '8abc' }],
    [403, { error: { message: 'nope' } }, { server: 'cloudflare' }],
    [403, {}],
    [404, { error: { reason: 'session_not_bridge' } }],
    [409, { error: { reason: 'conflict' } }],
    [400, 'plain text'],
    [408, {}], [429, {}], [500, {}], [502, 'Bad gateway'],
    [200, { worker_jwt: 'j', api_base_url: 'u', expires_in: 1 }],
    [200, { worker_jwt: 1, api_base_url: 'u', expires_in: 1, worker_epoch: 1 }],
    [200, { worker_jwt: 'j', api_base_url: 'u', expires_in: '1', worker_epoch: 1 }],
    [200, { worker_jwt: 'j', api_base_url: 'u', expires_in: 1, worker_epoch: 'abc' }],
    [200, { worker_jwt: 'j', api_base_url: 'u', expires_in: 1, worker_epoch: 1.5 }],
    [200, 'not json'],
    [201, { worker_jwt: 'j', api_base_url: 'u', expires_in: 1, worker_epoch: 1 }],
  ]
  for (const [status, body, headers] of cases) {
    const routes = typeof body === 'string' ? { answer: () => ({ status, raw: body, headers }) } : answer(status, body, { headers })
    await sideBySide(routes, async (pkg, url) => {
      let fired = 0
      const r = await pkg.fetchRemoteCredentials('cse_abc', url, 'oauth', 5000, undefined, () => fired++)
      return { r, fired, failure: pkg.isCredentialsFailure(r), rejection: pkg.isCredentialsRejection(r) }
    })
  }
})

test('fetchRemoteCredentials: invalid session ids are refused before any request', async () => {
  for (const id of ['a/b', '', '../x', 'cse abc', 'cse_ok?x=1']) {
    const r = await sideBySide({}, (pkg, url) => pkg.fetchRemoteCredentials(id, url, 'oauth', 5000))
    assert.equal(r.requests.length, 0)
  }
})

test('fetchRemoteCredentials: timeout and network error are null', async () => {
  await sideBySide({ answer: () => ({ status: 200, delayMs: 1500, body: {} }) }, (pkg, url) => pkg.fetchRemoteCredentials('cse_a', url, 'oauth', 200))
  await sideBySide({ answer: () => ({ destroy: true }) }, (pkg, url) => pkg.fetchRemoteCredentials('cse_a', url, 'oauth', 2000))
})

test('guards agree on every shape', () => {
  const values = [null, 'cse_1', { terminal: true, reason: 'x' }, { terminal: false, reason: 'oauth_rejected' }, { terminal: 'true' }, {}, { worker_jwt: 'j' }, 0, undefined, []]
  for (const v of values) {
    for (const guard of ['isCredentialsRejection', 'isCreateSessionFailure']) assert.equal(ours[guard](v), official[guard](v), `${guard}(${JSON.stringify(v)})`)
    if (v !== undefined && v !== 0 && typeof v !== 'string') assert.equal(ours.isCredentialsFailure(v), official.isCredentialsFailure(v), `isCredentialsFailure(${JSON.stringify(v)})`)
  }
})

test('bad input: clear errors naming the argument', async () => {
  await assert.rejects(ours.createCodeSession(undefined, 'tok', 't', 1000), /createCodeSession: baseUrl must be a string, got undefined/)
  await assert.rejects(ours.createCodeSession('ftp://x', 'tok', 't', 1000), /baseUrl must be an http\(s\) URL/)
  await assert.rejects(ours.createCodeSession('http://127.0.0.1:1', 42, 't', 1000), /accessToken must be a string, got number/)
  await assert.rejects(ours.createCodeSession('http://127.0.0.1:1', 'tok', 't', -1), /timeoutMs must be a finite number/)
  await assert.rejects(ours.createCodeSession('http://127.0.0.1:1', 'tok', 't', 1000, 'tag'), /tags must be an array of strings/)
  await assert.rejects(ours.createCodeSession('http://127.0.0.1:1', 'tok', 't', 1000, [], { gitRepoUrl: 5, branch: 'x' }), /gitContext.gitRepoUrl must be a string/)
  await assert.rejects(ours.fetchRemoteCredentials(undefined, 'http://127.0.0.1:1', 'tok', 1000), /fetchRemoteCredentials: sessionId must be a string, got undefined/)
  await assert.rejects(ours.fetchRemoteCredentials('cse_1', 'http://127.0.0.1:1', 'tok', '1000'), /timeoutMs must be a finite number of milliseconds >= 0, got the string "1000"/)
  await assert.rejects(ours.fetchRemoteCredentials('cse_1', 'http://127.0.0.1:1', 'tok', 1000, 7), /trustedDeviceToken must be a string or undefined, got number/)
})
