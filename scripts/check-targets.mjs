#!/usr/bin/env node
// Type-checks the engine and the binding for every published target (package.json napi.targets),
// so that a Linux-only construct cannot land: one `cargo check` with all the --target flags
// (cargo shares the work between them), in its own target dir (target/check-targets) so the
// release build's cache is untouched. Installs the missing rust-std components with rustup
// first, so a fresh machine works. Nothing is linked: this needs no cross toolchain.
// Usage: node scripts/check-targets.mjs [triple…]   (default: all of napi.targets)
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const targets = process.argv.slice(2).length ? process.argv.slice(2) : pkg.napi.targets

export function ensureTargets(list) {
  let installed = ''
  try {
    installed = execFileSync('rustup', ['target', 'list', '--installed'], { cwd: root, encoding: 'utf8' })
  } catch (e) {
    throw new Error(`rustup is needed to add the cross targets' standard libraries: ${e.message}`)
  }
  const missing = list.filter((t) => !installed.split('\n').includes(t))
  if (missing.length) {
    console.log(`[check-targets] rustup target add ${missing.join(' ')}`)
    execFileSync('rustup', ['target', 'add', ...missing], { cwd: root, stdio: 'inherit' })
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('check-targets.mjs')) {
  ensureTargets(targets)
  const env = { ...process.env }
  // musl cdylibs need a dynamic C runtime (as napi build sets it); also keeps cargo from
  // warning that it would drop the cdylib.
  for (const t of targets.filter((t) => t.endsWith('-musl'))) {
    env[`CARGO_TARGET_${t.toUpperCase().replace(/-/g, '_')}_RUSTFLAGS`] = '-C target-feature=-crt-static'
  }
  const t0 = Date.now()
  const args = ['check', '--workspace', '--exclude', 'bench-fake-cli', '--lib', '--target-dir', path.join(root, 'target', 'check-targets'), ...targets.flatMap((t) => ['--target', t])]
  console.log(`[check-targets] cargo ${args.join(' ')}`)
  const r = spawnSync('cargo', args, { cwd: root, stdio: 'inherit', env })
  const secs = ((Date.now() - t0) / 1000).toFixed(1)
  if (r.status === 0) {
    console.log(`[check-targets] ${targets.length} targets type-check (${secs} s): ${targets.join(', ')}`)
    console.log(`targets: ${targets.length} passed, 0 failed`)
  } else {
    console.log(`[check-targets] cargo check failed for at least one of: ${targets.join(', ')} (${secs} s)`)
    console.log(`targets: 0 passed, 1 failed`)
    process.exit(1)
  }
}
