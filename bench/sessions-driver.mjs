// One measurement of the sessions benchmark, in a fresh process: `node sessions-driver.mjs
// <ours|official> <op> <json args>`. Prints one JSON line: the median time of `reps` calls
// (after one warm-up call) and, for `rss`, the peak RSS growth during one listing.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const [sdkName, op, argsText] = process.argv.slice(2)
const args = JSON.parse(argsText)
const sdk = sdkName === 'ours' ? await import(pathToFileURL(path.join(root, 'index.mjs')).href) : await import('@anthropic-ai/claude-agent-sdk')

const call = {
  list_all: () => sdk.listSessions(),
  list_dir: () => sdk.listSessions({ dir: args.dir }),
  messages: () => sdk.getSessionMessages(args.sessionId),
  page: () => sdk.getSessionMessages(args.sessionId, { limit: 50, offset: 1000 }),
}

function status(key) {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/status', 'utf8'))
  return m ? Number(m[1]) * 1024 : 0
}

if (op === 'rss') {
  // Peak RSS growth over one listing of every session, the first in the process.
  globalThis.gc?.()
  const before = status('VmRSS')
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5') // resets VmHWM to the current RSS
  } catch {}
  const list = await sdk.listSessions()
  const peak = status('VmHWM')
  console.log(JSON.stringify({ rss_growth_mb: (peak - before) / 1e6, count: list.length }))
} else {
  const fn = call[op]
  const first = await fn()
  const times = []
  for (let i = 0; i < args.reps; i++) {
    const t = process.hrtime.bigint()
    await fn()
    times.push(Number(process.hrtime.bigint() - t) / 1e6)
  }
  times.sort((a, b) => a - b)
  console.log(JSON.stringify({ ms: times[Math.floor(times.length / 2)], count: first.length }))
}
