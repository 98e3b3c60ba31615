// A fleet worker: runs agent turns for whichever session it is handed, resuming each from the
// shared PostgreSQL store, so any worker can take any session's next message. Workers share
// nothing but the database: each has its own HOME, CLAUDE_CONFIG_DIR and working copy.
//
//   DATABASE_URL=postgresql://... FLEET_WORKDIR=/srv/checkout node examples/fleet/worker.mjs
//
// Jobs arrive on stdin, one JSON object a line: { "job": "j1", "prompt": "...", "resume": "<session id>"? }.
// Events leave on stdout, one JSON object a line:
//   { job, event: 'message', type, subtype?, sessionId }   each SDK message
//   { job, event: 'stored', sessionId, uuids }             entries the store acknowledged
//   { job, event: 'done', sessionId, subtype, result }     the turn's result
//   { job, event: 'error', message }                       the turn failed
// Several jobs run at once. examples/fleet/run.mjs starts two workers and hands a session from
// one to the other.
import readline from 'node:readline'
import pg from 'pg'
import { query } from 'claude-agent-sdk-native'
import { PostgresSessionStore } from 'claude-agent-sdk-native/stores/postgres'

const url = process.env.DATABASE_URL ?? process.env.SESSION_STORE_POSTGRES_URL
if (!url) throw new Error('set DATABASE_URL to the fleet\'s PostgreSQL database')
const workdir = process.env.FLEET_WORKDIR ?? process.cwd()
// The store's project key comes from the working copy's path; workers whose copies live at
// different paths name the project instead, so that they find each other's sessions.
const project = process.env.FLEET_PROJECT

// A pool per worker: one connection per append in flight, one per load.
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.FLEET_POOL_SIZE ?? 5) })
pool.on('error', (e) => console.error('[worker] idle database connection failed:', e.message))
const postgres = new PostgresSessionStore({ pool, tableName: process.env.FLEET_TABLE })
await postgres.ensureSchema()

const emit = (event) => process.stdout.write(JSON.stringify(event) + '\n')

/** The store, with every key's project pinned (when FLEET_PROJECT is set) and appends reported. */
function fleetStore(job) {
  const pin = (key) => (project ? { ...key, projectKey: project } : key)
  return {
    async append(key, entries) {
      await postgres.append(pin(key), entries)
      emit({ job, event: 'stored', sessionId: key.sessionId, subpath: key.subpath, uuids: entries.map((e) => e.uuid ?? null) })
    },
    load: (key) => postgres.load(pin(key)),
    listSessions: (projectKey) => postgres.listSessions(project ?? projectKey),
    listSessionSummaries: (projectKey) => postgres.listSessionSummaries(project ?? projectKey),
    listSubkeys: (key) => postgres.listSubkeys(pin(key)),
    delete: (key) => postgres.delete(pin(key)),
  }
}

async function run({ job, prompt, resume }) {
  let sessionId = resume
  try {
    const q = query({
      prompt,
      options: {
        cwd: workdir,
        resume,
        sessionStore: fleetStore(job),
        // Every transcript write goes to the store as it happens (not at the end of the turn):
        // a worker that dies mid-turn loses at most the entry being written.
        sessionStoreFlush: 'eager',
        allowedTools: (process.env.FLEET_TOOLS ?? 'Bash,Read').split(','),
        pathToClaudeCodeExecutable: process.env.FLEET_CLI || undefined,
      },
    })
    for await (const m of q) {
      if (m.session_id) sessionId = m.session_id
      emit({ job, event: 'message', type: m.type, subtype: m.subtype, sessionId })
      if (m.type === 'result') emit({ job, event: 'done', sessionId, subtype: m.subtype, result: m.result })
    }
  } catch (e) {
    emit({ job, event: 'error', sessionId, message: e.message })
  }
}

const running = new Set()
const lines = readline.createInterface({ input: process.stdin })
lines.on('line', (line) => {
  if (!line.trim()) return
  const p = run(JSON.parse(line)).finally(() => running.delete(p))
  running.add(p)
})
lines.on('close', async () => {
  await Promise.all(running)
  await pool.end()
})
