// Values flow between code typed with the official package and code typed with ours.
import * as official from '@anthropic-ai/claude-agent-sdk'
import * as native from 'claude-agent-sdk-native'

// Callbacks and option objects written against the official types work with our query().
declare const officialCanUseTool: official.CanUseTool
declare const officialHook: official.HookCallback
declare const officialMatchers: official.HookCallbackMatcher[]
declare const officialAgents: Record<string, official.AgentDefinition>
declare const officialStdio: official.McpStdioServerConfig
declare const officialSettings: official.Settings
declare const officialPrompt: AsyncIterable<official.SDKUserMessage>

const q = native.query({
  prompt: officialPrompt,
  options: {
    canUseTool: officialCanUseTool,
    hooks: { PreToolUse: officialMatchers, Stop: [{ hooks: [officialHook] }] },
    agents: officialAgents,
    mcpServers: { fs: officialStdio },
    settings: officialSettings,
  },
})

// Our messages go to code that expects the official ones.
function handleOfficial(message: official.SDKMessage): void {
  if (message.type === 'result' && message.subtype === 'success') console.log(message.result)
}
for await (const m of q) handleOfficial(m)

// And the other way round.
declare const officialQuery: official.Query
function handleNative(message: native.SDKMessage): void {
  if (message.type === 'assistant') console.log(message.message.content.length)
}
for await (const m of officialQuery) handleNative(m)

// Our callbacks and options fit the official Options (except in-process servers).
declare const nativeOptions: Omit<native.Options, 'mcpServers'>
const asOfficial: official.Options = nativeOptions
declare const nativePrompt: AsyncIterable<native.SDKUserMessage>
official.query({ prompt: nativePrompt, options: asOfficial })
