// What the bench sections written outside bench/run.mjs (bench/sessions.mjs, bench/stores.mjs)
// share: the machine's facts recorded with a result, and their own section of BENCHMARKS.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The CPU, its count, the load average and Node's version, for a result. */
export function machineFacts() {
  return { cpu: os.cpus()[0]?.model?.trim(), cpus: os.cpus().length, load: os.loadavg().map((x) => x.toFixed(2)), node: process.version }
}

/** Puts `md` (which starts with `<!-- name:begin -->` and ends with `<!-- name:end -->`) in BENCHMARKS.md, in place of the section's last version or at the end. */
export function replaceSection(name, md) {
  const file = path.join(root, 'BENCHMARKS.md')
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
  const re = new RegExp(`<!-- ${name}:begin -->[\\s\\S]*?<!-- ${name}:end -->\\n?`)
  text = re.test(text) ? text.replace(re, () => md) : text.replace(/\n*$/, '\n\n') + md
  fs.writeFileSync(file, text)
}
