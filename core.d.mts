// Typings of claude-agent-sdk-native/core as an ES module: the root's declarations.
export * from './index.js'
