// systemPrompt: a string, string parts, the Claude Code preset (with append), a custom object.
import { query, type Options } from '@anthropic-ai/claude-agent-sdk'

const forms: Options['systemPrompt'][] = [
  'You are a helpful coding assistant.',
  ['You are terse.', 'Answer in English.'],
  { type: 'preset', preset: 'claude_code' },
  { type: 'preset', preset: 'claude_code', append: 'Always explain your reasoning.', excludeDynamicSections: true },
  { type: 'custom', prompt: ['Part one', 'Part two'], snapshot: true },
  undefined,
]

for (const systemPrompt of forms) {
  for await (const m of query({ prompt: 'Hi', options: { systemPrompt, settingSources: ['project'] } })) {
    if (m.type === 'result') console.log(m.subtype)
  }
}
