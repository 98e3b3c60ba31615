// Quickstart: one prompt, print what the agent says and the final result.
import { query } from '@anthropic-ai/claude-agent-sdk'

for await (const message of query({
  prompt: 'What files are in this directory?',
  options: { allowedTools: ['Bash', 'Glob'], maxTurns: 5 },
})) {
  if (message.type === 'assistant') {
    for (const block of message.message.content) {
      if (block.type === 'text') console.log(block.text)
      else if (block.type === 'tool_use') console.log(`-> ${block.name}`, JSON.stringify(block.input))
    }
  } else if (message.type === 'result') {
    if (message.subtype === 'success') {
      console.log(message.result)
      console.log(`cost $${message.total_cost_usd.toFixed(4)} in ${message.num_turns} turns`)
    } else {
      console.error(message.subtype, message.errors.join('\n'))
    }
  }
}
