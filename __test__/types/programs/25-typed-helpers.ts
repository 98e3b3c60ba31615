// App code built on the exported types: option factories, hook and permission helpers, tool lists.
import {
  createSdkMcpServer,
  query,
  tool,
  type CanUseTool,
  type HookCallbackMatcher,
  type HookEvent,
  type McpSdkServerConfigWithInstance,
  type Options,
  type PermissionResult,
  type Query,
  type SDKMessage,
  type SdkMcpToolDefinition,
  type SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'

export function baseOptions(overrides: Partial<Options> = {}): Options {
  return { maxTurns: 8, permissionMode: 'default', settingSources: [], ...overrides }
}

export const deny = (message: string): PermissionResult => ({ behavior: 'deny', message })
export const allow = (input: Record<string, unknown>): PermissionResult => ({ behavior: 'allow', updatedInput: input })

export const readOnly: CanUseTool = async (toolName, input) =>
  ['Read', 'Grep', 'Glob'].includes(toolName) ? allow(input) : deny(`${toolName} is not read-only`)

export function hooksFor(events: HookEvent[], matcher: HookCallbackMatcher): Options['hooks'] {
  const hooks: NonNullable<Options['hooks']> = {}
  for (const event of events) hooks[event] = [matcher]
  return hooks
}

const tools: SdkMcpToolDefinition<any>[] = [
  tool('add', 'Adds', { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] })),
  tool('echo', 'Echoes', { text: z.string() }, async ({ text }) => ({ content: [{ type: 'text', text }] })),
]
export const calc: McpSdkServerConfigWithInstance = createSdkMcpServer({ name: 'calc', tools })

export async function run(prompt: string | AsyncIterable<SDKUserMessage>, options?: Options): Promise<SDKMessage[]> {
  const q: Query = query({ prompt, options })
  const all: SDKMessage[] = []
  for await (const m of q) all.push(m)
  return all
}

export async function lastText(q: AsyncGenerator<SDKMessage, void>): Promise<string> {
  let text = ''
  for await (const m of q) if (m.type === 'result' && m.subtype === 'success') text = m.result
  return text
}

await run('hi', baseOptions({ canUseTool: readOnly, mcpServers: { calc }, hooks: hooksFor(['PreToolUse', 'Stop'], { hooks: [async () => ({})] }) }))
await lastText(query({ prompt: 'hi' }))
