// The session store mirror (`sessionStore`), side by side with the official SDK on the mock CLI:
// the CLI's `transcript_mirror` frames never reach the consumer; they go to store.append in the
// official's batches (grouped by file, sent when over 500 entries, before each result and at
// the end; one per frame with sessionStoreFlush: 'eager'); a failing append is tried 3 times and
// then reported as a `mirror_error` system message ahead of the result, the session unaffected;
// store methods run in query()'s async context. (The 60 s timeout, not retried, is tested in the
// engine with a paused clock: crates/agent-core/src/session/mirror.rs.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { AsyncLocalStorage } from 'node:async_hooks'
import v8 from 'node:v8'
import vm from 'node:vm'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, collect, mockOptions, readLog } from './helpers/sdk.mjs'

const SID = '11111111-2222-4333-8444-555555555555'

/**
 * A CLI turn that mirrors its transcript writes (only when started with --session-mirror, as
 * the real CLI): frames before and after the result, one for a subagent's file, `big` entries
 * in one frame (over the 500-entry bound) if asked.
 */
function scenario({ big = 0, turns = 1, pause = 0 } = {}) {
  return `
  import path from 'node:path'
  export default async function (cli) {
    await cli.initialize()
    const on = cli.argv.includes('--session-mirror')
    const dir = path.join(process.env.CLAUDE_CONFIG_DIR, 'projects', 'proj')
    const mirror = (entries, file = path.join(dir, '${SID}.jsonl')) => on && cli.send({ type: 'transcript_mirror', filePath: file, entries })
    const entry = (type, uuid) => ({ type, uuid, sessionId: '${SID}', message: { content: 'é ' + uuid } })
    for (let turn = 1; turn <= ${turns}; turn++) {
      await cli.nextUserMessage()
      cli.sessionState('running')
      cli.systemInit({ session_id: '${SID}' })
      mirror([entry('user', 'u' + turn)])
      // A turn takes its time: no timer sends anything meanwhile.
      if (${pause} > 0) await cli.sleep(${pause})
      if (${big} > 0) mirror(Array.from({ length: ${big} }, (_, i) => entry('progress', 'p' + turn + '-' + i)))
      cli.assistantText('answer ' + turn, { session_id: '${SID}' })
      mirror([entry('assistant', 'a' + turn)])
      mirror([entry('assistant', 'sub' + turn)], path.join(dir, '${SID}', 'subagents', 'agent-x.jsonl'))
      mirror([entry('system', 's' + turn)])
      // Written elsewhere (another config folder): not a transcript of this session.
      mirror([entry('user', 'stray')], path.join('/nowhere', 'proj', '${SID}.jsonl'))
      cli.result({ session_id: '${SID}' })
      mirror([entry('summary', 'after' + turn)])
      cli.sessionState('idle')
    }
  }`
}

/** A store that records every call (and the consumer's progress when it came) in one log. */
function recordingStore(log, { fail = () => false } = {}) {
  const saved = []
  let n = 0
  return {
    saved,
    store: {
      async append(key, entries) {
        n++
        log.push({ append: key, uuids: entries.map((e) => e.uuid), ok: !fail(n) })
        if (fail(n)) throw new Error(`store down (${n})`)
        saved.push(...entries)
      },
      async load() {
        return null
      },
    },
  }
}

const configDirs = []
process.once('exit', () => {
  for (const d of configDirs) fs.rmSync(d, { recursive: true, force: true })
})

function configDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-mirror-'))
  configDirs.push(dir)
  return dir
}

/** Runs one SDK through a scenario with a recording store; the log of messages and appends. */
async function run(sdk, { big, pause, eager = false, fail } = {}) {
  const log = []
  const { store, saved } = recordingStore(log, { fail })
  const { options, log: mockLog } = mockOptions(scenario({ big, pause }))
  options.env.CLAUDE_CONFIG_DIR = configDir()
  options.sessionStore = store
  if (eager) options.sessionStoreFlush = 'eager'
  const { messages, error } = await collect(sdk.query({ prompt: 'hi', options }))
  for (const m of messages) {
    const entry = { message: m.subtype ? `${m.type}/${m.subtype}` : m.type }
    if (m.subtype === 'mirror_error') Object.assign(entry, { error: m.error, key: m.key, session_id: m.session_id, uuid: typeof m.uuid })
    log.push(entry)
  }
  const argv = readLog(mockLog).find((r) => r.kind === 'start').argv
  return { log, messages, error, saved, argv }
}

