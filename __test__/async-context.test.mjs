// User code runs in the caller's async context: AsyncLocalStorage stores set around query()
// (with the server created in the same context, as a request handler would) are what tool
// handlers, canUseTool and hooks see, as with the official SDK.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { AsyncLocalStorage } from 'node:async_hooks'
import { sdk, mockOptions, collect, scenarioRecords } from './helpers/sdk.mjs'

const { query, tool, createSdkMcpServer } = sdk

test('AsyncLocalStorage set around query() is visible in tool handlers, canUseTool and hooks', async () => {
  const request = new AsyncLocalStorage()
  const tenant = new AsyncLocalStorage()
  const seen = []
  const look = (where) => seen.push({ where, request: request.getStore()?.id, tenant: tenant.getStore() })
  const run = (id) => request.run({ id }, () => tenant.run(`tenant-${id}`, async () => {
    const server = createSdkMcpServer({
      name: 'ctx',
      tools: [tool('who', 'w', {}, async () => {
        await new Promise((r) => setTimeout(r, 5)) // across an await as well
        look('tool')
        return { content: [{ type: 'text', text: String(request.getStore()?.id) }] }
      })],
    })
    const { log, options } = mockOptions(`
      export default async function (cli) {
        await cli.initialize()
        await cli.nextUserMessage()
        const tool = await cli.mcp('ctx', { method: 'tools/call', params: { name: 'who', arguments: {} } })
        const allow = await cli.request('can_use_tool', { tool_name: 'Bash', input: {}, tool_use_id: 't1' })
        const hook = await cli.request('hook_callback', { callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse' }, tool_use_id: 't2' })
        cli.log({ tool, allow, hook })
        cli.result()
      }`, {
      mcpServers: { ctx: server },
      canUseTool: async (name, input) => { look('canUseTool'); return { behavior: 'allow', updatedInput: input } },
      hooks: { PreToolUse: [{ hooks: [async () => { look('hook'); return {} }] }] },
    })
    const { error } = await collect(query({ prompt: 'go', options }))
    assert.equal(error, null)
    const [{ tool: t }] = scenarioRecords(log)
    assert.equal(t.result.content[0].text, String(id))
  }))
  // Two queries at once, each in its own context: no context leaks from one to the other.
  await Promise.all([run(1), run(2)])
  for (const id of [1, 2]) {
    for (const where of ['tool', 'canUseTool', 'hook']) {
      assert.ok(seen.some((s) => s.where === where && s.request === id && s.tenant === `tenant-${id}`), `${where} saw query ${id}'s stores: ${JSON.stringify(seen)}`)
    }
  }
  assert.equal(seen.length, 6)
})

// The context is the one query() was called in, not the one its messages are read in: the
// dispatch ThreadsafeFunction is made when query() starts the session (a session started on the
// first read, or one ThreadsafeFunction shared by every query, would carry another context).
test('callbacks see the context query() was called in, not the one the stream is read in', async () => {
  const store = new AsyncLocalStorage()
  const seen = []
  const { options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      await cli.mcp('ctx', { method: 'tools/call', params: { name: 'who', arguments: {} } })
      await cli.request('can_use_tool', { tool_name: 'Bash', input: {}, tool_use_id: 't1' })
      await cli.request('hook_callback', { callback_id: 'hook_0', input: { hook_event_name: 'PreToolUse' }, tool_use_id: 't2' })
      cli.result()
    }`, {
    mcpServers: { ctx: createSdkMcpServer({ name: 'ctx', tools: [tool('who', 'w', {}, async () => { seen.push(['tool', store.getStore()]); return { content: [] } })] }) },
    canUseTool: async (name, input) => { seen.push(['canUseTool', store.getStore()]); return { behavior: 'allow', updatedInput: input } },
    hooks: { PreToolUse: [{ hooks: [async () => { seen.push(['hook', store.getStore()]); return {} }] }] },
  })
  const q = store.run('at query()', () => query({ prompt: 'go', options }))
  const { error } = await store.run('at read', () => collect(q))
  assert.equal(error, null)
  assert.deepEqual(seen, [['tool', 'at query()'], ['canUseTool', 'at query()'], ['hook', 'at query()']])
})
