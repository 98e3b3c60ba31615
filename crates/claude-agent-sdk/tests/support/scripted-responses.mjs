// Starts the project's scripted fake OpenAI Responses API (testing/responses.js) for the Rust
// SDK's Codex tests, and prints one JSON line: {env, cwd} (env's CODEX_HOME holds the provider
// config). The script comes as JSON in argv[2]: {turns: [...]}, where besides the usual specs a
// turn may be {"echoFunctionOutput": "prefix"} -> text: prefix + the last function call's output.
// At the end of stdin the fake closes and this exits.
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const { startScriptedResponses, lastFunctionCallOutput } = createRequire(import.meta.url)(path.join(root, 'testing/index.js'))

const turn = (spec) => (spec && typeof spec.echoFunctionOutput === 'string' ? (req) => ({ text: spec.echoFunctionOutput + lastFunctionCallOutput(req) }) : spec)
const script = JSON.parse(process.argv[2] || '{}')
const model = await startScriptedResponses({ turns: (script.turns || []).map(turn) })
process.stdout.write(JSON.stringify({ env: model.env(), cwd: model.tempDir() }) + '\n')
process.stdin.resume()
process.stdin.on('end', async () => {
  await model.close()
  process.exit(0)
})
