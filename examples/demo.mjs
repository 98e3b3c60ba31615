#!/usr/bin/env node
// `npm run demo`: an agent with an in-process tool, run by the real Claude Code CLI, then the same
// tool server serving OpenAI's Codex (`claude-agent-sdk-native/codex`, when @openai/codex is
// installed). With ANTHROPIC_API_KEY (OPENAI_API_KEY for Codex) set it talks to the real model;
// without it, it uses the scripted Messages (Responses) API from `claude-agent-sdk-native/testing`,
// so it runs offline and deterministically.
import { query, tool, createSdkMcpServer } from 'claude-agent-sdk-native'
import { Codex } from 'claude-agent-sdk-native/codex'
import { startScriptedModel, lastToolResult, toolResultText, startScriptedResponses, lastFunctionCallOutput } from 'claude-agent-sdk-native/testing'
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

// The same server object, now as a Codex dynamic-tool namespace.
const fake = process.env.OPENAI_API_KEY
  ? undefined
  : await startScriptedResponses({
      turns: [
        { functionCalls: [{ namespace: 'weather', name: 'get_forecast', arguments: { city: 'Oslo', days: 2 } }] },
        (req) => ({ text: `Codex found: ${lastFunctionCallOutput(req)}` }),
      ],
    })
try {
  if (fake) console.log(`\n(no OPENAI_API_KEY: Codex uses the scripted Responses API at ${fake.url})\n`)
  const thread = new Codex(fake ? { env: fake.env(), config: fake.config() } : {}).startThread({ mcpServers: { weather }, ...(fake ? { workingDirectory: fake.tempDir() } : {}) })
  const { events } = await thread.runStreamed('What is the weather in Oslo for the next two days?')
  for await (const event of events) {
    if (event.type === 'thread.started') console.log(`codex thread ${event.thread_id}`)
    if (event.type === 'item.completed' && event.item.type === 'mcp_tool_call') console.log(`codex called ${event.item.server}.${event.item.tool} ${JSON.stringify(event.item.arguments)} -> ${event.item.result?.content[0]?.text ?? event.item.error?.message}`)
    if (event.type === 'item.completed' && event.item.type === 'agent_message') console.log(`codex: ${event.item.text}`)
    if (event.type === 'turn.completed') console.log(`\ncodex turn completed, ${event.usage.input_tokens} input tokens`)
  }
  thread.close()
} catch (e) {
  if (e.code === 'CODEX_NOT_FOUND') console.log(`\n(Codex part skipped: ${e.message.split('\n')[0]})`)
  else throw e
} finally {
  await fake?.close()
}
