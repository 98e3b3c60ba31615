#!/usr/bin/env node
// Regenerates __test__/fixtures/official/*.json: what the OFFICIAL
// @anthropic-ai/claude-agent-sdk puts on the wire (argv, env, cwd, stdin
// lines, control responses) for many option sets and control-protocol
// situations. See __test__/fixtures/official/README.md.
//
//   node scripts/capture-official.mjs            # all groups
//   node scripts/capture-official.mjs options    # only some groups
//   node scripts/capture-official.mjs --list     # list cases
//   CAPTURE_VERBOSE=1 node scripts/capture-official.mjs   # per-case timings
//
// How: `pathToClaudeCodeExecutable` points at a small fake `claude` (a Node
// script with a shebang and no extension, so the SDK spawns it directly like
// the native binary). The fake records argv, env, cwd and every stdin line,
// answers `initialize` itself, optionally sends scripted control_requests to
// the SDK (recording the control_responses), then emits a `result` so the
// query ends. For the `real-cli` group it instead proxies to a real CLI
// binary (driven by testing/'s scripted model) and records both directions.
//
// Every case runs in its own child process with a fixed environment (PATH,
// HOME, CAPTURE_INHERITED_VAR) and a fixed temp cwd, so process-wide state of
// the SDK (process.env mutation, once-per-process warnings) cannot leak
// between cases. Paths, UUIDs and request ids are replaced by placeholders so
// that re-running yields identical files.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FAKE_CLI_SOURCE, readFakeCliRecord as readRecord } from './fake-cli.mjs'

const SCRIPT = fileURLToPath(import.meta.url)
const ROOT = path.resolve(path.dirname(SCRIPT), '..')
const OUT_DIR = path.join(ROOT, '__test__/fixtures/official')
const CLIS = {
  '2.1.332': path.join(ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe'),
  '2.1.197': path.join(ROOT, 'node_modules/claude-code-2-1-197/bin/claude.exe'),
}
// Constant ids used in options; kept verbatim by the normaliser.
const FIXED_UUIDS = {
  SESSION: '11111111-1111-4111-8111-111111111111',
  RESUME: '22222222-2222-4222-8222-222222222222',
  RESUME_AT: '33333333-3333-4333-8333-333333333333',
}
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|AUTH)/i

// ---------------------------------------------------------------------------
// helpers used by case definitions (child side)
// ---------------------------------------------------------------------------

/** Describes any value as JSON: functions, class instances, signals. */
function describe(v, depth = 0, seen = new WeakSet()) {
  if (v === undefined) return '[undefined]'
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v
  if (typeof v === 'bigint') return `[bigint ${v}]`
  if (typeof v === 'function') return `[Function${v.name ? ' ' + v.name : ''}]`
  if (typeof v === 'symbol') return `[${String(v)}]`
  if (seen.has(v)) return '[Circular]'
  seen.add(v)
  if (typeof AbortSignal !== 'undefined' && v instanceof AbortSignal) return { '[AbortSignal]': { aborted: v.aborted } }
  if (v instanceof Error) return { '[Error]': v.message }
  if (Array.isArray(v)) return depth > 6 ? '[Array]' : v.map((x) => describe(x, depth + 1, seen))
  const proto = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) {
    // The SDK bundle's class names are minified and change with every release: an MCP server
    // instance is named by what it is ("[McpServer]"; __test__/conformance-options.test.mjs
    // revives it), other objects by their class name.
    const isMcpServer = typeof v.connect === 'function' && typeof v.registerTool === 'function'
    const name = isMcpServer ? 'McpServer' : (v.constructor && v.constructor.name) || 'Object'
    return `[${name}]`
  }
  if (depth > 6) return '[Object]'
  const out = {}
  for (const k of Object.keys(v)) out[k] = describe(v[k], depth + 1, seen)
  return out
}

/** Lists keys with a short type for each (for `extra` / callback options). */
function shapeOf(v) {
  const out = {}
  for (const k of Object.keys(v || {}).sort()) {
    const x = v[k]
    out[k] = x === null ? 'null' : x === undefined ? 'undefined' : typeof x === 'object' ? (x.constructor && x.constructor.name) || 'object' : typeof x
  }
  return out
}

// The exact initialize the 2.1.197 CLI sends through mcp_message.
const MCP_INITIALIZE_197 = {
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'claude-code', title: 'Claude Code', version: '2.1.197', description: "Anthropic's agentic coding tool", websiteUrl: 'https://claude.com/claude-code' },
  },
  jsonrpc: '2.0',
  id: 0,
}
const MCP_HANDSHAKE = (server) => [
  { name: 'mcp initialize (as CLI 2.1.197)', request: { subtype: 'mcp_message', server_name: server, message: MCP_INITIALIZE_197 } },
  { name: 'mcp notifications/initialized', request: { subtype: 'mcp_message', server_name: server, message: { method: 'notifications/initialized', jsonrpc: '2.0' } } },
  { name: 'mcp tools/list', request: { subtype: 'mcp_message', server_name: server, message: { method: 'tools/list', jsonrpc: '2.0', id: 1 } } },
]
const toolsCall = (server, name, args, id, extraParams = {}) => ({
  subtype: 'mcp_message',
  server_name: server,
  message: {
    method: 'tools/call',
    params: { name, ...(args === undefined ? {} : { arguments: args }), _meta: { 'claudecode/toolUseId': `toolu_fixture_${id}`, progressToken: id }, ...extraParams },
    jsonrpc: '2.0',
    id,
  },
})

// ---------------------------------------------------------------------------
// case definitions
// ---------------------------------------------------------------------------
// Each case: { group, name, options: async (ctx) => options, plan?, childEnv?, prompt?, note? }
// ctx: { sdk, z, z3, record(x), tmpDir(name) }

function demoSdkServer(ctx, name = 'demo') {
  const { createSdkMcpServer, tool } = ctx.sdk
  return createSdkMcpServer({
    name,
    version: '1.0.0',
    tools: [tool('greet', 'Greets someone', { name: ctx.z.string() }, async ({ name: n }) => ({ content: [{ type: 'text', text: `Hello, ${n}!` }] }))],
  })
}

