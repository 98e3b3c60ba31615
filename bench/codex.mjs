// The Codex benchmark (`npm run bench -- codex`, and part of a full `npm run bench`): the real
// `codex` binary (@openai/codex) against the scripted Responses API (testing/responses.js) on
// 127.0.0.1, driven three ways (bench/codex-driver.mjs): claude-agent-sdk-native/codex ("ours",
// one app-server per thread, an in-process createSdkMcpServer() tool), @openai/codex-sdk
// ("official", `codex exec` per turn, no tool) and a no-SDK JSON-RPC client of `codex app-server`
// ("floor"). Two scenarios: a warm turn with one tool call (the official's turn has no tool call,
// as it cannot have an in-process tool), and turns of 64 parallel calls of one fast tool (ours and
// the floor). Each measurement is a fresh process; the SDK order is rotated each round; medians
// are kept. Writes its section of BENCHMARKS.md (between the codex markers) and bench/codex.json.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import testing from '../testing/index.js'
import { machineFacts, replaceSection } from './section.mjs'

const { startScriptedResponses, responsesLastUserText, responsesToolNames } = testing
const run = promisify(execFile)
const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.join(here, '..')
const quick = process.env.BENCH_QUICK === '1'
const ROUNDS = Number(process.env.BENCH_ROUNDS || (quick ? 1 : 5))
const TURN = { warmup: 2, turns: quick ? 5 : 10 }
const CONC = { warmup: 1, turns: quick ? 3 : 8, calls: 64 }
const CODEX = path.join(root, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex')

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b)
  if (!s.length) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** The model: `calls:N` with `bench.echo` offered → N parallel calls; their outputs in, or no tool → `done`. */
function script(req) {
  const items = Array.isArray(req.input) ? req.input : []
  if (items[items.length - 1]?.type === 'function_call_output') return { text: 'done' }
  const n = Number(/calls:(\d+)/.exec(responsesLastUserText(req))?.[1] ?? 0)
  if (!n || !responsesToolNames(req).includes('bench.echo')) return { text: 'done' }
  return { functionCalls: Array.from({ length: n }, (_, i) => ({ namespace: 'bench', name: 'echo', arguments: { text: `call ${i}` } })) }
}

/** Rewrites the BENCHMARKS.md section from bench/codex.json (no measuring). */
export function rewriteCodexSection() {
  writeSection(JSON.parse(fs.readFileSync(path.join(here, 'codex.json'), 'utf8')))
}

