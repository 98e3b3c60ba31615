// Platforms: the loader's choice of binary (musl on x64 and arm64, Windows, macOS) and its error
// when none fits; the paths users trip on with the official SDK: Bun single-file executables
// (`./extract`), Electron's app.asar. Discovery's per-platform layouts are tested as data in
// crates/agent-core/src/cli/discover.rs.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { sdk, collect, mockOptions, mockCliPath, eventually } from './helpers/sdk.mjs'
import { runHost, within, entry } from './helpers/process.mjs'
import { extractFromBunfs as extractEsm } from 'claude-agent-sdk-native/extract'

const require = createRequire(import.meta.url)
const native = require('../lib/native.js')
const { extractFromBunfs } = require('claude-agent-sdk-native/extract')
const root = path.join(path.dirname(new URL(import.meta.url).pathname), '..')

test('the loader names every platform as napi-rs does, musl on x64 and arm64 alike', () => {
  const t = native.platformTriple
  assert.equal(t({ platform: 'linux', arch: 'x64', musl: false }), 'linux-x64-gnu')
  assert.equal(t({ platform: 'linux', arch: 'x64', musl: true }), 'linux-x64-musl')
  assert.equal(t({ platform: 'linux', arch: 'arm64', musl: true }), 'linux-arm64-musl')
  assert.equal(t({ platform: 'linux', arch: 'arm64', musl: false }), 'linux-arm64-gnu')
  assert.equal(t({ platform: 'darwin', arch: 'arm64' }), 'darwin-arm64')
  assert.equal(t({ platform: 'win32', arch: 'x64' }), 'win32-x64-msvc')
  assert.equal(t(), process.platform === 'linux' ? `linux-${process.arch}-gnu` : t()) // this machine: glibc
  // Every supported name has its npm/<name> package, listed in optionalDependencies and napi.targets.
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  assert.equal(pkg.napi.targets.length, 8)
  for (const name of native.SUPPORTED) {
    const p = JSON.parse(fs.readFileSync(path.join(root, 'npm', name, 'package.json'), 'utf8'))
    assert.equal(p.name, `claude-agent-sdk-native-${name}`)
    assert.equal(p.main, `claude-agent-sdk-native.${name}.node`)
    assert.equal(p.version, pkg.version)
    assert.deepEqual([p.os[0], p.cpu[0]], name.split('-').slice(0, 2))
    assert.deepEqual(p.libc, name.endsWith('-gnu') ? ['glibc'] : name.endsWith('-musl') ? ['musl'] : undefined)
    assert.equal(pkg.optionalDependencies[p.name], pkg.version)
  }
})

test('with no binary for the platform, the error names it, lists the supported ones and says how to build', () => {
  const script = `Object.defineProperty(process, 'arch', { value: 'riscv64' });
    try { require(${JSON.stringify(path.join(root, 'lib/native.js'))}).loadNative() } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })) }`
  const env = { ...process.env }
  delete env.CLAUDE_AGENT_SDK_NATIVE_PATH
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env }))
  assert.equal(out.code, 'NATIVE_ENGINE_NOT_FOUND')
  assert.match(out.message, new RegExp(`no native engine for ${process.platform}-riscv64`))
  assert.match(out.message, /not a platform binaries are published for/)
  assert.match(out.message, /Supported platforms: linux-x64-gnu, linux-arm64-gnu, linux-x64-musl, linux-arm64-musl, darwin-x64, darwin-arm64, win32-x64-msvc, win32-arm64-msvc/)
  assert.match(out.message, /npm run build/)
  const missing = native.notFoundError('linux-arm64-musl', [])
  assert.match(missing.message, /claude-agent-sdk-native-linux-arm64-musl\) is not installed/)
})

test('extractFromBunfs: a /$bunfs path becomes a private, executable copy, reused while its content is the same', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bunfs-'))
  const saved = process.env.CLAUDE_CODE_TMPDIR
  process.env.CLAUDE_CODE_TMPDIR = path.join(tmp, 'out')
  try {
    assert.equal(extractEsm, extractFromBunfs)
    assert.equal(extractFromBunfs('/usr/bin/claude'), '/usr/bin/claude')
    const embedded = path.join(tmp, '$bunfs', 'root', 'claude')
    fs.mkdirSync(path.dirname(embedded), { recursive: true })
    fs.writeFileSync(embedded, '#!/bin/sh\necho v1\n')
    const a = extractFromBunfs(embedded)
    assert.ok(a.startsWith(process.env.CLAUDE_CODE_TMPDIR) && path.basename(a) === 'claude', a)
    assert.equal(fs.readFileSync(a, 'utf8'), '#!/bin/sh\necho v1\n')
    if (process.platform !== 'win32') {
      assert.equal(fs.statSync(a).mode & 0o777, 0o755)
      assert.equal(fs.statSync(path.dirname(a)).mode & 0o777, 0o700)
      assert.equal(execFileSync(a, { encoding: 'utf8' }), 'v1\n')
    }
    assert.equal(extractFromBunfs(embedded), a, 'the same content is reused')
    fs.writeFileSync(a, 'tampered') // a changed copy is replaced, not trusted
    assert.equal(extractFromBunfs(embedded), a)
    assert.equal(fs.readFileSync(a, 'utf8'), '#!/bin/sh\necho v1\n')
    fs.writeFileSync(embedded, '#!/bin/sh\necho v2\n')
    assert.notEqual(extractFromBunfs(embedded), a, 'a new version gets its own directory')
    assert.throws(() => extractFromBunfs(42), /expected a path string/)
  } finally {
    if (saved === undefined) delete process.env.CLAUDE_CODE_TMPDIR
    else process.env.CLAUDE_CODE_TMPDIR = saved
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})