const STDIO = { command: 'node', args: ['/fixture/mcp/stdio-server.js', '--flag'], env: { STDIO_TOKEN: 'stdio-secret', PLAIN: 'plain' } }
const SSE = { type: 'sse', url: 'http://127.0.0.1:9/sse', headers: { Authorization: 'Bearer sse-secret' } }
const HTTP = { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': 'http-secret' } }

const optionCases = [
  ['no-options', () => ({})],
  ['model', () => ({ model: 'claude-sonnet-4-5' })],
  ['allowedTools', () => ({ allowedTools: ['Read', 'Bash(git status:*)', 'mcp__demo__greet'] })],
  ['disallowedTools', () => ({ disallowedTools: ['Write', 'Bash(rm:*)'] })],
  ['permissionMode-default', () => ({ permissionMode: 'default' })],
  ['permissionMode-acceptEdits', () => ({ permissionMode: 'acceptEdits' })],
  ['permissionMode-bypassPermissions', () => ({ permissionMode: 'bypassPermissions' })],
  ['permissionMode-bypassPermissions+allowDangerouslySkipPermissions', () => ({ permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true })],
  ['permissionMode-plan', () => ({ permissionMode: 'plan' })],
  ['permissionMode-dontAsk', () => ({ permissionMode: 'dontAsk' })],
  ['permissionMode-auto', () => ({ permissionMode: 'auto' })],
  ['maxTurns', () => ({ maxTurns: 3 })],
  ['systemPrompt-string', () => ({ systemPrompt: 'You are a fixture.' })],
  ['systemPrompt-empty-string', () => ({ systemPrompt: '' })],
  ['systemPrompt-preset', () => ({ systemPrompt: { type: 'preset', preset: 'claude_code' } })],
  ['systemPrompt-preset-append', () => ({ systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Always answer in French.' } })],
  ['systemPrompt-none', () => ({ systemPrompt: undefined })],
  ['systemPrompt-array', () => ({ systemPrompt: ['First part.', 'Second part.'] })],
  ['canUseTool', () => ({ canUseTool: async () => ({ behavior: 'allow' }) })],
  ['canUseTool+allowedTools', () => ({ canUseTool: async () => ({ behavior: 'allow' }), allowedTools: ['Bash', 'Read(./src/**)'] })],
  ['canUseTool+permissionPromptToolName', () => ({ canUseTool: async () => ({ behavior: 'allow' }), permissionPromptToolName: 'mcp__perm__ask' })],
  ['includePartialMessages', () => ({ includePartialMessages: true })],
  ['cwd', (ctx) => ({ cwd: ctx.tmpDir('options-cwd') })],
  ['env-replace', () => ({ env: { PATH: process.env.PATH, MY_VAR: 'my-value' } })],
  ['env-empty-object', () => ({ env: {} })],
  [
    'env-overrides-sdk-vars',
    () => ({
      env: {
        PATH: process.env.PATH,
        CLAUDE_CODE_ENTRYPOINT: 'my-app',
        CLAUDE_AGENT_SDK_VERSION: '0.0.1',
        claude_code_sdk_reads_session_state: '0',
        NODE_OPTIONS: '--max-old-space-size=128',
        DEBUG: '1',
        ANTHROPIC_API_KEY: 'sk-should-be-redacted',
        CLAUDE_AGENT_SDK_CLIENT_APP: 'fixture-app/1.0.0',
      },
    }),
  ],
  {
    name: 'env-inherited-special-vars',
    note: 'no env option; the capturing process itself has NODE_OPTIONS, DEBUG and CLAUDE_CODE_ENTRYPOINT set',
    childEnv: { NODE_OPTIONS: '--max-old-space-size=4096', DEBUG: '1', CLAUDE_CODE_ENTRYPOINT: 'from-parent', ANTHROPIC_BASE_URL: 'http://inherited.invalid' },
    options: () => ({}),
  },
  {
    name: 'env-inherited-DEBUG_CLAUDE_AGENT_SDK',
    note: 'no env option; the capturing process has DEBUG_CLAUDE_AGENT_SDK=1',
    childEnv: { DEBUG_CLAUDE_AGENT_SDK: '1' },
    options: () => ({}),
  },
  ['mcpServers-stdio', () => ({ mcpServers: { local: STDIO } })],
  ['mcpServers-sse', () => ({ mcpServers: { remote_sse: SSE } })],
  ['mcpServers-http', () => ({ mcpServers: { remote_http: HTTP } })],
  ['mcpServers-sdk', (ctx) => ({ mcpServers: { demo: demoSdkServer(ctx) } })],
  ['mcpServers-mix', (ctx) => ({ mcpServers: { local: STDIO, remote_sse: SSE, remote_http: HTTP, demo: demoSdkServer(ctx), other: demoSdkServer(ctx, 'other-name') } })],
  ['mcpServers-mix+mcpServersDelivery-argv', (ctx) => ({ mcpServersDelivery: 'argv', mcpServers: { local: STDIO, remote_http: HTTP, demo: demoSdkServer(ctx) } })],
  {
    name: 'mcpServers-mix+mcpServersDelivery-initialize',
    note: "the fake CLI's initialize answer has no mcp_servers_applied (like a CLI older than 2.1.261)",
    options: (ctx) => ({ mcpServersDelivery: 'initialize', mcpServers: { local: STDIO, remote_http: HTTP, demo: demoSdkServer(ctx) } }),
  },
  {
    name: 'mcpServers-mix+mcpServersDelivery-initialize-applied',
    note: "the fake CLI's initialize answer includes mcp_servers_applied: true",
    initializeResponse: { commands: [], agents: [], models: [], account: {}, output_style: 'default', available_output_styles: ['default'], pid: 0, mcp_servers_applied: true },
    options: (ctx) => ({ mcpServersDelivery: 'initialize', mcpServers: { local: STDIO, remote_http: HTTP, demo: demoSdkServer(ctx) } }),
  },
  ['mcpServers-empty-object', () => ({ mcpServers: {} })],
  ['additionalDirectories', () => ({ additionalDirectories: ['/fixture/dir-a', '/fixture/dir b'] })],
  [
    'agents',
    () => ({
      agents: {
        reviewer: { description: 'Reviews code', prompt: 'You review code.', tools: ['Read', 'Grep'], model: 'sonnet' },
        minimal: { description: 'Minimal agent', prompt: 'Minimal.' },
      },
    }),
  ],
  ['allowDangerouslySkipPermissions', () => ({ allowDangerouslySkipPermissions: true })],
  ['betas', () => ({ betas: ['context-1m-2025-08-07'] })],
  ['continue', () => ({ continue: true })],
  ['effort', () => ({ effort: 'high' })],
  ['fallbackModel', () => ({ fallbackModel: 'claude-haiku-4-5' })],
  ['fallbackModel-same-as-model', () => ({ model: 'claude-haiku-4-5', fallbackModel: 'claude-haiku-4-5' })],
  ['forkSession', () => ({ resume: FIXED_UUIDS.RESUME, forkSession: true })],
  ['forkSession-alone', () => ({ forkSession: true })],
  ['maxBudgetUsd', () => ({ maxBudgetUsd: 1.5 })],
  ['maxThinkingTokens', () => ({ maxThinkingTokens: 2048 })],
  ['maxThinkingTokens-0', () => ({ maxThinkingTokens: 0 })],
  ['thinking-adaptive', () => ({ thinking: { type: 'adaptive' } })],
  ['thinking-enabled', () => ({ thinking: { type: 'enabled', budgetTokens: 4096 } })],
  ['thinking-enabled-no-budget', () => ({ thinking: { type: 'enabled' } })],
  ['thinking-disabled', () => ({ thinking: { type: 'disabled' } })],
  ['thinking+maxThinkingTokens', () => ({ thinking: { type: 'disabled' }, maxThinkingTokens: 1000 })],
  [
    'outputFormat',
    () => ({
      outputFormat: { type: 'json_schema', schema: { type: 'object', properties: { answer: { type: 'string' }, score: { type: 'number' } }, required: ['answer'] } },
    }),
  ],
  ['permissionPromptToolName', () => ({ permissionPromptToolName: 'mcp__perm__ask' })],
  ['persistSession-false', () => ({ persistSession: false })],
  ['plugins', () => ({ plugins: [{ type: 'local', path: '/fixture/plugins/one' }, { type: 'local', path: './relative-plugin' }] })],
  ['resume', () => ({ resume: FIXED_UUIDS.RESUME })],
  ['resumeSessionAt', () => ({ resume: FIXED_UUIDS.RESUME, resumeSessionAt: FIXED_UUIDS.RESUME_AT })],
  ['sessionId', () => ({ sessionId: FIXED_UUIDS.SESSION })],
  ['settings-object', () => ({ settings: { permissions: { allow: ['Bash(ls:*)'] }, env: { FROM_SETTINGS: '1' } } })],
  ['settings-string-path', () => ({ settings: '/fixture/settings.json' })],
  ['settings-string-json', () => ({ settings: '{"model":"claude-sonnet-4-5"}' })],
  ['settingSources', () => ({ settingSources: ['user', 'project'] })],
  ['settingSources-empty', () => ({ settingSources: [] })],
  ['strictMcpConfig', () => ({ strictMcpConfig: true })],
  ['strictMcpConfig+mcpServers', () => ({ strictMcpConfig: true, mcpServers: { local: STDIO } })],
  ['tools-array', () => ({ tools: ['Read', 'Bash'] })],
  ['tools-empty-array', () => ({ tools: [] })],
  ['tools-preset', () => ({ tools: { type: 'preset', preset: 'claude_code' } })],
  ['extraArgs', () => ({ extraArgs: { 'debug-to-stderr': null, 'some-flag': 'value', 'dash-value': '-starts-with-dash' } })],
  ['sandbox-enabled', () => ({ sandbox: { enabled: true } })],
  ['sandbox-enabled-failIfUnavailable-false', () => ({ sandbox: { enabled: true, failIfUnavailable: false } })],
  [
    'sandbox+settings-merge',
    () => ({
      settings: { model: 'claude-sonnet-4-5', sandbox: { enabled: false, filesystem: { denyRead: ['/a'], disabled: true }, network: { httpProxyPort: 8080, allowedDomains: ['old.example'] }, ripgrep: { command: 'rg', args: ['-x'] } } },
      sandbox: { enabled: true, filesystem: { denyRead: ['/b', '/a'] }, network: { allowedDomains: ['new.example'] }, ripgrep: { command: 'rg2' } },
    }),
  ],
  ['executableArgs', () => ({ executableArgs: ['--x-exec-arg'] })],
  ['toolConfig', () => ({ toolConfig: { askUserQuestion: { previewFormat: 'html' } } })],
  ['onElicitation', () => ({ onElicitation: async () => ({ action: 'decline' }) })],
  ['onUserDialog', () => ({ onUserDialog: async () => null })],
  ['onUserDialog+supportedDialogKinds', () => ({ onUserDialog: async () => null, supportedDialogKinds: ['fixture_kind', 'other_kind'] })],
  ['supportedDialogKinds-alone', () => ({ supportedDialogKinds: ['fixture_kind'] })],
  ['perTaskStopAffordance', () => ({ perTaskStopAffordance: true })],
  ['verbatimPrompts', () => ({ verbatimPrompts: true })],
  ['pluginDelivery-initialize', () => ({ pluginDelivery: 'initialize', plugins: [{ type: 'local', path: '/fixture/plugins/one' }] })],
  ['pluginDelivery-argv', () => ({ pluginDelivery: 'argv', plugins: [{ type: 'local', path: '/fixture/plugins/one' }] })],
  ['resumeDropsTurn', () => ({ resume: FIXED_UUIDS.RESUME, resumeDropsTurn: FIXED_UUIDS.RESUME_AT })],
  ['managedSettings', () => ({ managedSettings: { permissions: { deny: ['WebFetch'] }, model: 'claude-opus-4-5' } })],
  ['skills-list', () => ({ skills: ['pdf', 'xlsx'] })],
  ['skills-all', () => ({ skills: 'all' })],
  ['unknown-key-appendSystemPrompt', () => ({ appendSystemPrompt: 'Legacy option.' })],
  [
    'hooks',
    () => ({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [async () => ({})] }, { matcher: 'Write|Edit', hooks: [async () => ({}), async () => ({})], timeout: 30 }],
        PostToolUse: [{ hooks: [async () => ({})] }],
      },
    }),
  ],
  [
    'everything',
    (ctx) => ({
      model: 'claude-sonnet-4-5',
      fallbackModel: 'claude-haiku-4-5',
      allowedTools: ['Read'],
      disallowedTools: ['Write'],
      permissionMode: 'acceptEdits',
      maxTurns: 2,
      maxBudgetUsd: 2,
      effort: 'low',
      thinking: { type: 'enabled', budgetTokens: 1024 },
      systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Be brief.' },
      includePartialMessages: true,
      additionalDirectories: ['/fixture/dir-a'],
      betas: ['context-1m-2025-08-07'],
      settingSources: ['project'],
      settings: { env: { A: '1' } },
      tools: ['Read', 'Bash'],
      mcpServersDelivery: 'argv',
      mcpServers: { local: STDIO, demo: demoSdkServer(ctx) },
      strictMcpConfig: true,
      canUseTool: async () => ({ behavior: 'allow' }),
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [async () => ({})] }] },
      agents: { helper: { description: 'Helps', prompt: 'Help.' } },
      extraArgs: { 'x-flag': null },
      resume: FIXED_UUIDS.RESUME,
      forkSession: true,
      outputFormat: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } } },
      plugins: [{ type: 'local', path: '/fixture/plugins/one' }],
      persistSession: false,
    }),
  ],
].map((c) => (Array.isArray(c) ? { group: 'options', name: c[0], options: c[1] } : { group: 'options', ...c }))

