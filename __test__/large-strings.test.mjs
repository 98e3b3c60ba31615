// Messages of 128 KiB and more cross to JavaScript as external strings: V8 points at the
// engine's bytes (freed by a finalizer when the string is collected) instead of copying them
// (src/json_text.rs). These tests hold what that must keep true: the text is exact (Latin-1
// characters, escapes, characters beyond Latin-1, lone surrogates), it stays exact while the
// collector frees the strings of other messages around it, and a Worker terminated while it
// holds such strings ends cleanly (Node then calls the finalizer without an environment).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { runHost, entry, root, isBun } from './helpers/process.mjs'

const mockIndex = path.join(root, '__test__/mock-cli/index.mjs')

// The same texts on both sides: the mock CLI sends them, the host rebuilds them to compare.
const TEXTS = `
  const TEXTS = {
    latin1: 'é'.repeat(200000),
    ascii: 'x'.repeat(300000),
    escapes: 'line\\n"quoted" — tab\\t back\\\\slash '.repeat(20000),
    emoji: '😀'.repeat(60000) + 'é\\ud800',
    nested: 'ü—'.repeat(90000),
  }`

test('large messages arrive exact and stay exact while the collector frees the ones around them', async () => {
  const host = runHost(`
    import { query } from ${JSON.stringify(entry)}
    import { mockCliPath, mockEnv, tempScenario } from ${JSON.stringify(mockIndex)}
    ${TEXTS}
    const scenario = tempScenario(\`
      ${TEXTS.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        for (let round = 0; round < 4; round++) {
          cli.assistantText(TEXTS.latin1)
          cli.send({ type: 'big', text: TEXTS.ascii, round })
          cli.send({ type: 'big', text: TEXTS.escapes, round })
          cli.send({ type: 'big', text: TEXTS.emoji, round })
          cli.send({ type: 'big', deep: [{ a: { b: [0, { text: TEXTS.nested }] } }], round })
          cli.assistantText('small é 🌍')
        }
        cli.result()
      }\`)
    const kept = []
    let seen = 0
    const wrong = []
    const check = (m) => {
      if (m.type === 'assistant' && m.message.content[0].text.length > 1000 && m.message.content[0].text !== TEXTS.latin1) wrong.push('latin1')
      if (m.type !== 'big') return
      const text = m.text ?? m.deep[0].a.b[1].text
      const want = m.text === undefined ? TEXTS.nested : text.length === TEXTS.ascii.length ? TEXTS.ascii : text.length === TEXTS.escapes.length ? TEXTS.escapes : TEXTS.emoji
      if (text !== want) wrong.push(m.round + ':' + text.length)
    }
    for await (const m of query({ prompt: 'go', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario }) } })) {
      seen++
      check(m)
      // Every other message is kept; the rest become garbage at once.
      if (seen % 2) kept.push(m)
      globalThis.gc?.()
    }
    // Garbage of every size, collections, then the kept messages again.
    for (let i = 0; i < 20; i++) {
      const junk = []
      for (let j = 0; j < 50; j++) junk.push('y'.repeat(150000 + j) + i)
      globalThis.gc?.()
    }
    for (const m of kept) check(m)
    report({ seen, kept: kept.length, wrong })
  `)
  try {
    const r = await host.next((x) => x.seen !== undefined, 60000)
    assert.deepEqual(r.wrong, [], 'every large text is exact, before and after the collections')
    // system/init is not sent by this scenario: 4 rounds of 6 messages and the result.
    assert.equal(r.seen, 25)
    assert.deepEqual(await host.exited, { code: 0, signal: null }, host.stderr())
  } finally {
    host.child.kill('SIGKILL')
  }
})

test('a Worker terminated while it holds large messages ends cleanly', async () => {
  const host = runHost(`
    import { Worker } from 'node:worker_threads'
    import { mockCliPath, mockEnv, tempScenario } from ${JSON.stringify(mockIndex)}
    ${TEXTS}
    const scenario = tempScenario(\`
      ${TEXTS.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        for (let i = 0; i < 6; i++) cli.send({ type: 'big', text: TEXTS.escapes, i })
        await cli.sleep(60000)
      }\`)
    const source = \`
      const { parentPort, workerData } = require('node:worker_threads')
      const { query } = require(\${JSON.stringify(${JSON.stringify(path.join(root, 'index.js'))})})
      const held = []
      ;(async () => {
        for await (const m of query({ prompt: 'go', options: workerData.options })) {
          held.push(m)
          if (held.length === 6) parentPort.postMessage(held.every((x) => x.text.length === workerData.length))
        }
      })()\`
    for (let round = 0; round < 2; round++) {
      const w = new Worker(source, { eval: true, workerData: { options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario }) }, length: TEXTS.escapes.length } })
      const whole = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject) })
      await w.terminate()
      report({ round, whole })
    }
    globalThis.gc?.()
    report({ done: true })
  `)
  try {
    const rounds = [await host.next((x) => x.round === 0, 60000), await host.next((x) => x.round === 1, 60000)]
    assert.deepEqual(rounds.map((r) => r.whole), [true, true])
    await host.next((x) => x.done, 30000)
    const exit = await host.exited
    // Bun keeps a process with a terminated Worker's pipes open a moment longer; what matters
    // is that it does not crash.
    assert.equal(exit.signal, null, host.stderr())
    if (!isBun) assert.equal(exit.code, 0, host.stderr())
  } finally {
    host.child.kill('SIGKILL')
  }
})
