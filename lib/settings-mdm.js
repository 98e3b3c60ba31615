// @ts-check
'use strict'
// This machine's OS-level policy for Claude Code, read as the CLI reads it for resolveSettings():
// on macOS the managed-preferences profile (per user, then device-level) converted to JSON by
// `plutil`; on Windows the `Settings` value under HKLM (and, lowest of all, HKCU)
// `SOFTWARE\Policies\ClaudeCode`, through `reg.exe`. Elsewhere there is none. A source that is
// there but cannot be read is named in `didNotLoad` ('profile' / 'registry').
const { execFile } = require('child_process')
const fs = require('fs')
const os = require('os')
const path = require('path')

const DOMAIN = 'com.anthropic.claudecode'
const PLUTIL = '/usr/bin/plutil'
const HKLM = 'HKLM\\SOFTWARE\\Policies\\ClaudeCode'
const HKCU = 'HKCU\\SOFTWARE\\Policies\\ClaudeCode'
const VALUE = 'Settings'
const TIMEOUT_MS = 5000
const MAX_OUTPUT = 2 * 1024 * 1024
const REG_NOT_FOUND = 'unable to find the specified registry key or value'

function run(file, args, options = {}) {
  return new Promise((resolve) => {
    try {
      execFile(file, args, { encoding: 'utf8', timeout: TIMEOUT_MS, windowsHide: true, maxBuffer: MAX_OUTPUT, ...options }, (error, stdout, stderr) => {
        resolve({ ok: !error, code: typeof error?.code === 'number' ? error.code : error ? null : 0, stdout: stdout ?? '', stderr: stderr ?? '' })
      })
    } catch {
      resolve({ ok: false, code: null, stdout: '', stderr: '' })
    }
  })
}

/** A JSON object from text, or undefined. */
function jsonObject(text) {
  try {
    const value = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** The data of the `Settings` REG_SZ / REG_EXPAND_SZ value in `reg.exe query` output, or null. */
function registryValue(stdout, name = VALUE) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const m = stdout.match(new RegExp(`^[ \\t]+${escaped}[ \\t]+REG_(?:EXPAND_)?SZ[ \\t]+([\\s\\S]*)`, 'im'))
  const value = m?.[1]?.trimEnd()
  return value || null
}

/** The managed-preferences profiles the CLI looks at, in order. */
function profilePaths() {
  let user = ''
  try { user = os.userInfo().username } catch {}
  return [...(user ? [`/Library/Managed Preferences/${user}/${DOMAIN}.plist`] : []), `/Library/Managed Preferences/${DOMAIN}.plist`]
}

async function readProfiles() {
  for (const file of profilePaths()) {
    try {
      fs.accessSync(file, fs.constants.R_OK)
    } catch (e) {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') continue
      return { didNotLoad: ['profile'] }
    }
    const r = await run(PLUTIL, ['-convert', 'json', '-o', '-', '--', file])
    const settings = r.ok ? jsonObject(r.stdout) : undefined
    if (settings === undefined) return { didNotLoad: ['profile'] }
    return { mdm: settings, mdmOrigin: 'plist', didNotLoad: [] }
  }
  return { didNotLoad: [] }
}

async function readRegistry() {
  const root = process.env.SystemRoot || process.env.SYSTEMROOT || 'C:\\Windows'
  const reg = path.win32.join(root, 'System32', 'reg.exe')
  const query = (key) => run(reg, ['query', key, '/v', VALUE])
  const [hklm, hkcu] = await Promise.all([query(HKLM), query(HKCU)])
  const answered = (r) => r.ok || (r.code === 1 && r.stderr.toLowerCase().includes(REG_NOT_FOUND))
  const parse = (r) => {
    if (!r.ok) return undefined
    const text = registryValue(r.stdout)
    return text === null ? undefined : jsonObject(text)
  }
  const mdm = parse(hklm)
  const unreadable = !answered(hklm) || (hklm.ok && registryValue(hklm.stdout) !== null && mdm === undefined)
  return { mdm, mdmOrigin: 'hklm', hkcu: parse(hkcu), didNotLoad: unreadable ? ['registry'] : [] }
}

/** `{ mdm?, mdmOrigin?, hkcu?, didNotLoad }` for this platform. */
async function readMachinePolicy() {
  if (process.platform === 'darwin') return readProfiles()
  if (process.platform === 'win32') return readRegistry()
  return { didNotLoad: [] }
}

module.exports = { readMachinePolicy, registryValue, profilePaths }
