// prewarm() and a claim, the settings and model helpers, the constants.
import {
  prewarm, resolveSettings, filterEscalatingDefaultMode, matchDeniedModels, HOOK_EVENTS, BUILTIN_TOOL_NAMES,
  LEGACY_TOOL_NAME_ALIASES, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, USAGE_LIMIT_ERROR_PREFIXES,
  type ClaimOptions, type SpareProcess, type ResolvedSettings, type DeniedModelsMatch, type HookEvent,
} from '@anthropic-ai/claude-agent-sdk'

export async function main(folder: string): Promise<string[]> {
  const spare: SpareProcess = await prewarm({ options: { allowedTools: ['Read'] }, initializeTimeoutMs: 30_000 })
  const claim: ClaimOptions = { cwd: folder, model: 'claude-sonnet-4-5', permissionMode: 'acceptEdits', settings: { effortLevel: 'high' } }
  const q = spare.claim({ prompt: 'hello', options: claim })
  spare.claimed.then((c) => c.sessionId.length + (c.parkedMs ?? 0), (e: Error) => e.message.startsWith('option_not_applied'))
  const seen: string[] = []
  for await (const m of q) seen.push(m.type)
  await spare.exited
  spare.close()

  const resolved: ResolvedSettings = await resolveSettings({ cwd: folder, settingSources: ['user', 'project'] })
  const mode = filterEscalatingDefaultMode(resolved).permissions?.defaultMode
  const where = resolved.provenance.permissions?.source
  const match: DeniedModelsMatch = await matchDeniedModels(['claude-opus-4-5'], ['opus'])
  const events: readonly HookEvent[] = HOOK_EVENTS
  const tool: (typeof BUILTIN_TOOL_NAMES)[number] = 'Bash'
  const alias: string | undefined = LEGACY_TOOL_NAME_ALIASES['Task']
  const boundary: '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__' = SYSTEM_PROMPT_DYNAMIC_BOUNDARY
  return [...seen, String(mode), String(where), String(match.denied[0]), events[0], tool, String(alias), boundary, USAGE_LIMIT_ERROR_PREFIXES[0]]
}
