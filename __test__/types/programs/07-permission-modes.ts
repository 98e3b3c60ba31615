// Permission modes: every mode as an option, and switching mode mid-session.
import { query, type PermissionMode, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'

const modes: PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk', 'auto']

async function* prompts(): AsyncGenerator<SDKUserMessage> {
  yield { type: 'user', message: { role: 'user', content: 'Plan the refactor first' }, parent_tool_use_id: null }
}

const q = query({
  prompt: prompts(),
  options: { permissionMode: 'plan', allowDangerouslySkipPermissions: true, planModeInstructions: 'Keep it short' },
})

for await (const message of q) {
  if (message.type === 'system' && message.subtype === 'init') {
    const current: PermissionMode = message.permissionMode
    console.log('mode', current, 'available', modes.join(','))
    await q.setPermissionMode('acceptEdits')
  }
  if (message.type === 'system' && message.subtype === 'status' && message.permissionMode) {
    console.log('mode changed to', message.permissionMode)
  }
}
