// Issue 14.5: a tool handler that ignores its AbortSignal and never settles, cancelled by the CLI
// (MCP notifications/cancelled, or control_cancel_request): the call no longer holds the session
// open. After the result the session ends, the CLI exits, the host process exits by itself, and
// an answer the handler gives late is dropped quietly.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { runHost, entry, root, gone } from './helpers/process.mjs'
import { eventually } from './helpers/sdk.mjs'

const mockIndex = path.join(root, '__test__/mock-cli/index.mjs')

/** A host process running one query whose tool hangs until `late` ms after its signal fired (or forever). */
function host(cancel, late, after = false, hold = 0) {
  return runHost(`
    import fs from 'node:fs'
    import { query, tool, createSdkMcpServer } from ${JSON.stringify(entry)}
    import { mockCliPath, mockEnv, tempScenario, tempLogPath, readLog } from ${JSON.stringify(mockIndex)}
    const log = tempLogPath()
    const started = log + '.started'
    const keep = []
    const server = createSdkMcpServer({ name: 'demo', tools: [tool('hang', 'd', {}, (args, { signal }) => {
      fs.writeFileSync(started, '')
      const p = new Promise((resolve) => {
        ${late === undefined ? '' : `signal.addEventListener('abort', () => setTimeout(() => { report({ lateAnswer: true }); resolve({ content: [{ type: 'text', text: 'late' }] }) }, ${late}))`}
      })
      keep.push(p)
      return p
    })] })
    const scenario = tempScenario(\`
      import fs from 'node:fs'
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        cli.sessionState('running')
        cli.systemInit()
        cli.send({ type: 'control_request', request_id: 'req_hang', request: { subtype: 'mcp_message', server_name: 'demo',
          message: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'hang', arguments: {} } } } })
        while (!fs.existsSync(\${JSON.stringify(started)})) await cli.sleep(5)
        const cancel = () => ${cancel === 'mcp'
          ? `cli.mcp('demo', { method: 'notifications/cancelled', params: { requestId: 9, reason: 'interrupted' } })`
          : `cli.send({ type: 'control_cancel_request', request_id: 'req_hang' })`}
        ${after ? '' : 'await cancel()'}
        await cli.sleep(${hold})
        cli.assistantText('moved on')
        cli.result()
        cli.sessionState('idle')
        ${after ? 'await cli.sleep(100); await cancel()' : ''}
        await cli.waitStdinClosed()
      }\`)
    const q = query({ prompt: 'go', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario, log }), mcpServers: { demo: server } } })
    const types = []
    for await (const m of q) types.push(m.type)
    const pid = readLog(log).find((r) => r.kind === 'start').pid
    report({ types, pid })
    process.on('exit', () => {
      const answers = readLog(log).filter((r) => r.kind === 'stdin' && r.line.includes('"req_hang"'))
      report({ exiting: true, answers: answers.length })
    })
  `)
}

for (const [cancel, after] of [['mcp', false], ['control', false], ['mcp', true], ['control', true]]) {
  const how = cancel === 'mcp' ? 'MCP notifications/cancelled' : 'control_cancel_request'
  test(`a never-settling tool cancelled with ${how} ${after ? 'after the result and idle' : 'before the result'}: the session ends, the CLI and the host exit`, async () => {
    const h = host(cancel, undefined, after)
    try {
      const done = await h.next((r) => r.types !== undefined, 15000)
      assert.deepEqual(done.types, ['system', 'assistant', 'result'])
      await eventually(() => gone(done.pid), 5000, 'the CLI to exit')
      const exit = await Promise.race([h.exited, new Promise((r) => setTimeout(() => r('still running'), 5000))])
      assert.deepEqual(exit, { code: 0, signal: null }, `the host exits by itself (${h.stderr()})`)
    } finally {
      h.child.kill('SIGKILL')
    }
  })
}

// While the session runs, a late answer is still written, as the official SDK writes it (the
// CLI's control request gets its response); once the session is over it is dropped quietly.
for (const [when, hold] of [['after the session ended', 0], ['while the session still runs', 1000]]) test(`a tool cancelled by MCP notifications/cancelled that answers ${when}: ${hold ? 'written as the official does' : 'dropped quietly'}, no error`, async () => {
  const h = host('mcp', 300, false, hold)
  try {
    const done = await h.next((r) => r.types !== undefined, 15000)
    assert.deepEqual(done.types, ['system', 'assistant', 'result'])
    const exit = await Promise.race([h.exited, new Promise((r) => setTimeout(() => r('still running'), 5000))])
    assert.deepEqual(exit, { code: 0, signal: null }, `the host exits by itself (${h.stderr()})`)
    assert.ok(h.reports.some((r) => r.lateAnswer), 'the handler answered late')
    assert.equal(h.reports.find((r) => r.exiting).answers, hold ? 1 : 0, hold ? 'the late answer reached the CLI' : 'no answer reached the CLI')
    assert.doesNotMatch(h.stderr(), /Error|Warning/, 'nothing reported')
  } finally {
    h.child.kill('SIGKILL')
  }
})
