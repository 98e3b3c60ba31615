#!/usr/bin/env node
// Soak for issue 14.4: one 200 MB message of emoji (below the 256 MiB line limit; 600 MB as
// Latin-1 escapes, past V8's string length) and the messages around it must arrive. Prints the
// time and the host's peak RSS; exit code 1 if anything is lost.
//
//   npm run soak:huge            # node scripts/soak-huge.mjs [--mb 200]
import fs from 'node:fs'
import { parseArgs } from 'node:util'
import { query } from '../index.mjs'
import { mockCliPath, mockEnv, tempScenario } from '../__test__/mock-cli/index.mjs'

const { values } = parseArgs({ options: { mb: { type: 'string', default: '200' } } })
const EMOJI = Math.floor((Number(values.mb) * 1e6) / 4)
const scenario = tempScenario(`
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    cli.assistantText('before')
    cli.send({ type: 'huge', text: '😀'.repeat(${EMOJI}) })
    cli.assistantText('after')
    cli.result()
  }`)
const peak = () => Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024
const started = Date.now()
const seen = []
let ok = true
try {
  for await (const m of query({ prompt: 'go', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario }) } })) {
    if (m.type === 'huge') {
      seen.push(`huge(${m.text.length} UTF-16 units)`)
      ok &&= m.text.length === EMOJI * 2
    } else seen.push(m.type === 'assistant' ? m.message.content[0].text : m.type)
  }
} catch (e) {
  seen.push(`threw: ${e.message}`)
  ok = false
}
ok &&= seen.join(',') === `before,huge(${EMOJI * 2} UTF-16 units),after,result`
console.log(`${values.mb} MB of emoji in one message: ${seen.join(', ')}`)
console.log(`${((Date.now() - started) / 1000).toFixed(1)} s, peak RSS ${(peak() / 2 ** 20).toFixed(0)} MiB: ${ok ? 'ok' : 'FAILED'}`)
process.exit(ok ? 0 : 1)
