// @ts-check
'use strict'
// claude-agent-sdk-native/bridge: the official package's `./bridge` entry — attach to a Remote
// Control (CCR) session as its worker, create code sessions, mint worker credentials.
const { attachBridgeSession } = require('./session.js')
const { createCodeSession, isCreateSessionFailure } = require('./code-session.js')
const { fetchRemoteCredentials, isCredentialsFailure, isCredentialsRejection } = require('./credentials.js')

// As the official entry does when it loads: Windows must not find executables in the current
// directory before PATH.
process.env.NoDefaultCurrentDirectoryInExePath = '1'

module.exports = { attachBridgeSession, createCodeSession, fetchRemoteCredentials, isCreateSessionFailure, isCredentialsFailure, isCredentialsRejection }
