// Typings of claude-agent-sdk-native/codex as an ES module.
export * from './codex.js'