/** The appends in order, and the messages in order (the two interleave by timing). */
function split(log) {
  return { appends: log.filter((e) => e.append), messages: log.filter((e) => e.message) }
}

test('batches: grouped by file, none below the bounds until the result, the rest at the end; frames never reach the consumer', async () => {
  const [a, b] = [await run(ours, { pause: 300 }), await run(official, { pause: 300 })]
  assert.equal(a.error, null)
  assert.deepStrictEqual(split(a.log), split(b.log))
  assert.ok(!a.messages.some((m) => m.type === 'transcript_mirror'))
  assert.deepStrictEqual(split(a.log).appends.map((e) => [e.append.subpath ?? null, e.uuids.join()]), [
    [null, 'u1,a1,s1'],
    ['subagents/agent-x', 'sub1'],
    [null, 'after1'],
  ])
  assert.deepStrictEqual(a.argv, b.argv, '--session-mirror where the official puts it')
})

test('the store has every entry of a turn before its result is seen (two turns)', async () => {
  const seen = { ours: [], official: [] }
  for (const [name, sdk] of [['ours', ours], ['official', official]]) {
    const log = []
    const { store, saved } = recordingStore(log)
    const { options } = mockOptions(scenario({ turns: 2 }))
    options.env.CLAUDE_CONFIG_DIR = configDir()
    options.sessionStore = store
    let release
    const input = (async function* () {
      yield { type: 'user', message: { role: 'user', content: 'one' }, parent_tool_use_id: null, session_id: '' }
      await new Promise((r) => (release = r))
      yield { type: 'user', message: { role: 'user', content: 'two' }, parent_tool_use_id: null, session_id: '' }
    })()
    for await (const m of sdk.query({ prompt: input, options })) {
      if (m.type === 'result') {
        seen[name].push(saved.map((e) => e.uuid).join())
        if (seen[name].length === 1) release()
        else break
      }
    }
  }
  assert.deepStrictEqual(seen.ours, seen.official)
  assert.deepStrictEqual(seen.ours, ['u1,a1,s1,sub1', 'u1,a1,s1,sub1,after1,u2,a2,s2,sub2'])
})

test('over 500 entries waiting: sent during the turn', async () => {
  const [a, b] = [await run(ours, { big: 500 }), await run(official, { big: 500 })]
  assert.deepStrictEqual(split(a.log).appends.map((e) => e.uuids.length), split(b.log).appends.map((e) => e.uuids.length))
  assert.deepStrictEqual(split(a.log).appends.map((e) => e.uuids.length), [501, 2, 1, 1], 'u1 and the 500, then a1 and s1 at the result')
})

test("sessionStoreFlush: 'eager' sends every frame as it comes", async () => {
  const [a, b] = [await run(ours, { eager: true }), await run(official, { eager: true })]
  assert.deepStrictEqual(split(a.log).appends, split(b.log).appends)
  assert.equal(split(a.log).appends.length, 5)
})

test('a failing append is tried 3 times, then reported as mirror_error before the result; the session goes on', async () => {
  // The first batch fails every time; the next (after the result) goes through.
  const fail = (n) => n <= 3
  const [a, b] = [await run(ours, { fail }), await run(official, { fail })]
  assert.equal(a.error, null)
  const norm = (log) => log.map((e) => (e.key ? { ...e } : e))
  assert.deepStrictEqual(norm(split(a.log).messages), norm(split(b.log).messages))
  assert.deepStrictEqual(split(a.log).appends, split(b.log).appends)
  const errors = a.messages.filter((m) => m.subtype === 'mirror_error')
  assert.equal(errors.length, 1)
  assert.deepStrictEqual(errors[0].key, { projectKey: 'proj', sessionId: SID })
  assert.equal(errors[0].error, 'store down (3)')
  const types = split(a.log).messages.map((e) => e.message)
  assert.ok(types.indexOf('system/mirror_error') < types.indexOf('result/success'), types.join())
  // Once reported, the next file of the batch is still sent.
  assert.deepStrictEqual(split(a.log).appends.map((e) => e.ok), [false, false, false, true, true])
})

