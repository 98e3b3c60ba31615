// Runs the official TypeScript SDK (the repository's devDependency) on the mock CLI with the
// options given as JSON, and prints the result text: what the mock CLI saw (its argv, the
// initialize request, its CLAUDE_CODE_* environment, the first user message, the control
// requests). The Rust SDK's wire tests compare their own run with this one.
//   node official-wire.mjs <mock-cli.mjs> <scenario.mjs> <options JSON> <controls JSON>
import path from 'node:path'
import { pathToFileURL, fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const { query } = await import(pathToFileURL(path.join(root, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs')).href)
const [cli, scenario, optionsJson, controlsJson] = process.argv.slice(2)
const q = query({ prompt: 'go', options: { ...JSON.parse(optionsJson), pathToClaudeCodeExecutable: cli, env: { ...process.env, MOCK_CLI_SCENARIO: scenario } } })
// Control calls, each `[method, ...args]`, made once the CLI has answered initialize; their
// answers are printed after the result.
const answers = []
const controls = (async () => {
  await q.initializationResult()
  for (const [method, ...args] of JSON.parse(controlsJson ?? '[]')) answers.push(await q[method](...args))
})()
let result
for await (const m of q) {
  if (m.type === 'result') result = m.result
  if (m.type === 'assistant') await controls
}
process.stdout.write(JSON.stringify({ seen: JSON.parse(result), answers }))
