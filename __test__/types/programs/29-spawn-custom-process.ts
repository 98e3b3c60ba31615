// Running Claude Code yourself (e.g. in a container): spawnClaudeCodeProcess with child_process.
import { spawn } from 'node:child_process'
import { query, type SpawnedProcess, type SpawnOptions } from '@anthropic-ai/claude-agent-sdk'

function spawnInDocker(options: SpawnOptions): SpawnedProcess {
  const child = spawn('docker', ['exec', '-i', 'sandbox', options.command, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    signal: options.signal,
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  return child
}

for await (const m of query({ prompt: 'Hello from a container', options: { spawnClaudeCodeProcess: spawnInDocker } })) void m
