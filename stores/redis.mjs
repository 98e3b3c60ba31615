// @ts-check
// ESM entry of claude-agent-sdk-native/stores/redis.
import m from './redis.js'

export const { RedisSessionStore } = m
