// @ts-check
'use strict'
// claude-agent-sdk-native/codex: a drop-in for @openai/codex-sdk. The same `Codex`, `Thread`,
// `run()`, `runStreamed()` and events, over one long-lived `codex app-server` per thread (owned
// by the Rust engine), with in-process tools: the createSdkMcpServer() servers a Claude query
// uses, given as `mcpServers` in the thread options, and callbacks for Codex's approvals and
// questions (`onApproval`, `onUserInput`, `onElicitation`).
const { Thread } = require('./thread')

class Codex {
  constructor(options = {}) {
    if (options === null || typeof options !== 'object') throw new TypeError('Codex options must be an object')
    this._options = options
  }

  /** Starts a new conversation with an agent. */
  startThread(options = {}) {
    return new Thread(this._options, options, null)
  }

  /** Resumes a conversation by its id (threads are persisted in CODEX_HOME's sessions). */
  /**
   * @param {string} id
   * @param {object} [options]
   */
  resumeThread(id, options = {}) {
    if (typeof id !== 'string' || id === '') throw new TypeError('resumeThread: the thread id must be a non-empty string')
    return new Thread(this._options, options, id)
  }
}

module.exports = { Codex, Thread }
