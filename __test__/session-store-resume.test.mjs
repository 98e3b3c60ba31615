// Resuming from a session store, side by side with the official SDK: the config folder the CLI is
// pointed at holds the same files (the transcript, each subagent's transcript and metadata, the
// copied credentials without refresh tokens, global configs, cleaned settings, hybrid settings) with the same permissions; a subpath
// that would leave the session's folder is not written. The mock CLI reports what it finds.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, mockOptions, collect, scenarioRecords, eventually, readLog } from './helpers/sdk.mjs'

const SCENARIO = `
import fs from 'node:fs'
import path from 'node:path'
export default async function (cli) {
  const root = process.env.CLAUDE_CONFIG_DIR
  const files = []
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else files.push([path.relative(root, p), fs.readFileSync(p, 'utf8'), (fs.statSync(p).mode & 0o777).toString(8)])
    }
  }
  walk(root)
  files.sort((a, b) => a[0] < b[0] ? -1 : 1)
  await cli.initialize()
  await cli.nextUserMessage()
  cli.log({ files, resume: cli.flag('resume'), tmp: path.basename(root).startsWith('claude-resume-') })
  cli.result()
}`

const SESSION = '3f0e2c1a-9b8d-4c7e-a6f5-0123456789ab'

function store() {
  const user = (text, uuid) => ({ type: 'user', uuid, parentUuid: null, sessionId: SESSION, message: { role: 'user', content: text }, timestamp: '2026-01-01T00:00:00.000Z' })
  const data = {
    main: [user('hello', 'u1'), { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: SESSION, message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] } }],
    'subagents/agent-a1': [user('sub task', 's1'), { type: 'agent_metadata', agentType: 'Explore', old: true }, { type: 'agent_metadata', agentType: 'Explore', description: 'look around' }],
    'subagents/workflows/w1/agent-b2': [{ type: 'agent_metadata', agentType: 'general-purpose' }],
    '../escape': [user('must not be written', 'e1')],
    '/abs': [user('must not be written', 'e2')],
  }
  return {
    loaded: [],
    async append() {},
    async load(key) {
      this.loaded.push(key.subpath ?? 'main')
      return data[key.subpath ?? 'main'] ?? null
    },
    async listSubkeys() {
      return ['subagents/agent-a1', 'subagents/workflows/w1/agent-b2', '../escape', '/abs', 'subagents/missing']
    },
  }
}

async function run(sdk) {
  const config = fs.mkdtempSync(path.join(os.tmpdir(), 'store-resume-config-'))
  fs.writeFileSync(path.join(config, '.credentials.json'), JSON.stringify({ claudeAiOauth: { accessToken: 'a', refreshToken: 'r' }, hybridOauth: { refreshToken: '' } }))
  fs.writeFileSync(path.join(config, '.claude.json'), '{"global":1}')
  fs.writeFileSync(path.join(config, '.claude-local-oauth.json'), '{"local":1}', { mode: 0o640 })
  fs.writeFileSync(path.join(config, 'cowork_settings.json'), '\uFEFF{"enabledPlugins":{},"keep":1}')
  fs.mkdirSync(path.join(config, 'state'))
  fs.writeFileSync(path.join(config, 'state', 'hybrid-settings.json'), '{"h":1}')
  fs.writeFileSync(path.join(config, 'settings.json'), JSON.stringify({ model: 'm', enabledPlugins: { p: true }, extraKnownMarketplaces: {}, env: { CLAUDE_CONFIG_DIR: '/elsewhere', KEEP: '1' } }))
  const s = store()
  const { log, options } = mockOptions(SCENARIO, { resume: SESSION, sessionStore: s })
  options.env = { ...options.env, CLAUDE_CONFIG_DIR: config }
  const { error } = await collect(sdk.query({ prompt: 'go', options }))
  fs.rmSync(config, { recursive: true, force: true })
  assert.equal(error, null)
  const [seen] = scenarioRecords(log)
  return { ...seen, loaded: s.loaded }
}

