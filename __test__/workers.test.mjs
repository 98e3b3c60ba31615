// The addon in Worker threads: loadable in several at once, and a Worker terminated in the
// middle of a stream leaves no file descriptor, thread or CLI process behind.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { fileURLToPath } from 'node:url'
import { sdk, collect, mockOptions, mockPids, alive, eventually } from './helpers/sdk.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

// Streams assistant messages until it is stopped.
const STREAMING = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    for (let i = 0; ; i++) {
      cli.send({ type: 'assistant', n: i, pad: 'x'.repeat(2000) })
      if (i % 50 === 0) await cli.sleep(1)
    }
  }`

const ONE_TURN = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    const r = await cli.mcp('demo', { method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } })
    cli.assistantText(r.result.content[0].text)
    cli.result()
  }`

/** A Worker that runs one query with `options`, posts 'streaming' after `after` messages and the message types at the end. */
function startWorker(options, after = Infinity) {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads')
    const { query, tool, createSdkMcpServer } = require(${JSON.stringify(path.join(root, 'index.js'))})
    const server = createSdkMcpServer({ name: 'demo', tools: [tool('echo', 'e', { type: 'object', properties: { text: { type: 'string' } } }, async (a) => ({ content: [{ type: 'text', text: a.text }] }))] })
    ;(async () => {
      const types = []
      for await (const m of query({ prompt: 'go', options: { ...workerData.options, mcpServers: { demo: server } } })) {
        types.push(m.type)
        if (types.length === workerData.after) parentPort.postMessage('streaming')
      }
      parentPort.postMessage(types)
    })().catch((e) => parentPort.postMessage({ error: e.message }))`
  return new Worker(source, { eval: true, workerData: { options, after } })
}

const fds = () => fs.readdirSync('/proc/self/fd').length
const threads = () => fs.readdirSync('/proc/self/task').length
const next = (w) => new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject) })

test('several Workers run queries at once', { skip: process.platform !== 'linux' && 'counts /proc' }, async () => {
  const runs = [1, 2, 3].map(() => {
    const { options } = mockOptions(ONE_TURN)
    const w = startWorker(options)
    return next(w).finally(() => w.terminate())
  })
  for (const types of await Promise.all(runs)) assert.deepEqual(types, ['assistant', 'result'])
})

test('a Worker terminated mid-stream leaves no fd, thread or CLI process behind', { skip: process.platform !== 'linux' && 'counts /proc' }, async () => {
  // Warm up: the first Worker loads the addon and starts the engine's runtime (kept for the
  // process), so the counts after it are the baseline.
  {
    const { options } = mockOptions(ONE_TURN)
    const w = startWorker(options)
    await next(w)
    await w.terminate()
  }
  const before = { fds: fds(), threads: threads() }
  for (let round = 0; round < 3; round++) {
    const { log, options } = mockOptions(STREAMING)
    const w = startWorker(options, 20 + round * 40)
    assert.equal(await next(w), 'streaming')
    const [pid] = mockPids(log)
    assert.ok(alive(pid), 'the CLI runs while the Worker streams')
    await w.terminate()
    await eventually(() => !alive(pid), 15000, `the CLI (pid ${pid}) to end after the Worker was terminated`)
  }
  await eventually(() => fds() <= before.fds && threads() <= before.threads, 15000,
    `fds and threads back to ${JSON.stringify(before)}`).catch((e) => {
    throw new Error(`${e.message}; now ${JSON.stringify({ fds: fds(), threads: threads() })}`)
  })
})

// A query still waiting for the CLI's `initialize` answer is held by the engine's task behind
// initializationResult(), not only by the JS object a Worker's teardown finalizes. When the
// addon is loaded in the main thread too, the engine's runtime outlives the Worker (were the
// Worker its only user, napi-rs would shut the runtime down with it, and every session with
// it): without the env cleanup hook (src/worker.rs) the CLI then outlives the Worker until the
// initialize timeout (60 s). With it, the Worker's end aborts the session at once.
test('a Worker terminated while its query awaits initialize leaves no CLI behind', { skip: process.platform !== 'linux' && 'reads /proc' }, async () => {
  // The addon and its runtime in use by the main thread as well.
  const { error } = await collect(sdk.query({ prompt: 'hi', options: mockOptions(`export default async function (cli) { await cli.initialize(); await cli.nextUserMessage(); cli.result() }`).options }))
  assert.equal(error, null)
  const { log, options } = mockOptions(`export default async function (cli) { await cli.sleep(120000) }`)
  const source = `
    const { parentPort, workerData } = require('node:worker_threads')
    const { query } = require(${JSON.stringify(path.join(root, 'index.js'))})
    const q = query({ prompt: 'go', options: workerData.options })
    q.initializationResult().catch(() => {})
    parentPort.postMessage('started')`
  const w = new Worker(source, { eval: true, workerData: { options } })
  assert.equal(await next(w), 'started')
  await eventually(() => mockPids(log).length === 1, 15000, 'the CLI to start')
  const [pid] = mockPids(log)
  await w.terminate()
  await eventually(() => !alive(pid), 10000, `the CLI (pid ${pid}) to end after the Worker was terminated`)
})
