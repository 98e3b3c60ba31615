// A sessions corpus written by the REAL Claude Code CLI (2.1.332, node_modules) against the
// scripted Messages API of ./testing (offline, 127.0.0.1): one long session — many turns of
// parallel tool calls (Bash with short and long outputs, Read of a large file), a subagent with
// tools of its own, /compact in the middle, more turns after — and smaller sessions in three
// project folders. Made once and kept in .tmp/bench-real-corpus/<cli version>/ (the CLI takes
// minutes to write it on a loaded machine); `BENCH_REAL_CORPUS_REBUILD=1` makes it again.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLIS } from '../__test__/helpers/clis.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.join(here, '..')
const CLI = CLIS['2.1.332']

/** Parallel tool calls of one round: Bash with outputs from a line to ~40 KB, and a Read. */
function toolRound(turn, round, bigFile) {
  const k = turn * 7 + round
  const uses = [
    { name: 'Bash', input: { command: `seq 1 ${[20, 300, 2500, 9000][k % 4]}`, description: `Count ${k}` } },
    { name: 'Read', input: { file_path: bigFile, offset: 1 + (k % 50) * 40, limit: 120 } },
  ]
  if (k % 3 === 0) uses.push({ name: 'Bash', input: { command: `printf 'line %s of the report: all good\\n' $(seq 1 ${40 + (k % 9) * 30})`, description: `Report ${k}` } })
  return uses
}

/**
 * The corpus: `{ configDir, projects, longest: { id, file, lines }, sessions }`, made if missing.
 * @param {{ turns?: number, rounds?: number, log?: (s: string) => void }} [opts]
 */
export async function realCorpus({ turns = Number(process.env.BENCH_REAL_TURNS || 110), rounds = 4, log = console.log } = {}) {
  const version = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@anthropic-ai/claude-code/package.json'), 'utf8')).version
  const base = path.join(root, '.tmp', 'bench-real-corpus', `${version}-t${turns}-r${rounds}`)
  const doneFile = path.join(base, 'corpus.json')
  if (fs.existsSync(doneFile) && process.env.BENCH_REAL_CORPUS_REBUILD !== '1') return JSON.parse(fs.readFileSync(doneFile, 'utf8'))
  fs.rmSync(base, { recursive: true, force: true })
  const home = path.join(base, 'home')
  const configDir = path.join(home, '.claude')
  const projects = ['alpha', 'beta', 'gamma'].map((p) => path.join(base, 'work', p))
  for (const d of [configDir, ...projects]) fs.mkdirSync(d, { recursive: true })
  const bigFile = path.join(projects[0], 'notes.txt')
  fs.writeFileSync(bigFile, Array.from({ length: 2400 }, (_, i) => `${i + 1}. The parser keeps the token stream in a ring buffer; entry ${i} of the design notes — “quoted”, tabs\tand unicode ✓.`).join('\n') + '\n')
  const { startScriptedModel, lastUserText, toolResults } = await import('../testing/index.mjs')
  const { query } = await import('claude-agent-sdk-native')
  const seen = new Map()
  let agentSpawned = false
  const model = await startScriptedModel({
    fallback(req) {
      const text = lastUserText(req)
      const n = seen.get(text) ?? 0
      seen.set(text, n + 1)
      if (text.startsWith('SUBAGENT')) return n < 3 ? { toolUses: toolRound(1000 + n, n, bigFile) } : { text: 'The subagent looked at the notes and counted twice: nothing is missing.' }
      const m = /^step (\d+)/.exec(text)
      if (!m) return { text: `Noted: ${text.slice(0, 60)}` }
      const turn = Number(m[1])
      if (turn % 37 === 5 && !agentSpawned && toolResults(req).length === 0) {
        agentSpawned = true
        return { toolUses: [{ name: 'Agent', input: { description: 'Check the notes', prompt: 'SUBAGENT: read the notes and count the lines', subagent_type: 'general-purpose' } }] }
      }
      if (n < rounds) return { text: `Round ${n + 1} of step ${turn}: checking the counts and the notes.`, toolUses: toolRound(turn, n, bigFile) }
      return { text: `Step ${turn} done: the counts match, the notes are consistent, and the report has ${turn * 3} lines. ` + 'Details follow. '.repeat(turn % 5) }
    },
  })
  const env = model.env({ HOME: home, USERPROFILE: home, CLAUDE_CONFIG_DIR: configDir })
  const options = (cwd, extra) => ({ pathToClaudeCodeExecutable: CLI, env, cwd, allowedTools: ['Bash', 'Read', 'Agent', 'Task'], ...extra })
  /** One query of several turns: each prompt is sent once the previous turn's result came. */
  async function turnsOf(prompts, opts) {
    let next
    async function* input() {
      for (const p of prompts) {
        const done = new Promise((r) => (next = r))
        yield { type: 'user', message: { role: 'user', content: p }, parent_tool_use_id: null, session_id: '' }
        await done
      }
    }
    let sessionId
    for await (const m of query({ prompt: input(), options: opts })) {
      if (m.session_id) sessionId = m.session_id
      if (m.type === 'result') next()
    }
    return sessionId
  }
  const t0 = Date.now()
  try {
    const half = Math.floor(turns / 2)
    const steps = (a, b) => Array.from({ length: b - a }, (_, i) => `step ${a + i}: count the lines again and read the next part of the notes`)
    const id = await turnsOf(steps(0, half), options(projects[0]))
    log(`[bench] real corpus: ${half} turns in ${Math.round((Date.now() - t0) / 1000)} s`)
    await turnsOf(['/compact'], options(projects[0], { resume: id }))
    await turnsOf(steps(half, turns), options(projects[0], { resume: id }))
    log(`[bench] real corpus: the long session in ${Math.round((Date.now() - t0) / 1000)} s`)
    // Smaller sessions: 8 per project, one to three turns each, a few at a time.
    const small = []
    for (const [p, cwd] of projects.entries()) for (let i = 0; i < 8; i++) small.push(() => turnsOf(steps(1000 + p * 100 + i * 3, 1000 + p * 100 + i * 3 + 1 + (i % 3)), options(cwd)))
    for (let i = 0; i < small.length; i += 4) await Promise.all(small.slice(i, i + 4).map((f) => f()))
  } finally {
    await model.close()
  }
  const files = []
  for (const dir of fs.readdirSync(path.join(configDir, 'projects'))) {
    for (const f of fs.readdirSync(path.join(configDir, 'projects', dir))) if (f.endsWith('.jsonl')) files.push(path.join(configDir, 'projects', dir, f))
  }
  const sessions = files.map((file) => ({ id: path.basename(file, '.jsonl'), file, lines: fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length, bytes: fs.statSync(file).size }))
  sessions.sort((a, b) => b.lines - a.lines)
  const corpus = { configDir, projects, longest: sessions[0], sessions, seconds: Math.round((Date.now() - t0) / 1000), cli: version }
  fs.writeFileSync(doneFile, JSON.stringify(corpus, null, 1))
  log(`[bench] real corpus: ${sessions.length} sessions, the longest ${sessions[0].lines} lines (${(sessions[0].bytes / 1e6).toFixed(1)} MB), in ${corpus.seconds} s`)
  return corpus
}
