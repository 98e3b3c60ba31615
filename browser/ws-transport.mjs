// @ts-check
// The WebSocket transport of the official browser entry: one socket to the remote session, each
// frame one or more NDJSON lines (a line may span frames), every line a stream-json message.
// On open: the optional auth message as the first frame, then a keep_alive line every 50 s.
// A close other than 1000/1001 ends the stream with "WebSocket closed abnormally with code …".
import { MessageQueue } from './queue.mjs'
import { connectionGate } from './gate.mjs'
import { AbortError } from './errors.mjs'

const CONNECT_TIMEOUT_MS = 15000
const KEEP_ALIVE_MS = 50000

export class WebSocketTransport {
  #options
  #ws
  #ready = false
  #messages = new MessageQueue()
  #exitError
  #gate = connectionGate()
  #abortHandler
  #keepAlive
  #partialLine = ''

  constructor(options) {
    this.#options = options
    this.abortController = options.abortController || new AbortController()
    this.#open()
  }

  #open() {
    try {
      const url = new URL(this.#options.url)
      if (!url.protocol.startsWith('ws')) throw new Error('WebSocket URL must use ws:// or wss:// protocol')
      const WS = globalThis.WebSocket
      const ws = (this.#ws = new WS(url.toString()))
      const timer = setTimeout(() => {
        if (this.#ready) return
        this.#ws?.close()
        const err = new Error(`WebSocket connection timeout after ${CONNECT_TIMEOUT_MS}ms`)
        this.#exitError = err
        this.#gate.fail(err)
      }, CONNECT_TIMEOUT_MS)
      ws.onopen = () => {
        clearTimeout(timer)
        this.#ready = true
        this.#gate.open()
        if (this.#options.authMessage) {
          try {
            ws.send(JSON.stringify(this.#options.authMessage) + '\n')
          } catch {}
        }
        this.#keepAlive = setInterval(() => {
          if (ws.readyState === WS.OPEN) {
            try {
              ws.send(JSON.stringify({ type: 'keep_alive' }) + '\n')
            } catch {}
          }
        }, KEEP_ALIVE_MS)
      }
      ws.onerror = () => {
        clearTimeout(timer)
        this.#ready = false
        const err = new Error('WebSocket connection error')
        this.#exitError = err
        this.#gate.fail(err)
        this.#messages.done()
      }
      ws.onclose = (event) => {
        this.#ready = false
        clearInterval(this.#keepAlive)
        this.#keepAlive = undefined
        if (event.code !== 1000 && event.code !== 1001) {
          this.#exitError = new Error(`WebSocket closed abnormally with code ${event.code}: ${event.reason}`)
        }
        this.#messages.done()
      }
      ws.onmessage = (event) => {
        if (typeof event.data !== 'string') return
        const lines = (this.#partialLine + event.data).split('\n')
        this.#partialLine = lines.pop() ?? ''
        for (const line of lines) {
          if (!line) continue
          let message
          try {
            message = JSON.parse(line)
          } catch {
            continue // the official drops a line that is not JSON
          }
          // An envelope is the transport's to tell, never a sender's claim.
          if (typeof message === 'object' && message !== null && 'ccr_event' in message) delete message.ccr_event
          this.#messages.enqueue(message)
        }
      }
      this.#abortHandler = () => {
        this.close()
        this.#exitError = new AbortError('WebSocket connection aborted by user')
      }
      if (this.abortController.signal.aborted) this.#abortHandler()
      else this.abortController.signal.addEventListener('abort', this.#abortHandler)
    } catch (err) {
      this.#ready = false
      this.#exitError = err
      this.#gate.fail(err)
      throw err
    }
  }

  async write(data) {
    if (this.abortController.signal.aborted) throw new AbortError('Operation aborted')
    if (!this.#ready) await this.#gate.promise
    if (!this.#ready || !this.#ws || this.#ws.readyState !== globalThis.WebSocket.OPEN) {
      throw new Error('WebSocketTransport is not ready for writing')
    }
    this.#ws.send(data)
  }

  close() {
    if (this.#abortHandler) {
      this.abortController.signal.removeEventListener('abort', this.#abortHandler)
      this.#abortHandler = undefined
    }
    clearInterval(this.#keepAlive)
    this.#keepAlive = undefined
    if (this.#ws && this.#ws.readyState === globalThis.WebSocket.OPEN) this.#ws.close(1000, 'Normal closure')
    this.#ready = false
    this.#messages.done()
  }

  isReady() {
    return this.#ready && this.#ws?.readyState === globalThis.WebSocket.OPEN
  }

  endInput() {}

  async *readMessages() {
    yield* this.#messages
    if (this.#exitError) throw this.#exitError
  }
}
