// The installable package: `npm pack` tarballs (main + platform package) installed into an
// empty project with `npm install <tarball>`, then an example run there against the real CLI
// (found by the package's own discovery) and the scripted model. Catches files missing from
// `files`, wrong `exports`, and missing runtime dependencies.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const node = process.versions.bun ? 'node' : process.execPath

const EXAMPLE_ESM = `
import { query, tool, createSdkMcpServer } from 'claude-agent-sdk-native'
import { startScriptedModel, lastToolResult, toolResultText } from 'claude-agent-sdk-native/testing'
import { z } from 'zod'
const server = createSdkMcpServer({ name: 'demo', tools: [tool('greet', 'Greets', { name: z.string() }, async ({ name }) => ({ content: [{ type: 'text', text: 'Hello, ' + name + '!' }] }))] })
const model = await startScriptedModel({ turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Tarball' } }] }, (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) })] })
let result
for await (const m of query({ prompt: 'greet', options: { mcpServers: { demo: server }, allowedTools: ['mcp__demo__greet'], env: model.env(), cwd: model.tempDir() } })) if (m.type === 'result') result = m.result
await model.close()
console.log(JSON.stringify({ result }))
`
const EXAMPLE_CJS = `
const sdk = require('claude-agent-sdk-native')
const testing = require('claude-agent-sdk-native/testing')
console.log(JSON.stringify({ cjs: [typeof sdk.query, typeof sdk.tool, typeof sdk.createSdkMcpServer, typeof testing.startScriptedModel] }))
`

test('npm pack → npm install <tarball> in an empty project → an agent runs there', { timeout: 300000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-pack-'))
  try {
    const tarballs = JSON.parse(execFileSync(node, [path.join(root, 'scripts/pack.mjs'), path.join(dir, 'tarballs')], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop())
    const app = path.join(dir, 'app')
    fs.mkdirSync(app)
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }))
    execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarballs.main, tarballs.platform, 'zod@^4'], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] })
    fs.writeFileSync(path.join(app, 'example.mjs'), EXAMPLE_ESM)
    fs.writeFileSync(path.join(app, 'example.cjs'), EXAMPLE_CJS)
    const esm = JSON.parse(execFileSync(node, ['example.mjs'], { cwd: app, encoding: 'utf8' }).trim().split('\n').pop())
    assert.deepEqual(esm, { result: 'Tool said: Hello, Tarball!' })
    const cjs = JSON.parse(execFileSync(node, ['example.cjs'], { cwd: app, encoding: 'utf8' }).trim())
    assert.deepEqual(cjs, { cjs: ['function', 'function', 'function', 'function'] })
    // The engine came from the platform package, not from the repo.
    assert.ok(fs.existsSync(path.join(app, 'node_modules/claude-agent-sdk-native-linux-x64-gnu/claude-agent-sdk-native.linux-x64-gnu.node')))
    assert.ok(!fs.existsSync(path.join(app, 'node_modules/claude-agent-sdk-native/native/claude-agent-sdk-native.linux-x64-gnu.node')))

    // Installed under the official name, as a drop-in usually is ("@anthropic-ai/claude-agent-sdk":
    // "npm:claude-agent-sdk-native@..."; here from the tarball): the app's unchanged import runs,
    // and tools that check the SDK's version range (OpenTelemetry's instrumentation: >=0.2.0) see
    // the official release we mirror.
    const aliased = path.join(dir, 'aliased')
    fs.mkdirSync(aliased)
    fs.writeFileSync(path.join(aliased, 'package.json'), JSON.stringify({ name: 'aliased', version: '1.0.0', private: true, type: 'module' }))
    execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `@anthropic-ai/claude-agent-sdk@file:${tarballs.main}`, tarballs.platform, 'zod@^4', 'semver@^7'], { cwd: aliased, stdio: ['ignore', 'ignore', 'inherit'] })
    fs.writeFileSync(path.join(aliased, 'example.mjs'), EXAMPLE_ESM.replaceAll("'claude-agent-sdk-native", "'@anthropic-ai/claude-agent-sdk"))
    const viaOfficialName = JSON.parse(execFileSync(node, ['example.mjs'], { cwd: aliased, encoding: 'utf8' }).trim().split('\n').pop())
    assert.deepEqual(viaOfficialName, { result: 'Tool said: Hello, Tarball!' })
    const v = execFileSync(node, ['-p', "require('@anthropic-ai/claude-agent-sdk/package.json').version"], { cwd: aliased, encoding: 'utf8' }).trim()
    const semver = createRequire(path.join(aliased, 'x.js'))('semver')
    const ours = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version
    const official = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@anthropic-ai/claude-agent-sdk/package.json'), 'utf8')).version
    assert.equal(v, ours)
    assert.equal(semver.parse(v).compareMain(official), 0, `the package version (${v}) names the official release it mirrors (the devDependency, ${official})`)
    for (const range of ['>=0.2.0', '^0.3.0', `~${official}`, `>=${official} <${semver.inc(official, 'patch')}`]) {
      assert.ok(semver.satisfies(v, range), `${v} satisfies ${range}`)
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
