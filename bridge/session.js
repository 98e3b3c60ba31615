// @ts-check
'use strict'
// attachBridgeSession: a handle on one existing bridge session, as the official `./bridge`
// returns it. The worker JWT lives in the handle (handles do not share credentials);
// reconnectTransport swaps the transport for one with a fresh JWT (and epoch), resuming the
// event stream at the sequence number reached and handing over the writes the old transport had
// not delivered; close() stops everything and drops them.
const { createWorkerTransport, sessionUrl } = require('./worker-transport.js')
const { routeInbound } = require('./ingress.js')
const { handleControlRequest } = require('./control.js')
const { resultMessage } = require('./result-message.js')
const { UuidRing } = require('./uuid-ring.js')
const { checkAttachOptions, checkReconnectOptions } = require('./attach-options.js')
const { debug } = require('./debug.js')

const DEDUP_CAPACITY = 2000
const CARRIED_WITHOUT_UUID = new Set(['control_request', 'control_response', 'control_cancel_request', 'result'])

async function attachBridgeSession(opts) {
  checkAttachOptions(opts)
  const { sessionId, apiBaseUrl, epoch, initialSequenceNum, heartbeatIntervalMs, outboundOnly, claudeCodeVersion, onInboundMessage, onPermissionResponse, onClose } = opts
  let token = opts.ingressToken
  const getAuthToken = () => token
  const outboundUuids = new UuidRing(DEDUP_CAPACITY)
  const inboundUuids = new UuidRing(DEDUP_CAPACITY)
  const pendingPrompts = new Map()
  let closed = false
  let transport = await createWorkerTransport({ sessionUrl: sessionUrl(apiBaseUrl, sessionId), ingressToken: token, sessionId, epoch, initialSequenceNum, heartbeatIntervalMs, outboundOnly, getAuthToken })

  function wire() {
    const current = transport
    current.setOnConnect(() => debug(`[bridge:session] Transport connected session=${sessionId}`))
    current.setOnData((line) => routeInbound(line, {
      outboundUuids,
      inboundUuids,
      onInboundMessage: outboundOnly ? undefined : onInboundMessage,
      onControlResponse: (res) => {
        let accepted = true
        try {
          accepted = onPermissionResponse?.(res) !== false
        } catch (err) {
          debug(`[bridge:session] onPermissionResponse threw: ${err?.message ?? err}`)
        }
        const dialogError = res.response.subtype === 'error' && pendingPrompts.get(res.response.request_id)?.request.subtype === 'request_user_dialog'
        if (accepted && !dialogError) pendingPrompts.delete(res.response.request_id)
      },
      onControlRequest: (frame) => handleControlRequest(frame, {
        sessionId,
        outboundOnly,
        claudeCodeVersion,
        callbacks: opts,
        getPendingPrompts: () => [...pendingPrompts.values()],
        send: (reply) => {
          if (!closed) current.write({ ...reply, session_id: sessionId })
        },
      }),
      // Only a side question can be cancelled, and a bridge session answers none.
      onCancel: () => {},
    }))
    current.setOnClose((code) => {
      if (closed) return
      debug(`[bridge:session] Transport closed session=${sessionId} code=${code}`)
      try {
        onClose?.(code)
      } catch (err) {
        debug(`[bridge:session] onClose threw: ${err?.message ?? err}`)
      }
    })
  }

  wire()
  transport.connect()

  return {
    sessionId,
    getSequenceNum: () => transport.getLastSequenceNum(),
    getEpoch: () => transport.getEpoch(),
    isConnected: () => transport.isConnectedStatus(),
    write(msg) {
      if (closed) return
      if (msg === null || typeof msg !== 'object') throw new TypeError(`write: the message must be an SDKMessage object, got ${msg === null ? 'null' : typeof msg}`)
      if (msg.uuid && outboundUuids.has(msg.uuid)) return
      if (msg.uuid) outboundUuids.add(msg.uuid)
      transport.write({ ...msg, session_id: sessionId })
    },
    sendResult() {
      if (closed) return
      transport.write(resultMessage(sessionId))
    },
    sendControlRequest(req) {
      if (req === null || typeof req !== 'object' || req.request === null || typeof req.request !== 'object') throw new TypeError('sendControlRequest: the request must be an SDKControlRequest ({ type, request_id, request })')
      if (closed) return
      if (req.request.subtype === 'can_use_tool' || req.request.subtype === 'request_user_dialog') pendingPrompts.set(req.request_id, req)
      transport.write({ ...req, session_id: sessionId })
    },
    sendControlResponse(res) {
      if (res === null || typeof res !== 'object' || res.response === null || typeof res.response !== 'object') throw new TypeError('sendControlResponse: the response must be an SDKControlResponse ({ type, response })')
      pendingPrompts.delete(res.response.request_id)
      if (closed) return
      transport.write({ ...res, session_id: sessionId })
    },
    sendControlCancelRequest(requestId) {
      pendingPrompts.delete(requestId)
      if (closed) return
      transport.write({ type: 'control_cancel_request', request_id: requestId, session_id: sessionId })
    },
    async reconnectTransport(next) {
      if (closed) return
      checkReconnectOptions(next)
      token = next.ingressToken
      const seq = transport.getLastSequenceNum()
      const previousEpoch = transport.getEpoch()
      const old = transport
      old.close({ goodbye: false, retainUndelivered: true })
      try {
        transport = await createWorkerTransport({ sessionUrl: sessionUrl(next.apiBaseUrl, sessionId), ingressToken: next.ingressToken, sessionId, epoch: next.epoch ?? previousEpoch, initialSequenceNum: seq, heartbeatIntervalMs, outboundOnly, getAuthToken })
      } catch (err) {
        const dropped = old.discardUndeliveredEvents()
        debug(`[bridge:session] Transport rebuild failed session=${sessionId}, dropped ${dropped.length} undelivered client event(s): ${err?.message ?? err}`)
        closed = true
        throw err
      }
      if (closed) {
        transport.close()
        return
      }
      wire()
      transport.connect()
      const carried = old.takeUndeliveredEvents()
      if (carried.length > 0) {
        for (const { payload } of carried) if (!CARRIED_WITHOUT_UUID.has(payload.type)) outboundUuids.add(payload.uuid)
        transport.adoptUndeliveredEvents(carried)
      }
    },
    reportState(state) {
      if (!closed) transport.reportState(state)
    },
    reportMetadata(metadata) {
      if (!closed) transport.reportMetadata(metadata)
    },
    reportDelivery(eventId, status) {
      if (!closed) transport.reportDelivery(eventId, status)
    },
    flush: () => transport.flush(),
    close() {
      if (closed) return
      closed = true
      transport.close()
    },
  }
}

module.exports = { attachBridgeSession }
