// Type tests (see __test__/types/run.mjs): the corpus of TypeScript programs in
// __test__/types/programs, written against @anthropic-ai/claude-agent-sdk, must compile under
// `tsc --strict` against the official package and, with the import rewritten, against
// claude-agent-sdk-native (whose compilation also holds the native-only programs and the
// structural equivalence checks of every shared type). Both compilations run at once. The
// negative programs must be rejected on the same lines, with the same error codes, by both.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runTypeTests } from './types/run.mjs'

let compiled
function compile() {
  compiled ??= runTypeTests()
  return compiled
}

test('the type corpus compiles against @anthropic-ai/claude-agent-sdk', { timeout: 120_000 }, async () => {
  const { official, tsc } = await compile()
  assert.ok(official.ok, `tsc (${tsc}) failed against the official package:\n${official.output}`)
})

test('the type corpus, native-only programs and equivalence checks compile against claude-agent-sdk-native', { timeout: 120_000 }, async () => {
  const { native, tsc } = await compile()
  assert.ok(native.ok, `tsc (${tsc}) failed against claude-agent-sdk-native:\n${native.output}`)
})

test('wrong usage is rejected on the same lines with the same error codes by both packages', { timeout: 120_000 }, async () => {
  const { comparison } = await compile()
  assert.ok(comparison.lines >= 50, `only ${comparison.lines} negative lines found`)
  assert.ok(comparison.ok, comparison.output)
})
