#!/usr/bin/env node
// The `cold` scenario: a one-shot app in a fresh process, as a user runs it. `bench/run.mjs` copies
// this file into an app folder of its own (see coldApp() there), whose node_modules holds the SDK
// (this package linked, as `npm link` or a workspace does, or the official package) and the app's
// OWN zod (a copy: the app's dependency, not the one beside the SDK). Then
// `node <app>/app.mjs <ours|official|floor> <fake-cli> <floor.mjs>`:
// imports the SDK, then the app's zod, makes one tool with tool() and a zod shape, its server,
// and runs one query to its first message and its result; prints one JSON line. The floor is the
// same app with no SDK (it imports zod, makes the same shape and drives the CLI by hand).
import { performance } from 'node:perf_hooks'

const t0 = performance.now()
const [which, cli, floorModule] = process.argv.slice(2)
const echo = async (a) => ({ content: [{ type: 'text', text: a.text }] })
const env = { ...process.env, FAKE_CLI_SCENARIO: 'startup' }
let importMs = 0
let tq = 0
let messages
if (which === 'floor') {
  const { floorQuery } = await import(floorModule)
  importMs = performance.now() - t0
  const { z } = await import('zod')
  globalThis.__shape = { text: z.string() }
  tq = performance.now()
  messages = floorQuery({ cli, env, echo })
} else {
  const sdk = which === 'ours' ? await import('claude-agent-sdk-native') : await import('@anthropic-ai/claude-agent-sdk')
  importMs = performance.now() - t0
  const { z } = await import('zod')
  const server = sdk.createSdkMcpServer({ name: 'bench', version: '1.0.0', tools: [sdk.tool('echo', 'Echo', { text: z.string() }, echo)] })
  tq = performance.now()
  messages = sdk.query({ prompt: 'bench', options: { pathToClaudeCodeExecutable: cli, env, mcpServers: { bench: server } } })
}
let first = null
let result = null
for await (const m of messages) {
  const t = performance.now()
  first ??= t
  if (m.type === 'result') result = t
}
const end = performance.now()
if (result === null) throw new Error('no result')
const cpu = process.cpuUsage()
process.stdout.write(JSON.stringify({
  sdk: which,
  scenario: 'cold',
  figures: {
    import_ms: importMs,
    zod_ms: tq - t0 - importMs,
    first_msg_ms: first - tq,
    first_result_ms: result - tq,
    oneshot_ms: first - t0,
    oneshot_result_ms: result - t0,
    end_ms: end - t0,
    cpu_ms: (cpu.user + cpu.system) / 1000,
    peak_rss_mb: (process.resourceUsage().maxRSS * 1024) / 1e6,
  },
}) + '\n')
