// Sessions: fork a session (and resume at a given message) instead of appending to it.
import { query, type Options } from '@anthropic-ai/claude-agent-sdk'
import { randomUUID } from 'node:crypto'

async function fork(sessionId: string, atMessage?: string): Promise<string | undefined> {
  const options: Options = {
    resume: sessionId,
    forkSession: true,
    resumeSessionAt: atMessage,
    sessionId: randomUUID(),
  }
  let forkedId: string | undefined
  for await (const message of query({ prompt: 'Try a GraphQL API instead of REST', options })) {
    if (message.type === 'system' && message.subtype === 'init') forkedId = message.session_id
    if (message.type === 'assistant') console.log(message.uuid, message.parent_tool_use_id)
  }
  return forkedId
}

console.log(await fork('0d0a3b1e-7a5b-4a0e-9a51-1c2b3d4e5f60'))
