// @ts-check
'use strict'
// resolveSettings(): the settings cascade the CLI reads — user, project, local, then managed
// (policy) settings — merged as the CLI merges them (objects deeply, arrays concatenated without
// duplicates, later sources winning), with each top-level key's provenance and each source's own
// settings. filterEscalatingDefaultMode(): the effective settings without a `defaultMode` that
// escalates permissions when only a repository's own files set it.
const fs = require('fs')
const os = require('os')
const path = require('path')
const { checkFile, checkPolicy } = require('./settings-validate')
const { readMachinePolicy } = require('./settings-mdm')

const SOURCE_NAMES = { user: 'userSettings', project: 'projectSettings', local: 'localSettings' }
const DEFAULT_SOURCES = ['user', 'project', 'local']

function configDir() {
  return process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude')
}

/** Where managed (policy) settings live on this platform. */
function managedDir() {
  if (process.platform === 'darwin') return '/Library/Application Support/ClaudeCode'
  if (process.platform === 'win32') return 'C:\\Program Files\\ClaudeCode'
  return '/etc/claude-code'
}

/**
 * A settings file: `{ settings }` (an object), `{ absent: true }`, or `{ failed: true }` when it is
 * there but unreadable or not a JSON object. An empty file is an empty object, as the CLI reads it.
 */
function readSettingsDocument(file) {
  let text
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (e) {
    return e.code === 'ENOENT' || e.code === 'ENOTDIR' ? { absent: true } : { failed: true }
  }
  if (text.trim() === '') return { settings: {} }
  try {
    const value = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? { settings: value } : { failed: true }
  } catch {
    return { failed: true }
  }
}

/** A settings file's object, or undefined when it is absent or not a JSON object. */
function readSettingsFile(file) {
  return readSettingsDocument(file).settings
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

/** The CLI's merge: objects deeply, arrays concatenated without duplicates, else the later value. */
function mergeInto(target, source) {
  for (const [key, value] of Object.entries(source)) {
    // As lodash's merge: an undefined value is kept only where the target has none.
    if (value === undefined) {
      if (!Object.hasOwn(target, key)) target[key] = undefined
      continue
    }
    const current = target[key]
    if (Array.isArray(current) && Array.isArray(value)) target[key] = [...new Set([...current, ...value])]
    else if (isPlainObject(current) && isPlainObject(value)) target[key] = mergeInto({ ...current }, value)
    else if (isPlainObject(value)) target[key] = mergeInto({}, value)
    else if (Array.isArray(value)) target[key] = [...new Set(value)]
    else target[key] = value
  }
  return target
}

/**
 * Managed settings: managed-settings.json, then the drop-ins of managed-settings.d in name order,
 * each losing its ill-typed keys. `failed` when one of them is there and could not be read.
 */
function managedSettings() {
  const dir = managedDir()
  let merged
  let failed = false
  const take = (file) => {
    const doc = readSettingsDocument(file)
    if (doc.failed) failed = true
    if (doc.settings) merged = mergeInto(merged ?? {}, checkPolicy(doc.settings))
  }
  take(path.join(dir, 'managed-settings.json'))
  let dropIns = []
  try {
    dropIns = fs.readdirSync(path.join(dir, 'managed-settings.d')).filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort()
  } catch {}
  for (const f of dropIns) take(path.join(dir, 'managed-settings.d', f))
  return { settings: merged, failed }
}

/**
 * The keys of a `managedSettings` option that can only restrict: the `allowManaged*Only` locks,
 * permission rules (not `defaultMode`), sandbox restrictions.
 */
function restrictiveOnly(settings) {
  if (!isPlainObject(settings)) return undefined
  const out = {}
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue
    if (key === 'permissions' && isPlainObject(value)) {
      const { defaultMode, ...rules } = value
      out[key] = rules
    } else if (key === 'sandbox' || /^allowManaged.*Only$/.test(key)) out[key] = value
  }
  // Ill-typed keys are dropped here, never replaced.
  return checkPolicy(out, { substitute: false })
}

const nonEmpty = (o) => (o && Object.keys(o).length > 0 ? o : undefined)

/**
 * `registryPolicyFingerprint` (0.3.332) lets the official keep a registry read for hours and
 * re-read only when the host's fingerprint changes; here the machine's policy is read anew on
 * every call, so there is no kept reading for a fingerprint to spare or to contradict: the
 * option is accepted and `machinePolicy.registryPolicyDifferedFromFingerprint` never appears.
 * @param {{ cwd?: string, settingSources?: Array<'user'|'project'|'local'>, managedSettings?: object, serverManagedSettings?: object, registryPolicyFingerprint?: Function }} [opts]
 */
