// Issue 10: "no module circles in the engine (its modules' use lines form a tree)". For each Rust
// crate of the package (the engine, the Rust SDK, the napi binding), every `crate::…` and
// `super::…` path in a module's code (comments and `#[cfg(test)] mod tests` left out) is an edge
// from that module to the module it names; a module may use its own ancestors (the folder's
// `mod.rs` it belongs to) without that counting. The edges must form no cycle.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CRATES = ['crates/agent-core/src', 'crates/claude-agent-sdk/src', 'src']

function rustFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? rustFiles(p) : e.name.endsWith('.rs') ? [p] : []
  })
}

/** module path ('a::b') → file, for a crate's source folder. */
function modules(srcDir) {
  const map = new Map()
  for (const file of rustFiles(srcDir)) {
    const parts = path.relative(srcDir, file).slice(0, -3).split(path.sep)
    if (['mod', 'lib'].includes(parts.at(-1))) parts.pop()
    map.set(parts.join('::'), file)
  }
  return map
}

/** The longest module path that `segments` starts with. */
function resolve(mods, segments) {
  for (let i = segments.length; i > 0; i--) {
    const m = segments.slice(0, i).join('::')
    if (mods.has(m)) return m
  }
  return null
}

/** The source with its `#[cfg(test)] mod tests { … }` blocks blanked (lines kept, for line numbers). */
function withoutTests(src) {
  const re = /#\[cfg\(test\)\]\s*mod \w+\s*\{/g
  let out = ''
  let from = 0
  for (let m; (m = re.exec(src)); ) {
    let depth = 1
    let i = m.index + m[0].length
    for (; i < src.length && depth > 0; i++) depth += src[i] === '{' ? 1 : src[i] === '}' ? -1 : 0
    out += src.slice(from, m.index) + src.slice(m.index, i).replace(/[^\n]/g, ' ')
    from = re.lastIndex = i
  }
  return out + src.slice(from)
}

/** module → Map(target module → first line that names it). */
export function moduleEdges(srcDir) {
  const mods = modules(srcDir)
  const edges = new Map()
  for (const [m, file] of mods) {
    const out = new Map()
    const code = withoutTests(fs.readFileSync(file, 'utf8'))
    const self = m === '' ? [] : m.split('::')
    code.split('\n').forEach((line, i) => {
      if (line.trim().startsWith('//')) return
      for (const [, kind, p] of line.matchAll(/\b(crate|super)::((?:[A-Za-z_][A-Za-z0-9_]*::)*[A-Za-z_][A-Za-z0-9_]*)/g)) {
        const segments = kind === 'crate' ? p.split('::') : [...self.slice(0, -1), ...p.split('::')]
        const t = resolve(mods, segments)
        // Itself, or one of its ancestors: not an edge.
        if (t === null || t === '' || t === m || m.startsWith(t + '::')) continue
        if (!out.has(t)) out.set(t, `${path.relative(root, file)}:${i + 1}`)
      }
    })
    edges.set(m, out)
  }
  return edges
}

/** The strongly connected components with more than one module (Tarjan). */
function cycles(edges) {
  let n = 0
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const found = []
  const visit = (v) => {
    index.set(v, n)
    low.set(v, n++)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v).keys()) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) === index.get(v)) {
      const comp = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        comp.push(w)
      } while (w !== v)
      if (comp.length > 1) found.push(comp.sort())
    }
  }
  for (const v of edges.keys()) if (!index.has(v)) visit(v)
  return found
}

for (const crate of CRATES) {
  test(`${crate}: the modules' use lines form no cycle`, () => {
    const edges = moduleEdges(path.join(root, crate))
    assert.ok(edges.size > 5, `read ${edges.size} modules of ${crate}`)
    const found = cycles(edges)
    const explain = found.map((comp) => comp.flatMap((a) => [...edges.get(a)].filter(([b]) => comp.includes(b)).map(([b, at]) => `  ${a} -> ${b} (${at})`)).join('\n'))
    assert.deepEqual(found, [], `module cycles:\n${explain.join('\n\n')}`)
  })
}

test('the check sees a cycle when there is one', () => {
  const dir = fs.mkdtempSync(path.join(root, '.tmp', 'module-tree-'))
  try {
    fs.mkdirSync(path.join(dir, 'a'))
    fs.writeFileSync(path.join(dir, 'lib.rs'), 'mod a;\n')
    fs.writeFileSync(path.join(dir, 'a', 'mod.rs'), 'mod b;\nmod c;\n')
    fs.writeFileSync(path.join(dir, 'a', 'b.rs'), 'use super::c::f; // uses c\npub fn g() {}\n')
    fs.writeFileSync(path.join(dir, 'a', 'c.rs'), '// crate::a::b in a comment is no edge\n#[cfg(test)]\nmod tests { fn t() { crate::a::d::h() } }\npub fn f() { crate::a::b::g() }\n')
    fs.writeFileSync(path.join(dir, 'a', 'd.rs'), 'pub fn h() { crate::a::c::f() }\n')
    const found = cycles(moduleEdges(dir))
    assert.deepEqual(found, [['a::b', 'a::c']])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