test('without a store, transcript_mirror frames are dropped as the official drops them', async () => {
  const withFrames = (sdk) => {
    const { options } = mockOptions(scenario())
    options.env.CLAUDE_CONFIG_DIR = configDir()
    options.extraArgs = { 'session-mirror': null }
    return collect(sdk.query({ prompt: 'hi', options }))
  }
  const [a, b] = [await withFrames(ours), await withFrames(official)]
  assert.deepStrictEqual(a.messages.map((m) => m.type), b.messages.map((m) => m.type))
  assert.ok(!a.messages.some((m) => m.type === 'transcript_mirror'))
})

test('store methods run in the async context query() was called in', async () => {
  const als = new AsyncLocalStorage()
  const contexts = {}
  for (const [name, sdk] of [['ours', ours], ['official', official]]) {
    contexts[name] = []
    const { options } = mockOptions(scenario())
    options.env.CLAUDE_CONFIG_DIR = configDir()
    options.resume = SID // nothing stored: load() answers null and the query goes on
    options.sessionStore = {
      append: async () => contexts[name].push(`append: ${als.getStore()}`),
      load: async () => (contexts[name].push(`load: ${als.getStore()}`), null),
    }
    await collect(als.run('the caller', () => sdk.query({ prompt: 'hi', options })))
  }
  assert.deepStrictEqual(contexts.ours, contexts.official)
  assert.deepStrictEqual(contexts.ours, ['load: the caller', 'append: the caller', 'append: the caller', 'append: the caller'])
})

test('options refused with a store, with the official messages', async () => {
  for (const extra of [{ persistSession: false }, { enableFileCheckpointing: true }, { continue: true }]) {
    const errors = []
    for (const sdk of [ours, official]) {
      const { options } = mockOptions(scenario())
      try {
        const { error } = await collect(sdk.query({ prompt: 'hi', options: { ...options, sessionStore: { append: async () => {}, load: async () => null }, ...extra } }))
        errors.push(error?.message)
      } catch (e) {
        errors.push(`thrown: ${e.message}`)
      }
    }
    assert.equal(errors[0], errors[1], JSON.stringify(extra))
    assert.ok(errors[0], JSON.stringify(extra))
  }
})

const MID_TURN = `
  import path from 'node:path'
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    const file = path.join(process.env.CLAUDE_CONFIG_DIR, 'projects', 'proj', '${SID}.jsonl')
    cli.systemInit({ session_id: '${SID}' })
    cli.send({ type: 'transcript_mirror', filePath: file, entries: [{ type: 'user', uuid: 'u1' }] })
    cli.assistantText('working', { session_id: '${SID}' })
    await cli.waitStdinClosed()
  }`

test('a query left mid-turn (break) still sends what waits to the store', async () => {
  const appended = {}
  for (const [name, sdk] of [['ours', ours], ['official', official]]) {
    appended[name] = []
    const { options } = mockOptions(MID_TURN)
    options.env.CLAUDE_CONFIG_DIR = configDir()
    options.sessionStore = { append: async (key, entries) => appended[name].push(...entries.map((e) => e.uuid)), load: async () => null }
    for await (const m of sdk.query({ prompt: 'hi', options })) if (m.type === 'assistant') break
  }
  // Ours sends it in the background as the CLI is stopped; the official before return() resolves.
  for (let i = 0; i < 250 && appended.ours.length === 0; i++) await new Promise((r) => setTimeout(r, 20))
  assert.deepStrictEqual(appended.ours, appended.official)
  assert.deepStrictEqual(appended.ours, ['u1'])
})

test('an append answered after the query was left and collected still reaches the engine', async () => {
  const gc = globalThis.Bun ? () => globalThis.Bun.gc(true) : (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc'))
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
  let calls = 0
  let release
  const gate = new Promise((r) => (release = r))
  const store = {
    async append() {
      if (++calls === 1) {
        await gate
        throw new Error('store down')
      }
    },
    load: async () => null,
  }
  await (async () => {
    const { options } = mockOptions(MID_TURN)
    options.env.CLAUDE_CONFIG_DIR = configDir()
    options.sessionStore = store
    for await (const m of ours.query({ prompt: 'hi', options })) if (m.type === 'assistant') break
  })()
  for (let i = 0; i < 250 && calls === 0; i++) await sleep(20)
  assert.equal(calls, 1)
  // Nothing holds the query now: collect it while the store works.
  for (let i = 0; i < 5; i++) {
    gc()
    await sleep(10)
  }
  release()
  // The failure reaches the engine, which tries again (200 ms later), rather than waiting 60 s.
  for (let i = 0; i < 250 && calls < 2; i++) await sleep(20)
  assert.equal(calls, 2)
})
