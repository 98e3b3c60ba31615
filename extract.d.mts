/**
 * For apps built with `bun build --compile`: copies a file embedded in the executable (a path
 * under Bun's `/$bunfs/`, or `~BUN` on Windows) to a per-user temp directory so that it can be
 * spawned, and returns that path; any other path is returned unchanged.
 *
 * @example
 * import cli from '@anthropic-ai/claude-code-linux-x64/claude' with { type: 'file' }
 * import { extractFromBunfs } from 'claude-agent-sdk-native/extract'
 * query({ prompt, options: { pathToClaudeCodeExecutable: extractFromBunfs(cli) } })
 */
export function extractFromBunfs(embeddedPath: string): string
