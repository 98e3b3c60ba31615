// Typings of claude-agent-sdk-native/bridge as an ES module.
export * from './index.js'
