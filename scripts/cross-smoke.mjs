// One query through a cross-built engine, run by `npm run cross` inside the target's runtime
// (arm64 Node under qemu, Node for Windows under Wine, Bun for musl). The engine comes from
// CLAUDE_AGENT_SDK_NATIVE_PATH. Prints one line of JSON: { ok, mode, result, calls, ms }.
//   mock:  the mock CLI (a Node script run by this runtime) answers a scripted session.
//   real:  the real CLI (argv[3], a native binary or a wrapper script) against the scripted
//          Messages API, calling an in-process tool.
import fs from 'node:fs'
import { z } from 'zod'
import { query, tool, createSdkMcpServer } from '../index.mjs'

const [mode = 'mock', cli] = process.argv.slice(2)
const t0 = Date.now()
// Under Wine, Node cannot open a pipe as its stdout (EBADF): the result goes to a file then.
const out = (o) => {
  const line = JSON.stringify({ mode, ms: Date.now() - t0, ...o })
  if (process.env.CROSS_SMOKE_OUT) fs.writeFileSync(process.env.CROSS_SMOKE_OUT, line + '\n')
  else console.log(line)
}

try {
  if (mode === 'mock') {
    const { mockCliPath, mockEnv } = await import('../__test__/mock-cli/index.mjs')
    const messages = []
    for await (const m of query({ prompt: 'hi', options: { pathToClaudeCodeExecutable: mockCliPath, executable: process.env.CROSS_SMOKE_RUNTIME || process.execPath, env: mockEnv({}) } })) messages.push(m)
    const result = messages.find((m) => m.type === 'result')
    out({ ok: result?.subtype === 'success', result: result?.result ?? null, types: messages.map((m) => m.type) })
  } else {
    const { startScriptedModel, toolResultText, lastToolResult } = await import('../testing/index.mjs')
    const calls = []
    const demo = createSdkMcpServer({
      name: 'demo',
      version: '1.0.0',
      tools: [tool('greet', 'Greets someone', { name: z.string() }, async ({ name }) => {
        calls.push(name)
        return { content: [{ type: 'text', text: `Hello, ${name}!` }] }
      })],
    })
    const model = await startScriptedModel({
      turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] }, (req) => ({ text: 'Tool said: ' + toolResultText(lastToolResult(req)) })],
    })
    try {
      let stderr = ''
      const messages = []
      const q = query({ prompt: 'Greet Alice', options: { pathToClaudeCodeExecutable: cli, env: model.env(), cwd: model.tempDir('cross-'), mcpServers: { demo }, allowedTools: ['mcp__demo__greet'], stderr: (d) => (stderr += d) } })
      for await (const m of q) messages.push(m)
      const result = messages.find((m) => m.type === 'result')
      out({ ok: result?.result === 'Tool said: Hello, Alice!' && calls[0] === 'Alice', result: result?.result ?? null, calls, stderr: result ? undefined : stderr.slice(-2000) })
    } finally {
      await model.close?.()
    }
  }
} catch (e) {
  out({ ok: false, error: String(e?.stack ?? e) })
}
process.exit(0)
