#!/usr/bin/env node
// Regenerates lib/settings-schema.json — the shape of Claude Code's settings that resolveSettings()
// validates files against — from the `Settings` type of types/settings.d.ts (and the
// `SandboxNetworkConfig` it imports from types/options.d.ts). Run it after the typings follow a
// new official version:
//
//   node scripts/gen-settings-schema.mjs
//
// The type language parsed is the subset those files use: object literals (members and string
// index signatures), unions, arrays (`T[]`), tuples with a rest element, string and number
// literals, `string`/`number`/`boolean`/`unknown`, and the aliases the files declare.
//
// Nodes: {t:'s'|'n'|'b'|'u'} | {t:'lit',v} | {t:'arr',of} | {t:'tup',items,rest} | {t:'or',of}
// | {t:'obj',props:{name:{s,opt}},idx} | {t:'ref',name} (into `defs`).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

function tokenize(text) {
  const src = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ')
  const tokens = []
  const re = /\s*(\.\.\.|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|[A-Za-z_$][\w$]*|[{}()[\]|:;,?=<>&.])/gy
  let m
  while ((m = re.exec(src)) !== null && m[1] !== undefined) tokens.push(m[1])
  return tokens
}

class Parser {
  constructor(tokens) {
    this.t = tokens
    this.i = 0
  }
  peek() { return this.t[this.i] }
  next() { return this.t[this.i++] }
  expect(tok) {
    const got = this.next()
    if (got !== tok) throw new Error(`expected ${tok}, got ${got} at token ${this.i}: ${this.t.slice(this.i - 5, this.i + 5).join(' ')}`)
  }
  type() {
    if (this.peek() === '|') this.next()
    const of = [this.postfix()]
    while (this.peek() === '|') {
      this.next()
      of.push(this.postfix())
    }
    return of.length === 1 ? of[0] : { t: 'or', of }
  }
  postfix() {
    let node = this.primary()
    while (this.peek() === '[' && this.t[this.i + 1] === ']') {
      this.i += 2
      node = { t: 'arr', of: node }
    }
    return node
  }
  primary() {
    const tok = this.next()
    if (tok === '(') {
      const inner = this.type()
      this.expect(')')
      return inner
    }
    if (tok === '{') return this.members()
    if (tok === '[') {
      const items = []
      let rest = null
      while (this.peek() !== ']') {
        if (this.peek() === '...') {
          this.next()
          rest = this.type()
          if (rest.t === 'arr') rest = rest.of
        } else items.push(this.type())
        if (this.peek() === ',') this.next()
      }
      this.next()
      return { t: 'tup', items, rest }
    }
    if (tok[0] === "'" || tok[0] === '"') return { t: 'lit', v: tok.slice(1, -1) }
    if (/^-?\d/.test(tok)) return { t: 'lit', v: Number(tok) }
    if (tok === 'string') return { t: 's' }
    if (tok === 'number') return { t: 'n' }
    if (tok === 'boolean') return { t: 'b' }
    if (tok === 'unknown' || tok === 'any') return { t: 'u' }
    return { t: 'ref', name: tok }
  }
  members() {
    const props = {}
    let idx = null
    while (this.peek() !== '}') {
      if (this.peek() === '[') {
        this.next()
        this.next() // key name
        this.expect(':')
        this.next() // string
        this.expect(']')
        this.expect(':')
        idx = this.type()
      } else {
        let name = this.next()
        if (name[0] === "'" || name[0] === '"') name = name.slice(1, -1)
        const opt = this.peek() === '?'
        if (opt) this.next()
        this.expect(':')
        props[name] = { s: this.type(), ...(opt && { opt: true }) }
      }
      if (this.peek() === ';' || this.peek() === ',') this.next()
    }
    this.next()
    return { t: 'obj', props, idx }
  }
}

/** The type aliases and interfaces of a declaration file, parsed. */
function declarations(file) {
  const tokens = tokenize(fs.readFileSync(file, 'utf8'))
  const out = {}
  for (let i = 0; i < tokens.length; i++) {
    // A declaration outside the subset (generics, functions) is left out: only the ones the
    // Settings type reaches must parse (an unknown reference fails below).
    const p = new Parser(tokens)
    try {
      if (tokens[i] === 'type' && /^[A-Z]/.test(tokens[i + 1] ?? '') && tokens[i + 2] === '=') {
        p.i = i + 3
        out[tokens[i + 1]] = p.type()
      } else if (tokens[i] === 'interface' && tokens[i + 2] === '{') {
        p.i = i + 3
        out[tokens[i + 1]] = p.members()
      }
    } catch {}
  }
  return out
}

const settingsDecls = declarations(path.join(ROOT, 'types/settings.d.ts'))
const optionsDecls = declarations(path.join(ROOT, 'types/options.d.ts'))

// Keep only the definitions the Settings type reaches.
const defs = {}
function visit(node) {
  if (!node || typeof node !== 'object') return
  if (node.t === 'ref') {
    if (defs[node.name] !== undefined) return
    const def = settingsDecls[node.name] ?? optionsDecls[node.name]
    if (def === undefined) throw new Error(`unknown type ${node.name}`)
    defs[node.name] = def
    visit(def)
    return
  }
  for (const v of Object.values(node)) {
    if (Array.isArray(v)) v.forEach(visit)
    else if (v && typeof v === 'object') {
      if (v.t !== undefined) visit(v)
      else for (const p of Object.values(v)) visit(p.s ?? p)
    }
  }
}
const settings = settingsDecls.Settings
visit(settings)
// SETTINGS_SCHEMA_OUT: write elsewhere (the tests compare that with the committed file).
const out = process.env.SETTINGS_SCHEMA_OUT ?? path.join(ROOT, 'lib/settings-schema.json')
fs.writeFileSync(out, JSON.stringify({ note: 'Generated by scripts/gen-settings-schema.mjs from types/settings.d.ts; do not edit.', settings, defs }) + '\n')
console.log(`wrote ${path.relative(ROOT, out)}: ${Object.keys(settings.props).length} settings, ${Object.keys(defs).length} definitions`)
