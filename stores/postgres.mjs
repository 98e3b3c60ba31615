// @ts-check
// ESM entry of claude-agent-sdk-native/stores/postgres.
import m from './postgres.js'

export const { PostgresSessionStore } = m
