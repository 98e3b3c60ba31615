// @ts-check
'use strict'
// claude-agent-sdk-native/stores/redis: RedisSessionStore (needs the optional peer dependency `ioredis`).
module.exports = require('../lib/stores/redis.js')
