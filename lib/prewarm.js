// @ts-check
'use strict'
// prewarm(): a Claude Code process started and initialized before the session it will serve is
// known — parked (`--await-claim`) in a private directory — and bound later to a session by
// SpareProcess.claim() (one `claim_session` control request, then the prompt). Built on the
// engine's warm start (as startup()); the CLI decides which claims it can honour, and the
// refusal reaches the app as the official SDK gives it: `claimed` rejects with the reason and the
// prompt gets an error result starting with `not_claimed`.
const fs = require('fs')
const os = require('os')
const path = require('path')
const { Query, QueryPort, WARM } = require('./query')
const { errorText } = require('./thrown')
const { checkWorkspaceTrust, debugLog, agentsForCli } = require('./notices')

const DEFAULT_INITIALIZE_TIMEOUT_MS = 60000
/** Settings that govern hooks: only prewarm() can set them (they must be in force before any hook). */
const HOOK_SETTING_KEYS = ['hooks', 'disableAllHooks', 'allowManagedHooksOnly', 'allowedHttpHookUrls', 'httpHookAllowedEnvVars']
/** Overlay keys applied behind the claim (they are in force before the prompt is read). */
const FOLLOWING_KEYS = ['model', 'agent', 'fastMode', 'permissions', 'availableModels', 'disableAutoMode']

const ASYNC_DISPOSE = Symbol.asyncDispose

/**
 * An Error whose message starts with the official reason code, carrying the claim info when any.
 * @param {string} message
 * @param {object} [claim]
 */
function reasonError(message, claim) {
  const e = /** @type {Error & { claim?: object }} */ (new Error(message))
  if (claim !== undefined) e.claim = claim
  return e
}

/**
 * The parking directory: options.cwd, or a fresh private one under the config home.
 * @param {Record<string, any> | undefined} options prewarm()'s options
 * @returns {Promise<{ dir: string, owned: boolean }>}
 */
async function parkingDir(options) {
  if (options?.cwd !== undefined) return { dir: options.cwd, owned: false }
  const env = options?.env
  const configDir = env?.CLAUDE_CONFIG_DIR?.trim()
  const home = env?.HOME?.trim()
  const base = env === undefined ? process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude') : configDir || path.join(home || os.homedir(), '.claude')
  const absolute = path.isAbsolute(base) ? base : path.join(os.homedir(), '.claude')
  if (!path.isAbsolute(absolute)) {
    throw new Error('prewarm(): no absolute config home to park the spare under (neither CLAUDE_CONFIG_DIR nor HOME gives an absolute path); set one of them to an absolute path or pass options.cwd')
  }
  const spares = path.join(absolute, 'spares')
  await fs.promises.mkdir(spares, { recursive: true, mode: 0o700 })
  return { dir: await fs.promises.mkdtemp(path.join(spares, 'spare-')), owned: true }
}

/**
 * A claim's cwd: relative paths resolve against this process ("~" forms are the CLI's to expand).
 * @param {unknown} cwd
 */
function claimCwd(cwd) {
  if (typeof cwd === 'string' && cwd.trim() !== '' && !path.posix.isAbsolute(cwd) && !path.win32.isAbsolute(cwd) && cwd !== '~' && !cwd.startsWith('~/')) return path.resolve(cwd)
  return cwd
}

/** @param {unknown} e */
function commandsError(e) {
  debugLog(undefined, 'error', `SpareProcess.onCommands() could not report the commands (${e === undefined ? 'unknown' : errorText(e)})`)
}

/**
 * @param {unknown} v
 * @returns {v is Record<string, any>}
 */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * A spare Claude Code process, started and initialized, to be claimed by a session later.
 * @param {{ options?: Record<string, any>, initializeTimeoutMs?: number }} [params]
 */
