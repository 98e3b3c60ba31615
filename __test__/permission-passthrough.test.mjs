// Issue 14.2: a can_use_tool input is passed through as the CLI wrote it. A lone-surrogate escape
// ("\ud800", which JSON and JavaScript allow) and nesting far deeper than 128 levels: an allow
// without updatedInput echoes the input byte for byte with toolUseID kept, and an allow with
// `updatedInput: input` is an allow carrying that input — side by side with the official SDK.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, collect, mockOptions, readLog } from './helpers/sdk.mjs'

const DEPTH = 3000
// Written as JSON.stringify writes it, so the official SDK (which parses and re-serializes) can
// match it byte for byte too.
const INPUT = `{"command":"echo \\ud800 \\udfff","deep":${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)},"n":1}`

async function run(sdk) {
  const { log, options } = mockOptions(`
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      for (const id of ['plain', 'echo']) {
        cli.sendRaw('{"type":"control_request","request_id":"' + id + '","request":{"subtype":"can_use_tool","tool_name":"Bash","input":' + ${JSON.stringify(INPUT)} + ',"tool_use_id":"tu_' + id + '"}}\\n')
        await cli.next((m) => m.type === 'control_response' && m.response.request_id === id)
      }
      cli.result()
    }`, {
    canUseTool: async (name, input, { toolUseID }) => {
      assert.equal(input.command, 'echo \ud800 \udfff', 'the callback sees the lone surrogates')
      return toolUseID === 'tu_plain' ? { behavior: 'allow' } : { behavior: 'allow', updatedInput: input }
    },
  })
  const { error } = await collect(sdk.query({ prompt: 'go', options }))
  assert.equal(error, null, error?.message)
  // The raw lines the SDK wrote (the mock logs each before parsing it).
  const lines = readLog(log).filter((r) => r.kind === 'stdin' && r.line.includes('"control_response"')).map((r) => r.line)
  return Object.fromEntries(['plain', 'echo'].map((id) => [id, lines.find((l) => l.includes(`"request_id":"${id}"`))]))
}

test('can_use_tool input with lone surrogates and 3000 levels of nesting: allow echoes it byte for byte, updatedInput: input allows it, side by side with the official', async () => {
  const mine = await run(ours)
  const theirs = await run(official)
  for (const [label, got] of [['ours', mine], ['official', theirs]]) {
    for (const id of ['plain', 'echo']) {
      const line = got[id]
      assert.ok(line, `${label}: answered ${id}`)
      assert.ok(line.includes(`"behavior":"allow"`), `${label} ${id}: an allow (${line.slice(0, 300)})`)
      // A plain allow: the official sends no updatedInput (the CLI keeps its input); ours echoes
      // the input as the CLI wrote it (older CLIs require it).
      if (label === 'official' && id === 'plain') assert.ok(!line.includes('"updatedInput"'), line.slice(0, 300))
      else assert.ok(line.includes(`"updatedInput":${INPUT}`), `${label} ${id}: the input byte for byte`)
      assert.ok(line.includes(`"toolUseID":"tu_${id}"`), `${label} ${id}: toolUseID kept`)
    }
  }
})
