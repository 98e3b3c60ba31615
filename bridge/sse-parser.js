// @ts-check
'use strict'
// Incremental text/event-stream parser: bytes in, events out ({ event, data, id, retry }), per
// the WHATWG rules (lines end in \n, \r\n or \r; `:` lines are comments; a blank line dispatches;
// multi-line data is joined with \n; an id containing NUL is ignored; a leading BOM is skipped).

/** @typedef {{ data?: string, event?: string, id?: string, retry?: number }} SseFields one event's fields */

class SseParser {
  /** @param {(fields: SseFields) => void} onEvent */
  constructor(onEvent) {
    this.onEvent = onEvent
    this.decoder = new TextDecoder('utf-8', { ignoreBOM: false })
    this.buffer = ''
    this.afterCR = false
    /** @type {SseFields | undefined} the event being read */
    this.fields = undefined
  }

  /** @param {Uint8Array} chunk */
  push(chunk) {
    let text = this.decoder.decode(chunk, { stream: true })
    if (this.afterCR && text.startsWith('\n')) text = text.slice(1)
    this.afterCR = false
    this.buffer += text
    let start = 0
    for (;;) {
      const nl = this.buffer.indexOf('\n', start)
      const cr = this.buffer.indexOf('\r', start)
      const end = nl === -1 ? cr : cr === -1 ? nl : Math.min(nl, cr)
      if (end === -1) break
      this.line(this.buffer.slice(start, end))
      if (this.buffer[end] === '\r') {
        if (end + 1 === this.buffer.length) {
          this.afterCR = true
          start = end + 1
          break
        }
        start = this.buffer[end + 1] === '\n' ? end + 2 : end + 1
      } else {
        start = end + 1
      }
    }
    this.buffer = this.buffer.slice(start)
  }

  /** @param {string} line */
  line(line) {
    if (line === '') {
      const fields = this.fields
      this.fields = undefined
      if (fields) this.onEvent(fields)
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const name = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    this.fields ??= {}
    switch (name) {
      case 'data': this.fields.data = this.fields.data === undefined ? value : `${this.fields.data}\n${value}`; break
      case 'event': this.fields.event = value; break
      case 'id': if (!value.includes('\0')) this.fields.id = value; break
      case 'retry': if (/^[0-9]+$/.test(value)) this.fields.retry = Number(value); break
      default: break
    }
  }
}

module.exports = { SseParser }
