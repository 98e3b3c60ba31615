// @ts-check
'use strict'
// claude-agent-sdk-native/stores/postgres: PostgresSessionStore (needs the optional peer dependency `pg`).
module.exports = require('../lib/stores/postgres.js')
