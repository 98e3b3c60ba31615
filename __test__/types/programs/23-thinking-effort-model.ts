// Model behaviour: thinking configurations, effort, budgets and fallbacks.
import { query, type EffortLevel, type ThinkingConfig } from '@anthropic-ai/claude-agent-sdk'

const thinking: ThinkingConfig[] = [
  { type: 'adaptive' },
  { type: 'adaptive', display: 'summarized' },
  { type: 'enabled', budgetTokens: 10_000 },
  { type: 'disabled' },
]
const efforts: EffortLevel[] = ['low', 'medium', 'high', 'xhigh', 'max']

for await (const m of query({
  prompt: 'Think hard about this proof',
  options: {
    model: 'claude-opus-4-1',
    fallbackModel: 'claude-sonnet-4-5',
    thinking: thinking[2],
    effort: efforts[2],
    maxThinkingTokens: 8000,
    maxTurns: 12,
    maxBudgetUsd: 2,
    taskBudget: { total: 100_000 },
    includePartialMessages: false,
  },
})) {
  if (m.type === 'assistant') {
    for (const block of m.message.content) {
      if (block.type === 'thinking') console.log('[thinking]', block.thinking.length, block.signature.length)
      if (block.type === 'redacted_thinking') console.log('[redacted]')
    }
    console.log(m.message.usage.input_tokens, m.message.stop_reason, m.message.model)
  }
}