test('a session resumed from a store is written out as the official writes it', async () => {
  const [mine, theirs] = [await run(ours), await run(official)]
  assert.equal(mine.resume, SESSION)
  assert.ok(mine.tmp)
  const names = mine.files.map(([f]) => f)
  assert.ok(names.some((f) => f.endsWith(`${SESSION}/subagents/agent-a1.meta.json`)), names.join(', '))
  assert.ok(!names.some((f) => f.includes('escape') || f.includes('abs')), names.join(', '))
  assert.deepStrictEqual(mine.files.map(([f, , m]) => [f, m]), theirs.files.map(([f, , m]) => [f, m]))
  assert.deepStrictEqual(mine.files, theirs.files)
  assert.deepStrictEqual(mine, theirs)
})

// On macOS the official asks the login keychain (`security find-generic-password`) for the
// credentials when no config folder, API key or OAuth token is set, and prefers its answer to
// `~/.claude/.credentials.json`. Run on any platform: `process.platform` says darwin, a fake
// `security` on PATH answers (and records how it was asked), HOME holds the config folder.
async function runOnMac(sdk, { answer, env = {} }) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'store-resume-home-'))
  const bin = path.join(home, 'bin')
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true })
  fs.mkdirSync(bin)
  fs.writeFileSync(path.join(home, '.claude', '.credentials.json'), JSON.stringify({ claudeAiOauth: { accessToken: 'from-file' } }))
  const asked = path.join(home, 'asked')
  const reply = answer === undefined ? 'exit 44' : `printf '%s\\n' '${answer}'`
  fs.writeFileSync(path.join(bin, 'security'), `#!/bin/sh\nprintf '%s|' "$@" >> '${asked}'\necho >> '${asked}'\n${reply}\n`, { mode: 0o755 })
  const saved = { platform: Object.getOwnPropertyDescriptor(process, 'platform'), env: { ...process.env } }
  Object.defineProperty(process, 'platform', { value: 'darwin' })
  for (const k of ['CLAUDE_CONFIG_DIR', 'ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_SECURESTORAGE_CONFIG_DIR', 'CLAUDE_CODE_CUSTOM_OAUTH_URL']) delete process.env[k]
  Object.assign(process.env, { HOME: home, USER: 'ada', PATH: `${bin}${path.delimiter}${process.env.PATH}` }, env)
  try {
    // The CLI's env is a copy of this process's, made after the changes above.
    const { log, options } = mockOptions(SCENARIO, { resume: SESSION, sessionStore: store() })
    const { error } = await collect(sdk.query({ prompt: 'go', options }))
    assert.equal(error, null)
    const [seen] = scenarioRecords(log)
    const credentials = seen.files.find(([f]) => f === '.credentials.json')
    return { credentials, asked: fs.existsSync(asked) ? fs.readFileSync(asked, 'utf8') : null }
  } finally {
    Object.defineProperty(process, 'platform', saved.platform)
    for (const k of Object.keys(process.env)) if (!(k in saved.env)) delete process.env[k]
    Object.assign(process.env, saved.env)
    fs.rmSync(home, { recursive: true, force: true })
  }
}

test('on macOS a resume takes the keychain credentials as the official does', { skip: process.platform === 'win32' }, async () => {
  const cases = [
    // The keychain answers: its credentials, without the refresh token.
    { answer: '{"claudeAiOauth":{"accessToken":"from-keychain","refreshToken":"r"}}' },
    // It has none: the file's.
    { answer: undefined },
    // A config folder of its own: a hashed item name.
    { answer: '{"k":1}', env: { CLAUDE_SECURESTORAGE_CONFIG_DIR: '/Users/ada/alt' } },
    // An API key: the keychain is not asked.
    { answer: '{"k":2}', env: { ANTHROPIC_API_KEY: 'sk-test' } },
  ]
  for (const c of cases) {
    const [mine, theirs] = [await runOnMac(ours, c), await runOnMac(official, c)]
    assert.deepStrictEqual(mine, theirs, JSON.stringify(c))
  }
  const first = await runOnMac(ours, cases[0])
  assert.deepStrictEqual(first.credentials, ['.credentials.json', '{"claudeAiOauth":{"accessToken":"from-keychain"}}', '600'])
  assert.equal(first.asked, 'find-generic-password|-a|ada|-w|-s|Claude Code-credentials|\n')
})

