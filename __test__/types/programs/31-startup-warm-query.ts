// startup(): pre-warm the Claude Code process, then send the first prompt without start-up delay.
import { query, startup, type Options, type WarmQuery } from '@anthropic-ai/claude-agent-sdk'

const options: Options = { model: 'claude-sonnet-4-5', allowedTools: ['Read'] }

const warm: WarmQuery = await startup({ options, initializeTimeoutMs: 30_000 })
const q = warm.query('Summarize README.md')
for await (const message of q) {
  if (message.type === 'result' && message.subtype === 'success') console.log(message.result)
}

// A warm process that is not needed after all.
const spare = await startup()
spare.close()

// Disposed of automatically at the end of the scope.
{
  await using unused = await startup({ options })
  void unused
}

// Without pre-warming.
for await (const m of query({ prompt: 'Hi', options })) void m
