#!/usr/bin/env node
// `npm run demo`: an agent with an in-process tool, run by the real Claude Code CLI.
// With ANTHROPIC_API_KEY set it talks to the real model; without it, it uses the scripted
// Messages API from `claude-agent-sdk-native/testing`, so it runs offline and deterministically.
import { query, tool, createSdkMcpServer } from 'claude-agent-sdk-native'
import { startScriptedModel, lastToolResult, toolResultText } from 'claude-agent-sdk-native/testing'
import { z } from 'zod'

const weather = createSdkMcpServer({
  name: 'weather',
  version: '1.0.0',
  tools: [
    tool(
      'get_forecast',
      'Get the weather forecast for a city',
      { city: z.string().describe('City name'), days: z.number().int().min(1).max(7).default(3) },
      async ({ city, days }) => {
        const forecast = Array.from({ length: days }, (_, i) => `day ${i + 1}: ${['sunny', 'cloudy', 'rain'][(city.length + i) % 3]}`)
        return { content: [{ type: 'text', text: `Forecast for ${city}: ${forecast.join(', ')}` }] }
      },
      { annotations: { readOnlyHint: true } },
    ),
  ],
})

let model
let env
if (!process.env.ANTHROPIC_API_KEY) {
  model = await startScriptedModel({
    turns: [
      { toolUses: [{ name: 'mcp__weather__get_forecast', input: { city: 'Paris', days: 2 } }] },
      (req) => ({ text: `Here is what I found. ${toolResultText(lastToolResult(req))}` }),
    ],
  })
  env = model.env()
  console.log(`(no ANTHROPIC_API_KEY: using the scripted model at ${model.url})\n`)
}

try {
  for await (const message of query({
    prompt: 'What is the weather in Paris for the next two days?',
    options: { mcpServers: { weather }, allowedTools: ['mcp__weather__get_forecast'], ...(env ? { env, cwd: model.tempDir('demo-') } : {}) },
  })) {
    if (message.type === 'system' && message.subtype === 'init') {
      console.log(`session ${message.session_id} · Claude Code ${message.claude_code_version} · tools include ${message.tools.filter((t) => t.startsWith('mcp__')).join(', ')}`)
    } else if (message.type === 'assistant') {
      for (const block of message.message.content) {
        if (block.type === 'text') console.log(`assistant: ${block.text}`)
        if (block.type === 'tool_use') console.log(`assistant calls ${block.name} ${JSON.stringify(block.input)}`)
      }
    } else if (message.type === 'user' && Array.isArray(message.message.content)) {
      for (const block of message.message.content) {
        if (block.type === 'tool_result') console.log(`tool result: ${toolResultText(block)}`)
      }
    } else if (message.type === 'result') {
      console.log(`\nresult: ${message.subtype} after ${message.num_turns} turns, ${message.duration_ms} ms`)
    }
  }
} finally {
  await model?.close()
}
