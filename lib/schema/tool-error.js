// @ts-check
'use strict'
// A handler that throws or rejects: the official McpServer catches it and answers
// { content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }], isError: true }.
// (Read through ../thrown, which never throws, whatever the value.)
const { isError, field, safeString } = require('../thrown')

/** The isError tool result for anything a handler throws (or rejects with). */
/** @param {unknown} err */
function errorResultFromThrow(err) {
  let text = isError(err) ? field(err, 'message') : safeString(err) // Object.create(null): the official fails here
  if (typeof text !== 'string') text = `The tool threw an Error whose message is not a string: ${safeString(text)}`
  return { content: [{ type: 'text', text }], isError: true }
}

module.exports = { errorResultFromThrow }
