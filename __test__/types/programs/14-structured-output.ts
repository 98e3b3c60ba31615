// Structured output: outputFormat with a JSON Schema (here from Zod 4), read from structured_output.
import { query } from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'

const Weather = z.object({
  city: z.string(),
  temperature: z.number(),
  conditions: z.enum(['sunny', 'cloudy', 'rain']),
})
type Weather = z.infer<typeof Weather>

for await (const message of query({
  prompt: 'What is the weather in Paris?',
  options: {
    outputFormat: { type: 'json_schema', schema: z.toJSONSchema(Weather) },
  },
})) {
  if (message.type !== 'result') continue
  switch (message.subtype) {
    case 'success': {
      const weather: Weather = Weather.parse(message.structured_output)
      console.log(weather.city, weather.temperature)
      break
    }
    case 'error_max_structured_output_retries':
      console.error('The agent could not produce valid output', message.errors)
      break
    default:
      console.error(message.subtype)
  }
}

// A hand-written schema.
const schema = {
  type: 'object',
  properties: { todos: { type: 'array', items: { type: 'string' } } },
  required: ['todos'],
  additionalProperties: false,
}
for await (const m of query({ prompt: 'List the TODOs', options: { outputFormat: { type: 'json_schema', schema } } })) {
  if (m.type === 'result' && m.subtype === 'success' && m.structured_output) {
    const out = m.structured_output as { todos: string[] }
    console.log(out.todos.length)
  }
}
