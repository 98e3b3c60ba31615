// Hooks: PostToolUse / PostToolUseFailure audit logging, narrowing the HookInput union.
import { appendFile } from 'node:fs/promises'
import { query, type HookCallback, type HookCallbackMatcher, type HookEvent, type HookInput, type HookJSONOutput } from '@anthropic-ai/claude-agent-sdk'

const auditLogger: HookCallback = async (input: HookInput): Promise<HookJSONOutput> => {
  switch (input.hook_event_name) {
    case 'PostToolUse':
      await appendFile('./audit.log', `${new Date().toISOString()} ${input.tool_name} ${input.tool_use_id} ${JSON.stringify(input.tool_response)} ${input.duration_ms ?? '-'}\n`)
      return {
        hookSpecificOutput: {
          hookEventName: 'PostToolUse',
          additionalContext: 'Logged',
          updatedMCPToolOutput: input.mcp_server ? { redacted: true } : undefined,
        },
      }
    case 'PostToolUseFailure':
      await appendFile('./audit.log', `FAILED ${input.tool_name}: ${input.error} interrupt=${input.is_interrupt}\n`)
      return { systemMessage: `Tool ${input.tool_name} failed` }
    default:
      return {}
  }
}

const hooks: Partial<Record<HookEvent, HookCallbackMatcher[]>> = {
  PostToolUse: [{ hooks: [auditLogger] }],
  PostToolUseFailure: [{ matcher: '.*', hooks: [auditLogger] }],
}

for await (const message of query({ prompt: 'Refactor utils.ts', options: { hooks, includeHookEvents: true } })) {
  if (message.type === 'system' && message.subtype === 'hook_response') {
    console.log(message.hook_name, message.outcome, message.exit_code)
  }
}