async function prewarm({ options, initializeTimeoutMs } = {}) {
  if (options?.resume || options?.continue || options?.forkSession) {
    throw new Error('prewarm(): resume/continue/forkSession describe a session; a spare has none — pass them to query() instead')
  }
  const parking = await parkingDir(options)
  const removeParking = () => (parking.owned ? fs.promises.rm(parking.dir, { recursive: true, force: true }).catch(() => {}) : Promise.resolve())

  // workspaceTrust attests a session's folder: it belongs to the claim, not to the spare.
  const { workspaceTrust, ...hostOptions } = options ?? {}
  if (workspaceTrust !== undefined) debugLog(options, 'warn', 'prewarm(): workspaceTrust is a per-session attestation — pass it to claim(); not sent to the spare')
  const opts = {
    ...hostOptions,
    cwd: parking.dir,
    extraArgs: { ...(options?.extraArgs ?? {}), 'await-claim': null },
    initializeTimeoutMs: initializeTimeoutMs ?? DEFAULT_INITIALIZE_TIMEOUT_MS,
  }
  const q = new Query(WARM, opts)
  // The parked query's internals, for reading ahead, watching frames and the claim.
  const port = new QueryPort(q)
  try {
    if (port.startError) throw port.startError
    await q.initializationResult()
  } catch (e) {
    q.close()
    await removeParking()
    throw e
  }
  const sdkServers = Object.entries(options?.mcpServers ?? {}).filter(([, c]) => c && c.type === 'sdk').map(([name]) => name)

  let claimedOnce = false
  let closed = false
  let exitedFlag = false
  /** @type {{ resolve: (info: object) => void, reject: (error: unknown) => void }} */
  let settle = { resolve: () => {}, reject: () => {} } // replaced at once by the promise's own
  /** @type {Promise<object>} */
  const claimed = new Promise((resolve, reject) => { settle = { resolve, reject } })
  claimed.catch(() => {})
  // The parked process's frames and its end are seen by reading ahead while it is parked
  // (nothing is consumed: the claimed Query delivers what was read).
  const readAhead = () => {
    port.readAhead().then(() => { if (!claimedOnce && !closed && !port.finished) readAhead() }, () => {})
  }
  readAhead()
  const exited = port.ended.then(() => undefined)
  let gone
  const whenGone = () => (gone ??= exited.then(removeParking))
  exited.then(() => {
    if (!claimedOnce) {
      exitedFlag = true
      settle.reject(new Error('spare_exited: the spare process exited before it was claimed'))
      whenGone()
    }
  })

  const spare = {
    claimed,
    exited,
    /**
     * Reports the parked process's slash commands: once from its initialize answer, then at each
     * `commands_changed` it pushes, until the spare is claimed or closed. Errors the callback
     * throws are logged (debug output), as the official logs them.
     */
    /** @param {(commands: unknown[]) => void} callback */
    onCommands(callback) {
      /** @param {unknown[]} commands */
      const report = (commands) => {
        try { callback(commands) } catch (e) { commandsError(e) }
      }
      port.observeFrames((frame) => {
        if (!claimedOnce && !closed && frame.type === 'system' && frame.subtype === 'commands_changed' && Array.isArray(frame.commands)) report(frame.commands)
      })
      q.supportedCommands().then((commands) => {
        if (!claimedOnce && !closed && !exitedFlag) callback(commands)
      }).catch(commandsError)
    },
    /** @param {{ prompt?: string | AsyncIterable<object>, options?: Record<string, any> }} [params] */
    claim({ prompt, options: claim } = {}) {
      if (claimedOnce) throw new Error('SpareProcess.claim() can only be called once')
      if (closed || exitedFlag) throw new Error('SpareProcess.claim(): the spare was closed or has exited; start the session with query()')
      if (!isObject(claim)) throw new TypeError('SpareProcess.claim(): `options` must be an object with the session\'s `cwd`')
      const hookKeys = HOOK_SETTING_KEYS.filter((k) => claim.settings?.[k] !== undefined)
      if (hookKeys.length > 0) {
        throw new Error(`SpareProcess.claim(): hook settings (${hookKeys.join(', ')}) cannot be applied at claim; pass them to prewarm() in Options.settings, where they are in force before any hook, as on a cold start. Nothing was sent: this spare can still be claimed without them.`)
      }
      const cwd = claimCwd(claim.cwd)
      claimedOnce = true
      const trust = checkWorkspaceTrust(claim.workspaceTrust, options)
      const overlay = claim.settings
      const overlayIsObject = isObject(overlay)
      /** @type {Record<string, unknown>} */
      const following = {}
      /** @type {Record<string, unknown>} */
      const ahead = {}
      if (overlayIsObject) {
        for (const [k, v] of Object.entries(overlay)) (FOLLOWING_KEYS.includes(k) ? following : ahead)[k] = v
      }
      // The overlay's other keys go ahead of the claim: they decide what the claim starts.
      const aheadDone = overlay !== undefined && (!overlayIsObject || Object.keys(ahead).length > 0) ? q.applyFlagSettings(overlayIsObject ? ahead : overlay) : undefined
      const claimDone = port.control({
        subtype: 'claim_session',
        cwd,
        ...(claim.permissionMode !== undefined && { permission_mode: claim.permissionMode }),
        ...(claim.env && { env: claim.env }),
        ...(claim.additionalDirectories && { additional_directories: claim.additionalDirectories }),
        ...(claim.appendSystemPrompt !== undefined && { append_system_prompt: claim.appendSystemPrompt }),
        ...(claim.title !== undefined && { title: claim.title }),
        ...(claim.agents && { agents: agentsForCli(claim.agents) }),
        ...(trust?.accepted === true && { workspace_trust: trust }),
        sdk_mcp_servers: sdkServers,
        include_initialize: true,
      })
      // The claimed session's initialize answer replaces the parked one.
      const parkedInit = q.initializationResult()
      const claimedInit = claimDone.then(
        async (r) => (r?.initialize === undefined ? parkedInit : { ...(await parkedInit.catch(() => ({}))), ...r.initialize }),
        () => parkedInit,
      )
      claimedInit.catch(() => {})
      port.overrideInit(claimedInit)
      /** @type {Array<[string, Promise<unknown>]>} */
      const pending = []
      if (claim.model !== undefined) pending.push(['model', q.setModel(claim.model)])
      if (claim.maxThinkingTokens !== undefined) pending.push(['maxThinkingTokens', q.setMaxThinkingTokens(claim.maxThinkingTokens)])
      const followingDone = Object.values(following).some((v) => v !== undefined) ? q.applyFlagSettings(following) : undefined
      const settingsDone = overlay !== undefined ? Promise.all([aheadDone, followingDone]) : undefined
      if (settingsDone !== undefined) pending.push(['settings', settingsDone])
      for (const [, p] of pending) p.catch(() => {})

      // Without an overlay the prompt follows the claim's answer, refused or not (a refused claim
      // answers it with the not_claimed error result). Written at once it could reach the CLI
      // ahead of the claim, which goes through the engine's control channel.
      const attach = () => {
        if (settingsDone === undefined && !closed) try { port.attachPrompt(prompt) } catch {}
      }
      claimDone.then(async (r) => {
        attach()
        void removeParking()
        const info = { cwd: r?.cwd ?? cwd, sessionId: r?.session_id, parkedMs: r?.parked_ms, sdkMcpSettled: r?.sdk_mcp_settled }
        const results = await Promise.allSettled(pending.map(([, p]) => p))
        const failures = results.flatMap((res, k) => (res.status === 'rejected' ? [`${pending[k][0]}: ${errorText(res.reason)}`] : []))
        const settingsResult = settingsDone === undefined ? undefined : results[pending.findIndex(([name]) => name === 'settings')]
        if (settingsResult?.status === 'rejected') {
          closed = true
          q.close()
          settle.reject(reasonError(`settings_not_applied: ${errorText(settingsResult.reason)} — the prompt was not sent and the process was closed; start the session with query()`, info))
        } else if (failures.length > 0) {
          settle.reject(reasonError(`option_not_applied: ${failures.join('; ')} — the prompt was sent and the session runs without these options`, info))
        } else {
          settle.resolve(info)
        }
      }, (e) => {
        // Refused: the CLI answers the prompt with its `not_claimed` result and exits.
        attach()
        port.endInput()
        whenGone()
        settle.reject(e)
      })
      if (settingsDone === undefined) return q
      // With an overlay the prompt waits until the process has accepted it.
      Promise.all([claimDone, settingsDone]).then(() => {
        if (closed) return
        try { port.attachPrompt(prompt) } catch {}
      }, () => {})
      return q
    },
    close() {
      if (closed) return
      closed = true
      if (claimedOnce) q.close()
      else {
        q.close()
        settle.reject(new Error('spare_closed: the spare was closed before it was claimed'))
      }
      whenGone()
    },
  }
  if (ASYNC_DISPOSE) {
    /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (spare))[ASYNC_DISPOSE] = async () => {
      spare.close()
      await whenGone()
    }
  }
  return spare
}

module.exports = { prewarm }
