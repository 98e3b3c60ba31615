'use strict'
// Loads the native engine. The common case (a local build, or the platform package for this
// machine) is a direct require of the .node file: napi's generated loader (native/binding.js)
// probes the C library in ways that can cost a child process at import time, so it is only the
// fallback for other layouts.
const path = require('path')
const fs = require('fs')

function platformTriple() {
  const { platform, arch } = process
  if (platform === 'linux') {
    const glibc = process.report && typeof process.report.getReport === 'function'
      ? Boolean(process.report.getReport().header.glibcVersionRuntime)
      : true
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`
  }
  if (platform === 'darwin') return `darwin-${arch}`
  if (platform === 'win32') return `win32-${arch}-msvc`
  return `${platform}-${arch}`
}

let cached
function loadNative() {
  if (cached) return cached
  const triple = process.platform === 'linux' && process.arch === 'x64' ? 'linux-x64-gnu' : platformTriple()
  const file = `claude-agent-sdk-native.${triple}.node`
  const candidates = [
    process.env.CLAUDE_AGENT_SDK_NATIVE_PATH,
    path.join(__dirname, '..', 'native', file),
    path.join(__dirname, '..', 'npm', triple, file),
  ].filter(Boolean)
  const errors = []
  for (const candidate of candidates) {
    if (!fs.existsSync(candidate)) continue
    try {
      cached = require(candidate)
      return cached
    } catch (e) {
      errors.push(`${candidate}: ${e.message}`)
    }
  }
  try {
    cached = require(`claude-agent-sdk-native-${triple}`)
    return cached
  } catch (e) {
    errors.push(`claude-agent-sdk-native-${triple}: ${e.message}`)
  }
  const err = new Error(
    `claude-agent-sdk-native: no native engine for ${triple}. ` +
    'Install the package with its optional dependencies (npm install without --no-optional), ' +
    'or build it from source with Rust installed: `npm run build` in the package folder.\n' +
    errors.map((e) => '  ' + e).join('\n'))
  err.code = 'NATIVE_ENGINE_NOT_FOUND'
  throw err
}

module.exports = { loadNative }
