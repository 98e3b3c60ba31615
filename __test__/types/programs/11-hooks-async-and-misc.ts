// Hooks: async (fire-and-forget) output, the remaining events, and matchers built by a helper.
import type { AsyncHookJSONOutput, HookCallback, HookCallbackMatcher, HookEvent, HookInput } from '@anthropic-ai/claude-agent-sdk'
import { query } from '@anthropic-ai/claude-agent-sdk'

const background: HookCallback = async (): Promise<AsyncHookJSONOutput> => ({ async: true, asyncTimeout: 60_000 })

function describe(input: HookInput): string {
  switch (input.hook_event_name) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure':
    case 'PermissionDenied':
    case 'PermissionRequest':
      return `${input.hook_event_name} ${input.tool_name}`
    case 'PostToolBatch':
      return `batch of ${input.tool_calls.length}: ${input.tool_calls.map((c) => c.tool_name).join(',')}`
    case 'UserPromptExpansion':
      return `${input.expansion_type} ${input.command_name} ${input.command_args}`
    case 'StopFailure':
      return `stop failure ${input.error}`
    case 'PostCompact':
      return input.compact_summary
    case 'PreModelSwitch':
    case 'PostModelSwitch':
      return `${input.from_model} -> ${input.to_model} (${input.source}, ${input.cache_ttl})`
    case 'Setup':
      return input.trigger
    case 'TeammateIdle':
      return `${input.teammate_name}@${input.team_name}`
    case 'TaskCreated':
    case 'TaskCompleted':
      return `${input.task_id} ${input.task_subject}`
    case 'Elicitation':
      return `${input.mcp_server_name}: ${input.message}`
    case 'ElicitationResult':
      return `${input.mcp_server_name}: ${input.action}`
    case 'ConfigChange':
      return `${input.source} ${input.file_path ?? ''}`
    case 'InstructionsLoaded':
      return `${input.memory_type} ${input.load_reason} ${input.file_path}`
    case 'WorktreeCreate':
      return input.name
    case 'WorktreeRemove':
      return input.worktree_path
    case 'CwdChanged':
      return `${input.old_cwd} -> ${input.new_cwd}`
    case 'FileChanged':
      return `${input.event} ${input.file_path}`
    case 'DirectoryAdded':
      return input.directory
    case 'MessageDisplay':
      return input.delta
    case 'PreSkillShellCommand':
      return `${input.tool_name}: ${input.tool_input.command} (${input.command_name}, ${input.invoked_by}, ${input.command_source ?? ''})`
    case 'Notification':
    case 'UserPromptSubmit':
    case 'SessionStart':
    case 'SessionEnd':
    case 'Stop':
    case 'SubagentStart':
    case 'SubagentStop':
    case 'PreCompact':
      return input.hook_event_name
    default: {
      const unreachable: never = input
      return unreachable
    }
  }
}

const logAll: HookCallback = async (input) => {
  console.log(describe(input), input.session_id, input.transcript_path, input.agent_id ?? '')
  return {}
}

const worktree: HookCallback = async (input) =>
  input.hook_event_name === 'WorktreeCreate'
    ? { hookSpecificOutput: { hookEventName: 'WorktreeCreate', worktreePath: `/tmp/${input.name}` } }
    : {}

function everywhere(...events: HookEvent[]): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  return Object.fromEntries(events.map((e) => [e, [{ hooks: [logAll, background] }]]))
}

for await (const m of query({
  prompt: 'Go',
  options: { hooks: { ...everywhere('PreToolUse', 'PostToolBatch', 'FileChanged'), WorktreeCreate: [{ hooks: [worktree] }] } },
})) void m
