// @ts-check
'use strict'
// claude-agent-sdk-native/codex: a drop-in for @openai/codex-sdk (see lib/codex/index.js).
module.exports = require('./lib/codex/index.js')
