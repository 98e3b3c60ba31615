// Negative: wrong options are rejected.
import { query, type AgentDefinition, type McpServerConfig, type Options } from '@anthropic-ai/claude-agent-sdk'

const ok: Options = { maxTurns: 3, systemPrompt: { type: 'preset', preset: 'claude_code' } }

// An unknown option (a typo of maxTurns).
// @ts-expect-error
const typo: Options = { maxTurn: 3 }

// An unknown preset.
// @ts-expect-error
const preset: Options = { systemPrompt: { type: 'preset', preset: 'default' } }

// A stdio server needs a command.
// @ts-expect-error
const noCommand: McpServerConfig = { type: 'stdio', args: ['server.js'] }

// An SSE server needs a url.
// @ts-expect-error
const noUrl: McpServerConfig = { type: 'sse', headers: {} }

// An unknown transport.
// @ts-expect-error
const websocket: McpServerConfig = { type: 'ws', url: 'ws://localhost' }

// The output format is a JSON Schema format.
// @ts-expect-error
const json: Options = { outputFormat: { type: 'json', schema: {} } }

// An agent needs a prompt.
// @ts-expect-error
const agent: AgentDefinition = { description: 'Reviews code', tools: ['Read'] }

// An unknown setting source.
// @ts-expect-error
const sources: Options = { settingSources: ['global'] }

// An unknown thinking configuration.
// @ts-expect-error
const thinking: Options = { thinking: { type: 'on' } }

// An unknown effort level.
// @ts-expect-error
const effort: Options = { effort: 'extreme' }

// abortController is an AbortController, not a signal.
// @ts-expect-error
const signal: Options = { abortController: AbortSignal.timeout(1000) }

// Environment values are strings.
// @ts-expect-error
const env: Options = { env: { PORT: 3000 } }

// stderr receives strings.
// @ts-expect-error
const stderr: Options = { stderr: (data: Buffer) => void data.byteLength }

// maxTurns is a number.
// @ts-expect-error
const turns: Options = { maxTurns: '3' }

// The prompt is a string or an async iterable of user messages.
// @ts-expect-error
query({ prompt: 42 })

// The prompt is required.
// @ts-expect-error
query({ options: ok })

void [typo, preset, noCommand, noUrl, websocket, json, agent, sources, thinking, effort, signal, env, stderr, turns]
