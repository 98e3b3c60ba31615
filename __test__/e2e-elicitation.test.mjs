// onElicitation end to end: the real CLI (2.1.332) runs a stdio MCP server whose tool asks the
// user through MCP elicitation; the CLI forwards it to the SDK and the tool receives what the
// callback answered. Side by side with the official SDK: accept, no callback (declined), a
// throwing callback.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { CLIS, root } from './helpers/clis.mjs'
import { sdk as ours, collect } from './helpers/sdk.mjs'
import { startScriptedModel, toolResultText, lastToolResult } from '../testing/index.mjs'

const SERVER = path.join(root, '__test__/fixtures/servers/elicit-mcp-server.mjs')

async function run(sdk, onElicitation) {
  const model = await startScriptedModel({
    turns: [{ toolUses: [{ name: 'mcp__elicit__ask', input: {} }] }, (req) => ({ text: `tool said ${toolResultText(lastToolResult(req))}` })],
  })
  try {
    const seen = []
    const options = {
      pathToClaudeCodeExecutable: CLIS['2.1.332'], env: model.env(), cwd: model.tempDir('elicit-'), allowedTools: ['mcp__elicit__ask'],
      mcpServers: { elicit: { command: process.execPath, args: [SERVER] } }, mcpServersDelivery: 'argv',
      ...(onElicitation && { onElicitation: async (req, opts) => { seen.push({ req, signal: opts.signal instanceof AbortSignal, requestId: typeof opts.requestId }); return onElicitation(req) } }),
    }
    const { messages, error } = await collect(sdk.query({ prompt: 'ask me', options }))
    assert.equal(error, null, error?.message)
    return { result: messages.at(-1).result, seen }
  } finally {
    await model.close()
  }
}

describe('onElicitation with the real CLI 2.1.332', { concurrency: true }, () => {
  it('the callback answers the MCP server\'s elicitation', async () => {
    const answer = async () => ({ action: 'accept', content: { name: 'Ann' } })
    const mine = await run(ours, answer)
    assert.equal(mine.result, 'tool said accept: {"name":"Ann"}')
    assert.deepEqual(JSON.parse(JSON.stringify(mine.seen[0].req)), { serverName: 'elicit', message: 'What is your name?', mode: 'form', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } })
    assert.deepEqual(mine, await run(official, answer))
  })

  it('without a callback the elicitation is declined; a throwing callback fails it — as the official', async () => {
    const none = await run(ours, undefined)
    assert.equal(none.result, 'tool said decline: null')
    assert.deepEqual(none, await run(official, undefined))
    const throwing = async () => { throw new Error('no user here') }
    const mine = await run(ours, throwing)
    assert.deepEqual(mine, await run(official, throwing))
  })
})
