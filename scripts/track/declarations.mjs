// Declarations of two packages, entry point by entry point: exported names missing or extra, and
// for each shared name whether the types are the same (scripts/track/report.d.mts), with tsc
// (the `typescript` devDependency) compiling a generated check file. A name whose types differ is
// followed down: an object's members, a function's parameters and return value, up to three levels,
// so that each line names the member that differs.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { exportsOf } from './exports-of.mjs'

const MAX_DEPTH = 3 // levels followed below an exported name
const SHOWN = 240 // characters of a type shown in a line

function tscBin(root) {
  const pkgPath = createRequire(path.join(root, 'package.json')).resolve('typescript/package.json')
  const pkg = JSON.parse(fs.readFileSync(pkgPath, 'utf8'))
  return path.join(path.dirname(pkgPath), typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.tsc)
}

function runTsc(root, dir) {
  return new Promise((resolve) => {
    const node = process.versions.bun ? 'node' : process.execPath
    const child = spawn(node, [tscBin(root), '-p', dir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { out += d })
    child.on('error', (err) => resolve(`could not run tsc: ${err.message}`))
    child.on('close', () => resolve(out))
  })
}

/** The parts of a type's text between the separator `sep` at the top level (outside brackets and strings). */
function splitTopLevel(text, sep) {
  const parts = []
  let depth = 0
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    const c = text[i]
    if (c === '"' || c === "'") { for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++; continue }
    if (c === '{' || c === '[' || c === '(' || c === '<') depth++
    else if (c === '}' || c === ']' || c === ')' || (c === '>' && text[i - 1] !== '=')) depth--
    else if (i === text.length || (c === sep && depth === 0)) { parts.push(text.slice(start, i).trim()); start = i + 1 }
  }
  return parts.filter(Boolean)
}

/** `{ a: X; b: Y; }` → { a: 'X', b: 'Y' } (top level only). */
export function parseObjectType(text) {
  const fields = {}
  for (const part of splitTopLevel(text.trim().replace(/^\{/, '').replace(/\}$/, ''), ';')) {
    const colon = part.indexOf(':')
    if (colon > 0) fields[part.slice(0, colon).trim()] = part.slice(colon + 1).trim()
  }
  return fields
}

/** `"a" | "b" | never` → ['"a"', '"b"'] (top level only). */
export function unionItems(text) {
  return text ? splitTopLevel(text, '|').filter((item) => item !== 'never') : []
}

/** `[X, Y]` → ['X', 'Y'] (top level only). */
const tupleItems = (text) => splitTopLevel(text.trim().replace(/^\[/, '').replace(/\]$/, ''), ',')

const shorten = (t) => (t.length > SHOWN ? `${t.slice(0, SHOWN)}…` : t)
const keyName = (item) => (/^"(.*)"$/.test(item) ? JSON.parse(item) : item)

const topOf = (node) => (node.parent ? topOf(node.parent) : node)

/**
 * Compiles the checks of every shared name, then of the members, parameters and return values
 * that differ, one level per tsc run.
 * @param {{ entry: string, officialTypes: string, oursTypes: string, shared: Map<string, { kind, typeParameters }> }[]} pairs
 */
