// Hooks: a PreToolUse hook that blocks writes to .env files (the documentation's example).
import { query, type HookCallback, type PreToolUseHookInput } from '@anthropic-ai/claude-agent-sdk'

const protectEnvFiles: HookCallback = async (input, toolUseID, { signal }) => {
  const preInput = input as PreToolUseHookInput
  const toolInput = preInput.tool_input as Record<string, unknown>
  const filePath = toolInput?.file_path as string
  const fileName = filePath?.split('/').pop()
  if (signal.aborted) return {}
  if (fileName === '.env') {
    return {
      hookSpecificOutput: {
        hookEventName: preInput.hook_event_name,
        permissionDecision: 'deny',
        permissionDecisionReason: `Cannot modify .env files (${toolUseID})`,
      },
    }
  }
  return {}
}

const rewriteInput: HookCallback = async (input) => {
  if (input.hook_event_name !== 'PreToolUse') return {}
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      updatedInput: { ...(input.tool_input as object), sandboxed: true },
      additionalContext: 'Input was rewritten by a hook',
    },
  }
}

for await (const message of query({
  prompt: 'Update the database configuration',
  options: {
    hooks: {
      PreToolUse: [
        { matcher: 'Write|Edit', hooks: [protectEnvFiles], timeout: 30 },
        { hooks: [rewriteInput], onFailure: 'block' },
      ],
    },
  },
})) {
  console.log(message.type)
}
