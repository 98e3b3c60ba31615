// @ts-check
'use strict'
// The bridge's debug trail: written to stderr when CLAUDE_AGENT_SDK_DEBUG_BRIDGE is set, and
// nowhere otherwise (the official package writes the same lines to its own debug log).

/** @param {string} line */
function debug(line) {
  if (process.env.CLAUDE_AGENT_SDK_DEBUG_BRIDGE) process.stderr.write(`${line}\n`)
}

module.exports = { debug }
