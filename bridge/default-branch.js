// @ts-check
'use strict'
// The default branch of the repository the process runs in, read from its refs as the official
// `./bridge` reads it when a git context names neither a branch nor a default branch:
// refs/remotes/origin/HEAD when it points at an existing ref, else origin's main or master,
// else "main". Read once per process.
const fs = require('node:fs')
const path = require('node:path')

/** @param {string} start @returns {string | null} the git folder of the repository holding `start` */
function gitDir(start) {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.git')
    try {
      const stat = fs.statSync(candidate)
      if (stat.isDirectory()) return candidate
      const m = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(candidate, 'utf8'))
      if (m) return path.resolve(dir, m[1].trim())
    } catch {}
    if (path.dirname(dir) === dir) return null
  }
}

// Loose refs of a linked worktree live in the common dir.
/** @param {string} dir */
function commonDir(dir) {
  try {
    return path.resolve(dir, fs.readFileSync(path.join(dir, 'commondir'), 'utf8').trim())
  } catch {
    return dir
  }
}

/** @param {string} dir @param {string} ref */
function refExists(dir, ref) {
  if (fs.existsSync(path.join(dir, ref))) return true
  try {
    return fs.readFileSync(path.join(dir, 'packed-refs'), 'utf8').split('\n').some((line) => line.endsWith(` ${ref}`))
  } catch {
    return false
  }
}

/** @param {string} cwd */
function readDefaultBranch(cwd) {
  const dir = gitDir(cwd)
  if (!dir) return 'main'
  const common = commonDir(dir)
  try {
    const m = /^ref:\s*refs\/remotes\/origin\/(.+)$/m.exec(fs.readFileSync(path.join(common, 'refs/remotes/origin/HEAD'), 'utf8'))
    if (m && refExists(common, `refs/remotes/origin/${m[1].trim()}`)) return m[1].trim()
  } catch {}
  for (const name of ['main', 'master']) if (refExists(common, `refs/remotes/origin/${name}`)) return name
  return 'main'
}

/** @type {string | undefined} */
let cached
function defaultBranch() {
  cached ??= readDefaultBranch(process.cwd())
  return cached
}

module.exports = { defaultBranch, readDefaultBranch }
