// Real database servers for the session-store tests: PostgreSQL, Redis and an S3-compatible
// server, each started on 127.0.0.1 with a throw-away data folder and stopped after (also when the
// test process exits or is signalled). What a server needs is installed first when missing: Debian's
// `postgresql` and `redis-server` with apt-get (as root), PyPI's `moto[server]` with pip.
//
// A user's own servers are used instead when these are set (nothing is started then):
//   SESSION_STORE_POSTGRES_URL  postgresql://user:pass@host:5432/db
//   SESSION_STORE_REDIS_URL     redis://host:6379/0
//   SESSION_STORE_S3_ENDPOINT   http://host:9000  (+ SESSION_STORE_S3_BUCKET, _ACCESS_KEY,
//                               _SECRET_KEY, _REGION; path-style addressing)
// The tests keep to tables, key prefixes and bucket prefixes of their own and remove them after.
import { spawn, spawnSync, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const children = new Set()
let hooked = false

function hookExit() {
  if (hooked) return
  hooked = true
  process.on('exit', () => {
    for (const c of children) killNow(c)
  })
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      for (const c of children) killNow(c)
      process.kill(process.pid, sig)
    })
  }
}

function killNow(c) {
  try {
    if (c.dog) process.kill(c.dog.pid, 'SIGKILL')
  } catch {}
  try {
    process.kill(c.child.pid, 'SIGKILL')
  } catch {}
  if (c.dir) fs.rmSync(c.dir, { recursive: true, force: true })
}

/** Stops a started server by its pid: `signal`, then SIGKILL after 5 s; removes its folder. */
async function stopChild(c, signal) {
  children.delete(c)
  if (c.dog) process.kill(c.dog.pid, 'SIGKILL')
  if (c.child.exitCode === null && c.child.signalCode === null) {
    const exited = new Promise((resolve) => c.child.once('exit', resolve))
    try {
      process.kill(c.child.pid, signal)
    } catch {}
    const timer = setTimeout(() => {
      try {
        process.kill(c.child.pid, 'SIGKILL')
      } catch {}
    }, 5000)
    await exited
    clearTimeout(timer)
  }
  if (c.dir) fs.rmSync(c.dir, { recursive: true, force: true, maxRetries: 3 })
}

/**
 * A watchdog for a server: a shell blocked reading a pipe only this process holds. When this
 * process dies in a way no handler sees (SIGKILL), the pipe closes and the shell stops the server
 * (`signal`, then SIGKILL) and removes its folder.
 */
function watchdog(pid, signal, dir) {
  const script = `read _; kill -${signal} ${pid} 2>/dev/null; sleep 5; kill -KILL ${pid} 2>/dev/null; ${dir ? `rm -rf '${dir}'` : 'true'}`
  const dog = spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'ignore', 'ignore'], detached: true })
  dog.unref()
  dog.stdin.unref?.()
  dog.stdin.on('error', () => {})
  return dog
}

function launch(cmd, args, opts = {}) {
  hookExit()
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts })
  const c = { child, dir: opts.dir, output: '' }
  if (process.platform !== 'win32') c.dog = watchdog(child.pid, opts.stopSignal ?? 'TERM', opts.dir)
  child.stdout.on('data', (d) => (c.output = (c.output + d).slice(-8000)))
  child.stderr.on('data', (d) => (c.output = (c.output + d).slice(-8000)))
  child.stdout.unref?.()
  child.stderr.unref?.()
  child.unref()
  children.add(c)
  return c
}

async function freePort() {
  const srv = net.createServer()
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address()
  await new Promise((resolve) => srv.close(resolve))
  return port
}

