// @ts-check
'use strict'
// The option keys: those the engine takes as data (the fields of agent_core::options::QueryOptions,
// read from the addon, so that an option added there needs no list here) and those this JS host
// handles itself. An unknown key is ignored with a warning (as the official SDK ignores it); an
// official option we do not implement yet is only a warning too.
const { loadNative } = require('./native')

/**
 * Options the JS host handles itself: callbacks and live objects, and the values it prepares
 * before they cross (`canUseTool` becomes a flag, `hooks` callback ids, `env` the whole
 * environment, `mcpServers` the servers the CLI runs, `workspaceTrust` a checked attestation).
 */
const HOST = [
  'abortController', 'canUseTool', 'env', 'hooks', 'mcpServers', 'onElicitation', 'onUserDialog',
  'sessionStore', 'loadTimeoutMs', 'verbatimPrompts', 'stderr', 'spawnClaudeCodeProcess', 'workspaceTrust',
  'onProcessExit', 'onProcessSpawned', 'getOAuthToken', 'getHostAuthToken', 'workload', 'hostSpawn',
]

/**
 * Official options we do not act on yet: accepted (so apps keep compiling and running), warned.
 * @type {Set<string>}
 */
const NOT_IMPLEMENTED = new Set([
])

/** Options the official SDK reads though its Options type (and so types/options.d.ts) does not name them. */
const OFFICIAL_UNTYPED = [
  'workspaceTrust', 'allowedControlRequests', 'onProcessExit', 'onProcessSpawned', 'rapidFollowupPreempt',
  'forwardNestedSubagentToolCalls', 'offersBypassSwitchBack', 'keepsBypassHeld',
  'managedSettingsDelivery', 'settingsDelivery', 'disallowedToolsDelivery', 'getOAuthToken', 'getHostAuthToken',
  'workload', 'hostSpawn',
]

/** Options of ours that the official SDK does not have. */
const OURS = ['initializeTimeoutMs', 'resourceLimits']

/**
 * Engine fields the JS host sets from other options (`tokenCallbacks`: a `getOAuthToken` or
 * `getHostAuthToken` callback is given); no option of an app's, so an app's key of that name is unknown.
 */
const DERIVED = ['tokenCallbacks']

/** @type {string[] | undefined} */
let engine
/** The engine's option keys (asked once). @returns {string[]} */
function engineKeys() {
  if (engine === undefined) engine = loadNative().optionNames()
  return engine
}

/** @type {Set<string> | undefined} */
let known
/** Every option key we take. @returns {Set<string>} */
function knownKeys() {
  if (known === undefined) known = new Set([...engineKeys().filter((k) => !DERIVED.includes(k)), ...HOST])
  return known
}

/** @type {string[] | undefined} */
let data
/** The keys that cross to the engine as the app gave them. @returns {string[]} */
function dataKeys() {
  if (data === undefined) data = engineKeys().filter((k) => !HOST.includes(k) && !DERIVED.includes(k))
  return data
}

module.exports = {
  HOST, NOT_IMPLEMENTED, OFFICIAL_UNTYPED, OURS, DERIVED, engineKeys, knownKeys, dataKeys,
  get KNOWN() { return knownKeys() },
}