// ---- MCP schema cases ------------------------------------------------------

function allTypesShape(z, v4) {
  const shape = {
    str: z.string().describe('a described string'),
    num: z.number(),
    int: z.number().int(),
    bool: z.boolean(),
    en: z.enum(['a', 'b', 'c']),
    opt: z.string().optional(),
    def: z.number().default(42),
    arr: z.array(z.string()),
    obj: z.object({ inner: z.string(), deep: z.object({ n: z.number() }).optional() }),
    nullable: z.string().nullable(),
    union: z.union([z.string(), z.number()]),
    lit: z.literal('fixed'),
    minmax: z.number().min(1).max(10),
    strlen: z.string().min(2).max(5),
    arrlen: z.array(z.number()).min(1).max(3),
    describedOptional: z.boolean().optional().describe('optional with description'),
  }
  if (v4) shape.zint = z.int()
  return shape
}

const schemaCases = [
  {
    name: 'zod4-raw-shape',
    options: (ctx) => ({ mcpServers: { schemas: ctx.sdk.createSdkMcpServer({ name: 'schemas', version: '1.0.0', tools: [ctx.sdk.tool('all_types', 'All the types', allTypesShape(ctx.z, true), async () => ({ content: [] }))] }) } }),
  },
  {
    name: 'zod3-raw-shape',
    options: (ctx) => ({ mcpServers: { schemas: ctx.sdk.createSdkMcpServer({ name: 'schemas', version: '1.0.0', tools: [ctx.sdk.tool('all_types', 'All the types', allTypesShape(ctx.z3, false), async () => ({ content: [] }))] }) } }),
  },
  {
    name: 'annotations-and-extras',
    options: (ctx) => ({
      mcpServers: {
        schemas: ctx.sdk.createSdkMcpServer({
          name: 'schemas',
          version: '2.3.4',
          instructions: 'Server instructions text.',
          tools: [
            ctx.sdk.tool('read_only', 'Read-only tool', { path: ctx.z.string() }, async () => ({ content: [] }), {
              annotations: { title: 'Read Only Tool', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
            }),
            ctx.sdk.tool('destructive', 'Destructive tool', {}, async () => ({ content: [] }), { annotations: { destructiveHint: true }, searchHint: 'delete things', alwaysLoad: true }),
          ],
        }),
        always: ctx.sdk.createSdkMcpServer({ name: 'always', alwaysLoad: true, tools: [ctx.sdk.tool('t', 'T', {}, async () => ({ content: [] }))] }),
        no_tools: ctx.sdk.createSdkMcpServer({ name: 'no_tools' }),
      },
    }),
    actions: [...MCP_HANDSHAKE('schemas'), ...MCP_HANDSHAKE('always'), ...MCP_HANDSHAKE('no_tools')],
  },
  {
    name: 'plain-json-schema',
    note: 'a JSON Schema object passed where a Zod raw shape is expected; callbacks record which step throws',
    options: (ctx) => {
      const stage = (name, fn) => {
        try {
          const v = fn()
          ctx.record({ stage: name, ok: true })
          return v
        } catch (e) {
          ctx.record({ stage: name, ok: false, error: e.message })
          throw e
        }
      }
      const jsonSchema = { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] }
      const t = stage('tool()', () => ctx.sdk.tool('json_schema_tool', 'Takes JSON Schema', jsonSchema, async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] })))
      const server = stage('createSdkMcpServer()', () => ctx.sdk.createSdkMcpServer({ name: 'schemas', tools: [t] }))
      return { mcpServers: { schemas: server } }
    },
    actions: [...MCP_HANDSHAKE('schemas'), { name: 'tools/call with {x}', request: toolsCall('schemas', 'json_schema_tool', { x: 'hi' }, 2) }],
  },
  {
    name: 'empty-shape',
    options: (ctx) => ({ mcpServers: { schemas: ctx.sdk.createSdkMcpServer({ name: 'schemas', tools: [ctx.sdk.tool('no_args', 'No args', {}, async (args, extra) => { ctx.record({ tool: 'no_args', args: describe(args) }); return { content: [{ type: 'text', text: 'ok' }] } })] }) } }),
    actions: [
      ...MCP_HANDSHAKE('schemas'),
      { name: 'tools/call without arguments', request: toolsCall('schemas', 'no_args', undefined, 2) },
      { name: 'tools/call with unexpected arguments', request: toolsCall('schemas', 'no_args', { surprise: 1 }, 3) },
    ],
  },
  {
    name: 'zod4-object-instead-of-shape',
    options: (ctx) => ({ mcpServers: { schemas: ctx.sdk.createSdkMcpServer({ name: 'schemas', tools: [ctx.sdk.tool('zobj', 'z.object given', ctx.z.object({ a: ctx.z.string() }), async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }))] }) } }),
    actions: [...MCP_HANDSHAKE('schemas'), { name: 'tools/call valid', request: toolsCall('schemas', 'zobj', { a: 'x' }, 2) }, { name: 'tools/call invalid', request: toolsCall('schemas', 'zobj', { a: 1 }, 3) }],
  },
  {
    name: 'zod4-unconvertible',
    options: (ctx) => ({
      mcpServers: {
        schemas: ctx.sdk.createSdkMcpServer({
          name: 'schemas',
          tools: [
            ctx.sdk.tool('has_date', 'Has a date', { when: ctx.z.date() }, async () => ({ content: [] })),
            ctx.sdk.tool('has_transform', 'Has a transform', { s: ctx.z.string().transform((x) => x.length) }, async () => ({ content: [] })),
            ctx.sdk.tool('fine', 'Fine tool', { s: ctx.z.string() }, async () => ({ content: [] })),
          ],
        }),
      },
    }),
  },
].map((c) => ({ group: 'mcp-schemas', actions: MCP_HANDSHAKE('schemas'), ...c }))

