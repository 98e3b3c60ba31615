// The names a declaration file exports, read from its text (as bundlers and hand-written typings
// write them): `export [declare] <kind> Name`, `export [type] { A, B as C } [from '…']` and
// `export [type] * from '…'` (followed through relative files and packages' files). Each name with its kind ('type',
// 'value' or 'class') and, for a generic type, its number of type parameters.
import fs from 'node:fs'
import path from 'node:path'

const DECLARATION = /^(export\s+)?(?:declare\s+)?(?:abstract\s+)?(class|interface|type|const|let|var|function|namespace|enum)\s+([A-Za-z_$][\w$]*)(\s*<)?/gm
const KINDS = { class: 'class', interface: 'type', type: 'type', const: 'value', let: 'value', var: 'value', function: 'value', namespace: 'value', enum: 'class' }

/** Type parameters of the declaration whose `<` is at `open`. */
function typeParameterCount(text, open) {
  let depth = 0
  let count = 1
  for (let i = open; i < text.length; i++) {
    const c = text[i]
    if (c === '<' || c === '{' || c === '(' || c === '[') depth++
    else if ((c === '>' && text[i - 1] !== '=') || c === '}' || c === ')' || c === ']') {
      if (--depth === 0) return count
    } else if (c === ',' && depth === 1) count++
  }
  return count
}

/** The declaration file a specifier names: relative, or a file of a package in node_modules. */
function resolveSpecifier(from, spec) {
  if (!spec.startsWith('.')) {
    for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
      const found = resolveSpecifier(path.join(dir, 'node_modules', 'x'), `./${spec}`)
      if (found) return found
      if (path.dirname(dir) === dir) return null
    }
  }
  const base = path.resolve(path.dirname(from), spec)
  const stem = base.replace(/\.(m|c)?js$/, '')
  const ext = /\.mjs$/.test(base) ? ['.d.mts', '.d.ts'] : /\.cjs$/.test(base) ? ['.d.cts', '.d.ts'] : ['.d.ts', '.d.mts']
  for (const candidate of [base, ...ext.map((e) => stem + e), ...ext.map((e) => path.join(base, 'index' + e))]) {
    if (/\.d\.[mc]?ts$/.test(candidate) && fs.existsSync(candidate)) return candidate
  }
  return null
}

/** Top-level text only: nested `export`s of namespaces (indented) are not the file's. */
function topLevel(text) {
  return text.replace(/\r\n/g, '\n').replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/^\s*\/\/.*$/gm, '')
}

/**
 * @returns {Map<string, { kind: 'type' | 'value' | 'class', typeParameters: number }>}
 */
export function exportsOf(file, seen = new Map()) {
  if (seen.has(file)) return seen.get(file)
  const out = new Map()
  seen.set(file, out)
  const text = topLevel(fs.readFileSync(file, 'utf8'))
  const local = new Map()
  for (const m of text.matchAll(DECLARATION)) {
    if (m.index > 0 && text[m.index - 1] !== '\n') continue
    const info = { kind: KINDS[m[2]], typeParameters: m[4] ? typeParameterCount(text, m.index + m[0].length - 1) : 0 }
    if (!local.has(m[3])) local.set(m[3], info)
    if (m[1] && !out.has(m[3])) out.set(m[3], info)
  }
  // Names brought in by imports, for `export { X }` of an imported name.
  const imported = new Map()
  for (const m of text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm)) {
    for (const part of m[1].split(',')) {
      const [name, alias = name] = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)
      if (name) imported.set(alias.trim(), { from: m[2], name: name.trim() })
    }
  }
  const lookup = (name, spec) => {
    if (spec === undefined) {
      if (local.has(name)) return local.get(name)
      if (imported.has(name)) return lookup(imported.get(name).name, imported.get(name).from)
      return { kind: 'value', typeParameters: 0 }
    }
    const target = resolveSpecifier(file, spec)
    return (target && exportsOf(target, seen).get(name)) ?? { kind: 'type', typeParameters: 0 }
  }
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}(?:\s*from\s*['"]([^'"]+)['"])?/gm)) {
    for (const part of m[2].split(',')) {
      const item = part.trim().replace(/^type\s+/, '')
      if (!item) continue
      const [name, alias = name] = item.split(/\s+as\s+/).map((s) => s.trim())
      if (alias !== 'default') out.set(alias, lookup(name, m[3]))
    }
  }
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\*\s+as\s+([A-Za-z_$][\w$]*)\s+from/gm)) out.set(m[1], { kind: 'value', typeParameters: 0 })
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\*\s+from\s*['"]([^'"]+)['"]/gm)) {
    const target = resolveSpecifier(file, m[1])
    if (!target) continue
    for (const [name, info] of exportsOf(target, seen)) if (!out.has(name) && name !== 'default') out.set(name, info)
  }
  return out
}
