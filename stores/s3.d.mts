// Typings of claude-agent-sdk-native/stores/s3 as an ES module.
export * from './s3.js'
