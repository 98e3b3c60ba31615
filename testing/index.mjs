// @ts-check
// ESM entry of claude-agent-sdk-native/testing: re-exports the CommonJS implementation.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const testing = require('./index.js')

export const {
  runSessionStoreConformance,
  sessionStoreContracts,
  startScriptedModel,
  toolResults,
  lastToolResult,
  toolResultText,
  lastUserText,
  systemText,
  toolNames,
  isAgentTurn,
  stripReminders,
  SIDE_AGENT_MARKERS,
  startScriptedResponses,
  responsesLastUserText,
  functionCallOutputs,
  lastFunctionCallOutput,
  responsesToolNames,
} = testing
export default testing
