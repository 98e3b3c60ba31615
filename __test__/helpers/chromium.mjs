// A real headless Chromium (Debian's `chromium` package) driven over the DevTools protocol on a
// pipe (`--remote-debugging-pipe`: fd 3 in, fd 4 out, one JSON message per NUL-terminated
// record), so no driver package is needed. Installed with apt-get when missing (as root, as CI
// runs); started on a temp profile and stopped by its own pid.
import { spawn, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser']

/** The Chromium binary, installed from Debian's packages when missing. */
export function ensureChromium() {
  const found = CANDIDATES.find((p) => fs.existsSync(p))
  if (found) return found
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    throw new Error('Chromium is missing: install the Debian package `chromium` (apt-get install -y chromium), or run the tests as root so they install it')
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  execFileSync('apt-get', ['update'], { stdio: 'ignore', env })
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'ignore', env })
  const installed = CANDIDATES.find((p) => fs.existsSync(p))
  if (!installed) throw new Error('apt-get install chromium finished but no chromium binary was found')
  return installed
}

/**
 * Starts headless Chromium. `page(url)` opens a tab; its `evaluate(expression)` awaits the
 * expression's promise and returns its JSON value; `console` collects the page's console output.
 */
export async function launchChromium() {
  const bin = ensureChromium()
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-'))
  const child = spawn(bin, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check',
    '--disable-extensions', '--disable-background-networking', '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  const toBrowser = child.stdio[3]
  const fromBrowser = child.stdio[4]
  let nextId = 1
  const waiting = new Map()
  const listeners = new Set()
  let buf = ''
  fromBrowser.setEncoding('utf8')
  fromBrowser.on('data', (chunk) => {
    buf += chunk
    let end
    while ((end = buf.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buf.slice(0, end))
      buf = buf.slice(end + 1)
      if (msg.id && waiting.has(msg.id)) {
        const { resolve, reject } = waiting.get(msg.id)
        waiting.delete(msg.id)
        if (msg.error) reject(new Error(`CDP ${msg.error.message}`))
        else resolve(msg.result)
      } else for (const l of listeners) l(msg)
    }
  })
  const exited = new Promise((resolve) => child.on('exit', resolve))
  exited.then(() => {
    for (const { reject } of waiting.values()) reject(new Error(`Chromium exited: ${stderr.slice(-2000)}`))
    waiting.clear()
  })
  function send(method, params = {}, sessionId) {
    const id = nextId++
    toBrowser.write(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }) + '\0')
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }))
  }
  await send('Browser.getVersion')

  return {
    version: () => send('Browser.getVersion'),
    async page(url) {
      const { targetId } = await send('Target.createTarget', { url: 'about:blank' })
      const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true })
      const console = []
      listeners.add((msg) => {
        if (msg.sessionId !== sessionId) return
        if (msg.method === 'Runtime.consoleAPICalled') console.push(`${msg.params.type}: ${msg.params.args.map((a) => a.value ?? a.description).join(' ')}`)
        if (msg.method === 'Runtime.exceptionThrown') console.push(`exception: ${msg.params.exceptionDetails.exception?.description ?? msg.params.exceptionDetails.text}`)
      })
      await send('Runtime.enable', {}, sessionId)
      await send('Page.enable', {}, sessionId)
      const loaded = new Promise((resolve) => listeners.add((msg) => msg.sessionId === sessionId && msg.method === 'Page.loadEventFired' && resolve()))
      await send('Page.navigate', { url }, sessionId)
      await loaded
      return {
        console,
        async evaluate(expression) {
          const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId)
          if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`)
          return r.result.value
        },
      }
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        send('Browser.close').catch(() => {})
        const timer = setTimeout(() => child.kill('SIGKILL'), 3000)
        await exited
        clearTimeout(timer)
      }
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 3 })
    },
  }
}
