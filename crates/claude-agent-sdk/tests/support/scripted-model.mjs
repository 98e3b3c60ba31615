// Starts the project's scripted fake Messages API (testing/index.js) for the Rust SDK's
// integration tests, and prints one JSON line: {url, env, cwd}. The script comes as JSON in
// argv[2]: {turns: [...], fallback?, delayMs?}, where besides the usual ResponseSpecs a turn may be
//   {"echoToolResult": "prefix"}  -> text: prefix + the text of the last tool_result
//   {"echoUserText": "prefix"}    -> text: prefix + the latest user text
// Then each line on stdin is a command: "requests" prints the HTTP requests seen so far
// ({url, kind, userAgent}) as one JSON line. At the end of stdin the model closes and this exits.
import { createRequire } from 'node:module'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const { startScriptedModel, lastToolResult, toolResultText, lastUserText } = createRequire(import.meta.url)(path.join(root, 'testing/index.js'))

function turn(spec) {
  if (spec && typeof spec.echoToolResult === 'string') {
    return (req) => ({ text: spec.echoToolResult + toolResultText(lastToolResult(req)) })
  }
  if (spec && typeof spec.echoUserText === 'string') {
    return (req) => ({ text: spec.echoUserText + lastUserText(req) })
  }
  return spec
}

const script = JSON.parse(process.argv[2] || '{}')
const model = await startScriptedModel({
  turns: (script.turns || []).map(turn),
  ...(script.fallback !== undefined && { fallback: turn(script.fallback) }),
  ...(script.delayMs !== undefined && { delayMs: script.delayMs }),
})
process.stdout.write(JSON.stringify({ url: model.url, env: model.env(), cwd: model.tempDir('rust-sdk-cwd-') }) + '\n')

const lines = readline.createInterface({ input: process.stdin })
lines.on('line', (line) => {
  if (line.trim() === 'requests') {
    const seen = model.allRequests.map((r) => ({ url: r.url, kind: r.kind, userAgent: String(r.headers['user-agent'] || '') }))
    process.stdout.write(JSON.stringify(seen) + '\n')
  }
})
lines.on('close', async () => {
  await model.close()
  process.exit(0)
})
