// MCP servers of every transport in one map: stdio, SSE, HTTP and in-process (sdk).
import {
  createSdkMcpServer,
  query,
  tool,
  type McpHttpServerConfig,
  type McpSdkServerConfigWithInstance,
  type McpServerConfig,
  type McpSSEServerConfig,
  type McpStdioServerConfig,
} from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'

const filesystem: McpStdioServerConfig = {
  command: 'npx',
  args: ['@modelcontextprotocol/server-filesystem', '/tmp'],
  env: { ALLOWED_PATHS: '/tmp' },
}
const typedStdio: McpStdioServerConfig = { type: 'stdio', command: 'python', args: ['server.py'], timeout: 60_000 }
const events: McpSSEServerConfig = { type: 'sse', url: 'https://example.com/sse', headers: { Authorization: 'Bearer token' } }
const remote: McpHttpServerConfig = {
  type: 'http',
  url: 'https://example.com/mcp',
  headers: { 'X-API-Key': process.env.API_KEY ?? '' },
  tools: [{ name: 'delete_repo', permission_policy: 'always_ask' }],
  alwaysLoad: true,
}
const local: McpSdkServerConfigWithInstance = createSdkMcpServer({
  name: 'local',
  tools: [tool('now', 'Current time', {}, async () => ({ content: [{ type: 'text', text: new Date().toISOString() }] }))],
})

const mcpServers: Record<string, McpServerConfig> = { filesystem, python: typedStdio, events, remote, local }

const q = query({
  prompt: 'List the files in /tmp and tell me the time',
  options: { mcpServers, strictMcpConfig: true, allowedTools: ['mcp__filesystem__list_directory', 'mcp__local__now'] },
})

for await (const message of q) {
  if (message.type === 'system' && message.subtype === 'init') {
    for (const server of message.mcp_servers) console.log(server.name, server.status)
    const statuses = await q.mcpServerStatus()
    for (const s of statuses) {
      console.log(s.name, s.status, s.serverInfo?.version, s.error, s.tools?.map((t) => t.name))
      if (s.config && 'url' in s.config) console.log(s.config.url)
    }
    const result = await q.setMcpServers({ remote, local })
    console.log(result.added, result.removed, result.errors)
    await q.reconnectMcpServer('events')
    await q.toggleMcpServer('events', false)
  }
}
