// @ts-check
'use strict'
// `claude-agent-sdk-native/extract`: for apps built with `bun build --compile`. Files embedded in
// such an executable live in Bun's virtual file system (`/$bunfs/root/…`, `B:\~BUN\root\…` on
// Windows), which other processes cannot read: the Claude Code binary embedded with
// `import cli from '…/claude' with { type: 'file' }` must be copied to a real file before it
// can be spawned. Same name and signature as the official SDK's `./extract` entry.
const crypto = require('crypto')
const fs = require('fs')
const os = require('os')
const path = require('path')

function tempRoot() {
  if (process.env.CLAUDE_CODE_TMPDIR) return process.env.CLAUDE_CODE_TMPDIR
  return process.platform === 'darwin' ? '/tmp' : os.tmpdir()
}

/** A directory only this user can use: created 0700, refused if it is a link or someone else's. */
/** @param {string} dir */
function privateDir(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  const st = fs.lstatSync(dir)
  if (!st.isDirectory()) throw new Error(`extractFromBunfs: ${dir} is not a directory (a symlink?); refusing to use it`)
  if (typeof process.getuid === 'function') {
    if (st.uid !== process.getuid()) throw new Error(`extractFromBunfs: ${dir} belongs to uid ${st.uid}, not to this user; refusing to use it`)
    if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700)
  }
  return dir
}

/** True when `file` is a plain file (no link, one name) holding exactly `content`. */
/** @param {string} file @param {Buffer} content */
function holds(file, content) {
  let fd
  try {
    const flags = typeof process.getuid === 'function' ? fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK : 'r'
    if (flags === 'r' && !fs.lstatSync(file).isFile()) return false
    fd = fs.openSync(file, flags)
    const st = fs.fstatSync(fd)
    if (!st.isFile() || st.nlink !== 1 || st.size !== content.length) return false
    const buf = Buffer.allocUnsafe(Math.min(content.length, 1 << 20) || 1)
    for (let off = 0; off < content.length;) {
      const n = fs.readSync(fd, buf, 0, buf.length, off)
      if (n <= 0 || !buf.subarray(0, n).equals(content.subarray(off, off + n))) return false
      off += n
    }
    return true
  } catch {
    return false
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/**
 * Returns a path that can be spawned: `embeddedPath` itself when it is not inside a Bun
 * single-file executable, otherwise a copy in a per-user temp directory named by the content's
 * hash (one copy per binary version, reused across starts, written atomically, mode 0755).
 * @param {string} embeddedPath
 * @returns {string}
 */
function extractFromBunfs(embeddedPath) {
  if (typeof embeddedPath !== 'string') throw new TypeError(`extractFromBunfs: expected a path string, got ${typeof embeddedPath}`)
  if (!embeddedPath.includes('$bunfs') && !embeddedPath.includes('~BUN')) return embeddedPath
  const content = fs.readFileSync(embeddedPath)
  const hash = crypto.createHash('sha256').update(content).digest('hex').slice(0, 16)
  const user = typeof process.getuid === 'function' ? `-${process.getuid()}` : ''
  const base = privateDir(path.join(tempRoot(), `claude-agent-sdk-native${user}`))
  const dir = privateDir(path.join(base, hash))
  // The basename is kept: a `.js` CLI is run through a runtime, a binary is executed.
  const name = path.basename(embeddedPath.replace(/\\/g, '/'))
  const dest = path.join(dir, name)
  if (holds(dest, content)) return dest
  const tmp = path.join(dir, `${name}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`)
  const fd = fs.openSync(tmp, 'wx', 0o700)
  try {
    fs.writeFileSync(fd, content)
    fs.fchmodSync(fd, 0o755)
  } finally {
    fs.closeSync(fd)
  }
  try {
    fs.renameSync(tmp, dest)
  } catch (e) {
    // Windows will not rename onto a file that exists or is running.
    if (!['EEXIST', 'EPERM', 'EBUSY'].includes(e.code)) {
      fs.rmSync(tmp, { force: true })
      throw e
    }
    if (holds(dest, content)) {
      fs.rmSync(tmp, { force: true })
      return dest
    }
    fs.rmSync(dest, { force: true })
    fs.renameSync(tmp, dest)
  }
  return dest
}

module.exports = { extractFromBunfs }
