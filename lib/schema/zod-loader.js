// @ts-check
'use strict'
// Finds zod (and zod-to-json-schema) only when a tool's schema needs it — never at import time.
// Candidates, in order: our own resolution (zod is our peer dependency, so in an installed
// project this is the project's zod), the project at process.cwd(), the main module's project.
// For zod 4 the candidate whose version equals the version the schemas were built with wins
// (the schemas' own zod); otherwise the first that loads.
const Module = require('node:module')
const path = require('node:path')

const NOT_FOUND = new Set(['MODULE_NOT_FOUND', 'ERR_PACKAGE_PATH_NOT_EXPORTED'])

function requirers() {
  const list = [require]
  const add = (file) => {
    try {
      list.push(Module.createRequire(file))
    } catch {}
  }
  add(path.join(process.cwd(), '__claude_agent_sdk_native__.js'))
  if (require.main && require.main.filename) add(require.main.filename)
  return list
}

/** Every distinct resolution of `id` among the candidates: [{ file, req }]. */
function resolveAll(id) {
  const seen = new Set()
  const out = []
  for (const req of requirers()) {
    let file
    try {
      file = req.resolve(id)
    } catch (err) {
      if (err && NOT_FOUND.has(err.code)) continue
      throw err
    }
    if (seen.has(file)) continue
    seen.add(file)
    out.push({ file, req })
  }
  return out
}

function packageVersion(req, name) {
  try {
    return req(`${name}/package.json`).version
  } catch {
    return undefined
  }
}

const cache = new Map()

function missing(what, detail) {
  const err = /** @type {Error & { code?: string }} */ (new Error(`claude-agent-sdk-native: ${what} could not be loaded (${detail}); install it in your project (npm install ${what.split(' ')[0]})`))
  err.code = 'CLAUDE_SDK_NATIVE_SCHEMA_DEPENDENCY_MISSING'
  return err
}

/**
 * Which of zod 4's APIs the app's schemas come from: classic (`zod`, `zod/v4`: its schemas have
 * methods such as `describe`) or mini (`zod/v4/mini`). The tool's object schema is built with the
 * same API, so nothing the app has not loaded already is loaded: both share zod's core, and an
 * app on classic zod that makes us load mini pays for mini's modules and every locale
 * (≈ 6-10 ms of a first query, measured), an app on mini the other way round.
 */
function flavourOf(inputSchema) {
  const first = inputSchema && inputSchema._zod ? inputSchema : Object.values(inputSchema ?? {}).find((v) => v && v._zod)
  return first && typeof first.describe !== 'function' ? 'mini' : 'classic'
}

const SPECIFIER = { classic: 'zod/v4', mini: 'zod/v4/mini' }

/**
 * zod 4's API (`zod/v4` or `zod/v4/mini`, present in zod >= 3.25), with `core`, `object`,
 * `toJSONSchema`, `globalRegistry` and `locales` on it.
 * @param {{major:number, minor:number, patch:number}=} wanted the `_zod.version` of the schemas
 * @param {'classic'|'mini'=} flavour which API the schemas come from ({@link flavourOf})
 */
function loadZod4(wanted, flavour = 'classic') {
  const key = `4:${flavour}:${wanted ? `${wanted.major}.${wanted.minor}.${wanted.patch}` : ''}`
  if (cache.has(key)) return cache.get(key)
  const esm = cache.get(`4esm:${flavour}`)
  if (esm && (!wanted || sameVersion(esm.core?.version, wanted))) {
    cache.set(key, esm)
    return esm
  }
  const found = resolveAll(SPECIFIER[flavour])
  if (found.length === 0) throw missing('zod', 'no zod 4 found; zod >= 3.25 or zod 4 is needed for zod 4 schemas')
  let pick = found[0]
  if (wanted && found.length > 1) {
    const match = found.find(({ req }) => packageVersion(req, 'zod') === `${wanted.major}.${wanted.minor}.${wanted.patch}`)
    if (match) pick = match
  }
  const z = require(pick.file)
  cache.set(key, z)
  return z
}

function sameVersion(v, wanted) {
  return Boolean(v) && v.major === wanted.major && v.minor === wanted.minor && v.patch === wanted.patch
}

const preloading = new Map()

/**
 * Loads the zod 4 API the schema comes from as an ES module, ahead of need. An app that imported
 * zod as ESM has it in memory already, where require() would load a second, CommonJS copy (tens
 * to hundreds of ms on the first query). Started by createSdkMcpServer(); query() waits for it.
 */
function preloadZod4(inputSchema) {
  const flavour = flavourOf(inputSchema)
  if (cache.has(`4esm:${flavour}`) || preloading.has(flavour)) return
  preloading.set(flavour, importZod4(flavour)
    .then((z) => { cache.set(`4esm:${flavour}`, z) }, () => {})
    .finally(() => { preloading.delete(flavour) }))
}

/**
 * Classic: the package's root first, where zod 4 serves classic zod and which an app importing
 * `zod` has loaded already (nothing to read); `zod/v4` otherwise (zod 3.25's root is zod 3).
 */
async function importZod4(flavour) {
  if (flavour === 'classic') {
    try {
      const root = await import('zod')
      if (root.core && typeof root.object === 'function' && root.core.version?.major === 4) return root
    } catch {}
  }
  return import(SPECIFIER[flavour])
}

/** The preloads still running, as one promise, if any. */
function pendingPreload() {
  if (preloading.size === 0) return null
  if (preloading.size === 1) return preloading.values().next().value
  return Promise.all(preloading.values())
}

/** zod 4's classic API (`zod/v4`), for schemas of our own (the MCP result schema). */
function loadZod4Classic() {
  if (cache.has('4classic')) return cache.get('4classic')
  // The app's own classic zod, when the tools' schemas had it loaded as ESM: no second copy.
  if (cache.has('4esm:classic')) return cache.get('4esm:classic')
  const found = resolveAll('zod/v4')
  if (found.length === 0) throw missing('zod', 'no zod 4 found; zod >= 3.25 or zod 4 is needed')
  const z = require(found[0].file)
  cache.set('4classic', z)
  return z
}

/** zod 3's API: `zod/v3` (zod >= 3.25 and zod 4), or the `zod` package itself when it is zod 3. */
function loadZod3() {
  if (cache.has('3')) return cache.get('3')
  let mod
  const v3 = resolveAll('zod/v3')
  if (v3.length > 0) {
    mod = require(v3[0].file)
  } else {
    const plain = resolveAll('zod').find(({ req }) => String(packageVersion(req, 'zod')).startsWith('3.'))
    if (plain) mod = require(plain.file)
  }
  if (!mod) throw missing('zod', 'no zod 3 found for zod 3 schemas')
  cache.set('3', mod)
  return mod
}

/** zod-to-json-schema's converter (what the official SDK bundles for zod 3 schemas). */
function loadZodToJsonSchema() {
  if (cache.has('z2js')) return cache.get('z2js')
  const found = resolveAll('zod-to-json-schema')
  if (found.length === 0) throw missing('zod-to-json-schema', 'it converts zod 3 schemas to JSON Schema')
  let mod
  try {
    mod = require(found[0].file)
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND') throw missing('zod-to-json-schema', `it needs zod >= 3.25 (for "zod/v3"): ${err.message.split('\n')[0]}`)
    throw err
  }
  const fn = mod.zodToJsonSchema || mod.default
  cache.set('z2js', fn)
  return fn
}

module.exports = { flavourOf, loadZod4, loadZod4Classic, loadZod3, loadZodToJsonSchema, preloadZod4, pendingPreload }
