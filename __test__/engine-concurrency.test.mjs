// Many callbacks in flight at once: a slow handler blocks nothing — not another tool call, not a
// permission prompt. Checked by construction (a handler that can only finish after the other
// callback ran), never by timing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sdk, collect, mockOptions, scenarioRecords } from './helpers/sdk.mjs'

const { query, tool, createSdkMcpServer } = sdk

test('500 tool calls, 64 in flight at once, all answered; the handlers really overlap', async () => {
  let inFlight = 0
  let maxInFlight = 0
  const server = createSdkMcpServer({
    name: 'load',
    tools: [tool('sleep', 'sleeps 20 ms', {}, async () => {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      await new Promise((r) => setTimeout(r, 20))
      inFlight--
      return { content: [{ type: 'text', text: 'ok' }] }
    }, { annotations: { readOnlyHint: true } })],
  })
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      let next = 0, okCount = 0
      const started = Date.now()
      async function worker() {
        while (next < 500) {
          const id = next++
          const r = await cli.mcp('load', { method: 'tools/call', params: { name: 'sleep', arguments: {} }, id })
          if (r.id === id && r.result.content[0].text === 'ok') okCount++
        }
      }
      await Promise.all(Array.from({ length: 64 }, worker))
      cli.log({ okCount, ms: Date.now() - started })
      cli.result()
    }`, { mcpServers: { load: server } })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  const [{ okCount, ms }] = scenarioRecords(log)
  assert.equal(okCount, 500)
  assert.equal(maxInFlight, 64, 'the 64 concurrent requests all reached JS at once')
  console.log(`# 500 calls x 20 ms, 64 in flight: ${ms} ms (ideal 160 ms)`)
})

test('a slow tool blocks neither another tool nor a permission prompt', async () => {
  let release
  const gate = new Promise((r) => (release = r))
  const server = createSdkMcpServer({
    name: 'demo',
    tools: [
      // Finishes only after the fast tool and the permission prompt have both run.
      tool('slow', 'd', {}, async () => { await gate; return { content: [{ type: 'text', text: 'slow done' }] } }),
      tool('fast', 'd', {}, async () => ({ content: [{ type: 'text', text: 'fast done' }] })),
    ],
  })
  const order = []
  let permissionAsked = false
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const slow = cli.mcp('demo', { method: 'tools/call', params: { name: 'slow', arguments: {} }, id: 1 })
      const fast = await cli.mcp('demo', { method: 'tools/call', params: { name: 'fast', arguments: {} }, id: 2 })
      const perm = await cli.request('can_use_tool', { tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 't' })
      cli.log({ fast: fast.result.content[0].text, perm: perm.response.behavior })
      cli.log({ slow: (await slow).result.content[0].text })
      cli.result()
    }`, {
    mcpServers: { demo: server },
    canUseTool: async () => {
      permissionAsked = true
      setTimeout(release, 0)
      return { behavior: 'allow' }
    },
  })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  assert.ok(permissionAsked)
  assert.deepEqual(scenarioRecords(log), [{ fast: 'fast done', perm: 'allow' }, { slow: 'slow done' }])
})

test('one server object serves several concurrent queries', async () => {
  let calls = 0
  const server = createSdkMcpServer({
    name: 'shared',
    tools: [tool('count', 'd', {}, async () => ({ content: [{ type: 'text', text: String(++calls) }] }))],
  })
  const runs = Array.from({ length: 5 }, () => {
    const { log, options } = mockOptions(`
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        const rs = await Promise.all([1, 2, 3].map((id) => cli.mcp('shared', { method: 'tools/call', params: { name: 'count', arguments: {} }, id })))
        cli.log(rs.every((r) => !r.result.isError))
        cli.result()
      }`, { mcpServers: { shared: server } })
    return collect(query({ prompt: 'go', options })).then((r) => ({ ...r, log }))
  })
  for (const r of await Promise.all(runs)) {
    assert.equal(r.error, null)
    assert.deepEqual(scenarioRecords(r.log), [true])
  }
  assert.equal(calls, 15)
})

test('calls that arrive while the JS thread is busy reach it together, in one dispatch', async () => {
  // The first prompt keeps the JS thread busy while the CLI writes five more, 10 ms apart (five
  // reads for the engine). They must reach JS as one batch: all five callbacks start before the
  // microtask the first of them queued. Handed over one ThreadsafeFunction item per read, each
  // item is its own entry into JS, with a microtask checkpoint after it.
  const order = []
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      const ask = (n) => cli.request('can_use_tool', { tool_name: 'Bash', input: { n }, tool_use_id: 't' + n })
      const first = ask(0)
      await new Promise((r) => setTimeout(r, 50))
      const rest = []
      for (let n = 1; n <= 5; n++) {
        rest.push(ask(n))
        await new Promise((r) => setTimeout(r, 10))
      }
      const answers = await Promise.all([first, ...rest])
      cli.log(answers.map((a) => a.response.behavior))
      cli.result()
    }`, {
    canUseTool: async (_name, input) => {
      order.push(`start ${input.n}`)
      queueMicrotask(() => order.push(`micro ${input.n}`))
      if (input.n === 0) {
        const until = Date.now() + 400
        while (Date.now() < until) {} // the JS thread is busy while the other five arrive
      }
      return { behavior: 'allow', updatedInput: input }
    },
  })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error, null)
  assert.deepEqual(scenarioRecords(log), [Array(6).fill('allow')])
  assert.ok(order.indexOf('start 5') < order.indexOf('micro 1'), `one batch: ${order.join(', ')}`)
})
