// @ts-check
// What the SSE transport accepts from the session's event stream, as the official browser
// entry decides it: display-only system status frames allowed on ephemeral_event (copied down
// to their known fields), and the tests that keep worker-output-shaped `user` frames (tool
// results, command output, peer and channel messages…) from any source but the worker.

/** Payload types a non-worker source may send (everything else from them is dropped). */
export const PEER_TYPES = new Set(['user', 'env_manager_log'])

/** Echoes of this client's own requests, dropped quietly (counted as expected_echo). */
export const CONTROL_TYPES = new Set(['control_request', 'control_cancel_request'])

const DISPLAY_ONLY_SYSTEM = new Map([
  ['thinking_tokens', ['estimated_tokens', 'estimated_tokens_delta', 'user_message_uuid']],
  ['post_turn_summary', ['summarizes_uuid', 'status_category', 'status_detail', 'needs_action']],
  ['task_summary', ['detail']],
  ['commands_changed', ['commands']],
])

/** A display-only `system` status frame, copied down to its fields; null for anything else. */
export function displayOnlySystemFrame(payload) {
  const subtype = payload.subtype
  if (payload.type !== 'system' || typeof subtype !== 'string') return null
  const fields = DISPLAY_ONLY_SYSTEM.get(subtype)
  if (!fields) return null
  const out = { type: 'system', subtype, uuid: payload.uuid, session_id: payload.session_id }
  for (const f of fields) if (f in payload) out[f] = payload[f]
  return out
}

// Tags and prefixes of text the CLI itself writes into user turns.
const TICK = 'tick'
const CROSS_SESSION = 'cross-session-message'
const PEER = 'Another Claude session sent a message'
const PEER_PREFIXES = [`${PEER} while you were working:\n`, `${PEER}:\n`, 'A peer session sent a message while you were working:\n']
const CROSS_SESSION_TAG = new RegExp(`^<${CROSS_SESSION}(?:[ \\t][^>\\r\\n\\v\\f\\u0085\\u2028\\u2029]*)?>`)
const TICK_OPEN = new RegExp(`<${TICK}[\\s>]`, 'i')
const TICK_CLOSE = new RegExp(`</${TICK}>`, 'i')

function isCrossSessionMessage(text) {
  if (CROSS_SESSION_TAG.test(text)) return true
  const prefix = PEER_PREFIXES.find((p) => text.startsWith(p))
  return prefix !== undefined && CROSS_SESSION_TAG.test(text.slice(prefix.length))
}

function isWorkerOutputText(text) {
  if (
    text.startsWith('<bash-stdout') || text.startsWith('<bash-stderr') ||
    text.startsWith('<local-command-stdout') || text.startsWith('<local-command-stderr') ||
    text.startsWith('<channel source="') || text.startsWith('<teammate-message ') || text.startsWith('<teammate-message>')
  ) return true
  if (isCrossSessionMessage(text)) return true
  if ((text.startsWith('A message arrived from ') || text.startsWith(PEER)) && text.startsWith('<', text.indexOf('\n') + 1)) return true
  const prefix = PEER_PREFIXES.find((p) => text.startsWith(p))
  if (prefix !== undefined && text.startsWith('<', prefix.length)) return true
  if (TICK_OPEN.test(text) && TICK_CLOSE.test(text)) return true
  return ['<bash-input>', '<command-message>', '<user-memory-input>', '<task-notification', '<mcp-resource-update', '<mcp-polling-update', '<fork-boilerplate>', '<local-command-caveat>'].some((s) => text.includes(s))
}

/** A `user` frame shaped like the worker's own output (only the worker may send those). */
export function isWorkerOutputShaped(payload) {
  if (payload.tool_use_result !== undefined || payload.plugin_prompt !== undefined) return true
  const content = payload.message?.content
  if (typeof content === 'string') return isWorkerOutputText(content)
  return Array.isArray(content) && content.some((b) => typeof b === 'object' && b !== null && 'type' in b &&
    (b.type === 'tool_result' || (b.type === 'text' && 'text' in b && typeof b.text === 'string' && isWorkerOutputText(b.text))))
}

/** A `user` frame whose content array holds a text block without string text. */
export function hasMalformedContent(payload) {
  const content = payload.message?.content
  return Array.isArray(content) && !content.every((b) => typeof b === 'object' && b !== null && (b.type !== 'text' || typeof b.text === 'string'))
}

const CONTROL_CHARS = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu

/** A server-supplied string made safe to log: control characters removed, at most `max` chars. */
export function logSafe(value, max = 64) {
  const s = (typeof value === 'string' ? value : String(value)).replace(CONTROL_CHARS, '')
  if (s.length <= max) return s
  const cut = s.slice(0, max)
  const last = cut.charCodeAt(max - 1)
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut
}

/** A positive safe integer from a number or a decimal string (an SSE id, a sequence_num). */
export function sequenceNumber(value) {
  const n = typeof value === 'number' ? value : parseInt(String(value ?? ''), 10)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}
