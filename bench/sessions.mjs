// The sessions benchmark (`npm run bench -- sessions`, and part of a full `npm run bench`):
// a generated corpus of 300 sessions over 3 projects (~110 MB, three transcripts above 5,000
// lines), then listSessions() of all, listSessions({ dir }), getSessionMessages of a 5,000-line
// transcript and the peak RSS growth of listing all 300 — ours and the official side by side in
// one run, each measurement in a fresh process, SDK order alternated over rounds, medians kept.
// Writes its section of BENCHMARKS.md (between the sessions markers) and bench/sessions.json.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCorpus } from '../__test__/helpers/session-corpus.mjs'
import { machineFacts, replaceSection } from './section.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.join(here, '..')
const quick = process.env.BENCH_QUICK === '1'
const ROUNDS = Number(process.env.BENCH_ROUNDS || (quick ? 1 : 5))
const REPS = quick ? 3 : 7

const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b)
  return s.length ? s[Math.floor(s.length / 2)] : NaN
}

/** Rewrites the BENCHMARKS.md section from bench/sessions.json (no measuring). */
export function rewriteSessionsSection() {
  writeSection(JSON.parse(fs.readFileSync(path.join(here, 'sessions.json'), 'utf8')))
}

export async function runSessionsBench({ writeDocs = !quick } = {}) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sessions-'))
  const started = Date.now()
  try {
    const configDir = path.join(base, 'config')
    const corpus = buildCorpus(configDir, { root: path.join(base, 'work'), sessions: 300, projects: 3, bigCount: 3, bigLines: 5200, pad: 38000, bigPad: 1500, hostile: false, seed: 12 })
    const bytes = corpus.sessions.reduce((n, s) => n + fs.statSync(s.file).size, 0)
    const big = corpus.big[0]
    const bigBytes = fs.statSync(big.file).size
    const env = { ...process.env, CLAUDE_CONFIG_DIR: configDir }
    const measure = (sdk, op, args = {}) => JSON.parse(execFileSync(process.execPath, [path.join(here, 'sessions-driver.mjs'), sdk, op, JSON.stringify({ reps: REPS, ...args })], { cwd: root, env, encoding: 'utf8', maxBuffer: 1 << 28 }).trim().split('\n').pop())
    const ops = [
      ['list_all', 'listSessions() — all 300', {}],
      ['list_dir', 'listSessions({ dir }) — 100 sessions', { dir: corpus.projectPaths[0] }],
      ['messages', `getSessionMessages — ${big.lines}-line transcript (${(bigBytes / 1e6).toFixed(1)} MB)`, { sessionId: big.id }],
      ['rss', 'peak RSS growth, listing all 300', {}],
    ]
    const samples = {}
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 ? ['official', 'ours'] : ['ours', 'official']
      for (const [op, , args] of ops) {
        for (const sdk of order) {
          const out = measure(sdk, op, args)
          const v = op === 'rss' ? out.rss_growth_mb : out.ms
          ;((samples[op] ??= { ours: [], official: [], count: {} })[sdk]).push(v)
          samples[op].count[sdk] = out.count
        }
      }
    }
    const rows = ops.map(([op, label]) => {
      const ours = median(samples[op].ours)
      const official = median(samples[op].official)
      return { op, label, unit: op === 'rss' ? 'MB' : 'ms', ours, official, ratio: ours / official, count: samples[op].count }
    })
    for (const row of rows) {
      if (row.count.ours !== row.count.official) throw new Error(`${row.op}: ours returned ${row.count.ours} items, the official ${row.count.official}`)
    }
    const result = {
      date: new Date().toISOString(),
      rounds: ROUNDS,
      reps: REPS,
      quick,
      corpus: { sessions: corpus.sessions.length, projects: corpus.projectPaths.length, mb: bytes / 1e6, big: corpus.big.map((b) => b.lines) },
      ...machineFacts(),
      seconds: Math.round((Date.now() - started) / 1000),
      rows,
    }
    printTable(result)
    if (writeDocs) {
      fs.writeFileSync(path.join(here, 'sessions.json'), JSON.stringify(result, null, 2) + '\n')
      writeSection(result)
    }
    return result
  } finally {
    fs.rmSync(base, { recursive: true, force: true })
  }
}

/**
 * The session functions on the corpus the real CLI wrote (./sessions-real-corpus.mjs): ours and
 * the official alternated, a fresh process per figure, medians; its own BENCHMARKS.md section.
 */
