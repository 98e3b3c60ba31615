// Cancellation: an AbortController stops the query; the iteration throws an AbortError.
import { AbortError, query } from '@anthropic-ai/claude-agent-sdk'

const abortController = new AbortController()
setTimeout(() => abortController.abort(), 30_000)

try {
  for await (const message of query({ prompt: 'Run the full test suite', options: { abortController } })) {
    if (message.type === 'assistant') console.log(message.message.id)
  }
} catch (error) {
  if (error instanceof AbortError) console.log('aborted:', error.message)
  else throw error
}

const q = query({ prompt: 'Something long' })
const timer = setTimeout(() => q.close(), 1000)
for await (const m of q) void m
clearTimeout(timer)

// Breaking out of the loop ends the query too (the generator's return()).
for await (const m of query({ prompt: 'Hi' })) {
  if (m.type === 'system') break
}
const err: Error = new AbortError('custom')
void err
