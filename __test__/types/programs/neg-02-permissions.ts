// Negative: wrong permission modes and permission results are rejected by both packages.
import { query, type CanUseTool, type PermissionResult, type PermissionUpdate } from '@anthropic-ai/claude-agent-sdk'

const okCallback: CanUseTool = async (_toolName, input) => ({ behavior: 'allow', updatedInput: input })
void okCallback

// An unknown permission mode.
// @ts-expect-error
query({ prompt: 'x', options: { permissionMode: 'yolo' } })

// The same through setPermissionMode().
// @ts-expect-error
await query({ prompt: 'x' }).setPermissionMode('yolo')

// A permission result without `behavior`.
// @ts-expect-error
const noBehavior: CanUseTool = async (_toolName, input) => ({ updatedInput: input })

// A deny without a message.
// @ts-expect-error
const denyWithoutMessage: PermissionResult = { behavior: 'deny' }

// An unknown behavior.
// @ts-expect-error
const maybe: PermissionResult = { behavior: 'maybe', message: 'hmm' }

// `updatedInput` is an object.
// @ts-expect-error
const stringInput: PermissionResult = { behavior: 'allow', updatedInput: 'rm -rf /' }

// canUseTool must return a Promise.
// @ts-expect-error
const sync: CanUseTool = (_toolName, input) => ({ behavior: 'allow', updatedInput: input })

// The options object has no `toolUseId` (it is `toolUseID`).
// @ts-expect-error
const wrongField: CanUseTool = async (_toolName, _input, { toolUseId }) => ({ behavior: 'deny', message: String(toolUseId) })

// An unknown destination of a permission update.
// @ts-expect-error
const badDestination: PermissionUpdate = { type: 'addRules', rules: [{ toolName: 'Bash' }], behavior: 'allow', destination: 'global' }

// `setMode` takes a mode, not rules.
// @ts-expect-error
const badSetMode: PermissionUpdate = { type: 'setMode', rules: [], destination: 'session' }

void [noBehavior, denyWithoutMessage, maybe, stringInput, sync, wrongField, badDestination, badSetMode]