// ---- MCP tools/call cases --------------------------------------------------

function callServers(ctx) {
  const { createSdkMcpServer, tool } = ctx.sdk
  const { z, z3 } = ctx
  const rec = (name) => async (args, extra) => {
    ctx.record({ tool: name, id: extra && extra.requestId, args: describe(args), extraShape: shapeOf(extra), extra: describe(extra) })
    return { content: [{ type: 'text', text: `${name} ok` }] }
  }
  const strictShape = (zz) => ({
    name: zz.string(),
    count: zz.number().int().min(1).max(10),
    color: zz.enum(['red', 'green']),
    nested: zz.object({ flag: zz.boolean() }),
    note: zz.string().optional(),
    level: zz.number().default(3),
  })
  return {
    calc: createSdkMcpServer({
      name: 'calc',
      version: '1.0.0',
      tools: [
        tool('strict', 'Strict schema', strictShape(z), rec('strict')),
        tool('boom', 'Throws', {}, async () => {
          throw new Error('boom')
        }),
        tool('reject_string', 'Rejects with a string', {}, () => Promise.reject('plain string rejection')),
        tool('is_error', 'Returns isError', {}, async () => ({ content: [{ type: 'text', text: 'it failed' }], isError: true })),
        tool('media', 'Image and resource content', {}, async () => ({
          content: [
            { type: 'text', text: 'some text' },
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            { type: 'resource', resource: { uri: 'file:///fixture/a.txt', mimeType: 'text/plain', text: 'file text' } },
            { type: 'resource', resource: { uri: 'file:///fixture/b.bin', mimeType: 'application/octet-stream', blob: 'AAEC' } },
            { type: 'resource_link', uri: 'file:///fixture/c.txt', name: 'c.txt' },
            { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
          ],
        })),
        tool('undef', 'Returns undefined', {}, async () => undefined),
        tool('structured', 'Returns structuredContent', {}, async () => ({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } })),
        tool('sync_value', 'Non-async handler returning a plain object', {}, () => ({ content: [{ type: 'text', text: 'sync' }] })),
      ],
    }),
    calc3: createSdkMcpServer({ name: 'calc3', version: '1.0.0', tools: [tool('strict', 'Strict schema (zod v3)', strictShape(z3), rec('strict3'))] }),
  }
}

