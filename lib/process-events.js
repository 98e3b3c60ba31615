// @ts-check
'use strict'
// `onProcessSpawned(pid, { spawnSyncMs })` and `onProcessExit(code)`: options the official SDK
// reads (0.3.330 and 0.3.332) though its Options type does not name them, called for a CLI it
// spawns itself (not for one the app starts through spawnClaudeCodeProcess). `code` is Node's
// `exit` event code: `null` when a signal ended the process. A callback that throws (or rejects)
// is logged when debugging is on, never fatal, as in the official.
const { debugLog } = require('./notices')
const { errorText } = require('./thrown')

/**
 * Calls an app's callback; what it throws or rejects with is logged (debug output), never fatal.
 * @template {unknown[]} A
 * @param {(...args: A) => unknown} fn
 * @param {A} args
 * @param {import('./types').QueryOptions} options
 * @param {string} name the option's name, for the log line
 */
function safely(fn, args, options, name) {
  try {
    const r = fn(...args)
    if (isThenable(r)) r.then(undefined, (e) => debugLog(options, 'warn', `${name} threw: ${describe(e)}`))
  } catch (e) {
    debugLog(options, 'warn', `${name} threw: ${describe(e)}`)
  }
}

const describe = errorText

/** @param {unknown} r @returns {r is PromiseLike<unknown>} */
const isThenable = (r) => r !== null && (typeof r === 'object' || typeof r === 'function') && typeof (/** @type {{ then?: unknown }} */ (r)).then === 'function'

/**
 * Reports the spawn of `session`'s CLI and, later, its exit, to the app's callbacks.
 * @param {import('./types').EngineSession} session
 * @param {import('./types').QueryOptions} options
 * @param {number} spawnSyncMs
 */
function watchProcess(session, options, spawnSyncMs) {
  const { onProcessSpawned, onProcessExit } = options
  // Each read of the session crosses into the engine: only for an app that asked.
  const pid = typeof onProcessSpawned === 'function' ? session.pid : null
  if (pid != null && onProcessSpawned) safely(onProcessSpawned, [pid, { spawnSyncMs }], options, 'onProcessSpawned')
  if (typeof onProcessExit === 'function') {
    session.ended().then(() => {
      const exit = session.exitInfo()
      safely(onProcessExit, [exit && exit.code != null ? exit.code : null], options, 'onProcessExit')
    }, () => {})
  }
}

module.exports = { watchProcess, safely }