async function comparePairs(root, pairs) {
  const lines = []
  const dir = fs.mkdtempSync(path.join(root, '.tmp', 'track-types-'))
  try {
    let nodes = []
    const imports = []
    pairs.forEach((pair, i) => {
      imports.push(`import type * as O${i} from ${JSON.stringify(pair.officialTypes)}`)
      imports.push(`import type * as N${i} from ${JSON.stringify(pair.oursTypes)}`)
      for (const [name, info] of pair.shared) {
        const args = info.typeParameters ? `<${Array(info.typeParameters).fill('any').join(', ')}>` : ''
        const ref = (ns) => (info.kind === 'type' ? `${ns}${i}.${name}${args}` : `typeof ${ns}${i}.${name}`)
        nodes.push({ entry: pair.entry, label: name, official: ref('O'), ours: ref('N'), depth: 0, parent: null })
      }
    })
    const header = [
      `import type { Report, Unmatched } from ${JSON.stringify(path.join(path.dirname(fileURLToPath(import.meta.url)), 'report.d.mts').split(path.sep).join('/'))}`,
      ...imports,
      'declare function check(report: never): void',
    ]
    const opts = {
      strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'],
      typeRoots: [path.join(root, 'node_modules', '@types')], skipLibCheck: true, noErrorTruncation: true, pretty: false,
      paths: { '*': [path.join(root, 'node_modules', '*')] },
    }
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: opts, files: ['check.mts'] }))
    const findings = [] // { node, text, items? }
    const say = (node, text) => findings.push({ node, text })
    const differing = new Set() // exported names whose types differ
    const said = new Set() // exported names something was said of (or explained)
    const reported = [] // nodes tsc found differing
    while (nodes.length) {
      const body = nodes.map((n) => `check(null! as Report<${n.official}, ${n.ours}>)`)
      fs.writeFileSync(path.join(dir, 'check.mts'), [...header, ...body].join('\n') + '\n')
      const output = await runTsc(root, dir)
      const byLine = new Map()
      for (const line of output.split('\n')) {
        const m = /^check\.mts\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line)
        if (m) {
          const index = Number(m[1]) - header.length - 1
          if (!byLine.has(index)) byLine.set(index, { code: m[2], text: m[3] })
        } else if (line.trim() && !/^\s/.test(line)) {
          lines.push(`types: tsc: ${line.trim()}`)
        }
      }
      const next = []
      for (const [index] of byLine) if (nodes[index]?.depth === 0) differing.add(nodes[index].label)
      for (const [index, diag] of byLine) {
        const node = nodes[index]
        if (!node) { lines.push(`types: tsc: ${diag.text}`); continue }
        const m = /^Argument of type '(.*)' is not assignable to parameter of type 'never'\.$/.exec(diag.text)
        if (diag.code !== 'TS2345' || !m) { say(node, `: could not be compared (${diag.code} ${shorten(diag.text)})`); continue }
        const r = parseObjectType(m[1].replace(/import\("[^"]*"\)\./g, ''))
        const child = (label, official, ours) => next.push({ entry: node.entry, label, official, ours, depth: node.depth + 1, parent: node })
        const kind = keyName(r.kind ?? '')
        // A member, parameter or return value whose type tsc names the same on both sides, naming
        // a differing exported type: that type's report says how; not followed.
        const explained = (pairText) => {
          const [o, n] = tupleItems(pairText ?? '')
          if (o === undefined || o !== n || ![...o.matchAll(/[A-Za-z_$][\w$]*/g)].some((w) => differing.has(w[0]))) return false
          said.add(topOf(node))
          return true
        }
        if (kind === 'list' || kind === 'union') {
          // A paired member that tsc prints as the pairing's alias is shown as the parent saw it.
          const named = (side) => (x) => (node.paired && x.startsWith('Unmatched<') ? node.paired[side] : x)
          let a = unionItems(r.onlyOfficial).map(named('official'))
          let b = unionItems(r.onlyOurs).map(named('ours'))
          // An item on both sides is a member whose type changed (a named type: reported by name).
          const changed = a.filter((x) => b.includes(x))
          a = a.filter((x) => !changed.includes(x))
          b = b.filter((x) => !changed.includes(x))
          for (const x of changed) findings.push({ node, text: `: its member ${shorten(x)} differs`, item: x })
          if (a.length === 1 && b.length === 1 && node.depth < MAX_DEPTH && !node.paired) {
            // One member each: the same member, changed; followed down.
            const el = kind === 'list' ? (e) => `(${e})[number]` : (e) => e
            next.push({ ...node, paired: { official: a[0], ours: b[0] }, official: `Unmatched<${el(node.official)}, ${el(node.ours)}>`, ours: `Unmatched<${el(node.ours)}, ${el(node.official)}>`, depth: node.depth + 1, parent: node, label: `${node.label} (${kind === 'list' ? 'an item' : 'a member'})` })
          } else {
            if (a.length) say(node, `: official has ${a.map(shorten).join(' | ')}; ours does not`)
            if (b.length) say(node, `: ours has ${b.map(shorten).join(' | ')}; official does not`)
          }
          if (!a.length && !b.length && !changed.length) say(node, kind === 'list' ? `: the same items in another order or number (official ${shorten(r.official)}; ours ${shorten(r.ours)})` : ': differs')
        } else if (kind === 'promise') {
          child(`${node.label} (awaited)`, `Awaited<${node.official}>`, `Awaited<${node.ours}>`)
        } else if (kind === 'function') {
          const [lo, ln] = unionItems((r.lengths ?? '').replace(/^\[|\]$/g, '').replace(/,/, ' |SPLIT| ')).join(' ').split(' |SPLIT| ')
          if (lo !== undefined && ln !== undefined && lo.trim() !== ln.trim()) say(node, `: official takes ${lo.trim()} parameters, ours ${ln.trim()}`)
          for (const item of unionItems(r.parameters)) {
            const i = Number(keyName(item))
            if (!Number.isInteger(i) || explained(parseObjectType(r.parameterTypes ?? '{}')[i])) continue
            const label = `${node.label}() parameter ${i + 1}`
            if (node.depth + 1 > MAX_DEPTH) findings.push({ node: { ...node, label }, text: ': differs', weak: true })
            else child(label, `NonNullable<Parameters<${node.official}>[${i}]>`, `NonNullable<Parameters<${node.ours}>[${i}]>`)
          }
          if (r.returns === 'false' && !explained(r.returnTypes)) {
            if (node.depth + 1 > MAX_DEPTH) findings.push({ node, text: ': its return value differs', weak: true })
            else child(`${node.label}() return value`, `Awaited<ReturnType<${node.official}>>`, `Awaited<ReturnType<${node.ours}>>`)
          }
        } else if (kind === 'object') {
          const missing = unionItems(r.missing).map(keyName)
          const extra = unionItems(r.extra).map(keyName)
          if (missing.length) say(node, `: ${missing.length === 1 ? 'member' : 'members'} ${missing.join(', ')} missing in ours`)
          if (extra.length) say(node, `: ${extra.length === 1 ? 'member' : 'members'} ${extra.join(', ')} only in ours`)
          for (const k of unionItems(r.optionality).map(keyName)) say(node, `.${k}: optional on one side only`)
          if (r.values === 'false') {
            if (node.depth + 1 > MAX_DEPTH) findings.push({ node: { ...node, label: `${node.label}[string]` }, text: ': differs', weak: true })
            else child(`${node.label}[string]`, `(${node.official})[string]`, `(${node.ours})[string]`)
          }
          for (const k of unionItems(r.differs).map(keyName)) {
            const label = `${node.label}.${k}`
            if (/^unique symbol$|^typeof /.test(k)) continue // Symbol.asyncIterator and the like: seen through the named types
            const types = parseObjectType(r.types ?? '{}')
            if (explained(types[k] ?? types[JSON.stringify(k)])) continue
            if (node.depth + 1 > MAX_DEPTH) findings.push({ node: { ...node, label }, text: ': differs', weak: true })
            else child(label, `NonNullable<(${node.official})[${JSON.stringify(k)}]>`, `NonNullable<(${node.ours})[${JSON.stringify(k)}]>`)
          }
        } else {
          say(node, `: official ${shorten(r.official ?? '?')}; ours ${shorten(r.ours ?? '?')}`)
        }
        reported.push(node)
      }
      nodes = next
    }
    // Lines below an exported name that repeat what is said of another name are left out: a member
    // whose type is a differing exported type, a change already reported (in BFS order, the
    // shallowest first). An exported name with nothing said of it at all is reported as differing.
    const seen = new Set()
    // At the depth limit, 'differs' is said only of a name with nothing else said of it.
    findings.sort((a, b) => Number(Boolean(a.weak)) - Number(Boolean(b.weak)) || a.node.depth - b.node.depth)
    for (const f of findings) {
      const top = topOf(f.node)
      if (f.weak && said.has(top)) continue
      // A member the same on both sides as printed differs inside a named type it uses: when
      // that type is a differing exported name, its own lines say how.
      if (f.item !== undefined && [...f.item.matchAll(/[A-Za-z_$][\w$]*/g)].some((w) => differing.has(w[0]))) { said.add(top); continue }
      if (f.node.depth > 0 && seen.has(f.text)) { said.add(top); continue }
      seen.add(f.text)
      said.add(top)
      lines.push(`types${f.node.entry === '.' ? '' : ` ${f.node.entry}`}: ${f.node.label}${f.text}`)
    }
    for (const node of reported) if (node.depth === 0 && !said.has(node)) lines.push(`types${node.entry === '.' ? '' : ` ${node.entry}`}: ${node.label}: differs`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return lines
}

/**
 * @param {string} root the folder whose node_modules has typescript, @types/node and the packages
 *   the declarations import
 * @param {{ entry: string, officialTypes: string, oursTypes: string }[]} entries
 * @returns {Promise<string[]>} one line per difference
 */
export async function compareDeclarations(root, entries) {
  const lines = []
  const pairs = []
  for (const { entry, officialTypes, oursTypes } of entries) {
    const prefix = `types${entry === '.' ? '' : ` ${entry}`}`
    const o = exportsOf(officialTypes)
    const n = exportsOf(oursTypes)
    const shared = new Map()
    for (const [name, info] of o) {
      const mine = n.get(name)
      if (!mine) lines.push(`${prefix}: ${name} (${info.kind === 'type' ? 'a type' : info.kind === 'class' ? 'a class' : 'a value'}) is missing in ours`)
      else if ((info.kind === 'type') !== (mine.kind === 'type')) lines.push(`${prefix}: ${name} is ${info.kind === 'type' ? 'a type' : 'a value'} in official, ${mine.kind === 'type' ? 'a type' : 'a value'} in ours`)
      else if (info.typeParameters !== mine.typeParameters) lines.push(`${prefix}: ${name} has ${info.typeParameters} type parameters in official, ${mine.typeParameters} in ours`)
      else shared.set(name, info.kind === 'type' ? info : { ...info, kind: 'value' })
    }
    for (const [name] of n) if (!o.has(name)) lines.push(`${prefix}: ${name} is exported by ours only`)
    pairs.push({ entry, officialTypes, oursTypes, shared })
  }
  lines.push(...(await comparePairs(root, pairs)))
  return lines
}
