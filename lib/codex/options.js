// @ts-check
'use strict'
// The options of @openai/codex-sdk as `codex app-server` takes them: CodexOptions become the
// process's `-c key=value` overrides and environment (as the official SDK gives `codex exec`),
// ThreadOptions the params of `thread/start` / `thread/resume`, a run's input `turn/start`'s.

const TOML_BARE_KEY = /^[A-Za-z0-9_-]+$/

/** A TOML key: bare when it can be, else quoted. */
function tomlKey(key) {
  return TOML_BARE_KEY.test(key) ? key : JSON.stringify(key)
}

/** A value as a TOML literal (strings, finite numbers, booleans, arrays, inline tables). */
function tomlValue(value, where) {
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`Codex config ${where}: ${value} cannot be written as TOML`)
    return String(value)
  }
  if (typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return `[${value.map((v, i) => tomlValue(v, `${where}[${i}]`)).join(', ')}]`
  if (value && typeof value === 'object') {
    const parts = Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v, `${where}.${k}`)}`)
    return `{${parts.join(', ')}}`
  }
  throw new TypeError(`Codex config ${where}: a ${value === null ? 'null' : typeof value} cannot be written as TOML (use a string, number, boolean, array or object)`)
}

/** `config` (a nested object) as `key.path=value` overrides, leaves flattened to dotted paths. */
function configOverrides(config, prefix = '', out = []) {
  if (config === undefined) return out
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    if (!prefix) throw new TypeError('Codex options.config must be a plain object')
    out.push(`${prefix}=${tomlValue(config, prefix)}`)
    return out
  }
  const entries = Object.entries(config).filter(([, v]) => v !== undefined)
  if (prefix && entries.length === 0) out.push(`${prefix}={}`)
  for (const [key, value] of entries) {
    if (key === '') throw new TypeError('Codex options.config keys must be non-empty strings')
    const path = prefix ? `${prefix}.${tomlKey(key)}` : tomlKey(key)
    if (value && typeof value === 'object' && !Array.isArray(value)) configOverrides(value, path, out)
    else out.push(`${path}=${tomlValue(value, path)}`)
  }
  return out
}

/** Every `-c` override the process starts with, in the official SDK's order. */
function processOverrides(options) {
  const out = configOverrides(options.config)
  if (options.configOverrides !== undefined) {
    if (!Array.isArray(options.configOverrides) || options.configOverrides.some((o) => typeof o !== 'string')) {
      throw new TypeError('Codex options.configOverrides must be an array of "key=value" strings')
    }
    out.push(...options.configOverrides)
  }
  if (options.baseUrl) out.push(`openai_base_url=${tomlValue(options.baseUrl, 'baseUrl')}`)
  return out
}

/** The process's whole environment: `env` exactly when given (as the official), else ours. */
function processEnv(options) {
  const env = {}
  const source = options.env ?? process.env
  if (options.env !== undefined && (typeof options.env !== 'object' || options.env === null)) throw new TypeError('Codex options.env must be an object of strings')
  for (const [k, v] of Object.entries(source)) if (typeof v === 'string') env[k] = v
  if (options.apiKey) env.CODEX_API_KEY = options.apiKey
  return env
}

const THREAD_KEYS = new Set([
  'model', 'threadSource', 'sandboxMode', 'workingDirectory', 'skipGitRepoCheck', 'modelReasoningEffort',
  'networkAccessEnabled', 'webSearchMode', 'webSearchEnabled', 'approvalPolicy', 'additionalDirectories',
  // ours
  'mcpServers', 'onApproval', 'onUserInput', 'onElicitation', 'stderr', 'config',
])

/**
 * `thread/start`'s params for ThreadOptions. As `codex exec`, approvals default to `never` (the
 * official SDK runs non-interactively); pass `approvalPolicy` and `onApproval` to be asked.
 */
function threadParams(options = {}) {
  for (const key of Object.keys(options)) {
    if (!THREAD_KEYS.has(key)) throw new TypeError(`Unknown Codex thread option \`${key}\``)
  }
  const p = {}
  const config = {}
  if (options.model !== undefined) p.model = String(options.model)
  if (options.workingDirectory !== undefined) p.cwd = String(options.workingDirectory)
  if (options.sandboxMode !== undefined) p.sandbox = options.sandboxMode
  p.approvalPolicy = options.approvalPolicy ?? 'never'
  if (options.threadSource !== undefined) p.threadSource = String(options.threadSource)
  if (options.modelReasoningEffort !== undefined) config.model_reasoning_effort = options.modelReasoningEffort
  if (options.networkAccessEnabled !== undefined) config['sandbox_workspace_write.network_access'] = !!options.networkAccessEnabled
  if (options.webSearchMode !== undefined) config.web_search = options.webSearchMode
  else if (options.webSearchEnabled === true) config.web_search = 'live'
  else if (options.webSearchEnabled === false) config.web_search = 'disabled'
  if (options.additionalDirectories !== undefined) {
    if (!Array.isArray(options.additionalDirectories)) throw new TypeError('Codex thread option additionalDirectories must be an array of paths')
    config['sandbox_workspace_write.writable_roots'] = options.additionalDirectories.map(String)
  }
  if (options.config !== undefined) Object.assign(config, options.config)
  if (Object.keys(config).length) p.config = config
  return p
}

/** A run's input as `turn/start`'s `input`: text parts joined as the official joins them, then images. */
function turnInput(input) {
  if (typeof input === 'string') return [{ type: 'text', text: input, text_elements: [] }]
  if (!Array.isArray(input)) throw new TypeError('Codex input must be a string or an array of { type: "text" | "local_image" } items')
  const texts = []
  const images = []
  for (const item of input) {
    if (item?.type === 'text') texts.push(String(item.text))
    else if (item?.type === 'local_image') images.push({ type: 'localImage', path: String(item.path) })
    else throw new TypeError(`Codex input item of type ${JSON.stringify(item?.type)} is not "text" or "local_image"`)
  }
  return [{ type: 'text', text: texts.join('\n\n'), text_elements: [] }, ...images]
}

module.exports = { configOverrides, processOverrides, processEnv, threadParams, turnInput, tomlValue }