export async function runRealSessionsBench({ writeDocs = !quick } = {}) {
  const started = Date.now()
  const { realCorpus } = await import('./sessions-real-corpus.mjs')
  const corpus = await realCorpus()
  const big = corpus.longest
  const env = { ...process.env, CLAUDE_CONFIG_DIR: corpus.configDir }
  const measure = (sdk, op, args = {}) => JSON.parse(execFileSync(process.execPath, [path.join(here, 'sessions-driver.mjs'), sdk, op, JSON.stringify({ reps: REPS, ...args })], { cwd: root, env, encoding: 'utf8', maxBuffer: 1 << 28 }).trim().split('\n').pop())
  const ops = [
    ['list_all', `listSessions() — all ${corpus.sessions.length}`, {}],
    ['list_dir', 'listSessions({ dir }) — the long session\'s project', { dir: corpus.projects[0] }],
    ['messages', `getSessionMessages — the longest transcript, ${big.lines} lines (${(big.bytes / 1e6).toFixed(1)} MB)`, { sessionId: big.id }],
    ['page', 'getSessionMessages(id, { limit: 50, offset: 1000 }) — the same transcript', { sessionId: big.id }],
  ]
  const samples = {}
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? ['official', 'ours'] : ['ours', 'official']
    for (const [op, , args] of ops) {
      const pair = {}
      for (const sdk of order) {
        const out = measure(sdk, op, args)
        pair[sdk] = out.ms
        const s = (samples[op] ??= { ours: [], official: [], ratios: [], count: {} })
        s[sdk].push(out.ms)
        s.count[sdk] = out.count
      }
      samples[op].ratios.push(pair.ours / pair.official)
    }
  }
  const rows = ops.map(([op, label]) => ({ op, label, unit: 'ms', ours: median(samples[op].ours), official: median(samples[op].official), ratio: median(samples[op].ratios), range: [Math.min(...samples[op].ratios), Math.max(...samples[op].ratios)], count: samples[op].count }))
  for (const row of rows) {
    if (row.count.ours !== row.count.official) throw new Error(`${row.op}: ours returned ${row.count.ours} items, the official ${row.count.official}`)
  }
  const result = { date: new Date().toISOString(), rounds: ROUNDS, reps: REPS, quick, corpus: { sessions: corpus.sessions.length, cli: corpus.cli, longest: big.lines, mb: big.bytes / 1e6 }, ...machineFacts(), seconds: Math.round((Date.now() - started) / 1000), rows }
  for (const row of rows) console.log(`  ${row.label.padEnd(72)} ours ${fmt(row.ours, 'ms').padStart(7)} ms   official ${fmt(row.official, 'ms').padStart(7)} ms   paired ratio ${row.ratio.toFixed(3)} (${row.range.map((x) => x.toFixed(3)).join('–')})`)
  if (writeDocs) {
    fs.writeFileSync(path.join(here, 'sessions-real.json'), JSON.stringify(result, null, 2) + '\n')
    writeRealSection(result)
  }
  return result
}

const REAL_LIMITS = { list_all: 0.1, list_dir: 0.1, messages: 0.2, page: 0.2 }

function writeRealSection(r) {
  const md = [
    '<!-- sessions-real:begin -->',
    '## Session functions on transcripts the real CLI wrote',
    '',
    `Written by \`npm run bench -- sessions\` (bench/sessions.mjs, bench/sessions-real-corpus.mjs). The corpus is written by the real Claude Code CLI ${r.corpus.cli} against the scripted Messages API of \`claude-agent-sdk-native/testing\` (offline, 127.0.0.1), driven by this package: one long session of turns of parallel tool calls (Bash with outputs from one line to ~40 KB, which the CLI stores beside the transcript past its limit, and Read of a large file), a subagent with tools of its own, \`/compact\` in the middle and more turns after, and ${r.corpus.sessions - 1} smaller sessions over three projects; the CLI's own records are all there (\`api-request\`, \`attachment\`, \`queue-operation\`, \`last-prompt\`, split assistant messages of parallel tool uses, the compaction's boundary and summary). The longest transcript has ${r.corpus.longest} lines (${r.corpus.mb.toFixed(1)} MB). A fresh Node process per SDK and figure: one warm-up call, then the median of ${r.reps} calls; ${r.rounds} round(s), the SDK order alternated; the ratio is the median of each round's pair (range beside it). Both SDKs return the same number of sessions/messages (checked). Taken on a loaded machine (2 vCPUs shared with other engineers' builds; load average at the end ${r.load.join(' / ')}).`,
    '',
    '| | ours | official | ours ÷ official | target |',
    '|---|---:|---:|---:|---|',
    ...r.rows.map((row) => `| ${row.label} | ${fmt(row.ours, 'ms')} ms | ${fmt(row.official, 'ms')} ms | ${row.ratio.toFixed(3)}× (${row.range.map((x) => x.toFixed(3)).join('–')}) | ≤ ${REAL_LIMITS[row.op]}× ${row.ratio <= REAL_LIMITS[row.op] ? '✅ met' : '❌ not met'} |`),
    '',
    `Machine: ${r.cpu} × ${r.cpus}, Node ${r.node}; ${r.seconds} s; run ${r.date}.`,
    '',
    '<!-- sessions-real:end -->',
    '',
  ].join('\n')
  replaceSection('sessions-real', md)
}

