// Typings of claude-agent-sdk-native/core (the official `core` entry): the root's declarations.
export * from './index.js'