export async function runCodexBench({ writeDocs = !quick || process.env.BENCH_WRITE === '1' } = {}) {
  if (!fs.existsSync(CODEX)) {
    console.log(`\ncodex: skipped, ${path.relative(root, CODEX)} is not installed (linux-x64 only here)`)
    return null
  }
  const model = await startScriptedResponses({ fallback: script })
  const started = Date.now()
  try {
    const env = model.env()
    const config = model.config()
    const measure = async (sdk, scenario, opts) => {
      const a = { codex: CODEX, env, config, cwd: model.tempDir(), ...opts }
      const { stdout } = await run(process.execPath, [path.join(here, 'codex-driver.mjs'), sdk, scenario, JSON.stringify(a)], { cwd: root, maxBuffer: 1 << 24 })
      model.requests.length = 0
      return JSON.parse(stdout.trim().split('\n').pop())
    }
    const runs = []
    for (let r = 0; r < ROUNDS; r++) {
      const turnOrder = [['ours', 'official', 'floor'], ['official', 'floor', 'ours'], ['floor', 'ours', 'official']][r % 3]
      for (const sdk of turnOrder) {
        const out = await measure(sdk, 'turn', TURN)
        const want = sdk === 'official' ? 0 : TURN.turns
        if (out.tool_calls !== want) throw new Error(`codex turn, ${sdk}: ${out.tool_calls} tool calls, expected ${want}`)
        runs.push({ round: r, ...out })
      }
      for (const sdk of r % 2 ? ['floor', 'ours'] : ['ours', 'floor']) {
        const out = await measure(sdk, 'conc', CONC)
        if (out.tool_calls !== CONC.turns * CONC.calls) throw new Error(`codex conc, ${sdk}: ${out.tool_calls} tool calls, expected ${CONC.turns * CONC.calls}`)
        runs.push({ round: r, ...out })
      }
    }
    const of = (sdk, scenario) => runs.filter((x) => x.sdk === sdk && x.scenario === scenario)
    const turnMs = (sdk) => median(of(sdk, 'turn').map((x) => median(x.times)))
    const pairedTurn = (a, b) => median([...Array(ROUNDS).keys()].map((r) => median(runs.find((x) => x.round === r && x.sdk === a && x.scenario === 'turn').times) / median(runs.find((x) => x.round === r && x.sdk === b && x.scenario === 'turn').times)))
    const rate = (x) => x.tool_calls / (x.span_ms / 1000)
    const conc = (sdk) => ({
      calls_per_s: median(of(sdk, 'conc').map(rate)),
      host_cpu_us_per_call: median(of(sdk, 'conc').map((x) => (x.host_cpu_ms * 1000) / x.tool_calls)),
      codex_cpu_us_per_call: median(of(sdk, 'conc').map((x) => (x.codex_cpu_ms * 1000) / x.tool_calls)),
      turn_ms: median(of(sdk, 'conc').map((x) => median(x.times))),
    })
    const pairedRate = median([...Array(ROUNDS).keys()].map((r) => rate(runs.find((x) => x.round === r && x.sdk === 'floor' && x.scenario === 'conc')) / rate(runs.find((x) => x.round === r && x.sdk === 'ours' && x.scenario === 'conc'))))
    const result = {
      date: new Date().toISOString(),
      quick,
      // BENCH_NOTE: a sentence about this run (e.g. what else the machine was doing), shown under the table.
      note: process.env.BENCH_NOTE || undefined,
      rounds: ROUNDS,
      turn: { ...TURN, ms: { ours: turnMs('ours'), official: turnMs('official'), floor: turnMs('floor') }, ours_vs_official: pairedTurn('ours', 'official'), floor_vs_official: pairedTurn('floor', 'official'), ours_vs_floor: pairedTurn('ours', 'floor') },
      conc: { ...CONC, ours: conc('ours'), floor: conc('floor'), floor_vs_ours_rate: pairedRate },
      codexVersion: JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@openai/codex/package.json'), 'utf8')).version,
      codexSdkVersion: JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@openai/codex-sdk/package.json'), 'utf8')).version,
      ...machineFacts(),
      seconds: Math.round((Date.now() - started) / 1000),
      runs,
    }
    printTable(result)
    if (writeDocs) {
      fs.writeFileSync(path.join(here, 'codex.json'), JSON.stringify(result, null, 2) + '\n')
      writeSection(result)
    }
    return result
  } finally {
    await model.close()
  }
}

const ms = (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(1))
const x = (v) => `${v.toFixed(2)}×`

function printTable(r) {
  const t = r.turn
  console.log(`\ncodex: ${r.rounds} round(s); warm turn = median of ${t.turns} turns after ${t.warmup}; ${r.conc.turns} turns × ${r.conc.calls} parallel calls`)
  console.log(`  warm turn, one tool call   ours ${ms(t.ms.ours)} ms   official (no tool) ${ms(t.ms.official)} ms   floor ${ms(t.ms.floor)} ms   ours/official ${x(t.ours_vs_official)}   ours/floor ${x(t.ours_vs_floor)}`)
  const c = r.conc
  console.log(`  64 calls in flight         ours ${c.ours.calls_per_s.toFixed(0)} calls/s   floor ${c.floor.calls_per_s.toFixed(0)} calls/s   floor/ours ${x(c.floor_vs_ours_rate)}`)
  console.log(`  CPU per call (host; codex) ours ${c.ours.host_cpu_us_per_call.toFixed(0)} µs; ${c.ours.codex_cpu_us_per_call.toFixed(0)} µs   floor ${c.floor.host_cpu_us_per_call.toFixed(0)} µs; ${c.floor.codex_cpu_us_per_call.toFixed(0)} µs`)
}

