// @ts-check
// ESM entry of claude-agent-sdk-native/extract (the implementation is extract.js).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
export const { extractFromBunfs } = require('./extract.js')
