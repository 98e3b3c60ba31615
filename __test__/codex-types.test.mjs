// claude-agent-sdk-native/codex's typings against @openai/codex-sdk's: a program written against
// the official package compiles under `tsc --strict` against both (the import rewritten), and
// each type both export is assignable both ways (ours accepted where theirs is, and theirs where
// ours is), so an app switches by its import specifier alone.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { root } from './helpers/clis.mjs'

const require = createRequire(import.meta.url)

const PROGRAM = `
import { Codex, Thread } from 'SPEC'
import type { ThreadEvent, ThreadItem, RunResult, ThreadOptions, CodexOptions, TurnOptions, Usage, Input, McpToolCallItem } from 'SPEC'

export async function app(): Promise<string> {
  const options: CodexOptions = { codexPathOverride: '/bin/codex', env: { A: 'b' }, config: { a: { b: 1, c: ['x', true] } }, configOverrides: ['x=1'], baseUrl: 'http://x', apiKey: 'k' }
  const codex = new Codex(options)
  const threadOptions: ThreadOptions = {
    model: 'm', workingDirectory: '/', skipGitRepoCheck: true, approvalPolicy: 'on-request', sandboxMode: 'read-only',
    modelReasoningEffort: 'low', networkAccessEnabled: true, webSearchMode: 'live', webSearchEnabled: false, additionalDirectories: ['/tmp'],
  }
  const thread: Thread = codex.startThread(threadOptions)
  const turnOptions: TurnOptions = { outputSchema: { type: 'object' }, signal: new AbortController().signal }
  const r: RunResult = await thread.run('hi', turnOptions)
  let text: string = r.finalResponse
  const usage: Usage | null = r.usage
  if (usage) text += usage.input_tokens + usage.cached_input_tokens + usage.output_tokens
  for (const item of r.items) {
    switch (item.type) {
      case 'agent_message': text += item.text; break
      case 'reasoning': text += item.text; break
      case 'command_execution': text += item.aggregated_output + (item.exit_code ?? 0) + item.status; break
      case 'file_change': text += item.changes.map((c) => c.path + c.kind).join(); break
      case 'mcp_tool_call': text += item.server + item.tool + (item.result?.content.length ?? 0) + (item.error?.message ?? ''); break
      case 'web_search': text += item.query; break
      case 'todo_list': text += item.items.filter((t) => t.completed).length; break
      case 'error': text += item.message; break
    }
  }
  const input: Input = [{ type: 'text', text: 'x' }, { type: 'local_image', path: '/a.png' }]
  const { events } = await thread.runStreamed(input)
  for await (const e of events) {
    const ev: ThreadEvent = e
    if (ev.type === 'thread.started') text += ev.thread_id
    if (ev.type === 'turn.completed') text += ev.usage.output_tokens
    if (ev.type === 'turn.failed') text += ev.error.message
    if (ev.type === 'item.started' || ev.type === 'item.updated' || ev.type === 'item.completed') text += ev.item.id
    if (ev.type === 'error') text += ev.message
  }
  const id: string | null = thread.id
  const resumed = codex.resumeThread(id ?? 'x', { model: 'm' })
  const items: ThreadItem[] = (await resumed.run('again')).items
  const call = items.find((i): i is McpToolCallItem => i.type === 'mcp_tool_call')
  return text + (call?.arguments ? 'args' : '')
}
`

const SHARED = [
  'ThreadEvent', 'ThreadItem', 'ThreadOptions', 'CodexOptions', 'TurnOptions', 'Usage', 'RunResult', 'RunStreamedResult', 'Input', 'UserInput',
  'AgentMessageItem', 'ReasoningItem', 'CommandExecutionItem', 'FileChangeItem', 'McpToolCallItem', 'WebSearchItem', 'TodoListItem', 'ErrorItem',
  'ThreadStartedEvent', 'TurnStartedEvent', 'TurnCompletedEvent', 'TurnFailedEvent', 'ItemStartedEvent', 'ItemUpdatedEvent', 'ItemCompletedEvent',
  'ThreadError', 'ThreadErrorEvent', 'ApprovalMode', 'SandboxMode', 'ModelReasoningEffort', 'WebSearchMode', 'CyberAccessProgram',
]

function tsc(dir) {
  const pkg = require.resolve('typescript/package.json', { paths: [root] })
  const meta = JSON.parse(fs.readFileSync(pkg, 'utf8'))
  const bin = path.join(path.dirname(pkg), typeof meta.bin === 'string' ? meta.bin : meta.bin.tsc)
  const r = spawnSync(process.versions.bun ? 'node' : process.execPath, [bin, '-p', dir], { encoding: 'utf8' })
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` }
}

function project(name, files) {
  const dir = path.join(root, '.tmp', 'codex-types', name)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text)
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom', 'esnext.disposable'], types: ['node'], skipLibCheck: false },
    include: ['*.mts'],
  }))
  return dir
}

test('a program written against @openai/codex-sdk compiles against both packages, and the shared types are the same', { timeout: 120_000 }, () => {
  const official = project('official', { 'app.mts': PROGRAM.replaceAll('SPEC', '@openai/codex-sdk') })
  const equivalence = [
    "import type * as O from '@openai/codex-sdk'",
    "import type * as N from 'claude-agent-sdk-native/codex'",
    ...SHARED.map((n) => `{ const a = null as unknown as O.${n}; const b: N.${n} = a; const c: O.${n} = b; void c }`),
    '',
  ].join('\n')
  const ours = project('native', { 'app.mts': PROGRAM.replaceAll('SPEC', 'claude-agent-sdk-native/codex'), 'equivalence.mts': equivalence })
  const a = tsc(official)
  assert.ok(a.ok, `against @openai/codex-sdk:\n${a.output}`)
  const b = tsc(ours)
  assert.ok(b.ok, `against claude-agent-sdk-native/codex:\n${b.output}`)
})
