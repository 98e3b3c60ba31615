// In-process servers: `instance` is this package's server, with the McpServer API of
// @modelcontextprotocol/sdk, or any MCP server object (connected through a transport, as the
// official SDK does); an arbitrary object is not a server.
import { createSdkMcpServer, query, tool, type McpSdkServerConfigWithInstance, type McpServerConfig, type SdkMcpServer } from 'claude-agent-sdk-native'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'

const config = createSdkMcpServer({ name: 'calc', version: '1.2.3', tools: [tool('sq', 'Squares', { x: z.number() }, async ({ x }) => ({ content: [{ type: 'text', text: String(x * x) }] }))] })
const instance: SdkMcpServer = config.instance
console.log(instance.name, instance.version, instance.listTools().map((t) => t.name))
const asConfig: McpServerConfig = config
const annotated: McpSdkServerConfigWithInstance = { ...config, timeout: 10_000 }

// The McpServer API on our instance, typed from the schemas.
const cube = instance.registerTool('cube', { description: 'Cubes', inputSchema: { x: z.number() }, outputSchema: { y: z.number() } }, async ({ x }, extra) => {
  extra.signal.throwIfAborted()
  await extra.sendNotification({ method: 'notifications/progress', params: { progress: 1 } })
  const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: 'ok?' } })
  void answer
  return { content: [{ type: 'text', text: String(x ** 3) }], structuredContent: { y: x ** 3 } }
})
cube.disable()
cube.enable()
cube.update({ description: 'Cubes a number' })
cube.remove()
instance.tool('ping', async () => ({ content: [] }))
instance.tool('half', 'Halves', { x: z.number() }, async ({ x }) => ({ content: [{ type: 'text', text: String(x / 2) }] }))
instance.registerResource('readme', 'file:///readme.md', { mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# hi' }] }))
instance.registerResource('user', new ResourceTemplate('users://{id}', { list: undefined }), {}, async (uri, { id }) => ({ contents: [{ uri: uri.href, text: String(id) }] }))
instance.registerPrompt('review', { argsSchema: { code: z.string() } }, ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: code } }] }))
instance.sendToolListChanged()
console.log(instance.isConnected())
// @ts-expect-error the handler's args are typed from the input schema
instance.registerTool('bad', { inputSchema: { x: z.number() } }, async ({ y }: { y: string }) => ({ content: [] }))

// Any MCP server object is accepted, as with the official SDK.
const foreign: McpSdkServerConfigWithInstance = { type: 'sdk', name: 'x', instance: new McpServer({ name: 'x', version: '1' }) }

// An arbitrary object is not.
// @ts-expect-error
const fake: McpServerConfig = { type: 'sdk', name: 'x', instance: { name: 'x' } }

// The server class is a type only: it is not exported at run time.
import { SdkMcpServer as NotAValue } from 'claude-agent-sdk-native'
// @ts-expect-error
console.log(NotAValue)

for await (const m of query({ prompt: '3 squared?', options: { mcpServers: { calc: annotated, x: foreign } } })) void m
void [asConfig, foreign, fake]
