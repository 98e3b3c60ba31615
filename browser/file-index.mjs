// @ts-check
// Generated from lib/file-index.js by scripts/browser-shared.mjs: edit that file and run the script.
// FileIndex: fuzzy search over a list of file paths (a file picker's "@" completion), as the
// official SDK's class of that name — same scoring (ordered characters, gaps, consecutive runs,
// word boundaries, the basename preferred), same ranks and positions, same top-level listing
// for an empty query, and the same incremental (queryable early) asynchronous build.

const TOP_LEVEL_LIMIT = 100
const BUILD_SLICE_MS = 4

function nextTick() {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve))
  return new Promise((resolve) => setTimeout(resolve, 0))
}

const isBoundary = (c) => c === 47 || c === 92 || c === 45 || c === 95 || c === 46 || c === 32
const isLower = (c) => c >= 97 && c <= 122
const isUpper = (c) => c >= 65 && c <= 90

/** The bonus of a match at `at`: after a separator, at the start, or at a camelCase hump. */
function positionBonus(path, at) {
  if (at === 0) return 8
  const before = path.charCodeAt(at - 1)
  if (isBoundary(before)) return 8
  if (isLower(before) && isUpper(path.charCodeAt(at))) return 6
  return 0
}

function bonuses(path, positions, n) {
  let sum = 0
  for (let k = 0; k < n; k++) sum += positionBonus(path, positions[k])
  return sum
}

/** Gap score of matching `chars` in order from the basename (at `from`); -Infinity if it cannot. */
function basenameScore(text, chars, from, positions) {
  let score = 0
  let last = from - 1
  for (let k = 0; k < chars.length; k++) {
    const at = text.indexOf(chars[k], last + 1)
    if (at === -1) return -Infinity
    positions[k] = at
    const gap = at - last - 1
    if (k > 0) score += gap === 0 ? 4 : -(3 + gap * 1)
    last = at
  }
  return score
}

/** Maps positions in the lower-cased path back to the path where lower-casing changed lengths. */
function toOriginalPositions(path, positions) {
  let orig = 0
  let lower = 0
  let k = 0
  while (k < positions.length && orig < path.length) {
    const cp = path.codePointAt(orig)
    const width = cp > 65535 ? 2 : 1
    const lowerWidth = String.fromCodePoint(cp).toLowerCase().length
    while (k < positions.length && positions[k] < lower + lowerWidth) {
      positions[k] = orig
      k++
    }
    orig += width
    lower += lowerWidth
  }
}

/** The paths and what search needs of each: lower-cased text, letter masks, basename start. */
class PathTable {
  #paths = []
  #lower = []
  #letters = new Int32Array(0)
  #lengths = new Uint16Array(0)
  #baseStart = new Uint16Array(0)
  #baseLetters = new Int32Array(0)
  #positions = new Int32Array(64)
  #basePositions = new Int32Array(64)
  #published = 0

  reset(paths) {
    const n = paths.length
    this.#paths = paths
    this.#lower = Array(n).fill('')
    this.#letters = new Int32Array(n)
    this.#lengths = new Uint16Array(n)
    this.#baseStart = new Uint16Array(n)
    this.#baseLetters = new Int32Array(n)
    this.#published = 0
  }

  index(from, to) {
    for (let k = from; k < to; k++) {
      const path = this.#paths[k]
      const lower = path.toLowerCase()
      this.#lower[k] = lower
      const len = lower.length
      this.#lengths[k] = len
      let letters = 0
      let base = 0
      let baseLetters = 0
      for (let c = 0; c < len; c++) {
        const code = lower.charCodeAt(c)
        if (code >= 97 && code <= 122) {
          letters |= 1 << (code - 97)
          baseLetters |= 1 << (code - 97)
        } else if ((code === 47 || code === 92) && c < len - 1) {
          base = c + 1
          baseLetters = 0
        }
      }
      this.#letters[k] = letters
      this.#baseStart[k] = len === path.length ? base : 0
      this.#baseLetters[k] = baseLetters
    }
  }

  /** Paths [0, count) are searchable. */
  publish(count) {
    this.#published = count
  }

