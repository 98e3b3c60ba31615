// Option keys a bundle reads from a copy of its options: the keys destructured from a rest
// (`let { a, ...p } = options; let { b: x, c = 1 } = p`), found in the bundle's source text.

/** The end of the bracketed span that starts at `i` (skipping strings and template literals). */
function spanEnd(text, i) {
  let depth = 0
  for (let j = i; j < text.length; j++) {
    const c = text[j]
    if (c === '"' || c === "'" || c === '`') {
      for (j++; j < text.length && text[j] !== c; j++) if (text[j] === '\\') j++
    } else if (c === '{' || c === '[' || c === '(') depth++
    else if (c === '}' || c === ']' || c === ')') { if (--depth === 0) return j }
  }
  return -1
}

/**
 * Keys read from a rest made by a destructuring `{ …, ...rest } = options`: those of a later
 * `{ a: x, b = 1 } = rest` within the 6000 characters that follow.
 */
export function keysDestructuredFromRests(text) {
  const keys = new Set()
  for (const m of text.matchAll(/\.\.\.\s*([A-Za-z_$][\w$]*)\s*\}\s*=/g)) {
    const rest = m[1]
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 6000)
    const use = new RegExp(`^\\s*=\\s*${rest.replace(/\$/g, '\\$')}(?![\\w$])`)
    for (let i = after.indexOf('{'); i >= 0; i = after.indexOf('{', i + 1)) {
      const end = spanEnd(after, i)
      if (end < 0 || !use.test(after.slice(end + 1, end + 8 + rest.length))) continue
      const body = after.slice(i + 1, end)
      let start = 0
      for (let j = 0; j <= body.length; j++) {
        const c = body[j]
        if (c === '{' || c === '[' || c === '(') {
          const close = spanEnd(body, j)
          if (close < 0) break // unbalanced (a regular expression's bracket, say): the keys so far
          j = close
          continue
        }
        if (c === ',' || j === body.length) {
          const k = /^\s*([A-Za-z_$][\w$]*)/.exec(body.slice(start, j))
          if (k) keys.add(k[1])
          start = j + 1
        }
      }
    }
  }
  return keys
}
