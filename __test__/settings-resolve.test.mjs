// resolveSettings() side by side with the official SDK on the same fixture trees: settings files
// checked against the CLI's settings schema as the CLI checks them (a user/project/local file with
// an ill-typed value is not used; the settings the CLI is lenient with are dropped or replaced;
// env values become strings; invalid permission rules and hook events are left out), the policy
// tier (server-managed settings before the managedSettings option, ill-typed keys dropped or
// replaced by their fail-closed value), and project/local settings found from `cwd` (inside a git
// repository too). Plus the pure parts of the MDM readers that only run on macOS and Windows.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import * as O from '@anthropic-ai/claude-agent-sdk'
import { sdk as N } from './helpers/sdk.mjs'

const require = createRequire(import.meta.url)
const schema = require('../lib/settings-schema.json')
const { registryValue, profilePaths } = require('../lib/settings-mdm.js')

/** Runs `body(dir, home)` with CLAUDE_CONFIG_DIR pointing into a fresh fixture tree. */
async function withTree(body) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'settings-resolve-')))
  const home = path.join(dir, 'config')
  fs.mkdirSync(home)
  const saved = process.env.CLAUDE_CONFIG_DIR
  process.env.CLAUDE_CONFIG_DIR = home
  try {
    await body(dir, home)
  } finally {
    if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR
    else process.env.CLAUDE_CONFIG_DIR = saved
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const write = (file, value) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value))
}

async function same(opts, label) {
  const theirs = await O.resolveSettings(opts)
  assert.deepEqual(await N.resolveSettings(opts), theirs, label ?? JSON.stringify(opts))
  return theirs
}

// A valid and an ill-typed value for every setting of the schema.
const deref = (n) => (n.t === 'ref' ? deref(schema.defs[n.name]) : n)
function sample(n) {
  n = deref(n)
  switch (n.t) {
    case 's': return 'x'
    case 'n': return 1
    case 'b': return true
    case 'u': return 'anything'
    case 'lit': return n.v
    case 'or': return sample(n.of[0])
    case 'arr': return [sample(n.of)]
    case 'tup': return n.items.map(sample)
    case 'obj': {
      const o = {}
      for (const [k, p] of Object.entries(n.props)) if (!p.opt) o[k] = sample(p.s)
      const entries = Object.entries(n.props)
      if (entries.length > 0 && entries.every(([, p]) => p.opt)) o[entries[0][0]] = sample(entries[0][1].s)
      if (entries.length === 0 && n.idx) o.k = sample(n.idx)
      return o
    }
  }
}
function wrong(n) {
  n = deref(n)
  switch (n.t) {
    case 's': case 'lit': return 12345
    case 'n': case 'b': case 'arr': case 'tup': case 'obj': return 'nope'
    case 'or': return n.of.some((x) => ['s', 'lit'].includes(deref(x).t)) ? (n.of.some((x) => deref(x).t === 'n') ? false : 12345) : 'nope'
    default: return undefined
  }
}

/** Where ours would differ, with the reason (none today). */
const KNOWN_DIFFERENT = {}

/** [key, kind, value]: each setting well-typed and ill-typed, and each member of an object setting ill-typed. */
function corpus() {
  const cases = []
  for (const [key, prop] of Object.entries(schema.settings.props)) {
    cases.push([key, 'valid', sample(prop.s)], [key, 'wrong', wrong(prop.s)])
    const node = deref(prop.s)
    if (node.t !== 'obj') continue
    for (const [member, p] of Object.entries(node.props)) cases.push([key, `member ${member}`, { ...sample(node), [member]: wrong(p.s) }])
  }
  return cases.filter(([, , v]) => v !== undefined && !(v && typeof v === 'object' && Object.values(v).includes(undefined)))
}

test('every setting, well- and ill-typed, and every member of an object setting, in a user file and in a policy document: the official outcome', async () => {
  await withTree(async (dir, home) => {
    let compared = 0
    {
      for (const [key, kind, value] of corpus()) {
        const doc = { model: 'keep', [key]: value }
        write(path.join(home, 'settings.json'), doc)
        for (const [where, opts] of [['file', { cwd: dir, settingSources: ['user'] }], ['policy', { cwd: dir, settingSources: [], serverManagedSettings: doc }]]) {
          if (KNOWN_DIFFERENT[`${where} ${key} ${kind}`]) continue
          await same(opts, `${where} ${key} ${kind}: ${JSON.stringify(value)}`)
          compared++
        }
      }
    }
    assert.ok(compared > 800, `${compared} cases`)
  })
})

