// The McpServer API on createSdkMcpServer()'s instance, and an McpServer of
// @modelcontextprotocol/sdk as an in-process server: code written against the official
// McpSdkServerConfigWithInstance.
import { createSdkMcpServer, query, tool, type McpSdkServerConfigWithInstance } from '@anthropic-ai/claude-agent-sdk'
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'

const server = createSdkMcpServer({ name: 'app', tools: [tool('ping', 'Pings', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }))] })

const added = server.instance.registerTool(
  'sum',
  { description: 'Adds', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { total: z.number() }, annotations: { readOnlyHint: true } },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { total: a + b } }),
)
added.disable()
added.enable()
added.remove()
server.instance.tool('echo', 'Echoes', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] }))
server.instance.registerResource('readme', 'file:///readme.md', { mimeType: 'text/markdown' }, async (uri) => ({ contents: [{ uri: uri.href, text: '# readme' }] }))
server.instance.resource('user', new ResourceTemplate('users://{id}', { list: undefined }), async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `user ${String(id)}` }] }))
server.instance.registerPrompt('review', { description: 'Review', argsSchema: { code: z.string() } }, ({ code }) => ({ messages: [{ role: 'user', content: { type: 'text', text: code } }] }))
server.instance.sendToolListChanged()
const connected: boolean = server.instance.isConnected()

function serve(config: McpSdkServerConfigWithInstance) {
  return query({ prompt: 'hi', options: { mcpServers: { [config.name]: config } } })
}

const external = new McpServer({ name: 'external', version: '1.0.0' })
external.registerTool('now', { description: 'The time' }, async () => ({ content: [{ type: 'text', text: new Date().toISOString() }] }))
const externalConfig: McpSdkServerConfigWithInstance = { type: 'sdk', name: 'external', instance: external }

for await (const m of serve(server)) void m
for await (const m of serve(externalConfig)) void m
void connected
