// The browser entry's copies of lib/ modules that are plain JavaScript with no Node API
// (FileIndex, CommandMatcher): lib/ is CommonJS and a browser imports ES modules, so each is
// written as an ES module beside browser/index.mjs. They are build artifacts, not kept in git:
// written by scripts/prepare.mjs (npm test, demo, bench) and by npm's `prepack` (pack, publish);
// the browser-sdk test checks they match lib/.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** lib/ source → browser/ copy. */
export const SHARED = [
  ['lib/file-index.js', 'browser/file-index.mjs'],
  ['lib/command-matcher.js', 'browser/command-matcher.mjs'],
]

/** The ES module text of a CommonJS file whose only CommonJS is a last `module.exports = { … }`. */
export function esmOf(source) {
  const text = fs.readFileSync(path.join(root, source), 'utf8')
  const exportsLine = /^module\.exports = \{ ([\w, ]+) \}\n?$/m
  const match = exportsLine.exec(text)
  if (!match) throw new Error(`${source}: no 'module.exports = { … }' line to turn into an export`)
  const body = text.replace(exportsLine, `export { ${match[1]} }\n`).replace(/^'use strict'\n/m, '')
  if (/\brequire\(|\bmodule\.exports\b|\bexports\.\w/.test(body)) throw new Error(`${source}: uses CommonJS beyond its last line; it cannot be shared with the browser entry`)
  const header = `// Generated from ${source} by scripts/browser-shared.mjs: edit that file and run the script.\n`
  return body.startsWith('// @ts-check\n') ? `// @ts-check\n${header}${body.slice('// @ts-check\n'.length)}` : header + body
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [source, target] of SHARED) {
    fs.writeFileSync(path.join(root, target), esmOf(source))
    console.error(`[prepare] wrote ${target}`) // stderr: `npm pack --json` prints its result on stdout
  }
}
