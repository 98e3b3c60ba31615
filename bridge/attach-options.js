// @ts-check
'use strict'
// Checks of attachBridgeSession's options and reconnectTransport's: a missing or mistyped field
// is a TypeError naming it.
const { describe, requireString, requireHttpUrl, requireFunction } = require('./arguments.js')

const CALLBACKS = ['onInboundMessage', 'onPermissionResponse', 'onInterrupt', 'onStopTask', 'onBackgroundTasks', 'onSetModel', 'onSetMaxThinkingTokens', 'onSetPermissionMode', 'onRenameSession', 'onClose']

function optionalInteger(fn, name, value, min) {
  if (value === undefined) return
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw new TypeError(`${fn}: ${name} must be an integer >= ${min} or undefined, got ${describe(value)}`)
}

function checkAttachOptions(opts) {
  const fn = 'attachBridgeSession'
  if (opts === null || typeof opts !== 'object') throw new TypeError(`${fn}: options must be an object ({ sessionId, ingressToken, apiBaseUrl, … }), got ${describe(opts)}`)
  requireString(fn, 'sessionId', opts.sessionId)
  requireString(fn, 'ingressToken', opts.ingressToken)
  requireHttpUrl(fn, 'apiBaseUrl', opts.apiBaseUrl)
  optionalInteger(fn, 'epoch', opts.epoch, 0)
  optionalInteger(fn, 'initialSequenceNum', opts.initialSequenceNum, 0)
  if (opts.heartbeatIntervalMs !== undefined && (typeof opts.heartbeatIntervalMs !== 'number' || !(opts.heartbeatIntervalMs > 0) || !Number.isFinite(opts.heartbeatIntervalMs))) throw new TypeError(`${fn}: heartbeatIntervalMs must be a positive number of milliseconds or undefined, got ${describe(opts.heartbeatIntervalMs)}`)
  if (opts.outboundOnly !== undefined && typeof opts.outboundOnly !== 'boolean') throw new TypeError(`${fn}: outboundOnly must be a boolean or undefined, got ${describe(opts.outboundOnly)}`)
  requireString(fn, 'claudeCodeVersion', opts.claudeCodeVersion, { optional: true })
  for (const name of CALLBACKS) requireFunction(fn, name, opts[name])
}

function checkReconnectOptions(opts) {
  const fn = 'reconnectTransport'
  if (opts === null || typeof opts !== 'object') throw new TypeError(`${fn}: options must be an object ({ ingressToken, apiBaseUrl, epoch? }), got ${describe(opts)}`)
  requireString(fn, 'ingressToken', opts.ingressToken)
  requireHttpUrl(fn, 'apiBaseUrl', opts.apiBaseUrl)
  optionalInteger(fn, 'epoch', opts.epoch, 0)
}

module.exports = { checkAttachOptions, checkReconnectOptions }