const VALID = { name: 'Ann', count: 2, color: 'red', nested: { flag: true } }
const callCases = [
  {
    group: 'mcp-calls',
    name: 'tools-call',
    options: (ctx) => ({ mcpServers: callServers(ctx) }),
    actions: [
      ...MCP_HANDSHAKE('calc'),
      { name: 'valid (defaults omitted)', request: toolsCall('calc', 'strict', VALID, 10) },
      { name: 'valid (all fields)', request: toolsCall('calc', 'strict', { ...VALID, note: 'n', level: 7 }, 11) },
      { name: 'missing field', request: toolsCall('calc', 'strict', { count: 2, color: 'red', nested: { flag: true } }, 12) },
      { name: 'wrong type', request: toolsCall('calc', 'strict', { ...VALID, count: 'three' }, 13) },
      { name: 'enum mismatch', request: toolsCall('calc', 'strict', { ...VALID, color: 'blue' }, 14) },
      { name: 'nested field', request: toolsCall('calc', 'strict', { ...VALID, nested: { flag: 'yes' } }, 15) },
      { name: 'min violation', request: toolsCall('calc', 'strict', { ...VALID, count: 0 }, 16) },
      { name: 'int violation', request: toolsCall('calc', 'strict', { ...VALID, count: 1.5 }, 17) },
      { name: 'several violations (empty object)', request: toolsCall('calc', 'strict', {}, 18) },
      { name: 'arguments omitted', request: toolsCall('calc', 'strict', undefined, 19) },
      { name: 'extra unknown field', request: toolsCall('calc', 'strict', { ...VALID, extra: 1 }, 20) },
      { name: 'handler throws Error("boom")', request: toolsCall('calc', 'boom', {}, 21) },
      { name: 'handler rejects with a string', request: toolsCall('calc', 'reject_string', {}, 22) },
      { name: 'handler returns isError', request: toolsCall('calc', 'is_error', {}, 23) },
      { name: 'image and resource content', request: toolsCall('calc', 'media', {}, 24) },
      { name: 'handler returns undefined', request: toolsCall('calc', 'undef', {}, 25) },
      { name: 'structuredContent without outputSchema', request: toolsCall('calc', 'structured', {}, 26) },
      { name: 'non-async handler', request: toolsCall('calc', 'sync_value', {}, 27) },
      { name: 'unknown tool name', request: toolsCall('calc', 'no_such_tool', {}, 28) },
      { name: 'zod v3: valid (defaults omitted)', request: toolsCall('calc3', 'strict', VALID, 30) },
      { name: 'zod v3: missing field', request: toolsCall('calc3', 'strict', { count: 2, color: 'red', nested: { flag: true } }, 31) },
      { name: 'zod v3: wrong type', request: toolsCall('calc3', 'strict', { ...VALID, count: 'three' }, 32) },
      { name: 'zod v3: enum mismatch', request: toolsCall('calc3', 'strict', { ...VALID, color: 'blue' }, 33) },
      { name: 'zod v3: nested field', request: toolsCall('calc3', 'strict', { ...VALID, nested: { flag: 'yes' } }, 34) },
    ],
  },
]

// ---- control protocol cases ------------------------------------------------

const canUseToolReq = (command, id) => ({
  subtype: 'can_use_tool',
  tool_name: 'Bash',
  display_name: 'Bash',
  input: { command, description: 'fixture' },
  description: 'fixture',
  permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: command }], behavior: 'allow', destination: 'localSettings' }],
  blocked_path: '/fixture/blocked',
  tool_use_id: `toolu_fixture_${id}`,
})
const hookInput = (event, extra) => ({
  session_id: 'fixture-session',
  transcript_path: '/fixture/transcript.jsonl',
  cwd: '/fixture/cwd',
  permission_mode: 'default',
  hook_event_name: event,
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  tool_use_id: 'toolu_fixture_h',
  ...extra,
})