async function resolveSettings(opts = {}) {
  const cwd = path.resolve(opts.cwd ?? process.cwd())
  const allowed = (opts.settingSources ?? DEFAULT_SOURCES).map((s) => SOURCE_NAMES[s]).filter(Boolean)
  const files = {
    userSettings: path.join(configDir(), 'settings.json'),
    projectSettings: path.join(cwd, '.claude', 'settings.json'),
    localSettings: path.join(cwd, '.claude', 'settings.local.json'),
  }
  const loaded = []
  for (const name of ['userSettings', 'projectSettings', 'localSettings']) {
    if (!allowed.includes(name)) continue
    const read = readSettingsFile(files[name])
    // A file with an ill-typed value is not used at all, as the CLI does.
    const settings = read && checkFile(read)
    if (settings && Object.keys(settings).length > 0) loaded.push({ name, settings, path: files[name] })
  }
  // The policy tier takes one sub-source, the first present of: the server-managed payload
  // (`serverManagedSettings`), this machine's MDM policy, its managed-settings file, the
  // `managedSettings` option (restrictive keys only), the per-user registry policy (HKCU).
  const remote = opts.serverManagedSettings !== undefined && isPlainObject(opts.serverManagedSettings) ? nonEmpty(checkPolicy(opts.serverManagedSettings, { remote: true })) : undefined
  const machine = await readMachinePolicy()
  const file = managedSettings()
  const parent = nonEmpty(restrictiveOnly(opts.managedSettings))
  const mdm = nonEmpty(machine.mdm && checkPolicy(machine.mdm))
  const hkcu = nonEmpty(machine.hkcu && checkPolicy(machine.hkcu))
  const policy = remote ? { settings: remote, origin: 'remote' }
    : mdm ? { settings: mdm, origin: machine.mdmOrigin }
      : nonEmpty(file.settings) ? { settings: file.settings, origin: 'file' }
        : parent ? { settings: parent, origin: 'parent' }
          : hkcu ? { settings: hkcu, origin: 'hkcu' } : undefined
  if (policy) loaded.push({ name: 'policySettings', settings: policy.settings, path: undefined, policyOrigin: policy.origin })
  const didNotLoad = [...machine.didNotLoad, ...(file.failed ? ['file'] : [])]

  const label = { userSettings: 'user', projectSettings: 'project', localSettings: 'local', policySettings: 'managed' }
  const entry = (s) => ({ source: label[s.name], path: s.path, ...(s.name === 'policySettings' && { policyOrigin: s.policyOrigin }) })
  const effective = {}
  for (const s of loaded) mergeInto(effective, s.settings)
  const provenance = {}
  for (const key of Object.keys(effective)) {
    for (let k = loaded.length - 1; k >= 0; k--) {
      if (loaded[k].settings[key] !== undefined) {
        provenance[key] = entry(loaded[k])
        break
      }
    }
  }
  return {
    effective,
    provenance,
    sources: loaded.map((s) => ({ source: label[s.name], settings: s.settings, path: s.path, ...(s.name === 'policySettings' && { policyOrigin: s.policyOrigin }) })),
    machinePolicy: { didNotLoad: didNotLoad.length > 0 && didNotLoad },
  }
}

const ESCALATING_MODES = new Set(['bypassPermissions', 'auto', 'acceptEdits'])
const HIGHEST_MODES = ['auto', 'bypassPermissions']
const REPO_SOURCES = new Set(['project'])
const REPO_OR_LOCAL_SOURCES = new Set(['project', 'local'])

/**
 * The effective settings without `permissions.defaultMode` when it escalates (acceptEdits, auto,
 * bypassPermissions) and the source that decides it is the repository's own (project; also local
 * for auto and bypassPermissions). Otherwise the effective settings as they are.
 */
function filterEscalatingDefaultMode(resolved) {
  const mode = resolved.effective.permissions?.defaultMode
  if (!mode || !ESCALATING_MODES.has(mode)) return resolved.effective
  for (let k = resolved.sources.length - 1; k >= 0; k--) {
    const source = resolved.sources[k]
    if (source.settings.permissions?.defaultMode !== undefined) {
      if ((HIGHEST_MODES.includes(mode) ? REPO_OR_LOCAL_SOURCES : REPO_SOURCES).has(source.source)) {
        const { defaultMode, ...permissions } = resolved.effective.permissions ?? {}
        return { ...resolved.effective, permissions }
      }
      return resolved.effective
    }
  }
  return resolved.effective
}

module.exports = { resolveSettings, filterEscalatingDefaultMode }
