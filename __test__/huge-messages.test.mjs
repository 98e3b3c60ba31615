// Issue 14.4: a message whose Latin-1 text would exceed V8's string length (one of 200 MB of
// emoji, below the 256 MiB line limit) crosses as UTF-8 bytes instead, and the messages after it
// arrive too. `npm test` exercises the mechanism with the bound lowered to 1 MiB
// (CLAUDE_AGENT_SDK_TEST_MAX_LATIN1_LINE, read at session start); `npm run soak:huge` sends the
// real 200 MB one.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { runHost, entry, root } from './helpers/process.mjs'

const mockIndex = path.join(root, '__test__/mock-cli/index.mjs')

test('a message too long for a one-byte string crosses as UTF-8, between the batches around it, and nothing after it is lost', async () => {
  // 400,000 emoji: 1.6 MB as UTF-8, 4.8 MB as Latin-1 escapes (past the lowered 1 MiB bound).
  const host = runHost(`
    import { query } from ${JSON.stringify(entry)}
    import { mockCliPath, mockEnv, tempScenario } from ${JSON.stringify(mockIndex)}
    const scenario = tempScenario(\`
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        cli.assistantText('before é')
        cli.send({ type: 'huge', text: '😀'.repeat(400000), tail: 'é\\\\ud800' })
        cli.assistantText('after 🌍')
        cli.send({ type: 'huge', text: '—'.repeat(200000) })
        cli.result()
      }\`)
    const diagnostics = []
    const messages = []
    for await (const m of query({ prompt: 'go', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario }), debug: true, stderr: (d) => diagnostics.push(d) } })) messages.push(m)
    report({
      types: messages.map((m) => m.type),
      before: messages[0].message.content[0].text,
      emoji: messages[1].text === '😀'.repeat(400000),
      tail: messages[1].tail === 'é\\ud800',
      after: messages[2].message.content[0].text,
      dashes: messages[3].text === '—'.repeat(200000),
      crossed: (diagnostics.join('').match(/crosses as UTF-8/g) ?? []).length,
    })
  `, { env: { ...process.env, CLAUDE_AGENT_SDK_TEST_MAX_LATIN1_LINE: String(1 << 20) } })
  try {
    const r = await host.next((x) => x.types !== undefined, 30000)
    assert.deepEqual(r.types, ['assistant', 'huge', 'assistant', 'huge', 'result'])
    assert.equal(r.before, 'before é')
    assert.ok(r.emoji, 'the emoji message arrives whole')
    assert.ok(r.tail, 'a lone surrogate escape survives the UTF-8 crossing')
    assert.equal(r.after, 'after 🌍')
    assert.ok(r.dashes)
    assert.equal(r.crossed, 2, 'both long messages took the UTF-8 crossing')
    assert.deepEqual(await host.exited, { code: 0, signal: null }, host.stderr())
  } finally {
    host.child.kill('SIGKILL')
  }
})
