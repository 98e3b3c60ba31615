// Load: 1,000 tool calls in flight on one session, 20 sessions sharing one server object, 200
// queries created and aborted in a row — all complete, and nothing leaks (processes, file
// descriptors, threads, memory).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sdk, collect, mockOptions, mockPids, eventually, scenarioRecords } from './helpers/sdk.mjs'
import { gone, childrenOf, fdCount, threadCount, rss, forceGc, fastCli, fastCliPids, tempPath, within, mib, MiB } from './helpers/process.mjs'

const { query, tool, createSdkMcpServer, AbortError } = sdk

test('1,000 tool calls in flight at once on one session: all reach JS together, all are answered correctly', async () => {
  const N = 1000
  let inFlight = 0
  let maxInFlight = 0
  let release
  const gate = new Promise((r) => (release = r))
  const server = createSdkMcpServer({
    name: 'load',
    tools: [tool('echo', 'd', { type: 'object', properties: { i: { type: 'number' } }, required: ['i'] }, async ({ i }, extra) => {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      if (inFlight === N) release()
      await gate
      inFlight--
      return { content: [{ type: 'text', text: `echo ${i}` }], isError: extra.signal.aborted }
    })],
  })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const started = Date.now()
      const answers = await Promise.all(Array.from({ length: ${N} }, (_, i) =>
        cli.mcp('load', { method: 'tools/call', params: { name: 'echo', arguments: { i } }, id: 'call-' + i })))
      const wrong = answers.filter((a, i) => a.id !== 'call-' + i || a.result.content[0].text !== 'echo ' + i || a.result.isError)
      cli.log({ answered: answers.length, wrong: wrong.length, ms: Date.now() - started })
      cli.result()
    }`, { mcpServers: { load: server } })
  const { error } = await within(collect(query({ prompt: 'go', options })), 30000, 'the query to end')
  assert.equal(error, null)
  const [{ answered, wrong, ms }] = scenarioRecords(log)
  assert.equal(maxInFlight, N, 'all 1,000 handlers were running at the same time')
  assert.equal(answered, N)
  assert.equal(wrong, 0)
  console.log(`# 1,000 concurrent tool calls on one session: ${ms} ms round trip`)
})

test('20 concurrent sessions share one createSdkMcpServer object: every answer goes to the session that asked', async () => {
  const SESSIONS = 20
  const CALLS = 25
  let calls = 0
  const server = createSdkMcpServer({
    name: 'shared',
    tools: [tool('whoami', 'd', { type: 'object', properties: { session: { type: 'number' }, i: { type: 'number' } } }, async ({ session, i }) => {
      calls++
      await new Promise((r) => setTimeout(r, Math.random() * 10))
      return { content: [{ type: 'text', text: `${session}/${i}` }] }
    })],
  })
  const runs = Array.from({ length: SESSIONS }, (_, session) => {
    const { log, options } = mockOptions(`
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        const rs = await Promise.all(Array.from({ length: ${CALLS} }, (_, i) =>
          cli.mcp('shared', { method: 'tools/call', params: { name: 'whoami', arguments: { session: ${session}, i } } })))
        cli.log(rs.map((r) => r.result.content[0].text))
        cli.assistantText('session ${session} done')
        cli.result()
      }`, { mcpServers: { shared: server } })
    return collect(query({ prompt: 'go', options })).then((r) => ({ ...r, log, session }))
  })
  const results = await within(Promise.all(runs), 45000, 'all sessions to end')
  for (const { error, messages, log, session } of results) {
    assert.equal(error, null, `session ${session}`)
    assert.equal(messages.at(-1).result, `session ${session} done`)
    assert.deepEqual(scenarioRecords(log)[0], Array.from({ length: CALLS }, (_, i) => `${session}/${i}`))
    await eventually(() => gone(mockPids(log)[0]), 5000, `session ${session}'s CLI to exit`)
  }
  assert.equal(calls, SESSIONS * CALLS)
})

async function settledResources() {
  for (let i = 0; i < 3; i++) {
    forceGc()
    await new Promise((r) => setTimeout(r, 20))
  }
  return { fds: fdCount(), threads: threadCount(), rss: rss() }
}

test('200 queries created and aborted in a row: every CLI is gone and reaped; no fd, thread or memory leak', async () => {
  const cli = fastCli()
  const log = tempPath('fast-cli.pids')
  const env = { ...process.env, FAST_CLI_LOG: log }
  const once = async (i) => {
    const abortController = new AbortController()
    const q = query({ prompt: `run ${i}`, options: { pathToClaudeCodeExecutable: cli, env, abortController } })
    // Half are aborted mid-run, half before the CLI said anything.
    if (i % 2 === 0) assert.equal((await q.next()).value.subtype, 'init')
    abortController.abort()
    const { error } = await collect(q)
    assert.ok(error instanceof AbortError, `run ${i}: ${error}`)
  }
  // Warm up (runtime threads, lazily loaded code), and let those CLIs go.
  for (let i = 0; i < 20; i++) await once(i)
  await eventually(() => fastCliPids(log).every(gone), 10000, 'the warm-up CLIs to exit')
  const before = await settledResources()
  const t0 = Date.now()
  for (let i = 0; i < 200; i++) await once(i)
  const loopMs = Date.now() - t0
  // The last CLIs may still be starting: each logs its pid as its first act.
  await eventually(() => fastCliPids(log).length === 220, 10000, 'all 200 CLIs to have started')
  const pids = fastCliPids(log).slice(20)
  await eventually(() => pids.every(gone), 15000, 'all 200 CLIs to be gone and reaped')
  assert.deepEqual(childrenOf().filter((p) => pids.includes(p)), [])
  // The engine releases a session's fds (3 pipes) and tasks once its CLI is reaped.
  let after
  await eventually(async () => {
    after = await settledResources()
    return after.fds <= before.fds && after.threads <= before.threads
  }, 10000, 'fds and threads to return to their level before the loop').catch((e) => {
    throw new Error(`${e.message}: fds ${before.fds} -> ${after.fds}, threads ${before.threads} -> ${after.threads}`)
  })
  const growth = after.rss - before.rss
  console.log(`# 200 create+abort: ${loopMs} ms; fds ${before.fds} -> ${after.fds}; threads ${before.threads} -> ${after.threads}; RSS ${mib(before.rss)} -> ${mib(after.rss)} (${growth >= 0 ? '+' : ''}${mib(growth)})`)
  assert.ok(growth < 24 * MiB, `RSS grew by ${mib(growth)} over 200 queries (bound: 24 MiB)`)
})
