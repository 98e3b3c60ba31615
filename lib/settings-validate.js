// @ts-check
'use strict'
// Checks settings against the shape of Claude Code's settings (lib/settings-schema.json, generated
// from the Settings typings), as the CLI's schema judges them for resolveSettings(): a user,
// project or local file with an ill-typed value is not used at all; a policy document (the
// server-managed payload, the `managedSettings` option, the managed-settings file) loses only the
// ill-typed keys. Before the check, as the CLI: keys honoured only from managed settings are
// removed from the other files, `env` values that are numbers or booleans become strings,
// permission rule lists keep only their string rules, and a malformed `hooks` is dropped.
let schema

function load() {
  schema ??= require('./settings-schema.json')
  return schema
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/** Whether `value` has the shape `node` describes. */
function valid(node, value) {
  switch (node.t) {
    case 's': return typeof value === 'string'
    case 'n': return typeof value === 'number' && Number.isFinite(value)
    case 'b': return typeof value === 'boolean'
    case 'u': return true
    case 'lit': return value === node.v
    case 'ref': return valid(load().defs[node.name], value)
    case 'or': return node.of.some((n) => valid(n, value))
    case 'arr': return Array.isArray(value) && value.every((v) => valid(node.of, v))
    case 'tup':
      return Array.isArray(value) && value.length >= node.items.length && node.items.every((n, k) => valid(n, value[k])) &&
        (node.rest ? value.slice(node.items.length).every((v) => valid(node.rest, v)) : value.length === node.items.length)
    case 'obj': {
      if (!isPlainObject(value)) return false
      for (const [key, prop] of Object.entries(node.props)) {
        const v = value[key]
        if (v === undefined) {
          if (!prop.opt) return false
        } else if (!valid(prop.s, v)) return false
      }
      if (node.idx) {
        for (const [key, v] of Object.entries(value)) {
          if (!Object.hasOwn(node.props, key) && v !== undefined && !valid(node.idx, v)) return false
        }
      }
      return true
    }
    default: return true
  }
}

/** Keys the CLI honours only from managed settings: removed from user, project and local files. */
const MANAGED_ONLY = ['managedMcpServers', 'isolation', 'attributionProjectPolicy', 'deniedModels', 'availableModelsMatch']
const RULE_LISTS = ['allow', 'deny', 'ask']
let rules
const loadRules = () => (rules ??= require('./settings-rules.json'))
let hookEvents
const loadHookEvents = () => (hookEvents ??= new Set(require('./constants').HOOK_EVENTS))

/**
 * A permission rule the CLI keeps: a tool name (capitalised, or an `mcp__` one), optionally with
 * non-empty content in parentheses.
 */
function ruleLooksValid(rule) {
  const m = /^([^()]+?)(?:\((.*)\))?$/s.exec(rule)
  if (!m) return false
  const [, tool, content] = m
  if (!/^[A-Z]/.test(tool) && !tool.startsWith('mcp__')) return false
  if (content === undefined) return !rule.includes('(')
  return content.trim() !== '' && !(tool === 'Bash' && content.startsWith(':'))
}

/** Whether `value` is of the node's kind at the top (string, number, array, object, ...). */
function kindMatches(node, value) {
  switch (node.t) {
    case 'ref': return kindMatches(load().defs[node.name], value)
    case 'or': return node.of.some((n) => kindMatches(n, value))
    case 'lit': return typeof value === typeof node.v
    case 'arr': case 'tup': return Array.isArray(value)
    case 'obj': return isPlainObject(value)
    default: return valid(node, value)
  }
}

/** The CLI's lenient steps before the check (on a copy). */
function prepare(settings, { fileSource }) {
  const out = { ...settings }
  if (fileSource) for (const key of MANAGED_ONLY) delete out[key]
  // `additionalMarketplaces` is the older name of `extraKnownMarketplaces`.
  if (out.additionalMarketplaces !== undefined) {
    if (out.extraKnownMarketplaces === undefined) out.extraKnownMarketplaces = out.additionalMarketplaces
    delete out.additionalMarketplaces
  }
  if (fileSource) {
    for (const key of ['enabledMcpjsonServers', 'disabledMcpjsonServers']) {
      if (typeof out[key] === 'string') out[key] = [out[key]]
    }
  } else if (out.allowedMarketplaces !== undefined) {
    // In a policy document `allowedMarketplaces` is the older name of `strictKnownMarketplaces`.
    if (out.strictKnownMarketplaces === undefined) out.strictKnownMarketplaces = out.allowedMarketplaces
    delete out.allowedMarketplaces
  }
  if (typeof out.attribution === 'boolean') out.attribution = out.attribution ? {} : { commit: '', pr: '', sessionUrl: false }
  if (isPlainObject(out.env)) {
    const env = {}
    for (const [k, v] of Object.entries(out.env)) env[k] = typeof v === 'string' ? v : String(v)
    out.env = env
  }
  if (isPlainObject(out.permissions)) {
    const permissions = { ...out.permissions }
    for (const list of RULE_LISTS) {
      if (Array.isArray(permissions[list])) permissions[list] = permissions[list].filter((rule) => typeof rule === 'string' && ruleLooksValid(rule))
    }
    out.permissions = permissions
  }
  // Hooks of events the CLI does not have are left out (and no hooks left, no `hooks`).
  if (isPlainObject(out.hooks)) {
    const events = loadHookEvents()
    out.hooks = Object.fromEntries(Object.entries(out.hooks).filter(([event]) => events.has(event)))
    if (Object.keys(out.hooks).length === 0) delete out.hooks
  }
  // A known marketplace whose URL source is not a URL is left out.
  if (isPlainObject(out.extraKnownMarketplaces)) {
    out.extraKnownMarketplaces = Object.fromEntries(Object.entries(out.extraKnownMarketplaces).filter(([, m]) => !isPlainObject(m) || urlSourceOk(m.source)))
  }
  return out
}

/** A marketplace source of kind `url` needs a URL. */
function urlSourceOk(source) {
  if (!isPlainObject(source) || source.source !== 'url' || typeof source.url !== 'string') return true
  try {
    new URL(source.url)
    return true
  } catch {
    return false
  }
}

const MANAGED_SERVER_KEYS = ['type', 'url', 'headers', 'headersHelper']

/** The entries of `managedMcpServers` the CLI keeps, with only the members it knows. */
function managedServers(servers) {
  const out = {}
  for (const [name, server] of Object.entries(servers)) {
    if (!isPlainObject(server) || (server.type !== 'http' && server.type !== 'sse') || typeof server.url !== 'string') continue
    let url
    try { url = new URL(server.url) } catch { continue }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue
    out[name] = Object.fromEntries(MANAGED_SERVER_KEYS.filter((k) => server[k] !== undefined).map((k) => [k, server[k]]))
  }
  return out
}

const MARKETPLACE_LISTS = ['strictKnownMarketplaces', 'allowedMarketplaces', 'blockedMarketplaces']

/** Checks beyond the shape: whole numbers where the CLI wants them, the marketplace lists' URL sources. */
function validSetting(key, node, value) {
  if (!valid(node, value)) return false
  if (typeof value === 'number') {
    const { integers, ranges } = loadRules()
    if (integers.includes(key) && !Number.isInteger(value)) return false
    const range = ranges[key]
    if (range && ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max))) return false
  }
  if (MARKETPLACE_LISTS.includes(key)) return value.every(urlSourceOk)
  return true
}

