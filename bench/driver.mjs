#!/usr/bin/env node
// One benchmark run in a fresh process: `node bench/driver.mjs <ours|official|floor> <scenario>`.
// Imports the SDK (or, for the floor, nothing but Node built-ins), runs the scenario against the
// fake CLI (target/release/bench-fake-cli), and prints one JSON line: the fake CLI's own report
// plus host-side figures (wall time, CPU of this process per operation, peak RSS).
//
// Environment: BENCH_QUICK=1 (smaller N), BENCH_N (override N, e.g. for profiling), FAKE_CLI_PATH
// (default target/release/bench-fake-cli).
// Only Node built-ins are imported statically, so the `import` scenario measures the SDK alone.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { benchApp } from './floor.mjs'

// A one-shot script's clock starts here: before the SDK (and the app's zod) are imported.
const scriptStart = performance.now()
const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.join(here, '..')
const fakeCli = process.env.FAKE_CLI_PATH || path.join(root, 'target/release/bench-fake-cli')
const quick = process.env.BENCH_QUICK === '1'

const [sdkName, scenario] = process.argv.slice(2)
const SDKS = ['ours', 'official', 'floor']
const SCENARIOS = ['toolcall_seq', 'toolcall_conc', 'permission_seq', 'stream_1k', 'stream_1m', 'startup', 'startup_legacy', 'import']
if (!SDKS.includes(sdkName) || !SCENARIOS.includes(scenario)) {
  console.error(`usage: node bench/driver.mjs <${SDKS.join('|')}> <${SCENARIOS.join('|')}>`)
  process.exit(2)
}

/** Operations per scenario (full, quick). */
const N = {
  toolcall_seq: [5000, 1000],
  toolcall_conc: [5000, 1000],
  permission_seq: [5000, 1000],
  stream_1k: [20000, 4000],
  stream_1m: [50, 10],
  startup: [1, 1],
  startup_legacy: [1, 1],
}
const WARM_SESSIONS = quick ? 5 : 20

const mb = (bytes) => bytes / 1e6
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const cpuSeconds = (u) => (u.user + u.system) / 1e6
const peakRssMb = () => (process.resourceUsage().maxRSS * 1024) / 1e6

/** CPU time (ms, whole process life) per thread name, from /proc/self/task/<tid>/schedstat; the
 * main JS thread is reported as `main`. With `switches`, how often each thread was switched out
 * instead: [voluntary (it slept), involuntary (preempted)], from .../status. Linux only; `null`
 * elsewhere. */
function threadCpu(switches = false) {
  try {
    const byName = {}
    for (const tid of fs.readdirSync('/proc/self/task')) {
      const dir = `/proc/self/task/${tid}`
      let v
      if (switches) {
        const st = fs.readFileSync(`${dir}/status`, 'utf8')
        v = [Number(/\nvoluntary_ctxt_switches:\s+(\d+)/.exec(st)[1]), Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(st)[1])]
      } else {
        v = Number(fs.readFileSync(`${dir}/schedstat`, 'utf8').split(' ')[0]) / 1e6
      }
      const name = Number(tid) === process.pid ? 'main' : fs.readFileSync(`${dir}/comm`, 'utf8').trim()
      byName[name] = switches ? (byName[name] ?? [0, 0]).map((x, i) => x + v[i]) : (byName[name] ?? 0) + v
    }
    return byName
  } catch {
    return null
  }
}

function out(result) {
  fs.writeSync(1, JSON.stringify(result) + '\n')
  process.exit(0)
}

// ------------------------------------------------------------------------------------ import --

if (scenario === 'import') {
  const rssBefore = process.memoryUsage().rss
  const t0 = performance.now()
  if (sdkName === 'ours') await import('claude-agent-sdk-native')
  else if (sdkName === 'official') await import('@anthropic-ai/claude-agent-sdk')
  // floor: bare Node, nothing imported
  const importMs = performance.now() - t0
  const rssAfter = process.memoryUsage().rss
  out({
    sdk: sdkName,
    scenario,
    figures: { import_ms: importMs, rss_after_import_mb: mb(rssAfter), peak_rss_mb: peakRssMb() },
    host: { rss_before_mb: mb(rssBefore) },
  })
}

// ------------------------------------------------------------------------ the SDK or floor --

const echo = async (a) => ({ content: [{ type: 'text', text: a.text }] })
const allow = async (toolName, input) => ({ behavior: 'allow', updatedInput: input })

// Imported the way an app does it (see benchApp() in ./floor.mjs).
const runQuery = await benchApp(sdkName, { cli: fakeCli, echo })

// ---------------------------------------------------------------------------------- sessions --

const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'))
let reportN = 0

