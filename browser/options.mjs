// @ts-check
// Checks of the browser query()'s options, made before anything is sent: the official's checks
// (dialog kinds need onUserDialog; hooks and jsonSchema must be sendable in initialize; only
// in-process MCP servers) plus clear errors for what the official would only fail on later
// (no transport or two, a URL or id that is not a string, a prompt that is not an async iterable).

function fail(message) {
  throw new TypeError(`claude-agent-sdk-native/browser query(): ${message}`)
}

export function checkDialogKinds({ supportedDialogKinds, onUserDialog }) {
  if (supportedDialogKinds !== undefined && supportedDialogKinds.length > 0 && !onUserDialog) {
    throw new Error('supportedDialogKinds requires an onUserDialog callback -- declaring dialog kinds without a handler would park dialogs nothing can answer. Provide onUserDialog, or omit supportedDialogKinds.')
  }
}

/** The official's test that hooks and jsonSchema can be sent in initialize. */
export function checkInitializeSendable({ hooks, jsonSchema, initConfig }) {
  let field = 'hooks'
  try {
    const fields = {
      hooks: Object.entries(hooks ?? {}).map(([event, matchers]) => {
        if (!matchers) return []
        if (!Array.isArray(matchers)) throw new Error(`hooks.${event} must be an array of matchers`)
        return matchers.map((m, i) => {
          if (!Array.isArray(m?.hooks)) throw new Error(`hooks.${event}[${i}].hooks must be an array of callbacks`)
          return { matcher: m.matcher, timeout: m.timeout, onFailure: m.onFailure, whenUnanswered: m.whenUnanswered }
        })
      }),
      'outputFormat or jsonSchema': jsonSchema,
      ...initConfig,
    }
    for (const [name, value] of Object.entries(fields)) {
      field = name
      JSON.stringify(value)
    }
  } catch (err) {
    const [first] = (err instanceof Error ? err.message : String(err)).split('\n')
    throw new Error(`The session was not started, because the ${field} option can't be sent to Claude Code: ${first?.replace(/\.$/, '')}. Fix that value and try again.`)
  }
}

function checkUrl(name, value, protocols) {
  if (typeof value !== 'string' || value === '') fail(`${name} must be a URL string, got ${value === '' ? 'an empty string' : typeof value}`)
  let url
  try {
    url = new URL(value)
  } catch {
    fail(`${name} is not a valid URL: ${JSON.stringify(value)}`)
  }
  if (!protocols.includes(url.protocol)) fail(`${name} must use ${protocols.map((p) => p + '//').join(' or ')}, got ${JSON.stringify(value)}`)
}

export function checkQueryOptions(options) {
  if (typeof options !== 'object' || options === null) fail('options must be an object with `prompt` and `websocket` or `sse`')
  const { prompt, websocket, sse } = options
  if (prompt === null || typeof prompt !== 'object' || typeof prompt[Symbol.asyncIterator] !== 'function') {
    fail('`prompt` must be an AsyncIterable of SDKUserMessage (the browser entry streams input)')
  }
  if (websocket && sse) fail('give exactly one of `websocket` or `sse`, not both')
  if (!websocket && !sse) fail('give one of `websocket: { url }` or `sse: { streamUrl, sendUrl, sessionId }`')
  if (websocket) {
    if (typeof websocket !== 'object') fail('`websocket` must be an object with `url`')
    checkUrl('websocket.url', websocket.url, ['ws:', 'wss:'])
  } else {
    if (typeof sse !== 'object') fail('`sse` must be an object with `streamUrl`, `sendUrl` and `sessionId`')
    checkUrl('sse.streamUrl', sse.streamUrl, ['http:', 'https:'])
    checkUrl('sse.sendUrl', sse.sendUrl, ['http:', 'https:'])
    if (typeof sse.sessionId !== 'string' || sse.sessionId === '') fail('sse.sessionId must be a non-empty string (the CCR session id)')
  }
}
