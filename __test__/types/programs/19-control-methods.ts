// Query control methods (streaming input): interrupt, model, thinking budget, introspection.
import { query, resolveSettings, type ModelInfo, type PermissionMode, type PreSkillShellCommandHookSpecificOutput, type SDKControlSetPermissionModeResponse, type SDKStartupFailureReason, type Settings, type SDKUserMessage, type SlashCommand } from '@anthropic-ai/claude-agent-sdk'

async function* conversation(): AsyncGenerator<SDKUserMessage, void> {
  yield { type: 'user', message: { role: 'user', content: 'Start a long analysis' }, parent_tool_use_id: null }
  await new Promise((r) => setTimeout(r, 60_000))
}

const q = query({ prompt: conversation(), options: { enableFileCheckpointing: true } })

const init = await q.initializationResult()
console.log(init.output_style, init.available_output_styles, init.account.email, init.commands.length)

const commands: SlashCommand[] = await q.supportedCommands()
const models: ModelInfo[] = await q.supportedModels()
const agents = await q.supportedAgents()
const account = await q.accountInfo()
console.log(commands.map((c) => `/${c.name} ${c.argumentHint}`), models.map((m) => m.value), agents.map((a) => a.name), account.subscriptionType)

await q.setModel('claude-opus-4-1')
await q.setModel()
await q.setMaxThinkingTokens(4096)
await q.setMaxThinkingTokens(null)
// 0.3.332: the mode now in effect, or undefined.
const now: SDKControlSetPermissionModeResponse | undefined = await q.setPermissionMode('acceptEdits')
const inEffect: PermissionMode | undefined = now?.mode
console.log(inEffect)
const refuse: PreSkillShellCommandHookSpecificOutput = { hookEventName: 'PreSkillShellCommand', permissionDecision: 'deny', permissionDecisionReason: 'no shell in skills' }
const reason: SDKStartupFailureReason = 'sideload_flags_disabled'
const mirror: Settings = { downloadsMirrorUrl: 'https://claude.fedstart.com/claude-downloads' }
const resolved = await resolveSettings({ registryPolicyFingerprint: () => ({ hklm: null, hkcu: 'v1' }) })
const differed: true | undefined = resolved.machinePolicy?.registryPolicyDifferedFromFingerprint
console.log(refuse, reason, mirror, differed)

const usage = await q.getContextUsage()
console.log(usage.totalTokens, usage.maxTokens, usage.percentage)

let firstUserMessage: string | undefined
for await (const message of q) {
  if (message.type === 'user' && message.uuid && !firstUserMessage) firstUserMessage = message.uuid
  if (message.type === 'assistant') {
    const interrupted = await q.interrupt()
    console.log('still queued', interrupted?.still_queued)
    break
  }
}

if (firstUserMessage) {
  const preview = await q.rewindFiles(firstUserMessage, { dryRun: true })
  if (preview.canRewind) console.log(preview.filesChanged, preview.insertions, preview.deletions)
}
await q.stopTask('task-1')
q.close()
