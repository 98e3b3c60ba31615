// The scale benchmark (`npm run bench -- scale`, and part of a full `npm run bench`): 1, 10, 100
// and 500 concurrent sessions in one host process, each a permission prompt and 50 sequential
// tool calls against the fake CLI (bench/scale-driver.mjs, a fresh process per run), for ours,
// the official SDK and the no-SDK floor, interleaved: each round runs every size, the SDK order
// rotated per round and size. Medians over rounds; ratios are the median of each round's pair.
// Writes bench/scale.json, bench/scale.svg (the curves) and its section of BENCHMARKS.md.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { machineFacts, replaceSection } from './section.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.join(here, '..')
const quick = process.env.BENCH_QUICK === '1'
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS || process.env.BENCH_ROUNDS || (quick ? 1 : 3))
const SIZES = (process.env.BENCH_SCALE_SIZES || (quick ? '1,10,100' : '1,10,100,500')).split(',').map(Number)
const SDKS = ['ours', 'official', 'floor']
const FIGURES = [
  ['wall_ms', 'wall time, all sessions', 'ms'],
  ['cpu_ms_per_session', 'host CPU per session', 'ms'],
  ['rss_growth_mb_per_session', 'host peak RSS growth per session', 'MB'],
  ['fds_per_session', 'open fds per session (all alive)', ''],
  ['threads_per_session', 'threads per session (all alive)', ''],
]

const median = (xs) => {
  const s = xs.filter((x) => x != null && !Number.isNaN(x)).sort((a, b) => a - b)
  if (!s.length) return null
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const fmt = (x) => (x == null ? '—' : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toFixed(3))
const fmtRatio = (r) => (r == null ? '—' : `${r >= 10 ? r.toFixed(1) : r >= 0.1 ? r.toFixed(2) : r.toFixed(3)}×`)

function runOne(sdk, sessions) {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(here, 'scale-driver.mjs'), sdk, String(sessions)], { cwd: root, timeout: 600_000, maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      try {
        if (err) throw err
        resolve({ ok: true, ...JSON.parse(stdout.trim().split('\n').pop()) })
      } catch (e) {
        resolve({ ok: false, sdk, sessions, error: `${e.message}\n${String(stderr).slice(-1500)}` })
      }
    })
  })
}

export async function runScaleBench({ writeDocs = !quick } = {}) {
  const started = Date.now()
  const runs = []
  for (let r = 0; r < ROUNDS; r++) {
    for (const [si, sessions] of SIZES.entries()) {
      const k = (r + si) % SDKS.length
      for (const sdk of [...SDKS.slice(k), ...SDKS.slice(0, k)]) {
        const res = await runOne(sdk, sessions)
        res.round = r
        runs.push(res)
        const tag = `[bench] scale round ${r + 1}/${ROUNDS} ${String(sessions).padStart(3)} sessions ${sdk.padEnd(8)}`
        console.log(res.ok ? `${tag} ${Object.entries(res.figures).map(([key, v]) => `${key}=${fmt(v)}`).join(' ')}` : `${tag} FAILED: ${res.error}`)
      }
    }
  }
  const result = { machine: { ...machineFacts(), rounds: ROUNDS, sizes: SIZES, seconds: Math.round((Date.now() - started) / 1000), date: new Date().toISOString(), quick }, runs }
  if (writeDocs) {
    fs.writeFileSync(path.join(here, 'scale.json'), `{"machine": ${JSON.stringify(result.machine)},\n"runs": [\n${runs.map((x) => JSON.stringify(x)).join(',\n')}\n]}\n`)
    writeScaleDocs(result)
    console.log('[bench] wrote bench/scale.json, bench/scale.svg and the scale section of BENCHMARKS.md')
  } else {
    printTable(summarize(result))
  }
  return result
}

/** Medians per SDK and size, and the paired ratios (ours ÷ official, floor ÷ official) per size. */
function summarize({ machine, runs }) {
  const ok = runs.filter((x) => x.ok)
  const med = {}
  for (const sdk of SDKS) {
    med[sdk] = {}
    for (const n of machine.sizes) {
      const rs = ok.filter((x) => x.sdk === sdk && x.sessions === n)
      med[sdk][n] = Object.fromEntries(FIGURES.map(([key]) => [key, median(rs.map((x) => x.figures[key]))]))
      med[sdk][n].failed = rs.reduce((a, x) => a + x.figures.failed, 0) + runs.filter((x) => !x.ok && x.sdk === sdk && x.sessions === n).length * n
      med[sdk][n].runs = rs.length
    }
  }
  const paired = (key, n, of, over = null) => {
    const rs = []
    for (let r = 0; r < machine.rounds; r++) {
      const get = (sdk) => ok.find((x) => x.round === r && x.sdk === sdk && x.sessions === n)?.figures[key]
      const a = get(of)
      const b = get('official')
      const f = over ? get(over) : 0
      if (a == null || b == null || f == null || !(b - f > 0)) continue
      rs.push(Math.max(a - f, 0) / (b - f))
    }
    return median(rs)
  }
  return { machine, med, paired, failures: runs.filter((x) => !x.ok) }
}

