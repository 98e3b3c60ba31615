// Issue 14.3: a control request is never stuck behind unread messages. An app that waits for a
// tool call (or a permission prompt) before it consumes any message, while the CLI writes far
// more than the consumer's 4 MiB channel ahead of the call: the session keeps reading, routes the
// call, and every message still arrives in order once the app iterates. The memory held meanwhile
// is the messages themselves (README: "When the consumer falls behind").
import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { runHost, entry, root, MiB, mib } from './helpers/process.mjs'

const mockIndex = path.join(root, '__test__/mock-cli/index.mjs')
const FLOOD_MB = 64

for (const kind of ['tool', 'permission']) {
  test(`an app that awaits a ${kind === 'tool' ? 'tool call' : 'permission prompt'} before iterating, with ${FLOOD_MB} MB of messages ahead of it: no deadlock, nothing lost`, async () => {
    const host = runHost(`
      import fs from 'node:fs'
      import { query, tool, createSdkMcpServer } from ${JSON.stringify(entry)}
      import { mockCliPath, mockEnv, tempScenario, tempLogPath, readLog } from ${JSON.stringify(mockIndex)}
      const rss = () => Number(/VmRSS:\\s+(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024
      const log = tempLogPath()
      const scenario = tempScenario(\`
        export default async function (cli) {
          await cli.initialize()
          await cli.nextUserMessage()
          const line = JSON.stringify({ type: 'flood', text: 'f'.repeat(1024 * 1024 - 40) }) + '\\\\n'
          for (let i = 0; i < ${FLOOD_MB}; i++) await new Promise((r) => process.stdout.write(line, r))
          const answer = ${kind === 'tool'
            ? `await cli.mcp('demo', { method: 'tools/call', params: { name: 'gate', arguments: {} } })`
            : `await cli.request('can_use_tool', { tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'tu_1' })`}
          cli.log({ answer })
          cli.assistantText('after the call')
          cli.result()
        }\`)
      let called
      const gate = new Promise((resolve) => { called = resolve })
      const server = createSdkMcpServer({ name: 'demo', tools: [tool('gate', 'd', {}, async () => { called(); return { content: [{ type: 'text', text: 'opened' }] } })] })
      const before = rss()
      const q = query({ prompt: 'flood', options: {
        pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario, log }), mcpServers: { demo: server },
        canUseTool: async () => { called(); return { behavior: 'allow' } },
      } })
      // The app's pattern: wait for the call, then consume.
      await gate
      const during = rss()
      let floods = 0
      let bytes = 0
      const types = []
      for await (const m of q) {
        if (m.type === 'flood') { floods++; bytes += m.text.length } else types.push(m.type)
      }
      const answer = readLog(log).find((r) => r.kind === 'scenario')?.data.answer
      report({ floods, bytes, types, answer, growth: during - before })
    `)
    try {
      const r = await host.next((x) => x.floods !== undefined, 60000)
      assert.equal(r.floods, FLOOD_MB, 'every message arrives once the app iterates')
      assert.equal(r.bytes, FLOOD_MB * (1024 * 1024 - 40))
      assert.deepEqual(r.types, ['assistant', 'result'])
      if (kind === 'tool') assert.equal(r.answer.result.content[0].text, 'opened')
      else assert.equal(r.answer.response.behavior, 'allow')
      console.log(`# ${kind}: host RSS grew ${mib(r.growth)} while ${FLOOD_MB} MB waited for the consumer`)
      assert.ok(r.growth < (FLOOD_MB + 96) * MiB, `host RSS grew by ${mib(r.growth)}`)
      assert.deepEqual(await host.exited, { code: 0, signal: null }, host.stderr())
    } finally {
      host.child.kill('SIGKILL')
    }
  })
}
