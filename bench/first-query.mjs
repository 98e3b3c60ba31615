#!/usr/bin/env node
// Where a one-shot script's time goes, phase by phase: `node bench/first-query.mjs [ours|official]`.
// Imports the SDK, then the app's zod (ESM), makes a tool with a zod shape, and runs one query
// against the fake CLI (target/release/bench-fake-cli, built by `npm run bench`), printing the
// time at each step since the script started. For a CPU profile of the same run, add
// `node --cpu-prof --cpu-prof-dir <dir>` (see BENCHMARKS.md, "First query").
import { performance } from 'node:perf_hooks'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const t0 = performance.now()
const marks = []
const mark = (name) => marks.push([name, performance.now() - t0])
const which = process.argv[2] || 'ours'
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const sdk = which === 'ours' ? await import('claude-agent-sdk-native') : await import('@anthropic-ai/claude-agent-sdk')
mark('SDK imported')
const { z } = await import('zod')
mark("app's zod imported")
const server = sdk.createSdkMcpServer({ name: 'bench', version: '1.0.0', tools: [sdk.tool('echo', 'Echo', { text: z.string() }, async (a) => ({ content: [{ type: 'text', text: a.text }] }))] })
mark('server created')
const q = sdk.query({
  prompt: 'bench',
  options: {
    pathToClaudeCodeExecutable: process.env.FAKE_CLI_PATH || path.join(root, 'target/release/bench-fake-cli'),
    env: { ...process.env, FAKE_CLI_SCENARIO: 'startup' },
    mcpServers: { bench: server },
  },
})
mark('query() returned')
for await (const m of q) {
  if (!marks.some(([n]) => n === 'first message')) mark('first message')
}
mark('end of for await')
let prev = 0
for (const [name, t] of marks) {
  console.log(`${name.padEnd(20)} ${t.toFixed(1).padStart(7)} ms  (+${(t - prev).toFixed(1)})`)
  prev = t
}
