// @ts-check
'use strict'
// The `hostSpawn` option (read by the official SDK 0.3.332, not in its Options type): the app's
// own `child_process.spawn` stand-in, which the official calls in place of Node's spawn for the CLI
// it starts itself, as `hostSpawn(command, args, { cwd, stdio: ['pipe','pipe','pipe'], signal,
// env, windowsHide: true })`. Ours runs it as a spawnClaudeCodeProcess whose process the engine
// drives, with what the official's own spawn adds: the CLI's stderr to the `stderr` callback,
// and `onProcessSpawned(pid, { spawnSyncMs })` / `onProcessExit(code)`.
const { safely } = require('./process-events')

/**
 * A spawnClaudeCodeProcess-style function over `options.hostSpawn`.
 * @param {import('./types').QueryOptions} options, with a `hostSpawn` function
 * @returns {(request: import('./types').SpawnRequest) => import('node:child_process').ChildProcessWithoutNullStreams}
 */
function hostSpawner(options) {
  const { stderr, onProcessSpawned, onProcessExit } = options
  const hostSpawn = /** @type {NonNullable<import('./types').QueryOptions['hostSpawn']>} */ (options.hostSpawn)
  return ({ command, args, cwd, env, signal }) => {
    const start = performance.now()
    const proc = hostSpawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], signal, env, windowsHide: true })
    const spawnSyncMs = performance.now() - start
    if (proc?.pid !== undefined && typeof onProcessSpawned === 'function') safely(onProcessSpawned, [proc.pid, { spawnSyncMs }], options, 'onProcessSpawned')
    if (typeof onProcessExit === 'function') proc.once('exit', (code) => safely(onProcessExit, [code], options, 'onProcessExit'))
    if (proc?.stderr) {
      proc.stderr.setEncoding?.('utf8')
      proc.stderr.on('data', (text) => { if (typeof stderr === 'function') safely(stderr, [String(text)], options, 'stderr') })
      proc.stderr.on('error', () => {})
    }
    return proc
  }
}

module.exports = { hostSpawner }
