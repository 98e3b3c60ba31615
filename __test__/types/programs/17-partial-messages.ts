// Partial messages: includePartialMessages yields stream events; print text as it streams.
import { query, type SDKPartialAssistantMessage } from '@anthropic-ai/claude-agent-sdk'

function onEvent(message: SDKPartialAssistantMessage): void {
  const event = message.event
  switch (event.type) {
    case 'message_start':
      console.log('model', event.message.model)
      break
    case 'content_block_start':
      if (event.content_block.type === 'tool_use') console.log('\n[tool]', event.content_block.name)
      break
    case 'content_block_delta':
      if (event.delta.type === 'text_delta') process.stdout.write(event.delta.text)
      else if (event.delta.type === 'input_json_delta') process.stdout.write(event.delta.partial_json)
      else if (event.delta.type === 'thinking_delta') process.stdout.write(event.delta.thinking)
      break
    case 'message_delta':
      console.log('\nstop:', event.delta.stop_reason, 'output tokens:', event.usage.output_tokens)
      break
    case 'content_block_stop':
    case 'message_stop':
      break
  }
}

for await (const message of query({
  prompt: 'Write a haiku about TypeScript',
  options: { includePartialMessages: true },
})) {
  if (message.type === 'stream_event') {
    onEvent(message)
    if (message.parent_tool_use_id === null && message.ttft_ms !== undefined) console.log('ttft', message.ttft_ms)
  }
}
