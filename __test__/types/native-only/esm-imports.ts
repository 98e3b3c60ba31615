// ES module consumers: named, default and namespace imports, and the testing entry point.
import sdk, { query, tool, createSdkMcpServer, AbortError } from 'claude-agent-sdk-native'
import * as ns from 'claude-agent-sdk-native'
import { startScriptedModel, lastToolResult, toolResultText } from 'claude-agent-sdk-native/testing'
import { z } from 'zod'

const sameQuery: typeof query = sdk.query
const sameTool: typeof tool = ns.tool
const sameServer: typeof createSdkMcpServer = ns.default.createSdkMcpServer
const error: Error = new sdk.AbortError('x')
void [sameQuery, sameTool, sameServer, error, AbortError]

const greet = tool('greet', 'Greets', { name: z.string() }, async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }))
const demo = createSdkMcpServer({ name: 'demo', tools: [greet] })

const model = await startScriptedModel({
  turns: [
    { toolUses: [{ name: 'mcp__demo__greet', input: { name: 'Alice' } }] },
    (request) => ({ text: `Tool said: ${toolResultText(lastToolResult(request))}` }),
  ],
})
for await (const m of query({ prompt: 'Greet Alice', options: { mcpServers: { demo }, env: model.env(), cwd: model.tempDir() } })) {
  if (m.type === 'result' && m.subtype === 'success') console.log(m.result)
}
console.log(model.requests.length)
await model.close()