const controlCases = [
  {
    group: 'control',
    name: 'with-callbacks',
    note: 'query with an sdk MCP server "ctl", canUseTool and hooks; the fake CLI sends the requests below',
    options: (ctx) => ({
      mcpServers: { ctl: ctx.sdk.createSdkMcpServer({ name: 'ctl', version: '1.0.0', tools: [ctx.sdk.tool('noop', 'No-op', {}, async () => ({ content: [{ type: 'text', text: 'noop' }] }))] }) },
      canUseTool: async (toolName, input, opts) => {
        ctx.record({ callback: 'canUseTool', toolName, input, optionsShape: shapeOf(opts), options: describe(opts) })
        switch (input.command) {
          case 'allow-plain':
            return { behavior: 'allow' }
          case 'allow-updated':
            return { behavior: 'allow', updatedInput: { command: 'echo rewritten' } }
          case 'allow-permissions':
            return { behavior: 'allow', updatedInput: input, updatedPermissions: opts.suggestions }
          case 'deny':
            return { behavior: 'deny', message: 'not allowed' }
          case 'deny-interrupt':
            return { behavior: 'deny', message: 'stop everything', interrupt: true }
          case 'deny-no-message':
            return { behavior: 'deny' }
          case 'throws':
            throw new Error('permission callback failed')
          case 'returns-undefined':
            return undefined
          default:
            return { behavior: 'allow', updatedInput: input }
        }
      },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              async (input, toolUseID, opts) => {
                ctx.record({ callback: 'PreToolUse hook', input, toolUseID, optionsShape: shapeOf(opts) })
                return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'fixture says ok' } }
              },
            ],
          },
        ],
        PostToolUse: [
          {
            hooks: [
              async (input, toolUseID, opts) => {
                ctx.record({ callback: 'PostToolUse hook', input, toolUseID, optionsShape: shapeOf(opts) })
                return {}
              },
              async () => {
                throw new Error('hook failed')
              },
              async () => ({ continue: false, stopReason: 'fixture stop', systemMessage: 'hello from hook' }),
            ],
          },
        ],
      },
    }),
    actions: [
      ...MCP_HANDSHAKE('ctl'),
      { name: 'mcp ping', request: { subtype: 'mcp_message', server_name: 'ctl', message: { method: 'ping', jsonrpc: '2.0', id: 2 } } },
      { name: 'mcp unknown method foo/bar', request: { subtype: 'mcp_message', server_name: 'ctl', message: { method: 'foo/bar', params: {}, jsonrpc: '2.0', id: 3 } } },
      { name: 'mcp unknown notification', request: { subtype: 'mcp_message', server_name: 'ctl', message: { method: 'notifications/foo', jsonrpc: '2.0' } } },
      { name: 'mcp notifications/cancelled', request: { subtype: 'mcp_message', server_name: 'ctl', message: { method: 'notifications/cancelled', params: { requestId: 99, reason: 'x' }, jsonrpc: '2.0' } } },
      { name: 'mcp response-shaped message (no method)', request: { subtype: 'mcp_message', server_name: 'ctl', message: { jsonrpc: '2.0', id: 4, result: {} } } },
      { name: 'mcp tools/call noop', request: toolsCall('ctl', 'noop', {}, 5) },
      { name: 'mcp_message for unknown server', request: { subtype: 'mcp_message', server_name: 'nope', message: { method: 'tools/list', jsonrpc: '2.0', id: 6 } } },
      { name: 'unknown control subtype', request: { subtype: 'definitely_not_a_subtype', foo: 1 } },
      { name: 'can_use_tool allow (no updatedInput)', request: canUseToolReq('allow-plain', 1) },
      { name: 'can_use_tool allow with updatedInput', request: canUseToolReq('allow-updated', 2) },
      { name: 'can_use_tool allow with updatedPermissions', request: canUseToolReq('allow-permissions', 3) },
      { name: 'can_use_tool deny', request: canUseToolReq('deny', 4) },
      { name: 'can_use_tool deny with interrupt', request: canUseToolReq('deny-interrupt', 5) },
      { name: 'can_use_tool deny without message', request: canUseToolReq('deny-no-message', 6) },
      { name: 'can_use_tool callback throws', request: canUseToolReq('throws', 7) },
      { name: 'can_use_tool callback returns undefined', request: canUseToolReq('returns-undefined', 8) },
      { name: 'hook_callback PreToolUse', request: { subtype: 'hook_callback', callback_ref: ['PreToolUse', 0, 0], input: hookInput('PreToolUse'), tool_use_id: 'toolu_fixture_h' } },
      {
        name: 'hook_callback PostToolUse',
        request: { subtype: 'hook_callback', callback_ref: ['PostToolUse', 0, 0], input: hookInput('PostToolUse', { tool_response: { stdout: 'x' } }), tool_use_id: 'toolu_fixture_h' },
      },
      { name: 'hook_callback that throws', request: { subtype: 'hook_callback', callback_ref: ['PostToolUse', 0, 1], input: hookInput('PostToolUse'), tool_use_id: 'toolu_fixture_h' } },
      { name: 'hook_callback returning continue:false', request: { subtype: 'hook_callback', callback_ref: ['PostToolUse', 0, 2], input: hookInput('PostToolUse'), tool_use_id: 'toolu_fixture_h' } },
      { name: 'hook_callback unknown callback_id', request: { subtype: 'hook_callback', callback_id: 'hook_999', input: hookInput('PreToolUse'), tool_use_id: 'toolu_fixture_h' } },
      { name: 'elicitation without onElicitation', request: { subtype: 'elicitation', mcp_server_name: 'ctl', message: 'Need input', requested_schema: { type: 'object', properties: {} } } },
    ],
  },
  {
    group: 'control',
    name: 'without-callbacks',
    note: 'query with no canUseTool, no hooks, no MCP servers',
    options: () => ({}),
    actions: [
      { name: 'can_use_tool without canUseTool', request: canUseToolReq('ls', 1) },
      { name: 'hook_callback without hooks', request: { subtype: 'hook_callback', callback_id: 'hook_0', input: hookInput('PreToolUse'), tool_use_id: 'toolu_fixture_h' } },
      { name: 'mcp_message without any sdk server', request: { subtype: 'mcp_message', server_name: 'ctl', message: { method: 'tools/list', jsonrpc: '2.0', id: 1 } } },
    ],
  },
]

// ---- real CLI transcripts ----------------------------------------------------

const realCliCases = Object.entries(CLIS).map(([version, bin]) => ({
  group: 'real-cli',
  name: `tool-round-trip-${version}`,
  note: `official SDK -> fake claude (proxy) -> real CLI ${version} -> testing/ scripted model. Tool call of an sdk MCP tool gated by canUseTool and a PreToolUse hook.`,
  exec: bin,
  scripted: true,
  options: (ctx) => ({
    env: ctx.model.env(),
    cwd: ctx.tmpDir('real-cwd'),
    mcpServersDelivery: 'argv',
    mcpServers: { demo: demoSdkServer(ctx) },
    canUseTool: async (toolName, input, opts) => {
      ctx.record({ callback: 'canUseTool', toolName, input, optionsShape: shapeOf(opts) })
      return { behavior: 'allow', updatedInput: input }
    },
    hooks: {
      PreToolUse: [
        {
          matcher: 'mcp__demo__greet',
          hooks: [
            async (input, toolUseID, opts) => {
              ctx.record({ callback: 'PreToolUse hook', hookEventName: input.hook_event_name, inputKeys: Object.keys(input).sort(), optionsShape: shapeOf(opts) })
              return {}
            },
          ],
        },
      ],
    },
  }),
}))

const ALL_CASES = [...optionCases, ...schemaCases, ...callCases, ...controlCases, ...realCliCases]
const GROUP_FILES = {
  options: 'options.json',
  'mcp-schemas': 'mcp-schemas.json',
  'mcp-calls': 'mcp-calls.json',
  control: 'control-protocol.json',
  'real-cli': 'real-cli.json',
}

