// Typings of claude-agent-sdk-native/stores/redis as an ES module.
export * from './redis.js'
