// A package folder as the tracking routine sees it: its version and, for each entry point of
// package.json "exports", the declaration file and the JavaScript file an app gets. And the
// official release's folder: unpacked from the npm registry (`npm view`, `npm pack`) into .tmp/track/.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const OFFICIAL = '@anthropic-ai/claude-agent-sdk'
// npm is a .cmd script on Windows, which only a shell runs.
const NPM = { cmd: process.platform === 'win32' ? 'npm.cmd' : 'npm', shell: process.platform === 'win32' }

/** The entry points compared, in order (those of the official package). */
export const ENTRIES = ['.', './core', './extract', './sdk-tools', './browser', './bridge']

function pick(target, conditions) {
  if (typeof target === 'string') return conditions.includes('types') ? (/\.d\.[mc]?ts$/.test(target) ? target : null) : target
  if (!target || typeof target !== 'object') return null
  for (const c of conditions) {
    if (c in target) {
      const found = pick(target[c], c === 'types' ? ['types'] : conditions)
      if (found) return found
    }
  }
  return null
}

/**
 * @returns {{ dir: string, name: string, version: string, entries: Map<string, { types: string|null, runtime: string|null }> }}
 */
export function describePackage(dir) {
  const file = path.join(dir, 'package.json')
  if (!fs.existsSync(file)) throw new Error(`${dir} has no package.json: give the folder of an unpacked package`)
  const pkg = JSON.parse(fs.readFileSync(file, 'utf8'))
  const exportsField = pkg.exports && typeof pkg.exports === 'object' ? pkg.exports : { '.': pkg.exports ?? pkg.main }
  const entries = new Map()
  for (const entry of ENTRIES) {
    const target = exportsField[entry]
    if (target === undefined) continue
    // The CommonJS typings first where both exist (ours: index.d.ts, types/*.d.ts).
    const types = pick(target, ['types', 'require', 'import', 'default']) ?? (entry === '.' ? pkg.types ?? null : null)
    const runtime = pick(target, ['import', 'default', 'require'])
    const abs = (p) => (p && fs.existsSync(path.join(dir, p)) ? path.join(dir, p) : null)
    entries.set(entry, { types: abs(types), runtime: abs(runtime) })
  }
  return { dir, name: pkg.name, version: pkg.version, entries }
}

/** The newest 0.3.x release on the registry. */
export function newestRelease(range = '0.3') {
  const out = execFileSync(NPM.cmd, ['view', `${OFFICIAL}@${range}`, 'version', '--json'], { encoding: 'utf8', shell: NPM.shell })
  const versions = [].concat(JSON.parse(out))
  if (!versions.length) throw new Error(`npm view found no release of ${OFFICIAL} in ${range}`)
  return versions[versions.length - 1]
}

/** The release unpacked under <root>/.tmp/track/<version>/package (fetched once). */
export function fetchRelease(root, version) {
  const dir = path.join(root, '.tmp', 'track', version)
  const pkgDir = path.join(dir, 'package')
  if (fs.existsSync(path.join(pkgDir, 'package.json'))) return pkgDir
  fs.mkdirSync(dir, { recursive: true })
  const out = execFileSync(NPM.cmd, ['pack', `${OFFICIAL}@${version}`, '--json', '--pack-destination', dir], { encoding: 'utf8', cwd: dir, shell: NPM.shell })
  const tarball = path.join(dir, JSON.parse(out)[0].filename)
  execFileSync('tar', ['xzf', tarball, '-C', dir])
  fs.rmSync(tarball)
  return pkgDir
}
