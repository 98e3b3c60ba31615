// The two pinned real Claude Code CLIs the end-to-end tests run against: 2.1.332 takes the
// in-process servers' manifests from `initialize`; 2.1.197 does the older mcp_message handshake.
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export const CLIS = {
  '2.1.332': path.join(root, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe'),
  '2.1.197': path.join(root, 'node_modules/claude-code-2-1-197/bin/claude.exe'),
}
