// Control-protocol subtypes a package sends to the CLI and handles from it, read from its source.
//
// JavaScript (the official's sdk.mjs, our lib/): sent are the `subtype: '…'` literals other than
// those of a control response (`response: { subtype: 'success' | 'error' }`); handled are the
// subtypes compared with `request.subtype` (`request.subtype === '…'`, and the lists tested with
// `LIST.includes(request.subtype)` / `LIST.some((r) => r === request.subtype)`).
// Rust (our crates/agent-core): sent are the `"subtype"` values written by the engine; handled are
// the string arms of a `match` over a `subtype`. Test code (`#[cfg(test)]` onwards) is left out.
import fs from 'node:fs'
import path from 'node:path'

const NAME = /^[a-z][a-z0-9_]*$/
/** Subtypes of control responses (and of result messages), not of requests. */
const RESPONSE = new Set(['success', 'error'])

function filesUnder(dir, ext) {
  if (!fs.existsSync(dir)) return []
  const out = []
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'tests') out.push(...filesUnder(p, ext)) }
    else if (ext.some((x) => e.name.endsWith(x))) out.push(p)
  }
  return out.sort()
}

/** @returns {{ sent: Set<string>, handled: Set<string> }} */
export function subtypesInJs(text) {
  const sent = new Set()
  const handled = new Set()
  for (const m of text.matchAll(/subtype\s*:\s*(['"])([a-z][a-z0-9_]*)\1/g)) {
    sent.add(m[2])
  }
  for (const m of text.matchAll(/request\.subtype\s*===?\s*(['"])([a-z][a-z0-9_]*)\1/g)) handled.add(m[2])
  for (const m of text.matchAll(/\b([A-Za-z_$][\w$]*)\.(?:includes\(\s*[\w$.]*request\.subtype|some\(\s*\(?\s*([\w$]+)\s*\)?\s*=>\s*\2\s*===?\s*[\w$.]*request\.subtype)/g)) {
    const list = new RegExp(`(?:var|let|const)\\s+${m[1].replace(/\$/g, '\\$')}\\s*=\\s*\\[([^\\]]*)\\]`).exec(text)
    if (list) for (const s of list[1].matchAll(/(['"])([a-z][a-z0-9_]*)\1/g)) handled.add(s[2])
  }
  return { sent, handled }
}

/** @returns {{ sent: Set<string>, handled: Set<string> }} */
export function subtypesInRust(text) {
  const code = text.split(/^\s*#\[cfg\(test\)\]/m)[0]
  const sent = new Set()
  const handled = new Set()
  for (const m of code.matchAll(/"subtype"\s*(?::|\.into\(\)\s*,|,)\s*(?:json!\()?\s*"([a-z][a-z0-9_]*)"/g)) sent.add(m[1])
  for (const m of code.matchAll(/match\s+[^{;]*subtype[^{;]*\{/g)) {
    for (const line of code.slice(m.index + m[0].length).split('\n').slice(0, 200)) {
      const arm = /^\s*("[a-z0-9_]+"(?:\s*\|\s*"[a-z0-9_]+")*)(?:\s+if\b[^=]*)?\s*=>/.exec(line)
      if (arm) for (const s of arm[1].matchAll(/"([a-z0-9_]+)"/g)) handled.add(s[1])
      else if (/^\s*(?:[a-z_]+)\s*=>/.test(line)) break // the catch-all arm ends the match
    }
  }
  return { sent, handled }
}

/**
 * The subtypes of a package folder: its JavaScript entry's source when it is a bundle (the
 * official's sdk.mjs), else its lib/ (JavaScript) and crates/agent-core/src (Rust).
 */
export function controlSubtypes(dir, bundle) {
  const sent = new Set()
  const handled = new Set()
  const add = (r) => { for (const s of r.sent) if (NAME.test(s) && !RESPONSE.has(s)) sent.add(s); for (const s of r.handled) if (NAME.test(s)) handled.add(s) }
  const lib = path.join(dir, 'lib')
  if (fs.existsSync(lib)) {
    for (const f of filesUnder(lib, ['.js', '.mjs', '.cjs'])) add(subtypesInJs(fs.readFileSync(f, 'utf8')))
    for (const f of filesUnder(path.join(dir, 'crates', 'agent-core', 'src'), ['.rs'])) add(subtypesInRust(fs.readFileSync(f, 'utf8')))
  } else if (bundle && fs.existsSync(bundle)) {
    add(subtypesInJs(fs.readFileSync(bundle, 'utf8')))
  }
  return { sent, handled }
}
