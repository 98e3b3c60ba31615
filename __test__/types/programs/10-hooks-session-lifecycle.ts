// Hooks of several events: SessionStart, UserPromptSubmit, Notification, Stop, SessionEnd,
// SubagentStart/SubagentStop, PreCompact, PermissionRequest — each narrowing its own input.
import { query, type HookCallback, type Options, type SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk'

const onSessionStart: HookCallback = async (input) => {
  if (input.hook_event_name !== 'SessionStart') return {}
  const source: 'startup' | 'resume' | 'clear' | 'compact' | 'fork' = input.source
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: `Started from ${source} in ${input.cwd}` } }
}

const onPrompt: HookCallback = async (input) => {
  if (input.hook_event_name !== 'UserPromptSubmit') return {}
  if (input.prompt.includes('password')) {
    return { decision: 'block', reason: 'Prompts must not contain secrets' }
  }
  return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: `Today is ${new Date().toDateString()}` } }
}

const onNotification: HookCallback = async (input) => {
  if (input.hook_event_name === 'Notification') console.log(input.notification_type, input.title, input.message)
  return {}
}

const onStop: HookCallback = async (input): Promise<SyncHookJSONOutput> => {
  if (input.hook_event_name !== 'Stop') return {}
  if (!input.stop_hook_active && (input.background_tasks?.length ?? 0) > 0) {
    return { decision: 'block', reason: 'Wait for the background tasks' }
  }
  return { continue: true, suppressOutput: true }
}

const onSessionEnd: HookCallback = async (input) => {
  if (input.hook_event_name === 'SessionEnd') console.log('ended:', input.reason)
  return {}
}

const onSubagent: HookCallback = async (input) => {
  if (input.hook_event_name === 'SubagentStart') {
    return { hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: `You are ${input.agent_type}` } }
  }
  if (input.hook_event_name === 'SubagentStop') console.log(input.agent_id, input.agent_transcript_path)
  return {}
}

const onPreCompact: HookCallback = async (input) => {
  if (input.hook_event_name === 'PreCompact') console.log(input.trigger, input.custom_instructions ?? '(none)')
  return {}
}

const onPermissionRequest: HookCallback = async (input) => {
  if (input.hook_event_name !== 'PermissionRequest') return {}
  if (input.tool_name === 'Read') {
    return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: input.permission_suggestions } } }
  }
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'Only reads', interrupt: false } } }
}

const options: Options = {
  hooks: {
    SessionStart: [{ hooks: [onSessionStart] }],
    UserPromptSubmit: [{ hooks: [onPrompt] }],
    Notification: [{ hooks: [onNotification] }],
    Stop: [{ hooks: [onStop] }],
    SessionEnd: [{ hooks: [onSessionEnd] }],
    SubagentStart: [{ hooks: [onSubagent] }],
    SubagentStop: [{ hooks: [onSubagent] }],
    PreCompact: [{ matcher: 'auto', hooks: [onPreCompact] }],
    PermissionRequest: [{ hooks: [onPermissionRequest] }],
  },
}

for await (const message of query({ prompt: 'Hello', options })) void message
