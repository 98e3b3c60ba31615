// The no-SDK floor: the least a Node client must do to drive the CLI — spawn, readline +
// JSON.parse per line, answer control requests with JSON.stringify, yield the rest. No SDK, no
// validation, no options. Shared by bench/driver.mjs (every scenario), bench/cold-app.mjs (the
// cold scenario) and the scale scenario.
import { spawn } from 'node:child_process'
import readline from 'node:readline'

const TOOLS = [
  {
    name: 'echo',
    description: 'Echo',
    inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
]
const INIT = { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'bench', version: '1.0.0' } }

/**
 * One query against the CLI at `cli`: yields its messages (control traffic answered here).
 * `echo(args)` answers the tool `bench/echo`; `canUseTool(name, input)` the permission prompts.
 */
export async function* floorQuery({ cli, env, echo, canUseTool }) {
  const args = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json']
  if (canUseTool) args.push('--permission-prompt-tool=stdio')
  const child = spawn(cli, args, { env, stdio: ['pipe', 'pipe', 'inherit'] })
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  const send = (obj) => child.stdin.write(JSON.stringify(obj) + '\n')
  const reply = (request_id, response) => send({ type: 'control_response', response: { subtype: 'success', request_id, response } })
  const mcp = async (message) => {
    if (message.method === 'tools/call') {
      return { result: await echo(message.params.arguments), jsonrpc: '2.0', id: message.id }
    }
    if (message.method === 'initialize') return { result: INIT, jsonrpc: '2.0', id: message.id }
    if (message.method === 'tools/list') return { result: { tools: TOOLS }, jsonrpc: '2.0', id: message.id }
    return { jsonrpc: '2.0', result: {}, id: message.id ?? 0 }
  }
  send({
    request_id: 'init_1',
    type: 'control_request',
    request: {
      subtype: 'initialize',
      sdkMcpServers: ['bench'],
      sdkMcpServerManifests: { bench: { initializeResult: INIT, toolsListResult: { tools: TOOLS } } },
      systemPrompt: [''],
    },
  })
  send({ type: 'user', session_id: '', message: { role: 'user', content: [{ type: 'text', text: 'bench' }] }, parent_tool_use_id: null })
  const rl = readline.createInterface({ input: child.stdout, crlfDelay: Infinity })
  for await (const line of rl) {
    if (!line) continue
    const m = JSON.parse(line)
    if (m.type === 'control_request') {
      const r = m.request
      if (r.subtype === 'mcp_message') mcp(r.message).then((mcp_response) => reply(m.request_id, { mcp_response }))
      else if (r.subtype === 'can_use_tool') canUseTool(r.tool_name, r.input).then((d) => reply(m.request_id, d))
      else reply(m.request_id, {})
      continue
    }
    if (m.type === 'control_response' || m.sdk_host_only) continue
    yield m
    if (m.type === 'result') child.stdin.end()
  }
  const { code, signal } = await exited
  if (code !== 0) throw new Error(`fake CLI exited with ${code ?? signal}`)
}

/**
 * The bench's app, as an app is written: the SDK (ours or the official; nothing for the floor),
 * then the app's own zod as ESM, then one tool with a zod shape. The floor is the same app without
 * an SDK: it imports its zod and makes the same shape (held by the app whichever SDK it uses), so
 * peak RSS over the floor is the SDK's. Returns `({ env, canUseTool }) => AsyncIterable` of one
 * query's messages. `serverPerQuery`: a server made for each query (the official's server instance
 * serves one query at a time), else one server for all.
 */
export async function benchApp(sdkName, { cli, echo, serverPerQuery = false }) {
  if (sdkName === 'floor') {
    const { z } = await import('zod')
    globalThis.__benchShape = { text: z.string() }
    return ({ env, canUseTool }) => floorQuery({ cli, env, echo, canUseTool })
  }
  const sdk = sdkName === 'ours' ? await import('claude-agent-sdk-native') : await import('@anthropic-ai/claude-agent-sdk')
  const { z } = await import('zod')
  const echoTool = sdk.tool('echo', 'Echo', { text: z.string() }, echo)
  const makeServer = () => sdk.createSdkMcpServer({ name: 'bench', version: '1.0.0', tools: [echoTool] })
  const shared = serverPerQuery ? null : makeServer()
  return ({ env, canUseTool }) => sdk.query({
    prompt: 'bench',
    options: { pathToClaudeCodeExecutable: cli, env, mcpServers: { bench: shared ?? makeServer() }, ...(canUseTool ? { canUseTool } : {}) },
  })
}