test('a /$bunfs path given to query() says to use extractFromBunfs', async () => {
  const { error } = await collect(sdk.query({ prompt: 'hi', options: { pathToClaudeCodeExecutable: '/$bunfs/root/claude' } }))
  assert.ok(error, 'the query failed')
  assert.match(error.message, /Bun single-file executable[\s\S]*extractFromBunfs\(\) from 'claude-agent-sdk-native\/extract'/)
})

test('Electron: a CLI path inside app.asar runs from app.asar.unpacked', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'electron-'))
  try {
    const resources = path.join(tmp, 'resources')
    fs.mkdirSync(path.join(resources, 'app.asar.unpacked'), { recursive: true })
    fs.writeFileSync(path.join(resources, 'app.asar'), 'an asar archive is a file') // as Electron ships it
    fs.copyFileSync(mockCliPath, path.join(resources, 'app.asar.unpacked', 'cli.mjs'))
    const { options } = mockOptions(undefined)
    const { messages, error } = await collect(sdk.query({ prompt: 'hi', options: { ...options, pathToClaudeCodeExecutable: path.join(resources, 'app.asar', 'cli.mjs') } }))
    assert.equal(error, null)
    assert.equal(messages.at(-1).type, 'result')
    const { error: missing } = await collect(sdk.query({ prompt: 'hi', options: { ...options, pathToClaudeCodeExecutable: path.join(resources, 'app.asar', 'nope.mjs') } }))
    assert.match(missing.message, /asarUnpack/)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})

/** Exists and is not a zombie (portable: /proc where there is one, else signal 0). */
function running(pid) {
  if (fs.existsSync('/proc/self/stat')) {
    try {
      return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

// macOS's guard, the watchdog, is forced on here (CLAUDE_AGENT_SDK_WATCHDOG=1) so that Linux runs
// it end to end; on macOS it is the default. The CLI ignores SIGTERM and has a grandchild.
test('host SIGKILLed: the watchdog takes the CLI and its process group with it', { skip: process.platform === 'win32' }, async () => {
  const mockIndex = path.join(root, '__test__/mock-cli/index.mjs')
  const scenario = `
    import { spawn } from 'node:child_process'
    export default async function (cli) {
      cli.onSignal('SIGTERM', () => {})
      setInterval(() => {}, 1000)
      await cli.initialize()
      await cli.nextUserMessage()
      cli.log({ grandchild: spawn('sleep', ['600'], { stdio: 'ignore' }).pid })
      cli.systemInit()
      await new Promise(() => {})
    }`
  const host = runHost(`
    import { query } from ${JSON.stringify(entry)}
    import { mockCliPath, mockEnv, tempScenario, tempLogPath, readLog } from ${JSON.stringify(mockIndex)}
    const log = tempLogPath()
    const q = query({ prompt: 'hi', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario: tempScenario(${JSON.stringify(scenario)}), log }) } })
    await q.next()
    const records = readLog(log)
    report({ cli: records.find((r) => r.kind === 'start').pid, grandchild: records.find((r) => r.kind === 'scenario' && r.data.grandchild)?.data.grandchild })
    setInterval(() => {}, 1000)
  `, { env: { ...process.env, CLAUDE_AGENT_SDK_WATCHDOG: '1' } })
  let pids = {}
  try {
    pids = await host.next((x) => x.cli, 20000)
    assert.ok(pids.grandchild > 0 && running(pids.cli) && running(pids.grandchild))
    host.child.kill('SIGKILL')
    await within(host.exited, 10000, 'the host to die')
    await eventually(() => !running(pids.cli) && !running(pids.grandchild), 10000, `CLI ${pids.cli} and grandchild ${pids.grandchild} to die with the host`)
  } finally {
    host.child.kill('SIGKILL')
    for (const pid of [pids.cli, pids.grandchild]) if (pid) try { process.kill(pid, 'SIGKILL') } catch {}
  }
})