// ---------------------------------------------------------------------------
// normalisation
// ---------------------------------------------------------------------------

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi
const KEEP_UUIDS = new Set([...Object.values(FIXED_UUIDS), '00000000-0000-4000-8000-000000000000'])

function makeNormalizer(replacements) {
  // longest first; include realpath variants
  const pairs = []
  for (const [from, to] of Object.entries(replacements)) {
    if (!from) continue
    pairs.push([from, to])
    // the CLI derives project dir names from paths (non-alphanumerics -> '-')
    if (from.startsWith('/') || /^[A-Za-z]:\\/.test(from)) pairs.push([from.replace(/[^a-zA-Z0-9]/g, '-'), to.replace(/^<(.*)>$/, '<$1:sanitized>')])
    try {
      const real = fs.realpathSync(from)
      if (real !== from) pairs.push([real, to])
    } catch {}
  }
  pairs.sort((a, b) => b[0].length - a[0].length)
  const str = (s) => {
    for (const [from, to] of pairs) s = s.split(from).join(to)
    s = s.replace(UUID_RE, (u) => (KEEP_UUIDS.has(u) ? u : '<uuid>'))
    s = s.replace(/toolu_scripted_[a-z0-9]+_(\d+)/g, 'toolu_scripted_$1')
    s = s.replace(/msg_scripted_[a-z0-9]+_(\d+)/g, 'msg_scripted_$1')
    return s
  }
  const walk = (v) => {
    if (typeof v === 'string') return str(v)
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') {
      const o = {}
      for (const [k, x] of Object.entries(v)) o[str(k)] = walk(x)
      return o
    }
    return v
  }
  return walk
}

function redactEnv(env) {
  const out = {}
  for (const k of Object.keys(env).sort()) {
    let v = env[k]
    if (k === 'PATH') v = '<PATH>'
    else if (SECRET_NAME.test(k) && k !== 'CLAUDE_CODE_SDK_READS_SESSION_STATE') v = '<redacted>'
    out[k] = v
  }
  return out
}

// Only these env names are kept for the real-cli group (the scripted model's env is long).
const INTERESTING_ENV = /^(CLAUDE|ANTHROPIC|DEBUG|NODE_OPTIONS|CAPTURE_|MY_VAR)/i

// ---------------------------------------------------------------------------
// child: run one case
// ---------------------------------------------------------------------------

async function runChild(caseName, caseDir, outFile) {
  const c = ALL_CASES.find((x) => x.name === caseName)
  if (!c) throw new Error('unknown case ' + caseName)
  const sdk = await import('@anthropic-ai/claude-agent-sdk')
  const { z } = await import('zod')
  const { z: z3 } = await import('zod/v3')
  const warnings = []
  process.on('warning', (w) => warnings.push({ name: w.name, code: w.code, message: w.message }))
  const recorded = []
  const tmpDirs = {}
  const tmpDir = (name) => {
    if (!tmpDirs[name]) {
      tmpDirs[name] = path.join(caseDir, name)
      fs.mkdirSync(tmpDirs[name], { recursive: true })
    }
    return tmpDirs[name]
  }
  let model
  if (c.scripted) {
    const { startScriptedModel } = await import(path.join(ROOT, 'testing/index.mjs'))
    model = await startScriptedModel({ turns: [{ toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] }, { text: 'all done' }] })
  }
  const plan = { actions: c.actions || [], exec: c.exec, initializeResponse: c.initializeResponse }
  fs.writeFileSync(path.join(caseDir, 'plan.json'), JSON.stringify(plan))

  const result = { warnings, recorded }
  let options
  const messages = []
  let timer
  try {
    options = await c.options({ sdk, z, z3, record: (x) => recorded.push(x), tmpDir, model })
    result.options = describe(options)
    const abortController = new AbortController()
    timer = setTimeout(() => abortController.abort(), 40000)
    const q = sdk.query({ prompt: c.prompt || 'capture', options: { ...options, pathToClaudeCodeExecutable: path.join(caseDir, 'claude'), abortController } })
    for await (const m of q) messages.push(m)
  } catch (e) {
    result.error = { name: e && e.name, message: String(e && e.message) }
  } finally {
    clearTimeout(timer)
  }
  await new Promise((r) => setTimeout(r, 50)) // let pending warnings be emitted
  result.sdkMessages = messages.map((m) => (m.subtype ? `${m.type}/${m.subtype}` : m.type))
  if (model) {
    result.modelRequests = model.allRequests.map((r) => `${r.method} ${r.url} -> ${r.kind}`)
    await model.close()
  }
  result.replacements = { [caseDir]: '<case_dir>', ...(options && options.cwd ? { [options.cwd]: '<options.cwd>' } : {}) }
  if (model) result.replacements[model.url] = '<scripted_model_url>'
  if (options && options.env && options.env.HOME && options.env.HOME !== process.env.HOME) result.replacements[options.env.HOME] = '<options.env.HOME>'
  fs.writeFileSync(outFile, JSON.stringify(result))
}

// ---------------------------------------------------------------------------
// parent: orchestrate, normalise, write fixtures
// ---------------------------------------------------------------------------

function runChildProcess(c, ctx) {
  const caseDir = path.join(ctx.tmp, 'cases', c.name.replace(/[^a-zA-Z0-9._-]/g, '_'))
  fs.mkdirSync(caseDir, { recursive: true })
  fs.writeFileSync(path.join(caseDir, 'claude'), `#!${process.execPath}\n${FAKE_CLI_SOURCE}`, { mode: 0o755 })
  const outFile = path.join(caseDir, 'result.json')
  const env = { PATH: process.env.PATH, HOME: ctx.home, CAPTURE_INHERITED_VAR: 'inherited-from-capturing-process', ...(c.childEnv || {}) }
  if (process.platform === 'win32') env.SystemRoot = process.env.SystemRoot
  const t0 = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, '--child', c.name, caseDir, outFile], { cwd: ctx.procCwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stdout.on('data', (d) => (stderr += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('exit', (code) => {
      let result
      try {
        result = JSON.parse(fs.readFileSync(outFile, 'utf8'))
      } catch {
        result = { childFailed: { code, stderr } }
      }
      if (process.env.CAPTURE_VERBOSE) console.error(`${c.group}/${c.name}: ${Date.now() - t0}ms`)
      resolve({ c, caseDir, result, record: readRecord(caseDir), stderr })
    })
  })
}