/**
 * An object setting whose members are ill-typed, mended as the CLI mends it (`where`: 'file' or
 * 'policy'): `{ value }` with those members dropped or replaced, or 'dropKey' / 'reject' when the
 * CLI drops the setting or fails the document; undefined when no rule covers a member.
 */
function mendMembers(key, node, value, where) {
  const rules = loadRules().nested[where][key]
  if (!rules || !isPlainObject(value)) return undefined
  const out = { ...value }
  for (const [member, prop] of Object.entries(node.props)) {
    const v = value[member]
    if (v === undefined || valid(prop.s, v)) continue
    const rule = rules[member]
    if (rule === undefined) return undefined
    if (rule === 'dropKey' || rule === 'reject') return rule
    if (rule.field === 'drop') delete out[member]
    else out[member] = rule.field.sub
  }
  return { value: out }
}

/** The object node of a setting, if it is one. */
function objectNode(node) {
  const n = node.t === 'ref' ? load().defs[node.name] : node
  return n.t === 'obj' ? n : undefined
}

/** Settings the CLI takes whatever their value. */
const ANY_VALUE = new Set(['sshHostCommands'])

/**
 * A settings file as the CLI takes it: the prepared settings, or null when any value is
 * ill-typed (the whole file is then not used) — except the settings the CLI is lenient with:
 * of the wrong kind altogether, they are dropped or replaced by a fixed value.
 */
