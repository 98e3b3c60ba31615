// The ./core and ./sdk-tools subpaths, as an app imports them.
import { query, prewarm, HOOK_EVENTS, resolveSettings } from 'claude-agent-sdk-native/core'
import type { BashInput, FileEditInput, ToolInputSchemas } from 'claude-agent-sdk-native/sdk-tools'

export function useCore(): unknown[] {
  const bash: BashInput = { command: 'ls' }
  const edit: FileEditInput = { file_path: '/a', old_string: 'x', new_string: 'y' }
  const any: ToolInputSchemas = bash
  return [query, prewarm, HOOK_EVENTS, resolveSettings, edit, any]
}