const fmt = (v, unit) => (unit === 'MB' ? v.toFixed(1) : v >= 100 ? v.toFixed(0) : v.toFixed(1))

function printTable(r) {
  console.log(`\nsessions: ${r.corpus.sessions} sessions, ${r.corpus.projects} projects, ${r.corpus.mb.toFixed(0)} MB; ${r.rounds} round(s) × ${r.reps} calls`)
  for (const row of r.rows) console.log(`  ${row.label.padEnd(62)} ours ${fmt(row.ours, row.unit).padStart(7)} ${row.unit}   official ${fmt(row.official, row.unit).padStart(7)} ${row.unit}   ratio ${row.ratio.toFixed(3)}`)
}

const TARGETS = { list_all: '≤ 0.1×', list_dir: '≤ 0.1×', messages: '≤ 0.2×', rss: '≤ 20 MB' }
const LIMITS = { list_all: 0.1, list_dir: 0.1, messages: 0.2 }
const met = (row) => (row.op === 'rss' ? row.ours <= 20 : row.ratio <= LIMITS[row.op])

function writeSection(r) {
  const md = [
    '<!-- sessions:begin -->',
    '## Session functions',
    '',
    `Written by \`npm run bench -- sessions\` (bench/sessions.mjs). A generated corpus of ${r.corpus.sessions} sessions over ${r.corpus.projects} projects (${r.corpus.mb.toFixed(0)} MB; the three largest transcripts have ${r.corpus.big.join(', ')} lines), in a temporary \`CLAUDE_CONFIG_DIR\`. Each figure is measured in a fresh Node process per SDK: one warm-up call, then the median of ${r.reps} calls; ${r.rounds} round(s) with the SDK order alternated, median over rounds. The peak RSS growth is VmHWM (reset through \`/proc/self/clear_refs\`) minus the RSS before the first listing of the process. Both SDKs return the same number of sessions/messages (checked).`,
    '',
    '| | ours | official | ratio | target |',
    '|---|---:|---:|---:|---|',
    ...r.rows.map((row) => `| ${row.label} | ${fmt(row.ours, row.unit)} ${row.unit} | ${fmt(row.official, row.unit)} ${row.unit} | ${row.unit === 'MB' ? '—' : row.ratio.toFixed(3) + '×'} | ${TARGETS[row.op]} ${met(row) ? '✅ met' : '❌ not met'} |`),
    '',
    `Machine: ${r.cpu} × ${r.cpus}, Node ${r.node}, load average at the end ${r.load.join(' / ')} (the machine was shared with other builds); ${r.seconds} s; run ${r.date}.`,
    '',
    'Why it is faster: each transcript costs two positioned reads of at most 64 KiB (validated as UTF-8 in place; only a window that does not decode is copied, with replacement characters) and forward SIMD substring searches over them (memchr; its reverse searcher is scalar, so the "last occurrence" searches collect forward hits), with no JSON tree per line; the sidecar title and archive mark are looked up only when the folder has an entry named after the session, and the worktrees of `listSessions({dir})` are read from git\'s own files (discovery, `commondir`, `worktrees/*/gitdir`, the config: crates/agent-core/src/sessions/gitmeta.rs) where that is git\'s answer for sure, `git worktree list` being started as the official starts it only where it is not. The files of a listing are described on a few threads of the blocking pool; the result crosses to JavaScript as one JSON text. `getSessionMessages` checks each line with a validating line scanner of its own (crates/agent-core/src/sessions/skim.rs: the grammar `JSON.parse` accepts, top-level keys told apart by length and first letter, string bodies skipped eight bytes at a time and then with memchr\'s SIMD search; nothing is decoded but the few short fields the chain needs), so a line costs about its number of structural characters rather than its length; the lines the rarer passes need (voice-call records, host rows, queued commands) are noted by that scan instead of searched for in the whole text. A transcript over 5 MiB is read as the official reads it, from its last compaction boundary without a preserved segment (the bench transcript\'s boundary line has its marker past the 256 bytes the official looks at, so neither skips anything there); its last 2 MiB are read first, so a boundary there spares reading the part before it, and without one there the part before is read into its place in front (each byte is read once). Message ids are read with a parse that stops at the key (borrowed from the text), tool ids with the line scanner once per message; the uuids are grouped in the order they first appear (no sort), each parent is looked up once (checked against the entry just before it, which it usually is, before the uuid map), the split-message pass keeps its groups and the results answering them in flat arrays (no vector per key), and the `message` bodies are copied to the output as the raw JSON text they were. From 1 MiB on, with two processors, the file\'s read, the line scan and the per-entry facts the split-message pass needs are shared with a helper thread, in parts claimed from both ends (see below). The call runs on tokio\'s blocking pool; its result is written as JSON arrays of about 64 KiB (pieces, one per line) and JS takes the pieces from a handle one at a time (`sessionsPiece`), each made a string (a Latin-1 copy when it is ASCII, as it usually is) just before `JSON.parse` reads it: one string of the whole 1.6 MB was a V8 large object, mapped fresh and decoded from UTF-8 on the JS thread in every call (about 1.1 ms), and all the pieces made at once stayed alive in the young generation through the collections the parse sets off (copied, then promoted). Running the call on libuv\'s pool (one hand-off each way instead of two) and handing the result over as an external Latin-1 string were measured and left out, as both cost 2–3 ms of CPU per call in the first calls of a process (libuv spreads the calls over four threads, each with its own allocator arena to warm up; an external string keeps its bytes until the collector frees it, so the next call\'s output is fresh pages). Memory: no file is held whole during a listing, so the growth is the threads\' stacks and the result.',
    '',
    'What bounds `getSessionMessages` (the 6.4 MB transcript, 2026-11-26 evening): a call settles at 9.5–11 ms from its fifth call on when the machine is quiet — the engine 5–6 ms, the hand-off back and the pieces about 0.5 ms, and `JSON.parse` of the pieces into the 2,391 message objects the caller gets (which the official builds too) about 4 ms. The engine\'s share, timed by phase in a Rust harness (one process, calls alternated): reading the file 1.6–2.0 ms with the boundary and snapshot searches the over-5-MiB reading makes, the UTF-8 check 0.4 ms, the line scan 2.3 ms on one thread, the chain walk 3 ms (of it, parsing each entry\'s message id and tool ids for the split-message pass 1.6 ms) and writing the output 0.5 ms, on a machine in a slow spell. Three of these are now shared with a helper thread from 1 MiB (or 2,048 entries) on, with two processors: the file\'s two halves are read at once, and the line scan and the per-entry facts are cut into parts that this thread claims from the front and the helper from the back (crates/agent-core/src/sessions/shared.rs), so a helper that starts late or is held up holds at most one part (an earlier split in two halves gained nothing when calls alternated with other work: the helper then held half the scan). Measured in that harness with the calls alternated: the whole call 6.0–7.1 → 5.0–5.7 ms for the read and the scan, and 5.3–7.5 → 5.1–6.9 ms for the facts; snapshot lines are found by comparing line starts (0.15 ms) instead of searching for their text (0.3 ms: the search stopped at every `{"type":"` of a content block). This machine\'s second processor is not always there (a CPU-bound loop on two threads ran 1.0–1.5× faster than on one, and `perf sched` showed wake-ups of an idle processor taking about 30 µs: the guest halts at once, without polling), so the gain moves with it. Runs of this section on the final code: 0.157, 0.194, 0.186 and 0.202 alone and 0.223 after the other scenarios (load 1.5–1.8, ours 11.5–19.5 ms, the official 73–87 ms); before, 0.202 and 0.202 on an idle machine and 0.207 at load 1.3. So the figure moved below 0.2× in most runs but not in every one: not reliably met. The first calls of a process cost more (page faults as the allocator\'s arenas and V8\'s heap grow), and the section\'s figure is the median of calls 2 to 8. A global allocator (mimalloc, as some napi projects use) was tried for the addon and left out: the first three calls of a process took 30–40 ms of engine time instead of 8–15. The read buffer is kept for the next call (one for the process, at most 8 MiB).',
    '',
'<!-- sessions:end -->',
    '',
  ].join('\n')
  replaceSection('sessions', md)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runSessionsBench()
  await runRealSessionsBench()
}
