// Ours: `resourceLimits` is a typed option (issue 31); a breach is an Error with code RESOURCE_LIMIT.
import { query } from 'claude-agent-sdk-native'
import type { Options, ResourceLimits } from 'claude-agent-sdk-native'

const limits: ResourceLimits = { maxMemoryMb: 2048, maxCpuSeconds: 600 }
const options: Options = { resourceLimits: limits }
const onlyMemory: Options = { resourceLimits: { maxMemoryMb: 512 } }
// @ts-expect-error a bound is a number
const wrong: Options = { resourceLimits: { maxMemoryMb: '512' } }
// @ts-expect-error no such bound
const unknown: ResourceLimits = { maxMemory: 1 }

async function main(): Promise<void> {
  try {
    for await (const m of query({ prompt: 'hi', options })) console.log(m.type)
  } catch (e) {
    if (e instanceof Error && (e as Error & { code?: string }).code === 'RESOURCE_LIMIT') console.log(e.message)
  }
}
void [main, onlyMemory, wrong, unknown]