function printTable({ machine, med }) {
  for (const [key, label, unit] of FIGURES) {
    console.log(`${label}${unit ? ` (${unit})` : ''}: ` + machine.sizes.map((n) => `${n}: ${SDKS.map((s) => fmt(med[s][n][key])).join(' / ')}`).join('   '))
  }
}

export function rewriteScaleSection() {
  writeScaleDocs(JSON.parse(fs.readFileSync(path.join(here, 'scale.json'), 'utf8')))
}

function writeScaleDocs(result) {
  const s = summarize(result)
  const { machine, med, paired } = s
  printTable(s)
  fs.writeFileSync(path.join(here, 'scale.svg'), chart(s))
  const big = Math.max(...machine.sizes)
  const rssRaw = paired('rss_growth_mb_per_session', big, 'ours')
  const rssFloor = paired('rss_growth_mb_per_session', big, 'floor')
  const rssOver = paired('rss_growth_mb_per_session', big, 'ours', 'floor')
  const constant = (key) => {
    const vs = machine.sizes.filter((n) => n >= 10).map((n) => med.ours[n][key])
    return vs.every((v) => v != null) && Math.max(...vs) - Math.min(...vs) <= 0.05
  }
  const failedOurs = med.ours[big].failed
  const md = []
  md.push('<!-- scale:begin -->')
  md.push('## Many sessions per host')
  md.push('')
  md.push(`Written by \`npm run bench -- scale\` (bench/scale.mjs, bench/scale-driver.mjs). One host process starts ${machine.sizes.join(', ')} sessions at once; each is a query against the fake CLI (scenario \`session\`): a permission prompt (\`canUseTool\`), then 50 sequential calls of the in-process zod tool \`echo\`, then its result. The app code is the same for the three: the SDK (or, for the floor, nothing), the app's zod, one \`tool()\` and a server per query (the official's server instance serves one query at a time; ours could share one). Before the sessions start, one warm-up session runs, and the process's RSS, open fds and threads are read; every session's \`canUseTool\` then waits until all sessions have reached their prompt, so at that moment every CLI, pipe and session is alive at once, and fds and threads are counted there. Peak RSS growth is VmHWM (reset through \`/proc/self/clear_refs\` as the sessions start) minus the RSS before, ÷ sessions; host CPU is \`process.cpuUsage()\` (all threads of the host process) ÷ sessions. A fresh process per run; ${machine.rounds} round(s), every size each round with the SDK order rotated; medians. Figures taken on a loaded machine (2 vCPUs shared with other engineers' builds; load average at the end ${machine.load.join(' / ')}).`)
  md.push('')
  md.push('![scale curves](bench/scale.svg)')
  md.push('')
  md.push('| sessions | figure | ours | official | floor | ours/official |')
  md.push('| ---: | --- | ---: | ---: | ---: | ---: |')
  for (const n of machine.sizes) {
    for (const [key, label, unit] of FIGURES) {
      const o = med.ours[n][key]
      const f = med.official[n][key]
      md.push(`| ${n} | ${label}${unit ? ` (${unit})` : ''} | ${fmt(o)} | ${fmt(f)} | ${fmt(med.floor[n][key])} | ${key.startsWith('fds') || key.startsWith('threads') ? '' : fmtRatio(paired(key, n, 'ours'))} |`)
    }
    md.push(`| ${n} | sessions failed (all rounds) | ${med.ours[n].failed} | ${med.official[n].failed} | ${med.floor[n].failed} | |`)
  }
  md.push('')
  md.push('| | target (issue 32) | measured |')
  md.push('| --- | --- | --- |')
  // The issue's rule: where a target asks for less than the app with no SDK takes here, the
  // floor's figure is the bar (ours at or under the floor's growth) and the reason is written.
  const atFloor = rssRaw != null && rssFloor != null && rssRaw > 0.3 && rssFloor > 0.3 && rssRaw <= rssFloor
  md.push(`| ${rssRaw != null && rssRaw <= 0.3 ? '✅ met' : atFloor ? '✅ met at the floor' : '❌ not met'} | host memory growth per session ≤ 0.3× the official's (at ${big}) | ${fmtRatio(rssRaw)} (${fmt(med.ours[big].rss_growth_mb_per_session)} vs ${fmt(med.official[big].rss_growth_mb_per_session)} MB); the no-SDK floor ÷ official ${fmtRatio(rssFloor)}${rssFloor != null && rssFloor > 0.3 ? ` (the floor misses it too: the target asks for less than the same app with no SDK takes on this machine${atFloor ? ', and ours grows less than that app' : ''})` : ''}; above the floor's growth, ours ÷ official ${fmtRatio(rssOver)} |`)
  md.push(`| ${constant('fds_per_session') ? '✅ met' : '❌ not met'} | fds per session constant | ours ${machine.sizes.map((n) => fmt(med.ours[n].fds_per_session)).join(', ')} at ${machine.sizes.join(', ')} sessions (the official ${machine.sizes.map((n) => fmt(med.official[n].fds_per_session)).join(', ')}) |`)
  md.push(`| ${constant('threads_per_session') ? '✅ met' : '❌ not met'} | threads per session constant, no thread per session | ours ${machine.sizes.map((n) => fmt(med.ours[n].threads_per_session)).join(', ')} |`)
  md.push(`| ${failedOurs === 0 && med.ours[big].runs > 0 ? '✅ met' : '❌ not met'} | nothing fails at ${big} | ours ${failedOurs} of ${big * med.ours[big].runs} sessions failed (official ${med.official[big].failed}, floor ${med.floor[big].failed}) |`)
  md.push('')
  md.push(`Machine: ${machine.cpu} × ${machine.cpus}, Node ${machine.node}; ${machine.seconds} s; run ${machine.date}${machine.quick ? ' (quick mode)' : ''}.`)
  md.push('')
  md.push('<!-- scale:end -->')
  md.push('')
  replaceSection('scale', md.join('\n'))
}

