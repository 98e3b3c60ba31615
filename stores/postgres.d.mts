// Typings of claude-agent-sdk-native/stores/postgres as an ES module.
export * from './postgres.js'
