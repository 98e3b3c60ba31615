// @ts-check
// ESM entry of claude-agent-sdk-native/stores/s3.
import m from './s3.js'

export const { S3SessionStore } = m
