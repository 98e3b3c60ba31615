// How a session ends: normally, with the CLI failing, on abort, on break; no process left behind.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sdk, collect, mockOptions, mockPids, alive, eventually, readLog } from './helpers/sdk.mjs'

const { query, AbortError } = sdk

const UNTIL_KILLED = `
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.systemInit()
    cli.assistantText('working')
    await new Promise(() => {})
  }`

test('a CLI that exits non-zero mid-run rejects with its exit code and stderr tail', async () => {
  const { options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      cli.stderr('something broke: disk full')
      await cli.exit(3)
    }`)
  const { messages, error } = await collect(query({ prompt: 'hi', options }))
  assert.equal(messages[0].subtype, 'init', 'messages before the failure are delivered first')
  assert.ok(error instanceof Error)
  assert.equal(error.message, 'Claude Code process exited with code 3. stderr: something broke: disk full')
  assert.equal(error.code, 'PROCESS_EXITED')
  // The fields of the engine's error, not parsed back out of its message.
  assert.equal(error.exitCode, 3)
  assert.equal(error.stderr, 'something broke: disk full')
  assert.equal(error.signal, undefined)
})

test('a CLI killed by a signal, and one that exits 0 without a result, reject too', async () => {
  const killed = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      await cli.kill('SIGKILL')
    }`)
  const r1 = await collect(query({ prompt: 'hi', options: killed.options }))
  assert.match(r1.error.message, /^Claude Code process terminated by signal SIGKILL/)
  assert.equal(r1.error.code, 'PROCESS_SIGNALED')
  assert.equal(r1.error.signal, 'SIGKILL')
  assert.equal(r1.error.exitCode, undefined)
  const early = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      await cli.exit(0)
    }`)
  const r2 = await collect(query({ prompt: 'hi', options: early.options }))
  assert.match(r2.error.message, /exited with code 0 before sending a result/)
})

test('abort ends the query with AbortError and leaves no process', async () => {
  const abortController = new AbortController()
  const { log, options } = mockOptions(UNTIL_KILLED, { abortController })
  const q = query({ prompt: 'hi', options })
  const first = await q.next()
  assert.equal(first.value.type, 'system')
  const [pid] = mockPids(log)
  assert.ok(alive(pid))
  const t0 = Date.now()
  abortController.abort()
  // The messages the CLI wrote before the abort still arrive (as with the official SDK), then the error.
  await assert.rejects(drainAfterAbort(q), (e) => e instanceof AbortError && e.message === 'Claude Code process aborted by user')
  assert.ok(Date.now() - t0 < 1000, 'the caller is not held while the CLI shuts down')
  await eventually(() => !alive(pid), 10000, `CLI ${pid} to exit`)
})

test('break out of the loop ends the child; control returns at once', async () => {
  const { log, options } = mockOptions(UNTIL_KILLED)
  let pid
  const t0 = Date.now()
  for await (const m of query({ prompt: 'hi', options })) {
    pid = mockPids(log)[0]
    if (m.type === 'assistant') break
  }
  const elapsed = Date.now() - t0
  assert.ok(pid > 0)
  await eventually(() => !alive(pid), 10000, `CLI ${pid} to exit`)
  const signals = readLog(log).filter((r) => r.kind === 'signal' || r.kind === 'stdin_end').map((r) => r.kind)
  assert.ok(signals.includes('stdin_end'), 'stdin is closed first, so the CLI can flush')
  console.log(`# break → loop exited after ${elapsed} ms`)
})

test('an already-aborted controller fails fast and spawns nothing', async () => {
  const abortController = new AbortController()
  abortController.abort()
  const { log, options } = mockOptions(UNTIL_KILLED, { abortController })
  const { error } = await collect(query({ prompt: 'hi', options }))
  assert.ok(error instanceof AbortError)
  assert.deepEqual(mockPids(log), [])
})

test('no CLI anywhere: a clear error saying how to install it', async () => {
  const { error } = await collect(query({ prompt: 'hi', options: { pathToClaudeCodeExecutable: '/nonexistent/claude' } }))
  assert.match(error.message, /Claude Code executable not found at \/nonexistent\/claude/)
})

test('the stderr option receives the CLI stderr', async () => {
  const chunks = []
  const { options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.stderr('debug line one')
      await cli.sleep(50)
      cli.result()
    }`, { stderr: (d) => chunks.push(d) })
  const { error } = await collect(query({ prompt: 'hi', options }))
  assert.equal(error, null)
  assert.match(chunks.join(''), /debug line one/)
})

/** Takes the messages still delivered after an abort; rejects with the abort's error. */
async function drainAfterAbort(q) {
  while (!(await q.next()).done);
}
