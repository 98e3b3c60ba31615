// Result messages: narrowing every subtype, exhaustively.
import { query, type SDKResultMessage, type SDKResultError, type SDKResultSuccess } from '@anthropic-ai/claude-agent-sdk'

function report(result: SDKResultMessage): string {
  switch (result.subtype) {
    case 'success':
      return `ok: ${result.result} (${result.usage.input_tokens} in / ${result.usage.output_tokens} out, stop ${result.stop_reason})`
    case 'error_max_turns':
      return `stopped after ${result.num_turns} turns`
    case 'error_max_budget_usd':
      return `budget exhausted at $${result.total_cost_usd}`
    case 'error_during_execution':
      return `failed: ${result.errors.join('; ')} ${result.terminal_reason ?? ''}`
    case 'error_max_structured_output_retries':
      return 'no valid structured output'
    default: {
      const unreachable: never = result
      return unreachable
    }
  }
}

function isSuccess(r: SDKResultMessage): r is SDKResultSuccess {
  return r.subtype === 'success'
}

const errors: SDKResultError[] = []
for await (const message of query({ prompt: 'Do the thing', options: { maxTurns: 2, maxBudgetUsd: 0.5 } })) {
  if (message.type !== 'result') continue
  console.log(report(message))
  if (isSuccess(message)) {
    const r: string = message.result
    const structured: unknown = message.structured_output
    void r
    void structured
  } else {
    errors.push(message)
    if (message.startup_failure_reason) console.error(message.startup_failure_reason)
  }
  console.log(message.is_error, message.duration_ms, message.duration_api_ms, Object.keys(message.modelUsage))
  for (const [model, usage] of Object.entries(message.modelUsage)) {
    console.log(model, usage.inputTokens, usage.outputTokens, usage.costUSD, usage.contextWindow)
  }
}
