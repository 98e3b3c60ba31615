// Two fleet workers (examples/fleet/worker.mjs) and one conversation that moves between them:
// the first message runs on worker A, the second on worker B, which resumes the session from the
// database. Each worker has its own HOME, CLAUDE_CONFIG_DIR and working copy.
//
//   DATABASE_URL=postgresql://user@127.0.0.1:5432/db node examples/fleet/run.mjs
//
// With ANTHROPIC_API_KEY set the real API answers; without it, the scripted model of
// claude-agent-sdk-native/testing does (offline).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'
import { startScriptedModel, lastUserText, toolResults } from 'claude-agent-sdk-native/testing'

if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL to a PostgreSQL database (the workers create their table)')
const here = path.dirname(fileURLToPath(import.meta.url))
const model = process.env.ANTHROPIC_API_KEY
  ? null
  : await startScriptedModel({
      fallback: (req) => {
        if (toolResults(req).length) return { text: 'The listing is in.' }
        if (lastUserText(req).includes('list')) return { toolUses: [{ name: 'Bash', input: { command: 'ls', description: 'List files' } }] }
        return { text: `(${req.messages.length} messages of history) you said: ${lastUserText(req)}` }
      },
    })

function worker(name) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `fleet-${name}-`))
  const copy = path.join(home, 'checkout')
  fs.mkdirSync(copy)
  fs.writeFileSync(path.join(copy, 'README.txt'), 'a working copy\n')
  const base = model ? model.env() : { ...process.env }
  const env = { ...base, HOME: home, CLAUDE_CONFIG_DIR: path.join(home, '.claude'), FLEET_WORKDIR: copy, FLEET_PROJECT: 'fleet-example', DATABASE_URL: process.env.DATABASE_URL }
  const child = spawn(process.execPath, [path.join(here, 'worker.mjs')], { env, stdio: ['pipe', 'pipe', 'inherit'] })
  const pending = new Map()
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const e = JSON.parse(line)
    if (e.event === 'done' || e.event === 'error') pending.get(e.job)?.(e)
  })
  return {
    ask: (job) => new Promise((resolve) => (pending.set(job.job, resolve), child.stdin.write(JSON.stringify(job) + '\n'))),
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.stdin.end())),
    home,
  }
}

const A = worker('A')
const B = worker('B')
const first = await A.ask({ job: '1', prompt: 'Please list the files here.' })
console.log(`worker A, session ${first.sessionId}: ${first.result ?? first.message}`)
const second = await B.ask({ job: '2', prompt: 'What did you find?', resume: first.sessionId })
console.log(`worker B, session ${second.sessionId}: ${second.result ?? second.message}`)
await Promise.all([A.stop(), B.stop()])
await model?.close()
for (const w of [A, B]) fs.rmSync(w.home, { recursive: true, force: true })
