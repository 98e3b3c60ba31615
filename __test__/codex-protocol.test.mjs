// The app-server contract: __test__/fixtures/codex-app-server holds the JSON Schema the pinned
// Codex generates (`codex app-server generate-json-schema --experimental`); it must still be what
// the installed binary generates, and every line our engine writes to app-server in a session
// with an in-process tool, an approval and a question must validate against it (requests
// against ClientRequest, answers against the response schema of the request they answer).
import { describe, it, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { z } from 'zod'
import Ajv from 'ajv'
import { Codex } from '../codex.mjs'
import { sdk } from './helpers/sdk.mjs'
import { root } from './helpers/clis.mjs'
import { startScriptedResponses, lastFunctionCallOutput } from '../testing/index.mjs'

const { createSdkMcpServer, tool } = sdk
const CODEX = path.join(root, 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex')
const FIXTURES = path.join(root, '__test__/fixtures/codex-app-server')
const skip = process.platform === 'linux' && process.arch === 'x64' && fs.existsSync(CODEX) ? false : 'the linux-x64 Codex binary is not installed'

/** Where each fixture lives in the generated tree. */
const GENERATED_PATH = { ThreadStartParams: 'v2/ThreadStartParams.json', TurnStartParams: 'v2/TurnStartParams.json' }

const schema = (name) => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'))

/** The response schema of each server request we answer. */
const RESPONSES = {
  'item/tool/call': 'DynamicToolCallResponse',
  'item/commandExecution/requestApproval': 'CommandExecutionRequestApprovalResponse',
  'item/fileChange/requestApproval': 'FileChangeRequestApprovalResponse',
  'item/permissions/requestApproval': 'PermissionsRequestApprovalResponse',
  'item/tool/requestUserInput': 'ToolRequestUserInputResponse',
  'mcpServer/elicitation/request': 'McpServerElicitationRequestResponse',
  execCommandApproval: 'ExecCommandApprovalResponse',
  applyPatchApproval: 'ApplyPatchApprovalResponse',
}

const temps = []
after(() => {
  for (const d of temps) fs.rmSync(d, { recursive: true, force: true })
})

describe('codex app-server contract', { skip }, () => {
  it('the fixture is the schema the installed Codex generates', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-schema-'))
    temps.push(out)
    execFileSync(CODEX, ['app-server', 'generate-json-schema', '--experimental', '--out', out], { stdio: 'ignore' })
    for (const file of fs.readdirSync(FIXTURES)) {
      const name = file.replace(/\.json$/, '')
      const generated = fs.readFileSync(path.join(out, GENERATED_PATH[name] ?? file), 'utf8')
      assert.equal(fs.readFileSync(path.join(FIXTURES, file), 'utf8'), generated, `${file} differs from what this Codex generates: regenerate the fixture`)
    }
  })

  it('every line the engine writes validates against the schema', { timeout: 60_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-wire-'))
    temps.push(dir)
    const log = path.join(dir, 'stdin.log')
    // A wrapper that records what the engine writes to the real app-server.
    const wrapper = path.join(dir, 'codex')
    fs.writeFileSync(wrapper, `#!/bin/sh\ntee "${log}" | "${CODEX}" "$@"\n`, { mode: 0o755 })
    const model = await startScriptedResponses({
      turns: [
        { functionCalls: [{ namespace: 'calc', name: 'add', arguments: { a: 1, b: 2 } }, { namespace: 'calc', name: 'add', arguments: { a: 'x' } }] },
        { functionCalls: [{ name: 'exec_command', arguments: { cmd: 'echo hi' } }] },
        { functionCalls: [{ name: 'request_user_input', arguments: { questions: [{ id: 'q', header: 'Q', question: 'Which?', options: [{ label: 'a', description: 'A' }, { label: 'b', description: 'B' }] }] } }] },
        (req) => ({ text: `done ${lastFunctionCallOutput(req)}` }),
      ],
    })
    try {
      const server = createSdkMcpServer({ name: 'calc', tools: [tool('add', 'Adds', { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }))] })
      const thread = new Codex({ codexPathOverride: wrapper, env: model.env(), config: { ...model.config(), features: { plugins: false, default_mode_request_user_input: true } } }).startThread({
        workingDirectory: model.tempDir(),
        approvalPolicy: 'untrusted',
        mcpServers: { calc: server },
        onApproval: async () => ({ behavior: 'deny', message: 'no' }),
        onUserInput: async () => ({ q: 'b' }),
      })
      await thread.run('go')
      thread.close()
    } finally {
      await model.close()
    }
    const ajv = new Ajv({ strict: false, allErrors: true, logger: false })
    const clientRequest = ajv.compile(schema('ClientRequest'))
    const responses = Object.fromEntries(Object.entries(RESPONSES).map(([m, name]) => [m, ajv.compile(schema(name))]))
    const serverRequest = ajv.compile(schema('ServerRequest'))
    // Codex's requests are not in this log (only what we wrote): each answer must fit the
    // response schema of some request we answer, and each kind asked must be among them.
    const lines = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
    let requests = 0
    let answers = 0
    const answered = new Set()
    for (const msg of lines) {
      if (msg.method !== undefined && msg.id !== undefined) {
        requests++
        if (msg.method === 'initialize' || msg.method === 'thread/start' || msg.method === 'turn/start' || msg.method === 'turn/interrupt' || msg.method === 'thread/resume') {
          assert.ok(clientRequest(msg), `${msg.method}: ${ajv.errorsText(clientRequest.errors)}`)
        }
      } else if (msg.id !== undefined) {
        answers++
        const match = Object.entries(responses).filter(([, validate]) => validate(msg.result))
        assert.ok(match.length > 0, `answer ${JSON.stringify(msg)} matches no response schema`)
        for (const [m] of match) answered.add(m)
      }
    }
    assert.ok(serverRequest, 'ServerRequest compiles')
    assert.equal(requests, 3, 'initialize, thread/start, turn/start')
    // Two tool calls (one failing its schema), the approval and the question.
    assert.ok(answers >= 4, `only ${answers} answers written: ${JSON.stringify(lines.filter((m) => m.method === undefined))}`)
    for (const m of ['item/tool/call', 'item/commandExecution/requestApproval', 'item/tool/requestUserInput']) assert.ok(answered.has(m), `no answer shaped as ${m}'s: ${[...answered]}`)
  })
})