// A store-resumed query left with `break`: the temporary config folder stays while the CLI is
// still stopping (it may write its transcript there as it goes), and is removed once it has
// exited, as the official removes it (after the transport's exit, not when the query is left).
const LINGER = `
import fs from 'node:fs'
export default async function (cli) {
  const root = process.env.CLAUDE_CONFIG_DIR
  let stopping = false
  const stop = async (why) => {
    if (stopping) return
    stopping = true
    cli.log({ root, why, atStop: fs.existsSync(root) })
    await cli.sleep(400)
    cli.log({ root, why, later: fs.existsSync(root) })
    await cli.exit(0)
  }
  cli.onSignal('SIGTERM', () => stop('SIGTERM'))
  await cli.initialize()
  await cli.nextUserMessage()
  cli.assistantText('hi')
  cli.result()
  await cli.waitStdinClosed()
  await stop('stdin')
}`

async function leaveEarly(sdk) {
  const { log, options } = mockOptions(LINGER, { resume: SESSION, sessionStore: store() })
  for await (const m of sdk.query({ prompt: 'go', options })) {
    if (m.type === 'assistant') break
  }
  await eventually(() => readLog(log).some((r) => r.kind === 'exit'), 10000, 'the CLI to exit')
  const [atStop, later] = scenarioRecords(log)
  const root = atStop.root
  // Gone soon after the exit (the official removes it once the exit is seen).
  await eventually(() => !fs.existsSync(root), 5000, `${root} to be removed`)
  return { atStop: atStop.atStop, later: later.later }
}

test('a store-resumed query left with break keeps its folder until the CLI has exited', async () => {
  const [mine, theirs] = [await leaveEarly(ours), await leaveEarly(official)]
  assert.deepStrictEqual(theirs, { atStop: true, later: true })
  assert.deepStrictEqual(mine, theirs)
})

test('a resume from a store whose load() throws, answers the wrong shape or holds a corrupt entry fails naming the session: the CLI never starts, nothing is written', async () => {
  const resumeDirs = () => fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith('claude-resume-'))
  const before = new Set(resumeDirs())
  const cases = [
    [async () => { throw new Error('database down') }, /database down/],
    [async () => 'some text', new RegExp(`SessionStore\\.load\\(\\) for session ${SESSION} returned string, not an array of entries or null`)],
    [async () => ({ entries: [] }), new RegExp(`SessionStore\\.load\\(\\) for session ${SESSION} returned object, not an array of entries or null`)],
    [async () => [{ type: 'user', uuid: 'u1' }, { uuid: 'u2' }], new RegExp(`SessionStore\\.load\\(\\) for session ${SESSION}: corrupt entry 1 \\(not an object with a string "type"\\): \\{"uuid":"u2"\\}`)],
    [async (key) => (key.subpath ? [null] : [{ type: 'user' }]), new RegExp(`SessionStore\\.load\\(\\) for session ${SESSION} subpath subagents/agent-x: corrupt entry 0`)],
  ]
  for (const [load, expected] of cases) {
    const sessionStore = { async append() {}, load, async listSubkeys() { return ['subagents/agent-x'] } }
    const { log, options } = mockOptions(SCENARIO, { resume: SESSION, sessionStore })
    const { error, messages } = await collect(ours.query({ prompt: 'go', options }))
    assert.match(String(error?.message), expected)
    assert.deepEqual(messages, [])
    assert.ok(!fs.existsSync(log) || readLog(log).length === 0, 'the CLI never started')
  }
  const written = resumeDirs().filter((d) => !before.has(d) && fs.readdirSync(path.join(os.tmpdir(), d), { recursive: true }).some((f) => String(f).includes(SESSION)))
  assert.deepEqual(written, [], 'nothing written for the session')
})
