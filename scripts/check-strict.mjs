// The noImplicitAny gate of npm test: `tsc -p jsconfig.strict.json` (jsconfig.json with
// noImplicitAny on) checks the whole JavaScript front, and every file jsconfig.strict.json lists
// under "clean" must have no error at all. tsc cannot take the option per file (a listed file's
// imports are checked with it too), so the rest is counted, not failed: `--all` prints every site.
// Prints `strict: N clean files, M sites left in K files`; exits 1 when a clean file has an error.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
// jsconfig files are JSON with comments (and trailing commas).
const text = fs.readFileSync(path.join(root, 'jsconfig.strict.json'), 'utf8')
const config = JSON.parse(text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, s) => s ?? '').replace(/,(\s*[}\]])/g, '$1'))
const clean = new Set(config.clean)
const missing = [...clean].filter((f) => !fs.existsSync(path.join(root, f)))

const r = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'jsconfig.strict.json'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
const errors = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /^\S.*\(\d+,\d+\): error TS\d+/.test(l))
const byFile = new Map()
for (const line of errors) {
  const file = line.slice(0, line.indexOf('('))
  byFile.set(file, [...(byFile.get(file) ?? []), line])
}
const broken = [...byFile.keys()].filter((f) => clean.has(f))
for (const f of broken) for (const line of byFile.get(f)) console.log(line)
for (const f of missing) console.log(`jsconfig.strict.json lists ${f}, which does not exist`)
if (process.argv.includes('--all')) {
  for (const [f, lines] of [...byFile].sort((a, b) => b[1].length - a[1].length)) console.log(`${String(lines.length).padStart(5)} ${f}`)
}
if (r.status !== 0 && errors.length === 0) {
  console.log(`tsc failed:\n${r.stdout}${r.stderr}`)
  process.exit(1)
}
const left = errors.length - broken.reduce((n, f) => n + byFile.get(f).length, 0)
console.log(`strict: ${clean.size} clean files, ${left} sites left in ${byFile.size - broken.length} files`)
if (broken.length || missing.length) {
  console.log(`strict: ${broken.length} clean file(s) with errors: ${broken.join(', ')}`)
  process.exit(1)
}
