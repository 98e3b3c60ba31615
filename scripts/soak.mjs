#!/usr/bin/env node
// Soak: one session doing 100,000 in-process tool calls through the mock CLI. Prints calls/s and
// the host's RSS every 10,000 calls, then whether RSS stayed flat. Exit code 1 if it did not.
//
//   npm run soak                       # node --expose-gc scripts/soak.mjs
//   node_modules/bun/bin/bun.exe scripts/soak.mjs
//   node scripts/soak.mjs --calls 200000 --concurrency 64 --every 20000
import fs from 'node:fs'
import { parseArgs } from 'node:util'
import { query, tool, createSdkMcpServer } from '../index.mjs'
import { mockCliPath, mockEnv, tempScenario } from '../__test__/mock-cli/index.mjs'

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '32' },
    every: { type: 'string', default: '10000' },
    // RSS may grow by at most this much (MiB) from the report at 60% of the run to the last.
    'max-growth': { type: 'string', default: '16' },
  },
})
const CALLS = Number(values.calls)
const CONCURRENCY = Number(values.concurrency)
const EVERY = Number(values.every)
const MAX_GROWTH = Number(values['max-growth']) * 1024 * 1024

const gc = globalThis.gc ?? (process.versions.bun ? () => globalThis.Bun.gc(true) : () => {})
const rss = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024
const mib = (b) => `${(b / 1048576).toFixed(1)} MiB`

// The mock plays the CLI: CONCURRENCY workers keep tools/call requests in flight until CALLS are
// answered, checking each answer, then end the turn.
const scenario = tempScenario(`
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    let next = 0, wrong = 0
    async function worker() {
      while (next < ${CALLS}) {
        const i = next++
        const r = await cli.mcp('soak', { method: 'tools/call', params: { name: 'echo', arguments: { i, pad: 'x'.repeat(100) } } })
        if (r.result?.content?.[0]?.text !== 'echo ' + i) wrong++
      }
    }
    await Promise.all(Array.from({ length: ${CONCURRENCY} }, worker))
    cli.assistantText(wrong === 0 ? 'all answers correct' : wrong + ' wrong answers')
    cli.result()
  }`)

let calls = 0
const samples = []
const t0 = performance.now()
let lastT = t0
const server = createSdkMcpServer({
  name: 'soak',
  tools: [tool('echo', 'echoes i', { type: 'object', properties: { i: { type: 'number' }, pad: { type: 'string' } }, required: ['i'] }, async ({ i }) => {
    calls++
    if (calls % EVERY === 0) {
      const now = performance.now()
      gc() // so that RSS shows what is retained, not how far the JS heap got before its next GC
      const sample = { calls, rate: EVERY / ((now - lastT) / 1000), rss: rss(), heap: process.memoryUsage().heapUsed }
      samples.push(sample)
      lastT = performance.now()
      console.log(`${String(calls).padStart(8)} calls  ${sample.rate.toFixed(0).padStart(6)} calls/s  RSS ${mib(sample.rss).padStart(10)}  JS heap ${mib(sample.heap).padStart(9)}`)
    }
    return { content: [{ type: 'text', text: `echo ${i}` }] }
  })],
})

console.log(`soak: ${CALLS} tool calls, ${CONCURRENCY} in flight, one session (${process.versions.bun ? 'bun ' + process.versions.bun : 'node ' + process.version})`)
console.log(`start: RSS ${mib(rss())}`)
let result
for await (const m of query({ prompt: 'soak', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario }), mcpServers: { soak: server } } })) {
  if (m.type === 'result') result = m
}
const seconds = (performance.now() - t0) / 1000
console.log(`done: ${calls} calls in ${seconds.toFixed(1)} s, ${(calls / seconds).toFixed(0)} calls/s overall; CLI says: ${result?.result}`)

let ok = calls === CALLS && result?.result === 'all answers correct'
if (samples.length >= 2) {
  // The first samples include warm-up (code loaded, heaps, buffers and malloc's per-thread
  // arenas sized — measured: RSS settles within ~60,000 calls, then stays flat to 400,000), so
  // flatness is judged from the sample at 60% of the run.
  const first = samples[Math.min(samples.length - 2, Math.max(0, Math.ceil(samples.length * 0.6) - 1))]
  const last = samples.at(-1)
  const peak = Math.max(...samples.map((s) => s.rss))
  const growth = last.rss - first.rss
  const flat = growth <= MAX_GROWTH
  console.log(`RSS ${mib(first.rss)} at ${first.calls} calls -> ${mib(last.rss)} at ${last.calls} calls (${growth >= 0 ? '+' : ''}${mib(growth)}, peak ${mib(peak)}): ${flat ? 'flat' : `GROWING (bound ${mib(MAX_GROWTH)})`}`)
  ok &&= flat
}
process.exit(ok ? 0 : 1)
