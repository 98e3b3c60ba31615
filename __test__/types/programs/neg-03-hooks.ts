// Negative: hooks returning wrong shapes, unknown events, unnarrowed inputs.
import { query, type HookCallback, type HookCallbackMatcher, type Options } from '@anthropic-ai/claude-agent-sdk'

const okHook: HookCallback = async () => ({ continue: true })

// An unknown decision.
// @ts-expect-error
const badDecision: HookCallback = async () => ({ decision: 'maybe' })

// An unknown PreToolUse permission decision.
// @ts-expect-error
const badPermission: HookCallback = async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'approve' } })

// hookSpecificOutput of an unknown event.
// @ts-expect-error
const badEvent: HookCallback = async () => ({ hookSpecificOutput: { hookEventName: 'OnToolUse' } })

// WorktreeCreate output requires the worktree path.
// @ts-expect-error
const noPath: HookCallback = async () => ({ hookSpecificOutput: { hookEventName: 'WorktreeCreate' } })

// A PermissionRequest decision without a behavior.
// @ts-expect-error
const noBehavior: HookCallback = async () => ({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { message: 'no' } } })

// `continue` is a boolean.
// @ts-expect-error
const badContinue: HookCallback = async () => ({ continue: 'yes' })

// Async output must say `async: true`.
// @ts-expect-error
const notAsync: HookCallback = async () => ({ async: false })

// A hook must return a Promise.
// @ts-expect-error
const syncHook: HookCallback = () => ({})

// tool_name exists only on tool events: narrow first.
// @ts-expect-error
const unnarrowed: HookCallback = async (input) => ({ reason: input.tool_name })

// An unknown hook event.
// @ts-expect-error
const unknownEvent: Options = { hooks: { OnToolUse: [{ hooks: [okHook] }] } }

// `hooks` of a matcher is an array.
// @ts-expect-error
const notArray: HookCallbackMatcher = { matcher: 'Bash', hooks: okHook }

// The timeout is a number of seconds.
// @ts-expect-error
const badTimeout: HookCallbackMatcher = { hooks: [okHook], timeout: '30s' }

// The SessionStart source is one of a few values.
const sessionStart: HookCallback = async (input) => {
  // @ts-expect-error
  if (input.hook_event_name === 'SessionStart' && input.source === 'boot') return {}
  return {}
}

for await (const m of query({ prompt: 'x', options: { hooks: { PreToolUse: [{ hooks: [okHook, sessionStart] }] } } })) void m
void [badDecision, badPermission, badEvent, noPath, noBehavior, badContinue, notAsync, syncHook, unnarrowed, unknownEvent, notArray, badTimeout]