function writeSection(r) {
  const t = r.turn
  const c = r.conc
  const turnMet = t.ours_vs_official <= 0.5
  const rateMet = c.floor_vs_ours_rate <= 1.3
  const md = [
    '<!-- codex:begin -->',
    '## Codex',
    '',
    `Written by \`npm run bench -- codex\` (bench/codex.mjs, bench/codex-driver.mjs). The real \`codex\` ${r.codexVersion} (@openai/codex, linux-x64) against the scripted Responses API of \`claude-agent-sdk-native/testing\` on 127.0.0.1 (in the bench's own process, shared by all three). **ours**: \`claude-agent-sdk-native/codex\`, one \`codex app-server\` for the thread, the tool \`bench.echo\` an in-process \`createSdkMcpServer()\` tool with a zod shape. **official**: \`@openai/codex-sdk\` ${r.codexSdkVersion}, which runs \`codex exec\` once per turn and has no in-process tools, so its turn is the same prompt without the tool call (one model request instead of two). **floor**: no SDK, \`codex app-server\` spawned and spoken to by hand (\`initialize\` with the experimental opt-in, \`thread/start\` with \`dynamicTools\`, \`turn/start\`, each \`item/tool/call\` answered with the text back; readline + \`JSON.parse\` per line). Each figure comes from a fresh Node process per SDK; ${r.rounds} round(s), the SDK order rotated each round, medians over rounds; ratios are the median of each round's pair.`,
    '',
    `| | ours | official | floor | ours/official | ours/floor | target |`,
    '|---|---:|---:|---:|---:|---:|---|',
    `| warm turn with one tool call (median of ${t.turns} turns after ${t.warmup}; official: no tool) | ${ms(t.ms.ours)} ms | ${ms(t.ms.official)} ms | ${ms(t.ms.floor)} ms | ${x(t.ours_vs_official)} | ${x(t.ours_vs_floor)} | ours ≤ 0.5× official ${turnMet ? '✅ met' : '❌ not met'} (floor/official ${x(t.floor_vs_official)}) |`,
    `| ${c.calls} dynamic-tool calls in flight: calls/s (${c.turns} turns of ${c.calls} parallel calls after ${c.warmup}) | ${c.ours.calls_per_s.toFixed(0)} | — | ${c.floor.calls_per_s.toFixed(0)} | — | floor/ours ${x(c.floor_vs_ours_rate)} | ours within 1.3× of the floor ${rateMet ? '✅ met' : '❌ not met'} |`,
    `| same: one such turn | ${ms(c.ours.turn_ms)} ms | — | ${ms(c.floor.turn_ms)} ms | — | — | |`,
    `| same: host CPU per call (process.cpuUsage(), all threads ÷ calls) | ${c.ours.host_cpu_us_per_call.toFixed(0)} µs | — | ${c.floor.host_cpu_us_per_call.toFixed(0)} µs | — | — | reported |`,
    `| same: codex's CPU per call (app-server's utime+stime ÷ calls) | ${c.ours.codex_cpu_us_per_call.toFixed(0)} µs | — | ${c.floor.codex_cpu_us_per_call.toFixed(0)} µs | — | — | reported |`,
    '',
    `The calls/s figure is calls ÷ the wall time of the measured turns, so it includes the two model requests of each turn (the scripted model answers at once) and codex's own work per call, which is the same for ours and the floor; the host CPU is what the client itself spends. Machine: ${r.cpu} × ${r.cpus}, Node ${r.node}, load average at the end ${r.load.join(' / ')}; ${r.seconds} s; run ${r.date}${r.quick ? ' in quick mode (BENCH_QUICK=1: fewer turns)' : ''}.`,
    ...(c.floor.codex_cpu_us_per_call > 5 * Math.max(c.ours.host_cpu_us_per_call, c.floor.host_cpu_us_per_call)
      ? ['', `In this run codex itself spent ${(c.ours.codex_cpu_us_per_call / 1000).toFixed(1)} ms (ours) and ${(c.floor.codex_cpu_us_per_call / 1000).toFixed(1)} ms (floor) of CPU per call (its app-server, over the measured turns), far more than either client (${c.ours.host_cpu_us_per_call.toFixed(0)} µs ours, ${c.floor.host_cpu_us_per_call.toFixed(0)} µs the floor), so the calls/s figure is codex's rate on this machine and says little about the client beyond that ours keeps up with it.`]
      : []),
    ...(r.note ? ['', r.note] : []),
    '',
    '<!-- codex:end -->',
    '',
  ].join('\n')
  replaceSection('codex', md)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runCodexBench()
