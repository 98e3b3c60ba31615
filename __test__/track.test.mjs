// The tracking routine (scripts/track.mjs): against a pair of official releases it reports exactly
// the differences between them, and nothing for identical packages. The pair is trimmed from the
// real 0.3.330 and 0.3.332 (__test__/fixtures/track/: the declarations, constants, option reads,
// control subtypes and environment defaults that changed), so no network is needed; the identical
// pair is also the real installed package against a copy of itself.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { subtypesInJs, subtypesInRust, controlSubtypes } from '../scripts/track/control-subtypes.mjs'
import { keysDestructuredFromRests } from '../scripts/track/rest-keys.mjs'
import { parseObjectType, unionItems } from '../scripts/track/declarations.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const fixtures = path.join(root, '__test__', 'fixtures', 'track')
const node = process.versions.bun ? 'node' : process.execPath

function track(...args) {
  const r = spawnSync(node, [path.join(root, 'scripts', 'track.mjs'), ...args], { cwd: root, encoding: 'utf8', timeout: 240_000 })
  return { status: r.status, lines: r.stdout.split('\n').filter(Boolean), stderr: r.stderr }
}

// What 0.3.332 changed from 0.3.330 (in the parts the fixtures keep), as the routine words it.
const EXPECTED = [
  'version: ours declares 0.3.330; the release is 0.3.332',
  'types: PreSkillShellCommandHookInput (a type) is missing in ours',
  'types: PreSkillShellCommandHookSpecificOutput (a type) is missing in ours',
  'types: SDKControlSetPermissionModeResponse (a type) is missing in ours',
  'types: HOOK_EVENTS: official has "PreSkillShellCommand"; ours does not',
  'types: HookEvent: official has "PreSkillShellCommand"; ours does not',
  'types: HookInput: official has PreSkillShellCommandHookInput; ours does not',
  'types: ResolveSettingsOptions: member registryPolicyFingerprint missing in ours',
  'types: SDKStartupFailureReason: official has "sideload_flags_disabled"; ours does not',
  'types: Settings: member downloadsMirrorUrl missing in ours',
  'types: ResolvedSettings.machinePolicy: member registryPolicyDifferedFromFingerprint missing in ours',
  'types: SyncHookJSONOutput.hookSpecificOutput: official has PreSkillShellCommandHookSpecificOutput; ours does not',
  'types: Query.setPermissionMode() return value: official has SDKControlSetPermissionModeResponse | undefined; ours does not',
  'types: Query.setPermissionMode() return value: ours has void; official does not',
  'types ./sdk-tools: ArtifactOutput.artifacts (an item): member listedKind missing in ours',
  'constant HOOK_EVENTS: official has "PreSkillShellCommand"; ours does not',
  "option allowedControlRequests: read by the official's query(); ours does not know it (its query() and Options)",
  "option onProcessExit: read by the official's query(); ours does not know it (its query() and Options)",
  'env CLAUDE_AGENT_SDK_VERSION: the official sets "0.3.332"; ours "0.3.330"',
  'env BUN_ENABLE_CRASH_REPORTING: the official sets "0"; ours does not set it',
  'control prompt_draft_activity: sent by the official; ours never sends it',
]

test('0.3.332 against 0.3.330: exactly the known differences, exit status 1', () => {
  const r = track('--official-dir', path.join(fixtures, '0.3.332'), '--ours-dir', path.join(fixtures, '0.3.330'))
  assert.deepEqual(r.lines, EXPECTED, r.stderr)
  assert.equal(r.status, 1, r.stderr)
})

test('the other way round: each difference is seen from the other side', () => {
  const r = track('--official-dir', path.join(fixtures, '0.3.330'), '--ours-dir', path.join(fixtures, '0.3.332'))
  assert.equal(r.status, 1, r.stderr)
  for (const line of [
    'version: ours declares 0.3.332; the release is 0.3.330',
    'types: PreSkillShellCommandHookInput is exported by ours only',
    'types: HookEvent: ours has "PreSkillShellCommand"; official does not',
    'types: Settings: member downloadsMirrorUrl only in ours',
    'constant HOOK_EVENTS: ours has "PreSkillShellCommand"; official does not',
    'env BUN_ENABLE_CRASH_REPORTING: ours sets "0"; the official does not set it',
    'control prompt_draft_activity: sent by ours; the official never sends it',
  ]) assert.ok(r.lines.includes(line), `missing: ${line}\n${r.lines.join('\n')}`)
})

test('identical fixture packages: no lines, exit status 0', () => {
  const r = track('--official-dir', path.join(fixtures, '0.3.332'), '--ours-dir', path.join(fixtures, '0.3.332'))
  assert.deepEqual(r.lines, [], r.stderr)
  assert.equal(r.status, 0, r.stderr)
})

