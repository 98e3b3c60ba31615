#!/usr/bin/env node
// Builds the installable tarballs: the main package and the platform package that carries the
// native engine (napi-rs layout: npm/<triple>/). Prints their paths as JSON.
// Usage: node scripts/pack.mjs [outDir]
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const out = path.resolve(process.argv[2] ?? path.join(root, '.tmp', 'pack'))
fs.mkdirSync(out, { recursive: true })
// This machine's platform package (the others are built by the release workflow).
const triple = createRequire(import.meta.url)('../lib/native.js').platformTriple()
const binary = `claude-agent-sdk-native.${triple}.node`
fs.copyFileSync(path.join(root, 'native', binary), path.join(root, 'npm', triple, binary))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const pack = (dir) => {
  const res = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', out], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))
  return path.join(out, res[0].filename)
}
console.log(JSON.stringify({ main: pack(root), platform: pack(path.join(root, 'npm', triple)) }))