  search(query, limit) {
    const caseSensitive = query !== query.toLowerCase()
    const n = Math.min(query.length, 64)
    const chars = []
    let mask = 0
    for (let k = 0; k < n; k++) {
      const ch = query.charAt(k)
      chars.push(ch)
      const code = ch.charCodeAt(0)
      if (code >= 97 && code <= 122) mask |= 1 << (code - 97)
    }
    const maxBonus = n * 24 + 8 + 32
    const top = []
    let floor = -Infinity
    const paths = this.#paths
    const lowers = this.#lower
    const positions = this.#positions
    const basePositions = this.#basePositions
    next: for (let k = 0; k < this.#published; k++) {
      if ((this.#letters[k] & mask) !== mask) continue
      const text = caseSensitive ? paths[k] : lowers[k]
      let at = text.indexOf(chars[0])
      if (at === -1) continue
      positions[0] = at
      let gaps = 0
      let runs = 0
      let last = at
      for (let c = 1; c < n; c++) {
        at = text.indexOf(chars[c], last + 1)
        if (at === -1) continue next
        positions[c] = at
        const gap = at - last - 1
        if (gap === 0) runs += 4
        else gaps += 3 + gap * 1
        last = at
      }
      const baseStart = this.#baseStart[k]
      const inBase = gaps > 0 && positions[0] < baseStart && (this.#baseLetters[k] & mask) === mask ? basenameScore(text, chars, baseStart, basePositions) : -Infinity
      if (top.length === limit && maxBonus + Math.max(runs - gaps, inBase) <= floor) continue
      const path = paths[k]
      let score = runs - gaps + bonuses(path, positions, n)
      let scanFrom = 0
      if (inBase !== -Infinity) {
        const s = inBase + bonuses(path, basePositions, n)
        if (s >= score) {
          score = s
          scanFrom = baseStart
        }
      }
      score += n * 16 + Math.max(0, 32 - (this.#lengths[k] >> 2))
      if (top.length < limit) {
        top.push({ pathIndex: k, fuzzScore: score, scanFrom })
        if (top.length === limit) {
          top.sort((a, b) => a.fuzzScore - b.fuzzScore)
          floor = top[0].fuzzScore
        }
      } else if (score > floor) {
        let lo = 0
        let hi = top.length
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (top[mid].fuzzScore < score) lo = mid + 1
          else hi = mid
        }
        top.splice(lo, 0, { pathIndex: k, fuzzScore: score, scanFrom })
        top.shift()
        floor = top[0].fuzzScore
      }
    }
    top.sort((a, b) => b.fuzzScore - a.fuzzScore)
    const count = top.length
    const results = []
    for (let r = 0; r < count; r++) {
      const k = top[r].pathIndex
      const path = paths[k]
      const lower = lowers[k]
      const text = caseSensitive ? path : lower
      const found = []
      let from = top[r].scanFrom
      for (let c = 0; c < n; c++) {
        const at = text.indexOf(chars[c], from)
        found.push(at)
        from = at + 1
      }
      if (!caseSensitive && lower.length !== path.length) toOriginalPositions(path, found)
      const rank = r / count
      results.push({ path, score: path.includes('test') ? Math.min(rank * 1.05, 1) : rank, positions: found })
    }
    return results
  }
}

/** Up to `limit` distinct first path segments, shortest first, as empty-query results. */
function topLevel(paths, limit) {
  const seen = new Set()
  for (const p of paths) {
    let end = p.length
    for (let c = 0; c < p.length; c++) {
      const code = p.charCodeAt(c)
      if (code === 47 || code === 92) {
        end = c
        break
      }
    }
    const head = p.slice(0, end)
    if (head.length > 0) {
      seen.add(head)
      if (seen.size >= limit) break
    }
  }
  const list = Array.from(seen)
  list.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
  return list.map((path) => ({ path, score: 0, positions: [] }))
}

class FileIndex {
  constructor() {
    this.table = new PathTable()
    this.topLevelCache = null
    this.buildGen = 0
  }

  /** Indexes `paths` (duplicates and empty strings dropped) at once. */
  loadFromFileList(paths) {
    const seen = new Set()
    const unique = []
    for (const p of paths) {
      if (p.length > 0 && !seen.has(p)) {
        seen.add(p)
        unique.push(p)
      }
    }
    this.buildIndex(unique)
  }

  /**
   * Indexes `paths` in slices that yield to the event loop. `queryable` resolves once a first
   * part is searchable; `done` with true when all is, false when a newer load superseded it.
   */
  loadFromFileListAsync(paths) {
    /** @type {(value?: unknown) => void} */
    let onQueryable = () => {}
    const queryable = new Promise((resolve) => { onQueryable = resolve })
    const done = this.buildAsync(paths, onQueryable)
    return { queryable, done }
  }

  async buildAsync(paths, onQueryable) {
    const gen = ++this.buildGen
    const seen = new Set()
    const unique = []
    let started = performance.now()
    for (let k = 0; k < paths.length; k++) {
      const p = paths[k]
      if (p.length > 0 && !seen.has(p)) {
        seen.add(p)
        unique.push(p)
      }
      if ((k & 255) === 255 && performance.now() - started > BUILD_SLICE_MS) {
        await nextTick()
        if (this.buildGen !== gen) {
          onQueryable()
          return false
        }
        started = performance.now()
      }
    }
    this.reset(unique)
    started = performance.now()
    let first = true
    for (let k = 0; k < unique.length; k += 256) {
      const end = k + 256
      this.table.index(k, Math.min(end, unique.length))
      if (end <= unique.length && performance.now() - started > BUILD_SLICE_MS) {
        this.table.publish(end)
        if (first) {
          onQueryable()
          first = false
        }
        await nextTick()
        if (this.buildGen !== gen) return false
        started = performance.now()
      }
    }
    this.table.publish(unique.length)
    onQueryable()
    return true
  }

  buildIndex(paths) {
    this.buildGen++
    this.reset(paths)
    this.table.index(0, paths.length)
    this.table.publish(paths.length)
  }

  reset(paths) {
    this.table.reset(paths)
    this.topLevelCache = topLevel(paths, TOP_LEVEL_LIMIT)
  }

  /** The best `limit` matches of `query`: { path, score (0 best … 1), positions }. */
  search(query, limit) {
    if (limit <= 0) return []
    if (query.length === 0) {
      if (this.topLevelCache) return this.topLevelCache.slice(0, limit).map(({ path, score }) => ({ path, score, positions: [] }))
      return []
    }
    return this.table.search(query, limit)
  }
}

export { FileIndex }
