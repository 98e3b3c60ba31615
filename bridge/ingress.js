// @ts-check
'use strict'
// One inbound frame of a bridge session, routed as the official `./bridge` routes it:
// control_response → the permission-response callback, control_request → the control handler,
// control_cancel_request → cancel, and a user message (or another session's queued notification
// as its user frame; not an echo of our own write, not a
// re-delivery, not a replay, not a subagent's or a display-only frame) → onInboundMessage.
// Everything else is ignored. A frame that does not parse, or a callback that throws or rejects,
// is logged and dropped.
const { debug } = require('./debug.js')

const isTyped = (v) => v !== null && typeof v === 'object' && typeof v.type === 'string'

// `requestId` (older senders) becomes `request_id`.
function normalizeRequestId(v) {
  if (v === null || typeof v !== 'object' || !('requestId' in v) || 'request_id' in v) return
  const id = v.requestId
  delete v.requestId
  if (id !== undefined && !(typeof id === 'string' && id.toLowerCase().startsWith('late-bind-'))) v.request_id = id
}

// A notification another session queued with mcp_send_message, delivered as its user frame.
function notificationAsUser(n, uuid) {
  if (n === null || typeof n !== 'object' || typeof n.notification_id !== 'string' || n.notification_id === '' || n.origin !== 'mcp_send_message' || typeof n.content !== 'string') return undefined
  return {
    type: 'user',
    uuid: n.show_to_auto_mode === true && typeof uuid === 'string' ? uuid : n.notification_id,
    message: { role: 'user', content: n.content },
    parent_tool_use_id: null,
    isSynthetic: true,
    inbound_origin: 'mcp_send_message',
  }
}

function routeInbound(line, { outboundUuids, inboundUuids, onInboundMessage, onControlResponse, onControlRequest, onCancel }) {
  let frame
  try {
    frame = JSON.parse(line)
    normalizeRequestId(frame)
    if (frame !== null && typeof frame === 'object' && frame.response !== null && typeof frame.response === 'object' && !Array.isArray(frame.response)) normalizeRequestId(frame.response)
  } catch (err) {
    debug(`[bridge:repl] Failed to parse ingress message: ${err?.message ?? err}`)
    return
  }
  try {
    if (frame !== null && typeof frame === 'object' && frame.type === 'control_response' && frame.response != null) return onControlResponse(frame)
    if (frame !== null && typeof frame === 'object' && frame.type === 'control_request' && 'request_id' in frame && frame.request != null) return onControlRequest(frame)
    if (isTyped(frame) && frame.type === 'control_cancel_request' && typeof frame.request_id === 'string') return onCancel(frame.request_id)
    if (isTyped(frame) && frame.type === 'queued_notification') {
      const user = notificationAsUser(frame.notification, frame.uuid)
      if (user === undefined) return debug('[bridge:repl] Ignoring queued_notification: host has no notification buffer')
      frame = user
    }
    if (!isTyped(frame)) return
    const uuid = typeof frame.uuid === 'string' ? frame.uuid : undefined
    if (uuid && outboundUuids.has(uuid)) return debug(`[bridge:repl] Ignoring echo: type=${frame.type} uuid=${uuid}`)
    if (uuid && inboundUuids.has(uuid)) return debug(`[bridge:repl] Ignoring re-delivered inbound: type=${frame.type} uuid=${uuid}`)
    if (frame.type !== 'user') return debug(`[bridge:repl] Ignoring non-user inbound message: type=${frame.type}`)
    if (frame.isReplay === true) return
    if ('parent_tool_use_id' in frame && frame.parent_tool_use_id != null) return
    if (frame.historical === true && frame.display_only === true) return
    if (uuid) inboundUuids.add(uuid)
    const result = onInboundMessage?.(frame)
    if (result && typeof result.then === 'function') result.then(undefined, (err) => debug(`[bridge:repl] onInboundMessage rejected: ${err?.message ?? err}`))
  } catch (err) {
    debug(`[bridge:repl] Inbound frame handler threw: ${err?.message ?? err}`)
  }
}

module.exports = { routeInbound }
