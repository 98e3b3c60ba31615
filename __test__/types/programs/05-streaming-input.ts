// Streaming input: an async generator of SDKUserMessage, with text and image content blocks,
// and more messages pushed later through streamInput().
import { query, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk'
import { readFile } from 'node:fs/promises'

async function* generateMessages(): AsyncGenerator<SDKUserMessage> {
  yield {
    type: 'user',
    message: {
      role: 'user',
      content: 'Analyze this codebase for security issues',
    },
    parent_tool_use_id: null,
  }

  await new Promise((resolve) => setTimeout(resolve, 2000))

  yield {
    type: 'user',
    message: {
      role: 'user',
      content: [
        { type: 'text', text: 'Review this architecture diagram' },
        {
          type: 'image',
          source: {
            type: 'base64',
            media_type: 'image/png',
            data: (await readFile('diagram.png')).toString('base64'),
          },
        },
      ],
    },
    parent_tool_use_id: null,
    priority: 'next',
  }
}

const q = query({
  prompt: generateMessages(),
  options: { maxTurns: 10, allowedTools: ['Read', 'Grep'] },
})

async function* followUps(): AsyncIterable<SDKUserMessage> {
  yield { type: 'user', message: { role: 'user', content: 'Now summarize the findings.' }, parent_tool_use_id: null, session_id: '' }
}

let asked = false
for await (const message of q) {
  if (message.type === 'result') {
    console.log(message.subtype === 'success' ? message.result : message.errors)
    if (!asked) {
      asked = true
      await q.streamInput(followUps())
    } else {
      q.close()
    }
  }
}