/** Waits until `check()` resolves true, or throws with the server's output after `ms`. */
async function ready(c, name, check, ms = 30000) {
  const until = Date.now() + ms
  for (;;) {
    if (c.child.exitCode !== null) throw new Error(`${name} exited (${c.child.exitCode}) before it was ready:\n${c.output}`)
    if (await check().catch(() => false)) return
    if (Date.now() > until) throw new Error(`${name} not ready after ${ms} ms:\n${c.output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function canConnect(port) {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1')
    s.once('connect', () => (s.destroy(), resolve(true)))
    s.once('error', () => resolve(false))
  })
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/** apt-get install, with one `apt-get update` first if the package is not known yet. */
function aptInstall(pkg) {
  if (!isRoot()) throw new Error(`${pkg} is not installed and this is not root: install it (apt-get install ${pkg}) or set the SESSION_STORE_* variables to your own servers`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, encoding: 'utf8' })
  if (r.status === 0) return
  execFileSync('apt-get', ['update'], { env, stdio: 'ignore' })
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, stdio: 'ignore' })
}

/** A folder for a server's data; when root, one that `nobody` can use (postgres refuses root). */
function dataDir(prefix) {
  // The test runner's temp folder is root's own (0700): nobody cannot reach into it.
  const base = isRoot() ? '/tmp' : os.tmpdir()
  return fs.mkdtempSync(path.join(base, prefix))
}

function postgresBin() {
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return null
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a))
  return versions.length ? path.join(base, versions[0], 'bin') : null
}

/** PostgreSQL: `{ url, stop() }`. */
export async function startPostgres() {
  if (process.env.SESSION_STORE_POSTGRES_URL) return { url: process.env.SESSION_STORE_POSTGRES_URL, external: true, stop: async () => {} }
  let bin = postgresBin()
  if (!bin) {
    aptInstall('postgresql')
    bin = postgresBin()
  }
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql after installing Debian\'s postgresql')
  const dir = dataDir('casn-pg-')
  const data = path.join(dir, 'data')
  const ids = {}
  if (isRoot()) {
    ids.uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }))
    ids.gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }))
    fs.chownSync(dir, ids.uid, ids.gid)
  }
  const r = spawnSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], { ...ids, encoding: 'utf8', cwd: dir })
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true })
    throw new Error(`initdb failed: ${r.stderr || r.error}`)
  }
  const port = await freePort()
  const c = launch(path.join(bin, 'postgres'), ['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port), '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'], { ...ids, cwd: dir, dir, stopSignal: 'INT' })
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`
  const { default: pg } = await import('pg')
  await ready(c, 'postgres', async () => {
    const client = new pg.Client({ connectionString: url })
    try {
      await client.connect()
      await client.query('SELECT 1')
      return true
    } finally {
      await client.end().catch(() => {})
    }
  })
  return { url, port, pid: c.child.pid, stop: () => stopChild(c, 'SIGINT') }
}

/** Redis: `{ url, stop() }`. */
export async function startRedis() {
  if (process.env.SESSION_STORE_REDIS_URL) return { url: process.env.SESSION_STORE_REDIS_URL, external: true, stop: async () => {} }
  const which = () => spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim()
  let bin = which()
  if (!bin) {
    aptInstall('redis-server')
    bin = which()
  }
  const dir = dataDir('casn-redis-')
  const port = await freePort()
  const c = launch(bin, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'], { cwd: dir, dir })
  await ready(c, 'redis-server', () => canConnect(port))
  return { url: `redis://127.0.0.1:${port}/0`, port, pid: c.child.pid, stop: () => stopChild(c, 'SIGTERM') }
}

function python() {
  for (const p of ['python3', 'python']) if (spawnSync(p, ['--version']).status === 0) return p
  throw new Error('python3 not found: it runs the S3-compatible test server (moto); install python3 or set SESSION_STORE_S3_ENDPOINT')
}

/** An S3-compatible server (moto): `{ endpoint, bucket, region, credentials, stop() }`. */
export async function startS3() {
  const e = process.env
  if (e.SESSION_STORE_S3_ENDPOINT) {
    return {
      endpoint: e.SESSION_STORE_S3_ENDPOINT,
      bucket: e.SESSION_STORE_S3_BUCKET ?? 'claude-sessions-test',
      region: e.SESSION_STORE_S3_REGION ?? 'us-east-1',
      credentials: { accessKeyId: e.SESSION_STORE_S3_ACCESS_KEY ?? 'test', secretAccessKey: e.SESSION_STORE_S3_SECRET_KEY ?? 'test' },
      external: true,
      stop: async () => {},
    }
  }
  const py = python()
  if (spawnSync(py, ['-c', 'import moto.server, flask_cors']).status !== 0) {
    execFileSync(py, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', 'moto[server]>=5,<6'], { stdio: 'ignore' })
  }
  const dir = dataDir('casn-s3-')
  const port = await freePort()
  const c = launch(py, ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { cwd: dir, dir, env: { ...process.env, PYTHONUNBUFFERED: '1' } })
  await ready(c, 'moto (S3)', async () => (await fetch(`http://127.0.0.1:${port}/`)).status < 500)
  return { endpoint: `http://127.0.0.1:${port}`, bucket: 'claude-sessions-test', region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, port, pid: c.child.pid, stop: () => stopChild(c, 'SIGTERM') }
}