test('the CLI\'s lenient steps: env values, permission rules, hook events, legacy names, empty and broken files', async () => {
  await withTree(async (dir, home) => {
    const cases = [
      { env: { A: 1, B: true, C: null, D: { x: 1 }, E: 'e' } },
      { permissions: { allow: ['Read', 'Bash(ls:*)', 'mcp__srv__tool', 'Bash(:*)', 'x', 'WebFetch(domain:a.com)', 'Read()', 5], deny: 'Bash' } },
      { permissions: { allow: ['Read', 5], defaultMode: 'nonsense' } },
      { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x' }] }], Bogus: [] } },
      { hooks: { PreToolUse: 'bad' } },
      { attribution: false }, { attribution: true },
      { additionalMarketplaces: { k: { source: { source: 'github', repo: 'a/b' } } } },
      { enabledMcpjsonServers: 'one' },
      { deniedModels: ['x'], availableModelsMatch: 'exact', model: 'm' },
      { cleanupPeriodDays: 1.5 }, { cleanupPeriodDays: 0 }, { cleanupPeriodDays: 30 }, { maxProseWidth: 39, model: 'm' }, { maxProseWidth: 40 },
      { feedbackSurveyRate: 0.5 }, { feedbackSurveyRate: 1.5, model: 'm' }, { model: null }, { theme: 5, model: 'm' },
      '   ', '{ not json', '[1]',
    ]
    for (const c of cases) {
      write(path.join(home, 'settings.json'), c)
      await same({ cwd: dir, settingSources: ['user'] }, JSON.stringify(c))
    }
  })
})

test('the policy tier: server-managed settings first, then the managedSettings option (restrictive keys only)', async () => {
  await withTree(async (dir, home) => {
    write(path.join(home, 'settings.json'), { model: 'user-model', permissions: { allow: ['Read'] } })
    const cases = [
      { serverManagedSettings: {} }, { serverManagedSettings: { model: 5 } },
      { serverManagedSettings: { model: 'server', env: { S: 1 }, cleanupPeriodDays: 'x', disableBypassPermissionsMode: 'nope' } },
      { serverManagedSettings: { model: 'server' }, managedSettings: { permissions: { deny: ['Write'] } } },
      { managedSettings: { permissions: { deny: ['Bash'], allow: ['X'], defaultMode: 'plan' }, model: 'dropped' } },
      { managedSettings: { permissions: { deny: [5, 'Bash'] } } },
      { serverManagedSettings: { managedMcpServers: { a: { command: 'node' }, b: { type: 'http', url: 'https://x.com', extra: 1 }, c: { type: 'sse', url: 'notaurl' }, s: { type: 'sse', url: 'https://x.com', headers: { A: 'b' } }, t: { type: 'http', url: 'ftp://x.com' } } } },
      { managedSettings: { permissions: { deny: 'Bash' } } },
      { managedSettings: { sandbox: { enabled: true, network: { allowedDomains: ['a.com'] } }, allowManagedHooksOnly: true, allowManagedPermissionRulesOnly: true } },
    ]
    for (const c of cases) {
      const theirs = await same({ cwd: dir, ...c })
      if (c.serverManagedSettings?.model === 'server') assert.equal(theirs.sources.at(-1).policyOrigin, 'remote')
    }
  })
})

test('project and local settings come from cwd, inside a git repository too, as the official reads them', async () => {
  await withTree(async (dir) => {
    const repo = path.join(dir, 'repo')
    const sub = path.join(repo, 'a', 'b')
    fs.mkdirSync(sub, { recursive: true })
    try {
      execFileSync('git', ['init', '-q'], { cwd: repo })
    } catch {
      fs.mkdirSync(path.join(repo, '.git'))
    }
    write(path.join(repo, '.claude', 'settings.json'), { model: 'root-project' })
    write(path.join(repo, '.claude', 'settings.local.json'), { env: { ROOT_LOCAL: '1' } })
    write(path.join(sub, '.claude', 'settings.local.json'), { env: { SUB_LOCAL: '1' } })
    write(path.join(sub, '.claude', 'settings.json'), { model: 5 })
    for (const cwd of [repo, path.join(repo, 'a'), sub]) {
      for (const settingSources of [undefined, ['project'], ['local']]) await same({ cwd, settingSources })
    }
  })
})

test('lib/settings-schema.json is what scripts/gen-settings-schema.mjs makes of the typings today', () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'settings-schema-')), 'schema.json')
  execFileSync(process.execPath, [fileURLToPath(new URL('../scripts/gen-settings-schema.mjs', import.meta.url))], { env: { ...process.env, SETTINGS_SCHEMA_OUT: out }, stdio: 'pipe' })
  assert.deepEqual(JSON.parse(fs.readFileSync(out, 'utf8')), schema)
  fs.rmSync(path.dirname(out), { recursive: true, force: true })
})

test('MDM readers (macOS, Windows): the registry value and the profile paths the CLI reads', () => {
  const out = '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\ClaudeCode\r\n    Settings    REG_SZ    {"model":"mdm","permissions":{"deny":["Bash"]}}\r\n\r\n'
  assert.deepEqual(JSON.parse(registryValue(out)), { model: 'mdm', permissions: { deny: ['Bash'] } })
  assert.equal(registryValue('\n    Settings    REG_EXPAND_SZ    {"a":1}   \n'), '{"a":1}')
  assert.equal(registryValue('\n    Other    REG_SZ    {"a":1}\n'), null)
  assert.equal(registryValue('\n    Settings    REG_DWORD    0x1\n'), null)
  const paths = profilePaths()
  assert.equal(paths.at(-1), '/Library/Managed Preferences/com.anthropic.claudecode.plist')
  if (paths.length === 2) assert.match(paths[0], /^\/Library\/Managed Preferences\/[^/]+\/com\.anthropic\.claudecode\.plist$/)
})
