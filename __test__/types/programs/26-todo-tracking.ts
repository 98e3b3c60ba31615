// The documentation's todo tracking: read TodoWrite calls out of assistant messages.
import { query } from '@anthropic-ai/claude-agent-sdk'

type Todo = { content: string; status: 'pending' | 'in_progress' | 'completed'; activeForm: string }

for await (const message of query({ prompt: 'Optimize my React app performance and track progress with todos', options: { maxTurns: 15 } })) {
  if (message.type === 'assistant') {
    for (const block of message.message.content) {
      if (block.type === 'tool_use' && block.name === 'TodoWrite') {
        const todos = (block.input as { todos: Todo[] }).todos
        const completed = todos.filter((t) => t.status === 'completed').length
        console.log(`Progress: ${completed}/${todos.length}`)
        for (const todo of todos) console.log(todo.status === 'in_progress' ? todo.activeForm : todo.content)
      }
    }
  }
  if (message.type === 'user' && Array.isArray(message.message.content)) {
    for (const block of message.message.content) {
      if (block.type === 'tool_result' && block.is_error) console.error('tool failed', block.tool_use_id, block.content)
    }
    if (message.tool_use_result !== undefined) console.log('raw tool result', message.tool_use_result)
  }
}
