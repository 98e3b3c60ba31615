// Sessions: capture the session id from the init message, then resume it (and continue).
import { query } from '@anthropic-ai/claude-agent-sdk'

let sessionId: string | undefined

for await (const message of query({ prompt: 'Help me build a web application', options: { model: 'claude-sonnet-4-5' } })) {
  if (message.type === 'system' && message.subtype === 'init') {
    sessionId = message.session_id
    console.log(`Session started with ID: ${sessionId}`, message.tools, message.mcp_servers.map((s) => s.status))
  }
}

if (sessionId) {
  for await (const message of query({
    prompt: 'Continue implementing the authentication system',
    options: { resume: sessionId, allowedTools: ['Read', 'Edit', 'Write', 'Glob', 'Grep', 'Bash'] },
  })) {
    if (message.type === 'user' && 'isReplay' in message && message.isReplay) {
      console.log('replayed', message.uuid)
    }
  }
}

// The most recent conversation of the directory.
for await (const message of query({ prompt: 'What were we doing?', options: { continue: true, cwd: process.cwd(), persistSession: true } })) {
  if (message.type === 'result') console.log(message.session_id)
}
