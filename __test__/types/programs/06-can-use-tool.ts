// Permissions: canUseTool allowing (with a rewritten input and "always allow" suggestions),
// denying, and interrupting.
import { query, type CanUseTool, type PermissionResult, type PermissionUpdate } from '@anthropic-ai/claude-agent-sdk'

const canUseTool: CanUseTool = async (toolName, input, { signal, suggestions, toolUseID, blockedPath, decisionReason, agentID }) => {
  if (signal.aborted) return { behavior: 'deny', message: 'aborted', interrupt: true }
  console.log(`tool ${toolName} (${toolUseID}) from ${agentID ?? 'main'}: ${decisionReason ?? ''} ${blockedPath ?? ''}`)

  if (toolName === 'Bash') {
    const command = String(input.command ?? '')
    if (command.includes('rm -rf')) {
      return { behavior: 'deny', message: 'Destructive commands are not allowed', interrupt: true }
    }
    return {
      behavior: 'allow',
      updatedInput: { ...input, command: `${command} --dry-run` },
      updatedPermissions: suggestions ?? [],
    }
  }

  if (toolName === 'Write' && typeof input.file_path === 'string' && input.file_path.startsWith('/etc')) {
    return { behavior: 'deny', message: 'Not under /etc' }
  }

  const rule: PermissionUpdate = {
    type: 'addRules',
    rules: [{ toolName, ruleContent: undefined }],
    behavior: 'allow',
    destination: 'session',
  }
  const result: PermissionResult = { behavior: 'allow', updatedInput: input, updatedPermissions: [rule] }
  return result
}

const allowAll: CanUseTool = async (_toolName, input) => ({ behavior: 'allow', updatedInput: input })

for await (const message of query({
  prompt: 'Clean up the build directory',
  options: { canUseTool, permissionMode: 'default', disallowedTools: ['WebFetch'] },
})) {
  if (message.type === 'result') {
    for (const denial of message.permission_denials) {
      console.log(`denied ${denial.tool_name}`, denial.tool_input)
    }
  }
}
void allowAll