function buildEntry({ c, caseDir, result, record }, ctx) {
  const norm = makeNormalizer({
    ...(result.replacements || {}),
    [ctx.procCwd]: '<process.cwd>',
    [ctx.home]: '<home>',
    [ctx.tmp]: '<tmp>',
    [ROOT]: '<repo>',
    [process.execPath]: '<node>',
  })
  const entry = {}
  if (c.note) entry.note = c.note
  entry.options = result.options
  if (c.childEnv) entry.capturingProcessEnv = c.childEnv
  const start = record.find((r) => r.kind === 'start')
  if (start) {
    entry.argv = start.data.argv
    entry.cwd = start.data.cwd
    let env = redactEnv(start.data.env)
    if (c.group === 'real-cli') env = Object.fromEntries(Object.entries(env).filter(([k]) => INTERESTING_ENV.test(k)))
    entry.env = env
  } else {
    entry.spawned = false
  }
  if (c.group === 'real-cli') {
    const parse = (l) => {
      try {
        return JSON.parse(l)
      } catch {
        return l
      }
    }
    entry.sdkToCli = record.filter((r) => r.kind === 'sdk->cli').map((r) => maskSdkRequestIds(parse(r.data)))
    entry.cliToSdkControl = record
      .filter((r) => r.kind === 'cli->sdk')
      .map((r) => parse(r.data))
      .filter((m) => m && /^control_/.test(m.type))
      .map((m) => (m.type === 'control_response' && m.response && m.response.response && m.response.response.commands ? { ...m, response: { ...m.response, request_id: '<request_id>', response: { '<keys>': Object.keys(m.response.response) } } } : m))
    entry.cliToSdkMessageTypes = record
      .filter((r) => r.kind === 'cli->sdk')
      .map((r) => parse(r.data))
      .map((m) => (m && m.subtype ? `${m.type}/${m.subtype}` : m && m.type))
    entry.modelRequests = result.modelRequests
  } else {
    const stdin = record.filter((r) => r.kind === 'stdin').map((r) => maskSdkRequestIds(JSON.parse(r.data)))
    const init = stdin.find((m) => m.type === 'control_request' && m.request && m.request.subtype === 'initialize')
    entry.initialize = init
    entry.otherStdin = stdin.filter((m) => m !== init && m.type !== 'control_response')
    const actions = record.filter((r) => r.kind === 'action').map((r) => r.data)
    if (actions.length) entry.exchanges = actions.map((a) => ({ name: a.name, request: a.request, response: a.response }))
  }
  if (result.recorded && result.recorded.length) entry.callbacks = result.recorded
  entry.sdkMessages = result.sdkMessages
  entry.warnings = result.warnings
  if (result.error) entry.error = result.error
  if (result.childFailed) entry.childFailed = result.childFailed
  if (record.some((r) => r.kind === 'safety-timeout')) entry.fakeCliSafetyTimeout = true
  return sortTopLevel(norm(entry))
}

function maskSdkRequestIds(m) {
  if (m && m.type === 'control_request' && typeof m.request_id === 'string' && !m.request_id.startsWith('fake-cli-')) return { ...m, request_id: '<request_id>' }
  if (m && m.type === 'control_response' && m.response && typeof m.response.request_id === 'string' && !m.response.request_id.startsWith('fake-cli-')) return { ...m, response: { ...m.response, request_id: '<request_id>' } }
  return m
}

function sortTopLevel(e) {
  const order = ['note', 'options', 'capturingProcessEnv', 'argv', 'cwd', 'env', 'spawned', 'initialize', 'otherStdin', 'exchanges', 'sdkToCli', 'cliToSdkControl', 'cliToSdkMessageTypes', 'modelRequests', 'callbacks', 'sdkMessages', 'warnings', 'error', 'childFailed', 'fakeCliSafetyTimeout']
  const out = {}
  for (const k of order) if (k in e) out[k] = e[k]
  for (const k of Object.keys(e)) if (!(k in out)) out[k] = e[k]
  return out
}

async function pool(items, n, fn) {
  const results = new Array(items.length)
  let i = 0
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) {
        const idx = i++
        results[idx] = await fn(items[idx])
      }
    }),
  )
  return results
}

async function main() {
  const args = process.argv.slice(2)
  if (args[0] === '--child') return runChild(args[1], args[2], args[3])
  if (args[0] === '--list') {
    for (const c of ALL_CASES) console.log(`${c.group}\t${c.name}`)
    return
  }
  const groups = args.length ? args : Object.keys(GROUP_FILES)
  for (const g of groups) if (!GROUP_FILES[g]) throw new Error(`unknown group ${g}; known: ${Object.keys(GROUP_FILES).join(', ')}`)
  const cases = ALL_CASES.filter((c) => groups.includes(c.group))

  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'capture-official-')))
  const ctx = { tmp, home: path.join(tmp, 'home'), procCwd: path.join(tmp, 'proc-cwd') }
  fs.mkdirSync(ctx.home)
  fs.mkdirSync(ctx.procCwd)
  const t0 = Date.now()
  try {
    await captureAll(cases, groups, ctx)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
  console.log(`done in ${((Date.now() - t0) / 1000).toFixed(1)}s`)
}

async function captureAll(cases, groups, ctx) {
  const runs = await pool(cases, Math.max(2, Math.min(8, os.cpus().length)), (c) => runChildProcess(c, ctx))

  const sdkPkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@anthropic-ai/claude-agent-sdk/package.json'), 'utf8'))
  fs.mkdirSync(OUT_DIR, { recursive: true })
  let failures = 0
  for (const g of groups) {
    const out = {
      generatedBy: 'scripts/capture-official.mjs',
      sdk: `@anthropic-ai/claude-agent-sdk@${sdkPkg.version}`,
      ...(g === 'real-cli' ? { clis: Object.fromEntries(Object.keys(CLIS).map((v) => [v, `@anthropic-ai/claude-code@${v}`])) } : {}),
      placeholders: {
        '<request_id>': 'request_id generated by the SDK',
        '<uuid>': 'any UUID except the fixed ones used in options',
        '<process.cwd>': 'cwd of the process that called query()',
        '<options.cwd>': 'the cwd option',
        '<home>': 'HOME of the capturing process',
        '<case_dir>': 'per-case temp dir (holds the fake claude)',
        '<tmp>': 'capture temp root',
        '<PATH>': 'PATH value',
        '<redacted>': 'value of an env var whose name looks secret',
      },
      cases: {},
    }
    for (const run of runs.filter((r) => r.c.group === g)) {
      const entry = buildEntry(run, ctx)
      if (entry.childFailed || entry.fakeCliSafetyTimeout) {
        failures++
        console.error(`!! ${g}/${run.c.name} failed:\n${run.stderr}`)
      }
      out.cases[run.c.name] = entry
    }
    const file = path.join(OUT_DIR, GROUP_FILES[g])
    fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n')
    console.log(`wrote ${path.relative(ROOT, file)} (${Object.keys(out.cases).length} cases)`)
  }
  if (failures) process.exitCode = 1
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
