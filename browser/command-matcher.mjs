// @ts-check
// Generated from lib/command-matcher.js by scripts/browser-shared.mjs: edit that file and run the script.
// CommandMatcher: ranks slash commands (name, display name, aliases, description) for a typed
// query, as the official SDK's class of that name does — the same fuzzy grading (bit-parallel
// approximate matching with a location window, threshold 0.3, weighted keys) and the same
// ranking rules, so a command palette orders its suggestions the same with either package.

const SEPARATORS = /[:_-]/g
const DESCRIPTION_BUCKET = 10

/** Bit mask of the positions where `code` occurs in a pattern piece. */
function maskOf(piece, code) {
  return code < 128 ? piece.ascii[code] : piece.other.get(code) ?? 0
}

/**
 * The best edit distance (relative to the piece's length) of the piece anywhere in text[from, to)
 * — Myers' bit-parallel algorithm; stops early once the best is at most `stopAt`.
 */
function bestDistance(piece, text, from, to, stopAt) {
  const len = piece.text.length
  const top = len - 1
  let vp = -1
  let vn = 0
  let score = len
  let best = len
  for (let p = from; p < to && best > stopAt; p++) {
    const eq = maskOf(piece, text.charCodeAt(p))
    const d0 = ((((eq & vp) + vp) ^ vp) | eq) | vn
    const hp = vn | ~(d0 | vp)
    const hn = vp & d0
    score += ((hp >>> top) & 1) - ((hn >>> top) & 1)
    if (score < best) best = score
    vn = (hp << 1) & d0
    vp = (hn << 1) | ~((hp << 1) | d0)
  }
  return best / len
}

/**
 * Grades a piece near its expected location (Bitap with errors): the score grows with the number
 * of errors and the distance from the expected location; negative when only a worse match than
 * the threshold exists.
 */
function gradeAtLocation(piece, text, threshold, row) {
  const len = piece.text.length
  const expected = Math.min(piece.offset, text.length)
  const window = Math.ceil(threshold * 100) + 1
  if (bestDistance(piece, text, Math.max(0, expected - window), Math.min(expected + window + len, text.length), 0) > threshold) return -1
  const high = 1 << (len - 1)
  let limit = threshold
  let score = 1
  let found = false
  for (let errors = 0; errors < len && errors / len <= limit; errors++) {
    const errorScore = errors / len
    let reach = Math.floor((limit - errorScore) * 100) + 1
    while (errorScore + reach / 100 > limit) reach--
    const carry = errors === 0 ? 0 : -1
    let start = Math.max(0, expected - reach)
    let j = Math.min(expected + reach + len, text.length)
    let last = row[j]
    let bits = (((1 << errors) - 1) << (len - errors))
    row[j] = bits
    while (j > start) {
      j--
      const prev = row[j]
      bits = ((((bits >>> 1) | high) & maskOf(piece, text.charCodeAt(j))) | ((((prev | last) >>> 1) | high | last) & carry))
      row[j] = bits
      last = prev
      if (bits & 1) {
        const distance = Math.abs(j - expected)
        score = errorScore + distance / 100
        if (distance <= reach) {
          found = true
          limit = score
          reach = distance
          start = Math.max(0, expected - distance - 1)
        }
        if (j <= expected) break
      }
    }
  }
  score = Math.max(0.001, score)
  return found ? score : -score
}

/** A lower-cased pattern cut in pieces of at most 32 characters (one machine word each). */
class Pattern {
  constructor(pattern, threshold, ignoreLocation) {
    this.threshold = threshold
    this.ignoreLocation = ignoreLocation
    const p = pattern.toLowerCase()
    this.pattern = p
    this.pieces = []
    this.row = new Int32Array(ignoreLocation ? 0 : p.length + Math.ceil(threshold * 100) + 2)
    for (let at = 0; at < p.length; at += 32) {
      const offset = Math.max(0, Math.min(at, p.length - 32))
      const piece = { text: p.slice(offset, offset + 32), offset, ascii: new Int32Array(128), other: new Map() }
      for (let k = 0; k < piece.text.length; k++) {
        const code = piece.text.charCodeAt(k)
        const bits = maskOf(piece, code) | (1 << k)
        if (code < 128) piece.ascii[code] = bits
        else piece.other.set(code, bits)
      }
      this.pieces.push(piece)
    }
  }

  /** 0 for an exact match, up to the threshold for close ones, -1 for no match. */
  grade(value) {
    const text = value.toLowerCase()
    if (text === this.pattern) return 0
    let total = 0
    let matched = false
    for (const piece of this.pieces) {
      let s = 0.001
      if (!this.ignoreLocation) s = gradeAtLocation(piece, text, this.threshold, this.row)
      else if (!text.includes(piece.text)) {
        const d = bestDistance(piece, text, 0, text.length, 1)
        s = d <= this.threshold && d < 1 ? d : -1
      }
      matched ||= s > 0
      total += Math.abs(s)
    }
    return matched ? total / this.pieces.length : -1
  }
}

/** The searchable texts of a list of items, by key, each with its owner and weight. */
class FuzzyIndex {
  constructor(items, options) {
    this.items = items
    this.options = options
    const keys = options.keys.map((k) => (typeof k === 'string' ? { path: k.split('.'), weight: 1 } : { path: k.name.split('.'), weight: k.weight }))
    const index = { owners: [], texts: [], weights: [] }
    for (let owner = 0; owner < items.length; owner++) {
      for (const { path, weight } of keys) {
        let value = items[owner]
        for (const part of path) value = typeof value === 'object' && value !== null ? Reflect.get(value, part) : undefined
        if (typeof value === 'number' || typeof value === 'boolean') value = Object.is(value, -0) ? '-0' : String(value)
        addTexts(index, value, owner, weight)
      }
    }
    this.index = index
    this.norms = new Float64Array(index.texts.length)
  }

