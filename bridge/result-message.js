// @ts-check
'use strict'
// The turn-boundary `result` message a bridge session writes (sendResult), as the official
// `./bridge` writes it: a success with zero usage.
const { randomUUID } = require('node:crypto')

function emptyUsage() {
  return {
    output_tokens_details: { thinking_tokens: 0 },
    input_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 0,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    inference_geo: '',
    iterations: [],
    speed: 'standard',
    fallback_credit: null,
  }
}

/** @param {string} sessionId */
function resultMessage(sessionId) {
  return {
    type: 'result',
    duration_ms: 0,
    duration_api_ms: 0,
    total_cost_usd: 0,
    usage: emptyUsage(),
    modelUsage: {},
    permission_denials: [],
    session_id: sessionId,
    uuid: randomUUID(),
    subtype: 'success',
    is_error: false,
    num_turns: 0,
    result: '',
    stop_reason: null,
  }
}

module.exports = { resultMessage }
