// @ts-check
'use strict'
// A worker's transport for one session (the official `./bridge`'s v2 REPL transport): the epoch
// (given, or from POST /worker/register), the write side (CcrClient) and the read side
// (SseTransport, opened once the worker is registered, unless outbound-only). Every inbound
// frame is acknowledged `received` then `processed`. Close codes: 4090 the epoch was taken over
// or the session is gone (also ten refused credentials in a row), 4091 the worker could not be
// registered, 4092 the stream closed without a code, or the stream's own HTTP status.
const { CcrClient, WorkerInitError } = require('./ccr-client.js')
const { SseTransport } = require('./sse-transport.js')
const { registerWorker } = require('./register-worker.js')
const { assertSafeId } = require('./ids.js')
const { debug } = require('./debug.js')

function sessionUrl(apiBaseUrl, sessionId) {
  assertSafeId(sessionId, 'sessionId')
  return `${apiBaseUrl.replace(/\/+$/, '')}/v1/code/sessions/${sessionId}`
}

async function createWorkerTransport({ sessionUrl: url, ingressToken, sessionId, epoch: givenEpoch, initialSequenceNum, heartbeatIntervalMs, outboundOnly, getAuthToken }) {
  const epoch = givenEpoch ?? await registerWorker(url, ingressToken)
  debug(`[bridge:repl] CCR v2: worker sessionId=${sessionId} epoch=${epoch}${givenEpoch !== undefined ? ' (from /bridge)' : ' (via registerWorker)'}`)
  const streamUrl = new URL(url)
  streamUrl.pathname = `${streamUrl.pathname.replace(/\/$/, '')}/worker/events/stream`
  const getToken = getAuthToken ?? (() => ingressToken)
  const sse = new SseTransport(streamUrl, { sessionId, initialSequenceNum, getToken })
  let onCloseHandler
  let closed = false
  let connected = false
  let onConnect

  function closeWith(code) {
    if (closed) return
    closed = true
    try {
      client.close({ goodbye: false, retainUndelivered: true })
      sse.close()
    } catch {}
    try {
      onCloseHandler?.(code)
    } catch (err) {
      debug(`[bridge:repl] onClose threw: ${err?.message ?? err}`)
    }
  }

  const client = new CcrClient(new URL(url), {
    getToken,
    heartbeatIntervalMs,
    onEpochMismatch: (cause) => {
      debug(`[bridge:repl] CCR v2: terminal request-path condition (${cause}) — closing with 4090`)
      closeWith(4090)
    },
  })
  sse.onEvent = (frame) => {
    client.reportDelivery(frame.event_id, 'received')
    client.reportDelivery(frame.event_id, 'processed')
  }

  return {
    write(payload) {
      client.writeEvent(payload)
    },
    close(opts) {
      closed = true
      client.close({ goodbye: opts?.goodbye, retainUndelivered: opts?.retainUndelivered === true })
      if (!opts?.retainUndelivered) client.discardUndelivered()
      sse.close()
    },
    takeUndeliveredEvents: () => client.takeUndelivered(),
    discardUndeliveredEvents: () => client.discardUndelivered(),
    adoptUndeliveredEvents: (events) => client.adopt(events),
    isConnectedStatus: () => connected,
    setOnData(fn) {
      sse.onData = fn
    },
    setOnClose(fn) {
      onCloseHandler = fn
      sse.onClose = (code) => closeWith(code ?? 4092)
    },
    setOnConnect(fn) {
      onConnect = fn
    },
    getLastSequenceNum: () => sse.getLastSequenceNum(),
    getEpoch: () => epoch,
    reportState: (state) => client.reportState(state),
    reportMetadata: (metadata) => client.reportMetadata(metadata),
    reportDelivery: (eventId, status) => client.reportDelivery(eventId, status),
    flush: () => client.flush(),
    connect() {
      client.initialize(epoch).then(() => {
        if (closed) return
        connected = true
        debug(`[bridge:repl] v2 transport ready for writes (epoch=${epoch}); opening the read stream`)
        onConnect?.()
        if (!outboundOnly && !closed) sse.connect()
      }, (err) => {
        debug(`[bridge:repl] CCR v2 initialize failed: ${err instanceof WorkerInitError ? err.reason : err?.message ?? err}`)
        closeWith(4091)
      })
    },
  }
}

module.exports = { createWorkerTransport, sessionUrl }