/** One session: query() to the end of `for await`. Times relative to the query() call. */
async function session(cliScenario, { n, handshake, canUseTool } = {}) {
  const report = path.join(reportDir, `report-${++reportN}.json`)
  const env = {
    ...process.env,
    FAKE_CLI_SCENARIO: cliScenario,
    FAKE_CLI_REPORT: report,
    FAKE_CLI_HANDSHAKE: handshake || 'manifests',
    ...(n ? { FAKE_CLI_N: String(n) } : {}),
  }
  let firstAt = null
  let initAt = null
  let resultAt = null
  let assistants = 0
  let textChars = 0
  let result = null
  const t0 = performance.now()
  const t0Unix = (performance.timeOrigin + t0) * 1000
  for await (const m of runQuery({ env, canUseTool })) {
    const t = performance.now()
    if (firstAt === null) firstAt = t
    if (m.type === 'assistant') {
      assistants++
      textChars += m.message.content[0].text.length
    } else if (m.type === 'system' && m.subtype === 'init') {
      initAt = t
    } else if (m.type === 'result') {
      resultAt = t
      result = m
    }
  }
  const endAt = performance.now()
  if (!result || result.subtype !== 'success') throw new Error(`no successful result (${JSON.stringify(result)})`)
  const cli = JSON.parse(fs.readFileSync(report, 'utf8'))
  fs.rmSync(report, { force: true })
  if (cli.errors) throw new Error(`${cli.errors} wrong answers (see the fake CLI's stderr)`)
  // Where a session's start went (ms), from wall clocks on both sides: query() → the CLI's process
  // start → its reading `initialize` → its reading the user message; its first message written →
  // the consumer's first message.
  const phases = cli.started_unix_us && {
    to_cli_start: (cli.started_unix_us - t0Unix) / 1000,
    cli_start_to_initialize: cli.spawn_to_initialize_us / 1000,
    initialize_to_user: (cli.spawn_to_user_us - cli.spawn_to_initialize_us) / 1000,
    first_write_to_consumer: ((performance.timeOrigin + firstAt) * 1000 - cli.first_write_unix_us) / 1000,
  }
  return {
    cli,
    phases,
    firstAt,
    firstMs: firstAt - t0,
    resultMs: resultAt - t0,
    endMs: endAt - t0,
    initToResultMs: resultAt - initAt,
    assistants,
    textChars,
  }
}

// --------------------------------------------------------------------------------- scenarios --

const [nFull, nQuick] = N[scenario]
const n = Number(process.env.BENCH_N) || (quick ? nQuick : nFull)
const cpu0 = process.cpuUsage()
const wall0 = performance.now()
let figures
let cli
let ops = n
/** Medians of the warm sessions' start phases (startup scenarios), ms; beside the figures. */
let warmPhases

switch (scenario) {
  case 'toolcall_seq':
  case 'toolcall_conc':
  case 'permission_seq': {
    const s = await session(scenario, { n, canUseTool: scenario === 'permission_seq' ? allow : undefined })
    cli = s.cli
    const l = cli.latency
    figures = { p50_us: l.p50_us, p90_us: l.p90_us, p99_us: l.p99_us, max_us: l.max_us, ops_per_s: cli.ops_per_s }
    break
  }
  case 'stream_1k':
  case 'stream_1m': {
    const s = await session(scenario, { n })
    cli = s.cli
    if (s.assistants !== n) throw new Error(`got ${s.assistants} assistant messages, expected ${n}`)
    const sec = s.initToResultMs / 1000
    figures = { mb_per_s: mb(cli.wire_bytes) / sec, msgs_per_s: n / sec }
    break
  }
  case 'startup':
  case 'startup_legacy': {
    const handshake = scenario === 'startup' ? 'manifests' : 'legacy'
    const first = await session('startup', { handshake })
    const warm = []
    for (let i = 0; i < WARM_SESSIONS; i++) warm.push(await session('startup', { handshake }))
    cli = first.cli
    ops = 1 + WARM_SESSIONS
    figures = {
      // A one-shot script: import (SDK + the app's zod, the tool made) + query() → first message.
      oneshot_ms: first.firstAt - scriptStart,
      first_msg_ms: first.firstMs,
      first_result_ms: first.resultMs,
      warm_msg_ms: median(warm.map((s) => s.firstMs)),
      warm_result_ms: median(warm.map((s) => s.resultMs)),
      warm_end_ms: median(warm.map((s) => s.endMs)),
    }
    // Medians of the warm sessions' phases (see session()).
    if (warm[0].phases) warmPhases = Object.fromEntries(Object.keys(warm[0].phases).map((k) => [k, median(warm.map((s) => s.phases[k]))]))
    break
  }
}

const cpu = process.cpuUsage(cpu0)
const threads = threadCpu()
const threadSwitches = threadCpu(true)
const wallMs = performance.now() - wall0
figures.cpu_us_per_op = (cpuSeconds(cpu) / ops) * 1e6
figures.peak_rss_mb = peakRssMb()
fs.rmSync(reportDir, { recursive: true, force: true })
out({
  sdk: sdkName,
  scenario,
  n,
  ops,
  figures,
  ...(warmPhases && { warm_phases_ms: warmPhases }),
  host: { wall_ms: wallMs, cpu_user_s: cpu.user / 1e6, cpu_system_s: cpu.system / 1e6, thread_cpu_ms: threads, thread_switches: threadSwitches },
  cli,
})