function checkFile(settings) {
  const prepared = prepare(settings, { fileSource: true })
  const props = load().settings.props
  const lenient = loadRules().file
  for (const [key, value] of Object.entries(prepared)) {
    if (value === undefined || !Object.hasOwn(props, key) || ANY_VALUE.has(key) || validSetting(key, props[key].s, value)) continue
    const obj = objectNode(props[key].s)
    const mended = obj && mendMembers(key, obj, value, 'file')
    if (mended === 'reject') return null
    if (mended === 'dropKey') {
      if (lenient[key] === 'undefined') prepared[key] = undefined
      else delete prepared[key]
      continue
    }
    if (mended && validSetting(key, props[key].s, mended.value)) {
      prepared[key] = mended.value
      continue
    }
    // The lenient rule covers a value of the wrong kind or out of range; a value of the right kind
    // with ill-typed contents fails the file.
    const rule = kindMatches(props[key].s, value) && !valid(props[key].s, value) ? undefined : lenient[key]
    if (rule === undefined) return null
    if (rule === 'drop') delete prepared[key]
    // Dropped as the CLI's parse drops some: the key stays, undefined.
    else prepared[key] = rule === 'undefined' ? undefined : rule.sub
  }
  return ordered(prepared)
}

/**
 * A policy document as the CLI takes it: the prepared settings, each ill-typed key dropped or,
 * where the CLI fails closed, replaced by its most restrictive value.
 */
function checkPolicy(settings, { substitute = true, remote = false } = {}) {
  const prepared = prepare(settings, { fileSource: false })
  // The server-managed tier does not take this one (it decides between the machine's sources).
  if (remote) delete prepared.managedSourcesBehavior
  const props = load().settings.props
  const substitutes = loadRules().policy
  const out = {}
  for (const [key, value] of Object.entries(prepared)) {
    if (value === undefined) continue
    // Managed MCP servers are remote ones (HTTP or SSE at an http(s) URL); others are left out.
    if (key === 'managedMcpServers' && isPlainObject(value)) {
      out[key] = managedServers(value)
      continue
    }
    // A marketplace list naming a URL source that is not a URL fails closed: empty.
    if (substitute && MARKETPLACE_LISTS.includes(key) && valid(props[key].s, value) && !value.every(urlSourceOk)) {
      out[key] = []
      continue
    }
    if (Object.hasOwn(props, key) && !ANY_VALUE.has(key) && !validSetting(key, props[key].s, value)) {
      const obj = objectNode(props[key].s)
      const mended = substitute && obj ? mendMembers(key, obj, value, 'policy') : undefined
      // Nothing left of the setting: it is dropped.
      if (mended === 'dropKey' || mended === 'reject' || (mended && Object.keys(mended.value).length === 0 && !loadRules().keepsEmpty.includes(key))) continue
      if (mended?.value !== undefined && validSetting(key, props[key].s, mended.value)) {
        out[key] = mended.value
        continue
      }
      const rule = substitute ? substitutes[key] : undefined
      if (rule !== undefined && rule !== 'reject') out[key] = rule === 'undefined' ? undefined : rule.sub
      continue
    }
    out[key] = value
  }
  return ordered(out)
}

/** The keys in the schema's order, then the others in theirs (the order the CLI's parse gives). */
function ordered(settings) {
  const out = {}
  for (const key of Object.keys(load().settings.props)) if (Object.hasOwn(settings, key)) out[key] = settings[key]
  for (const [key, value] of Object.entries(settings)) if (!Object.hasOwn(out, key)) out[key] = value
  return out
}

module.exports = { checkFile, checkPolicy, valid }