test('the real official package against a copy of itself: no lines, exit status 0', () => {
  const require = createRequire(path.join(root, 'package.json'))
  const installed = path.dirname(require.resolve('@anthropic-ai/claude-agent-sdk'))
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true })
  const copy = fs.mkdtempSync(path.join(root, '.tmp', 'track-test-'))
  try {
    fs.cpSync(installed, path.join(copy, 'package'), { recursive: true })
    const r = track('--official-dir', installed, '--ours-dir', path.join(copy, 'package'))
    assert.deepEqual(r.lines, [], r.stderr)
    assert.equal(r.status, 0, r.stderr)
  } finally {
    fs.rmSync(copy, { recursive: true, force: true })
  }
})

test('bad arguments: a clear error and exit status 2', () => {
  const noPackage = track('--official-dir', fixtures, '--ours-dir', path.join(fixtures, '0.3.330'))
  assert.equal(noPackage.status, 2)
  assert.match(noPackage.stderr, /fixtures\/track has no package\.json: give the folder of an unpacked package/)
  const unknown = track('--official', 'x')
  assert.equal(unknown.status, 2)
  assert.match(unknown.stderr, /unknown argument "--official"\nusage: node scripts\/track\.mjs/)
  const both = track('0.3.332', '--official-dir', fixtures)
  assert.equal(both.status, 2)
  assert.match(both.stderr, /give a version or --official-dir, not both/)
})

test('control subtypes: read from a bundle, from JavaScript sources and from Rust match arms', () => {
  const js = subtypesInJs('var z5=["remote_tool_call"];async f(){await this.request({subtype:"interrupt"});' +
    'if(z5.some((r)=>r===e.request.subtype))return;if(e.request.subtype==="can_use_tool")x();' +
    'o={type:"control_response",response:{subtype:"success",request_id:1}}}')
  assert.deepEqual([...js.sent].sort(), ['interrupt', 'success'])
  assert.deepEqual([...js.handled].sort(), ['can_use_tool', 'remote_tool_call'])
  const rust = subtypesInRust([
    'fn route(&self) {',
    '  r.insert("subtype".into(), json!("initialize"));',
    '  match head.subtype.as_ref() {',
    '    "mcp_message" => self.mcp_message(),',
    '    "can_use_tool" if !self.can_use_tool => {',
    '      reply()',
    '    }',
    '    "elicitation" | "request_user_dialog" => self.dialog(),',
    '    other => unsupported(other),',
    '  }',
    '  match kind { "not_a_subtype" => 1, _ => 2 }',
    '}',
    '#[cfg(test)]',
    'mod tests { fn t() { match head.subtype { "only_in_tests" => 1 } } }',
  ].join('\n'))
  assert.deepEqual([...rust.sent], ['initialize'])
  assert.deepEqual([...rust.handled].sort(), ['can_use_tool', 'elicitation', 'mcp_message', 'request_user_dialog'])
  // This package: lib/ and crates/agent-core (the requests the CLI sends that the engine routes).
  const ours = controlSubtypes(root)
  for (const s of ['can_use_tool', 'hook_callback', 'elicitation', 'request_user_dialog', 'mcp_message']) assert.ok(ours.handled.has(s), s)
  for (const s of ['initialize', 'interrupt', 'set_permission_mode', 'mcp_status']) assert.ok(ours.sent.has(s), s)
  assert.ok(!ours.sent.has('success') && !ours.sent.has('error'))
})

test('option keys read from a copy: the keys destructured from a rest of the options', () => {
  const keys = keysDestructuredFromRests('function aD(e,t){let{isSingleUserTurn:n}=t,{systemPrompt:i,settings:a,...p}=e??{},f;' +
    'let{abortController:y=Gf(),extraArgs:Y={},executable:B=Ks()?"bun":"node",cwd:N}=p,gD=1;let{other:q}=r}')
  assert.deepEqual([...keys].sort(), ['abortController', 'cwd', 'executable', 'extraArgs'])
})

test('tsc report parsing: fields at the top level, union items', () => {
  assert.deepEqual(parseObjectType('{ kind: "union"; onlyOfficial: { a: 1; b: "x;y" } | "z"; onlyOurs: never; }'),
    { kind: '"union"', onlyOfficial: '{ a: 1; b: "x;y" } | "z"', onlyOurs: 'never' })
  assert.deepEqual(unionItems('"a" | Map<string, "b" | "c"> | (() => void) | never'), ['"a"', 'Map<string, "b" | "c">', '(() => void)'])
  assert.deepEqual(unionItems('never'), [])
})
