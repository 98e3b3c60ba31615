// Negative: misreading messages, wrong user messages, misusing the Query.
import { query, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'

declare const message: SDKMessage

if (message.type === 'result') {
  // `result` exists only on success: narrow on subtype first.
  // @ts-expect-error
  console.log(message.result)
  // There is no such subtype.
  // @ts-expect-error
  if (message.subtype === 'bogus') console.log('never')
  if (message.subtype === 'success') console.log(message.result)
}

if (message.type === 'assistant') {
  // A content block may not be text: narrow on its type first.
  // @ts-expect-error
  console.log(message.message.content[0]?.text)
}

if (message.type === 'system' && message.subtype === 'init') {
  // The session id is a string.
  // @ts-expect-error
  const id: number = message.session_id
  void id
}

// There is no such message type.
// @ts-expect-error
if (message.type === 'error') console.log('never')

// A user message needs parent_tool_use_id.
// @ts-expect-error
const noParent: SDKUserMessage = { type: 'user', message: { role: 'user', content: 'hi' } }

// There is no 'tool' role.
// @ts-expect-error
const systemRole: SDKUserMessage = { type: 'user', message: { role: 'tool', content: 'hi' }, parent_tool_use_id: null }

// An unknown content block type.
// @ts-expect-error
const badBlock: SDKUserMessage = { type: 'user', message: { role: 'user', content: [{ type: 'txt', text: 'hi' }] }, parent_tool_use_id: null }

async function* wrongYield() {
  yield { type: 'user' as const, message: { role: 'user' as const, content: 'hi' } }
}
// The generator yields messages without parent_tool_use_id.
// @ts-expect-error
query({ prompt: wrongYield() })

const q = query({ prompt: 'x' })
// There is no such control method.
// @ts-expect-error
await q.restart()
// interrupt() takes no argument.
// @ts-expect-error
await q.interrupt('now')
// setModel() takes a model name.
// @ts-expect-error
await q.setModel(42)
// A Query is an async iterable, not a sync one.
// @ts-expect-error
for (const m of q) void m
// close() returns nothing to await on.
// @ts-expect-error
const closed: Promise<void> = q.close()

void [noParent, systemRole, badBlock, closed]