/** Four panels: each figure against the number of sessions (log scale), one line per SDK. */
function chart({ machine, med }) {
  const panels = FIGURES.slice(0, 4)
  const W = 980
  const pw = 440
  const ph = 220
  const H = 70 + Math.ceil(panels.length / 2) * (ph + 70)
  const colors = { ours: '#2563eb', official: '#f59e0b', floor: '#94a3b8' }
  const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;')
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`, `<rect width="${W}" height="${H}" fill="#fff"/>`]
  out.push(`<text x="16" y="24" font-size="16" font-weight="600">Concurrent sessions in one host: how the cost grows with the work</text>`)
  out.push(`<text x="16" y="44" fill="#555">Each session: a permission prompt + 50 tool calls against the fake CLI. Medians of ${machine.rounds} interleaved round(s), ${machine.cpus} vCPU (shared, loaded), Node ${esc(machine.node)}.</text>`)
  SDKS.forEach((sdk, i) => out.push(`<rect x="${600 + i * 120}" y="54" width="14" height="4" fill="${colors[sdk]}"/><text x="${620 + i * 120}" y="60">${sdk === 'floor' ? 'no-SDK floor' : sdk}</text>`))
  const xs = machine.sizes
  const lx = (n) => Math.log10(n)
  const [x0, x1] = [lx(Math.min(...xs)), lx(Math.max(...xs))]
  panels.forEach(([key, label, unit], p) => {
    const ox = 60 + (p % 2) * (pw + 60)
    const oy = 90 + Math.floor(p / 2) * (ph + 70)
    const vals = SDKS.flatMap((s) => xs.map((n) => med[s][n][key])).filter((v) => v != null)
    const top = Math.max(...vals, 1e-9) * 1.1
    const X = (n) => ox + ((lx(n) - x0) / (x1 - x0 || 1)) * pw
    const Y = (v) => oy + ph - (v / top) * ph
    out.push(`<text x="${ox}" y="${oy - 10}" font-weight="600">${esc(label)}${unit ? ` (${unit})` : ''}</text>`)
    out.push(`<line x1="${ox}" y1="${oy + ph}" x2="${ox + pw}" y2="${oy + ph}" stroke="#111"/><line x1="${ox}" y1="${oy}" x2="${ox}" y2="${oy + ph}" stroke="#111"/>`)
    for (let t = 0; t <= 4; t++) {
      const v = (top / 4) * t
      out.push(`<line x1="${ox}" y1="${Y(v)}" x2="${ox + pw}" y2="${Y(v)}" stroke="#eee"/><text x="${ox - 6}" y="${Y(v) + 4}" text-anchor="end" fill="#555" font-size="10">${fmt(v)}</text>`)
    }
    for (const n of xs) out.push(`<text x="${X(n)}" y="${oy + ph + 16}" text-anchor="middle" fill="#555" font-size="10">${n}</text>`)
    out.push(`<text x="${ox + pw / 2}" y="${oy + ph + 32}" text-anchor="middle" fill="#555" font-size="10">concurrent sessions (log scale)</text>`)
    for (const sdk of SDKS) {
      const pts = xs.map((n) => [n, med[sdk][n][key]]).filter(([, v]) => v != null)
      out.push(`<polyline fill="none" stroke="${colors[sdk]}" stroke-width="2" points="${pts.map(([n, v]) => `${X(n).toFixed(1)},${Y(v).toFixed(1)}`).join(' ')}"/>`)
      for (const [n, v] of pts) out.push(`<circle cx="${X(n).toFixed(1)}" cy="${Y(v).toFixed(1)}" r="3" fill="${colors[sdk]}"><title>${sdk}, ${n} sessions: ${fmt(v)} ${unit}</title></circle>`)
    }
  })
  out.push('</svg>')
  return out.join('\n') + '\n'
}
