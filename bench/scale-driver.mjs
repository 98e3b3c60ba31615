#!/usr/bin/env node
// One run of the scale scenario in a fresh process: `node bench/scale-driver.mjs <ours|official|floor> <sessions>`.
// Imports the SDK (then the app's zod, one tool with a zod shape and its server, as every bench
// run), runs one warm-up session, then starts <sessions> queries at once against the fake CLI
// (scenario `session`: a permission prompt, then 50 sequential tool calls). Every session's
// `canUseTool` waits until all sessions have reached their prompt, so at that moment every CLI,
// pipe and session is alive at once: the process's open fds and threads are counted there. Prints
// one JSON line: wall time, host CPU (all threads), peak RSS growth (VmHWM reset before the
// sessions start, minus the RSS then), fds and threads at the barrier minus before, failures.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { benchApp } from './floor.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const fakeCli = process.env.FAKE_CLI_PATH || path.join(here, '..', 'target/release/bench-fake-cli')
const [sdkName, countArg] = process.argv.slice(2)
const sessions = Number(countArg)
const CALLS = Number(process.env.BENCH_SCALE_CALLS || 50)
if (!['ours', 'official', 'floor'].includes(sdkName) || !(sessions > 0)) {
  console.error('usage: node bench/scale-driver.mjs <ours|official|floor> <sessions>')
  process.exit(2)
}

const echo = async (a) => ({ content: [{ type: 'text', text: a.text }] })
// A server per session: the official's server instance serves one query at a time (a second
// concurrent query gets "SDK MCP server not found"), so an app hosting many agents makes one per
// query. Ours can share one; the same app code is measured for both.
const runQuery = await benchApp(sdkName, { cli: fakeCli, echo, serverPerQuery: true })

const env = { ...process.env, FAKE_CLI_SCENARIO: 'session', FAKE_CLI_N: String(CALLS) }
const count = (dir) => fs.readdirSync(dir).length
const rssMb = () => process.memoryUsage().rss / 1e6
const hwmMb = () => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024 * 1.024

/** One session to its end; resolves true when it ended with a successful result. */
async function session(canUseTool) {
  let ok = false
  for await (const m of runQuery({ env, canUseTool })) if (m.type === 'result') ok = m.subtype === 'success'
  return ok
}

const allow = async (name, input) => ({ behavior: 'allow', updatedInput: input })
if (!(await session(allow))) throw new Error('the warm-up session failed')
await new Promise((r) => setTimeout(r, 50))

// The barrier: every session's prompt waits for all of them; the last one in takes the counts.
let waiting = 0
let atBarrier = null
let release
const released = new Promise((r) => { release = r })
const before = { fds: count('/proc/self/fd'), threads: count('/proc/self/task'), rss: rssMb() }
const barrier = async (name, input) => {
  if (++waiting === sessions) {
    atBarrier = { fds: count('/proc/self/fd'), threads: count('/proc/self/task'), rss: rssMb() }
    release()
  }
  await released
  return { behavior: 'allow', updatedInput: input }
}
try {
  fs.writeFileSync('/proc/self/clear_refs', '5') // VmHWM := current RSS
} catch {}
const hwm0 = hwmMb()
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const results = await Promise.allSettled(Array.from({ length: sessions }, () => session(barrier)))
const wallMs = performance.now() - t0
const cpu = process.cpuUsage(cpu0)
const failed = results.filter((r) => r.status !== 'fulfilled' || r.value !== true)
const peak = hwmMb()
fs.writeSync(1, JSON.stringify({
  sdk: sdkName,
  sessions,
  calls: CALLS,
  figures: {
    wall_ms: wallMs,
    cpu_ms_per_session: (cpu.user + cpu.system) / 1000 / sessions,
    rss_growth_mb_per_session: (Math.max(peak, hwm0) - hwm0) / sessions,
    fds_per_session: atBarrier ? (atBarrier.fds - before.fds) / sessions : null,
    threads_per_session: atBarrier ? (atBarrier.threads - before.threads) / sessions : null,
    failed: failed.length,
  },
  host: { before, atBarrier, peak_rss_mb: peak, first_failure: failed[0] && String(failed[0].reason?.message ?? failed[0].reason ?? 'no successful result').slice(0, 300) },
}) + '\n')
process.exit(0)
