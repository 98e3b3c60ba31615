// A CommonJS consumer (require): the package's types resolve through the "require" condition.
import sdk = require('claude-agent-sdk-native')
import testing = require('claude-agent-sdk-native/testing')
import type { Options, SDKMessage } from 'claude-agent-sdk-native'

const { query, tool, createSdkMcpServer, AbortError } = sdk

async function main(): Promise<void> {
  const model = await testing.startScriptedModel({ turns: [{ text: 'hello' }] })
  const options: Options = { env: model.env(), cwd: model.tempDir() }
  const server = createSdkMcpServer({ name: 's', tools: [tool('t', 'd', {}, async () => ({ content: [] }))] })
  try {
    for await (const m of query({ prompt: 'hi', options: { ...options, mcpServers: { s: server } } })) {
      const message: SDKMessage = m
      if (message.type === 'result') console.log(message.subtype)
    }
  } catch (e) {
    if (e instanceof AbortError) console.log('aborted')
  } finally {
    await model.close()
  }
}
void main()
