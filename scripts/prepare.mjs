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
  'node_modules/node18/package.json',
  'node_modules/node22/package.json',
]
if (needed.some((p) => !fs.existsSync(path.join(root, p)))) {
  console.log('[prepare] installing npm dependencies')
  run(npm, ['install', '--no-audit', '--no-fund'])
}

console.log('[prepare] building the native engine (cargo build --release)')
run(process.execPath, [
  path.join(root, 'node_modules/@napi-rs/cli/dist/cli.js'),
  'build', '--platform', '--release', '--output-dir', 'native', '--js', 'binding.js', '--dts', 'binding.d.ts',
])
