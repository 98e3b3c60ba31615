// @ts-check
'use strict'
// A handler that throws or rejects: the official McpServer catches it and answers
// { content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }], isError: true }.

/** The isError tool result for anything a handler throws (or rejects with). */
function errorResultFromThrow(err) {
  let text
  if (err instanceof Error) {
    text = err.message
  } else {
    try {
      text = String(err)
    } catch {
      text = Object.prototype.toString.call(err) // e.g. Object.create(null); the official fails here
    }
  }
  if (typeof text !== 'string') {
    let shown
    try { shown = String(text) } catch { shown = Object.prototype.toString.call(text) }
    text = `The tool threw an Error whose message is not a string: ${shown}`
  }
  return { content: [{ type: 'text', text }], isError: true }
}

module.exports = { errorResultFromThrow }
