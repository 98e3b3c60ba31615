// Cost tracking: per-step usage from assistant messages (deduplicated by message id), totals from the result.
import { query, type NonNullableUsage, type ModelUsage } from '@anthropic-ai/claude-agent-sdk'

const seen = new Set<string>()
let outputTokens = 0
let totals: NonNullableUsage | undefined
let byModel: Record<string, ModelUsage> = {}

for await (const message of query({ prompt: 'Analyze this codebase and run tests' })) {
  if (message.type === 'assistant' && !seen.has(message.message.id)) {
    seen.add(message.message.id)
    const usage = message.message.usage
    outputTokens += usage.output_tokens
    console.log('step', usage.input_tokens, usage.cache_read_input_tokens ?? 0, usage.cache_creation_input_tokens ?? 0)
  }
  if (message.type === 'result') {
    totals = message.usage
    byModel = message.modelUsage
    console.log(`Total cost: $${message.total_cost_usd}`)
  }
}

if (totals) {
  const cacheRead: number = totals.cache_read_input_tokens
  const cacheCreation: number = totals.cache_creation_input_tokens
  console.log(totals.input_tokens, totals.output_tokens, cacheRead, cacheCreation, totals.service_tier, outputTokens)
}
for (const [model, u] of Object.entries(byModel)) console.log(model, u.costUSD, u.webSearchRequests, u.cacheCreationInputTokens)
