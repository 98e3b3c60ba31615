// Helpers for fault, hygiene and load tests: the process table, this process's resources, child
// host processes, and a guard against unhandled rejections / uncaught exceptions.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import v8 from 'node:v8'
import vm from 'node:vm'
import { fileURLToPath } from 'node:url'
import { alive } from './sdk.mjs'

export const isBun = Boolean(process.versions.bun)
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** The package entry point, for scripts run in child hosts. */
export const entry = path.join(root, 'index.mjs')
export const sdkHelpers = path.join(root, '__test__/helpers/sdk.mjs')

/** `/proc/<pid>/stat` fields we use, or null when the process is gone. */
export function procStat(pid) {
  let stat
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // comm may contain spaces and parentheses: fields start after the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return { pid: Number(pid), state: rest[0], ppid: Number(rest[1]), pgid: Number(rest[2]) }
}

function allStats() {
  const out = []
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const s = procStat(name)
    if (s) out.push(s)
  }
  return out
}

/** Live (non-zombie) members of process group `pgid`: the CLI runs in a group of its own. */
export function groupMembers(pgid) {
  return allStats().filter((s) => s.pgid === pgid && s.state !== 'Z').map((s) => s.pid)
}

/** Pids of the children of `ppid` (zombies included: an unreaped child is a leak too). */
export function childrenOf(ppid = process.pid) {
  return childStats(ppid).map((s) => s.pid)
}

/** `procStat` of each child of `ppid`, zombies included. */
export function childStats(ppid = process.pid) {
  return allStats().filter((s) => s.ppid === ppid)
}

/** `pid` is not alive, nor an unreaped child (zombie) of ours. */
export function gone(pid) {
  return !alive(pid) && !childrenOf().includes(pid)
}

/** Open file descriptors of this process. */
export function fdCount() {
  return fs.readdirSync('/proc/self/fd').length
}

/** Threads of this process. */
export function threadCount() {
  return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1])
}

/** Resident set size of this process, in bytes. */
export function rss() {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024
}

export const MiB = 1024 * 1024
export const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`

let v8gc
/** Forces a full garbage collection (in Node without --expose-gc too). */
export function forceGc() {
  if (isBun) return globalThis.Bun.gc(true)
  if (typeof globalThis.gc === 'function') return globalThis.gc()
  if (!v8gc) {
    v8.setFlagsFromString('--expose-gc')
    v8gc = vm.runInNewContext('gc')
  }
  v8gc()
}

/** Rejects after `ms` with a message naming `what`, instead of letting a test hang. */
export function within(promise, ms, what) {
  let timer
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

/**
 * Records unhandled rejections and uncaught exceptions while installed. `check()` asserts there
 * were none (after letting pending microtasks and a macrotask run), `stop()` uninstalls.
 */
export function trapUnhandled() {
  const seen = []
  const onRejection = (reason) => seen.push({ kind: 'unhandledRejection', reason: String(reason?.stack ?? reason) })
  const onException = (error) => seen.push({ kind: 'uncaughtException', reason: String(error?.stack ?? error) })
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  return {
    seen,
    async check() {
      await new Promise((r) => setTimeout(r, 50))
      if (seen.length) throw new Error(`unexpected: ${JSON.stringify(seen, null, 2)}`)
    },
    stop() {
      process.off('unhandledRejection', onRejection)
      process.off('uncaughtException', onException)
    },
  }
}

let tmpDir
let tmpN = 0
/** A fresh temp file path. */
export function tempPath(name) {
  if (!tmpDir) {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-native-test-'))
    process.once('exit', () => fs.rmSync(tmpDir, { recursive: true, force: true }))
  }
  return path.join(tmpDir, `${++tmpN}-${name}`)
}

/**
 * A stand-in CLI that costs one `sh` (plus `sed`/`cat`) instead of a Node start, for tests that
 * spawn hundreds: it logs its pid to $FAST_CLI_LOG, answers `initialize`, prints a system/init
 * message and then reads stdin to its end. An `initialize` it cannot parse is left unanswered.
 */
export function fastCli() {
  const file = tempPath('fast-cli.sh')
  fs.writeFileSync(file, `#!/bin/sh
echo $$ >> "$FAST_CLI_LOG"
IFS= read -r line
id=$(printf '%s' "$line" | sed -n 's/.*"request_id":"\\([^"]*\\)".*/\\1/p')
printf '{"type":"control_response","response":{"subtype":"success","request_id":"%s","response":{}}}\\n' "$id"
printf '{"type":"system","subtype":"init","session_id":"fast"}\\n'
exec cat >/dev/null
`)
  fs.chmodSync(file, 0o755)
  return file
}

/** The pids a fast CLI logged. */
export function fastCliPids(log) {
  try {
    return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map(Number)
  } catch {
    return []
  }
}

/**
 * Runs `source` (an ES module) in a child host process (`node --expose-gc`, or `bun`). The script
 * reports with `report(obj)` (one JSON line on stdout; `report` is predefined). Returns
 * `{ child, next(pred, ms), reports, stderr(), exited }`.
 */
export function runHost(source, { env = process.env, args = [] } = {}) {
  const file = tempPath('host.mjs')
  fs.writeFileSync(
    file,
    `const report = (obj) => process.stdout.write(JSON.stringify(obj) + '\\n')\n` + source,
  )
  const execArgs = isBun ? [] : ['--expose-gc']
  const child = spawn(process.execPath, [...execArgs, file, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const reports = []
  const waiters = []
  let buf = ''
  let err = ''
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (d) => {
    buf += d
    let nl
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      let msg
      try {
        msg = JSON.parse(line)
      } catch {
        continue
      }
      reports.push(msg)
      for (const w of [...waiters]) {
        if (w.pred(msg)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(msg)
        }
      }
    }
  })
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (d) => (err += d))
  const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })))
  return {
    child,
    reports,
    exited,
    stderr: () => err,
    next(pred = () => true, ms = 15000) {
      const found = reports.find(pred)
      if (found) return Promise.resolve(found)
      return within(new Promise((resolve) => waiters.push({ pred, resolve })), ms, `a report from the child host; stderr: ${err}`)
    },
  }
}