  /**
   * @param {string} query
   * @param {{ limit?: number }} [options]
   */
  search(query, { limit } = {}) {
    const { threshold, ignoreLocation = false } = this.options
    const { owners, texts, weights } = this.index
    const pattern = new Pattern(query, threshold, ignoreLocation)
    const hits = []
    let lastOwner = -1
    for (let k = 0; k < texts.length; k++) {
      const text = texts[k]
      const grade = pattern.grade(text)
      if (grade < 0) continue
      const owner = owners[k]
      if (owner !== lastOwner) {
        lastOwner = owner
        hits.push({ owner, score: 1 })
      }
      let norm = this.norms[k]
      if (norm === 0) {
        let words = 0
        for (let at = 0; at < text.length;) {
          const space = text.indexOf(' ', at)
          if (space !== at) words++
          at = space < 0 ? text.length : space + 1
        }
        norm = this.norms[k] = weights[k] * (Math.round((1 / Math.sqrt(words)) * 1000) / 1000)
      }
      hits.at(-1).score *= (grade || Number.EPSILON) ** norm
    }
    hits.sort((a, b) => a.score - b.score)
    return hits.slice(0, limit).map(({ owner, score }) => ({ item: this.items[owner], score }))
  }
}

function addTexts(index, value, owner, weight) {
  if (Array.isArray(value)) {
    for (let k = value.length - 1; k >= 0; k--) addTexts(index, value[k], owner, weight)
  } else if (typeof value === 'string' && value.trim() !== '') {
    index.owners.push(owner)
    index.texts.push(value)
    index.weights.push(weight)
  }
}

function descriptionWords(description) {
  const words = new Set()
  for (const word of (description ?? '').toLowerCase().split(/\s+/)) {
    if (/[^a-z0-9]/.test(word)) {
      words.add(word.replace(/[^a-z0-9]/g, ''))
      for (const part of word.split(/[^a-z0-9]+/)) words.add(part)
    } else words.add(word)
  }
  words.delete('')
  return [...words].sort()
}

function compareKeys(a, b) {
  for (let k = 0; k < a.length; k++) {
    const x = a[k] ?? 0
    const y = b[k] ?? 0
    if (x < y) return -1
    if (x > y) return 1
  }
  return 0
}

class CommandMatcher {
  /** @param {Array<{name: string, displayName: string, aliases?: string[], description?: string}>} candidates */
  constructor(candidates) {
    this.items = candidates.map((candidate) => {
      const { name, displayName } = candidate
      const parts = name.split(SEPARATORS).filter(Boolean)
      const displayParts = displayName !== name ? displayName.split(SEPARATORS).filter(Boolean) : []
      return {
        partKey: parts.length > 1 ? parts : undefined,
        displayPartKey: displayParts.length > 1 ? displayParts : undefined,
        commandName: name,
        displayName,
        candidate,
        aliasKey: candidate.aliases,
        descriptionWords: descriptionWords(candidate.description),
      }
    })
    this.fuse = new FuzzyIndex(this.items, {
      threshold: 0.3,
      keys: [
        { name: 'commandName', weight: 3 },
        { name: 'displayName', weight: 2 },
        { name: 'partKey', weight: 2 },
        { name: 'aliasKey', weight: 2 },
        { name: 'displayPartKey', weight: 1 },
      ],
    })
    this.lastSearch = null
  }

  /** The candidates matching `query`, best first. */
  search(query, options) {
    const { getScoreBoost, filter } = options ?? {}
    const q = query.trim().toLowerCase()
    let rows = this.lastSearch?.query === q ? this.lastSearch.rows : undefined
    if (!rows) {
      rows = this.fuse.search(q).map((hit) => ({ item: hit.item, bucket: Math.floor(hit.score * 10), descriptionHits: 0 }))
      const word = q.replace(/[^a-z0-9]/g, '')
      if (word !== '') {
        const seen = new Set(rows.map((r) => r.item))
        for (const item of this.items) {
          if (seen.has(item)) continue
          const words = item.descriptionWords
          let lo = 0
          let hi = words.length
          while (lo < hi) {
            const mid = (lo + hi) >>> 1
            const w = words[mid]
            if (w !== undefined && w < word) lo = mid + 1
            else hi = mid
          }
          let hits = 0
          while (words[lo + hits]?.startsWith(word)) hits++
          if (hits > 0) rows.push({ item, bucket: DESCRIPTION_BUCKET, descriptionHits: hits })
        }
      }
      this.lastSearch = { query: q, rows }
    }
    if (filter) rows = rows.filter((r) => filter(r.item.candidate))
    const ranked = rows.map((r) => {
      const name = r.item.commandName.toLowerCase()
      const display = r.item.displayName.toLowerCase()
      const aliases = r.item.aliasKey?.map((a) => a.toLowerCase()) ?? []
      const exact = name === q || display === q
      const exactAlias = aliases.includes(q)
      const prefixLength = Math.min(name.startsWith(q) ? name.length : Infinity, display.startsWith(q) ? display.length : Infinity)
      const alias = aliases.find((a) => a.startsWith(q))
      const boost = getScoreBoost ? getScoreBoost(r.item.candidate) : 0
      return { candidate: r.item.candidate, rankKey: [exact ? 0 : 1, exactAlias ? 0 : 1, prefixLength, alias ? alias.length : Infinity, r.bucket, -r.descriptionHits, -boost] }
    })
    ranked.sort((a, b) => compareKeys(a.rankKey, b.rankKey))
    return ranked.map((r) => r.candidate)
  }
}

export { CommandMatcher }
