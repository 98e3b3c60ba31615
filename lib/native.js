// @ts-check
'use strict'
// Loads the native engine. The common case (a local build, or the platform package for this
// machine) is a direct require of the .node file: napi's generated loader (native/binding.js)
// probes the C library in ways that can cost a child process at import time, so it is not used.
const path = require('path')
const fs = require('fs')

/** The platforms a binary is published for (napi-rs names: npm/<name>/, package.json napi.targets). */
const SUPPORTED = [
  'linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'linux-arm64-musl',
  'darwin-x64', 'darwin-arm64', 'win32-x64-msvc', 'win32-arm64-msvc',
]

/**
 * musl or glibc, on any architecture, with no child process. No musl loader on disk: glibc.
 * Otherwise (musl, or glibc with musl installed beside it) the loader the running executable
 * names decides; failing that (a static executable), Node's process report names the glibc
 * it runs on (`glibcVersionRuntime`; a musl build of Node has none); without a report (Bun, some
 * embedders), musl if the glibc loader is absent.
 */
function isMusl() {
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x86_64'
  // Every musl system has its loader here; without it the answer is known at the cost of one
  // stat, where the process report costs ≈ 5 ms (a fifth of a first query, measured).
  const muslLoader = fs.existsSync(`/lib/ld-musl-${arch}.so.1`)
  if (!muslLoader) return false
  const interpreter = elfInterpreter(process.execPath)
  if (interpreter) return interpreter.includes('musl')
  if (process.report && typeof process.report.getReport === 'function') {
    try {
      const header = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report.getReport()).header
      if (header && 'glibcVersionRuntime' in header) return !header.glibcVersionRuntime
    } catch {}
  }
  return !fs.existsSync(arch === 'aarch64' ? '/lib/ld-linux-aarch64.so.1' : '/lib64/ld-linux-x86-64.so.2')
}

/**
 * The dynamic loader an ELF executable names (its PT_INTERP, which follows the program headers
 * near the start of the file), or undefined (static, unreadable, not ELF).
 * @param {string} file
 * @returns {string | undefined}
 */
function elfInterpreter(file) {
  let fd
  try {
    fd = fs.openSync(file, 'r')
    const head = Buffer.alloc(4096)
    const n = fs.readSync(fd, head, 0, head.length, 0)
    if (n < 4 || head.toString('latin1', 0, 4) !== '\x7fELF') return undefined
    const m = /\/[\w./-]*ld-(?:linux|musl)[\w.-]*\.so\.\d/.exec(head.toString('latin1', 0, n))
    return m ? m[0] : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/** napi-rs's name for this machine: `linux-arm64-musl`, `darwin-x64`, `win32-x64-msvc`. */
function platformTriple({ platform = process.platform, arch = process.arch, musl = isMusl } = {}) {
  if (platform === 'linux') return `linux-${arch}-${(typeof musl === 'function' ? musl() : musl) ? 'musl' : 'gnu'}`
  if (platform === 'win32') return `win32-${arch}-msvc`
  return `${platform}-${arch}`
}

/**
 * The error when no binary fits: the platform, what exists, how to build from source.
 * @param {string} triple
 * @param {string[]} errors what each place tried gave
 */
function notFoundError(triple, errors) {
  const supported = SUPPORTED.includes(triple)
  const err = /** @type {Error & { code?: string }} */ (new Error(
    `claude-agent-sdk-native: no native engine for ${triple}` +
    (supported
      ? '. Its package (claude-agent-sdk-native-' + triple + ') is not installed: install with optional dependencies (no --omit=optional / --no-optional), and reinstall if node_modules was copied from another platform.'
      : ', which is not a platform binaries are published for.') +
    `\nSupported platforms: ${SUPPORTED.join(', ')}.` +
    '\nTo build from source (Rust 1.88+ from rustup.rs): in the claude-agent-sdk-native package folder run `npm install` then `npm run build`; ' +
    'or set CLAUDE_AGENT_SDK_NATIVE_PATH to a .node file you built.' +
    (errors.length ? '\nTried:\n' + errors.map((e) => '  ' + e).join('\n') : '')))
  err.code = 'NATIVE_ENGINE_NOT_FOUND'
  return err
}

/** @type {import('./types').NativeBinding | undefined} */
let cached
/**
 * The engine for this platform (loaded once): CLAUDE_AGENT_SDK_NATIVE_PATH, the build's native/,
 * this repository's npm/<triple>/, or the platform package.
 * @returns {import('./types').NativeBinding}
 */
function loadNative() {
  if (cached) return cached
  const triple = platformTriple()
  const file = `claude-agent-sdk-native.${triple}.node`
  const candidates = /** @type {string[]} */ ([
    process.env.CLAUDE_AGENT_SDK_NATIVE_PATH,
    path.join(__dirname, '..', 'native', file),
    path.join(__dirname, '..', 'npm', triple, file),
  ].filter(Boolean))
  // Inside an Electron app.asar, native modules live in app.asar.unpacked.
  for (const c of [...candidates]) {
    const unpacked = c.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2')
    if (unpacked !== c) candidates.unshift(unpacked)
  }
  /** @type {string[]} */
  const errors = []
  for (const candidate of candidates) {
    if (!fs.existsSync(candidate)) continue
    try {
      return (cached = require(candidate))
    } catch (e) {
      errors.push(`${candidate}: ${e.message}`)
    }
  }
  try {
    return (cached = require(`claude-agent-sdk-native-${triple}`))
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND') errors.push(`claude-agent-sdk-native-${triple}: ${e.message}`)
  }
  throw notFoundError(triple, errors)
}

module.exports = { loadNative, platformTriple, isMusl, elfInterpreter, notFoundError, SUPPORTED }
