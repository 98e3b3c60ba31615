// In-process servers: `instance` is this package's server (an MCP SDK McpServer is not accepted,
// as at run time), and a config needs the instance createSdkMcpServer() made.
import { createSdkMcpServer, query, tool, type McpSdkServerConfigWithInstance, type McpServerConfig, type SdkMcpServer } from 'claude-agent-sdk-native'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'

const config = createSdkMcpServer({ name: 'calc', version: '1.2.3', tools: [tool('sq', 'Squares', { x: z.number() }, async ({ x }) => ({ content: [{ type: 'text', text: String(x * x) }] }))] })
const instance: SdkMcpServer = config.instance
console.log(instance.name, instance.version, instance.listTools().map((t) => t.name))
const asConfig: McpServerConfig = config
const annotated: McpSdkServerConfigWithInstance = { ...config, timeout: 10_000 }

// An MCP SDK server is not an in-process server of this package.
// @ts-expect-error
const foreign: McpSdkServerConfigWithInstance = { type: 'sdk', name: 'x', instance: new McpServer({ name: 'x', version: '1' }) }

// Nor is an arbitrary object.
// @ts-expect-error
const fake: McpServerConfig = { type: 'sdk', name: 'x', instance: { name: 'x' } }

// The server class is a type only: it is not exported at run time.
import { SdkMcpServer as NotAValue } from 'claude-agent-sdk-native'
// @ts-expect-error
console.log(NotAValue)

for await (const m of query({ prompt: '3 squared?', options: { mcpServers: { calc: annotated } } })) void m
void [asConfig, foreign, fake]
