// Rarer getSessionMessages fields, side by side with the official SDK on the same transcript:
// permission denials (`toolDenialKind` → `tool_result_meta`, `toolDenialUnanswered`), queued
// commands (`isQueuedCommand`), and assistant entries that only close a quiet turn
// (`closesQuietTurn`, left out), and origins (task notifications keep their known fields);
// queued-command attachments shown as the user messages they were (answered, absorbed mid-turn
// per `queue-operation` records, trailing the last message), in a session and a subagent.
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours } from './helpers/sdk.mjs'
import { rng, uuidFrom, writeTranscript, sanitize, tempConfig, rawTranscriptWriter } from './helpers/session-corpus.mjs'

const { config, cwd } = tempConfig('sessions-messages-', { before, after })
const rand = rng(77)
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))

/** A transcript from entry shapes: each gets uuid, parentUuid (the previous one), session fields. */
function write(entries) {
  const sessionId = uuidFrom(rand)
  let parent = null
  let t = Date.UTC(2026, 2, 1)
  const lines = entries.map((e) => {
    const uuid = uuidFrom(rand)
    const line = { parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.330', ...e, uuid, timestamp: new Date((t += 1000)).toISOString() }
    parent = uuid
    return JSON.stringify(line)
  })
  writeTranscript(path.join(config, 'projects', sanitize(cwd), `${sessionId}.jsonl`), lines, t)
  return sessionId
}

const user = (content, extra = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra })
const assistant = (content, extra = {}) => ({ type: 'assistant', message: { id: `msg_${Math.floor(rand() * 1e9)}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: 'end_turn' }, ...extra })
const toolUse = (id) => assistant([{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }])
const result = (id, extra = {}) => user([{ type: 'tool_result', tool_use_id: id, content: 'denied', is_error: true }], extra)

describe('getSessionMessages: rarer fields', () => {
  it('denials, unanswered permission prompts, queued commands, quiet-turn closers and origins match the official', async () => {
    const kinds = ['user-rejected', 'permission-rule', 'automode-blocked', 'automode-unavailable', 'automode-parsing-error', 'interrupted', 'cancelled', 'not-a-kind']
    const entries = [user('start')]
    for (const [n, kind] of kinds.entries()) {
      entries.push(toolUse(`toolu_${n}`), result(`toolu_${n}`, { toolDenialKind: kind }))
    }
    entries.push(
      toolUse('toolu_u'),
      result('toolu_u', { toolDenialUnanswered: 'stream-closed' }),
      toolUse('toolu_x'),
      result('toolu_x', { toolDenialUnanswered: 'something-else', toolDenialKind: 42 }),
      // Two results in one entry: no tool_result_meta.
      assistant([{ type: 'tool_use', id: 'toolu_a', name: 'Bash', input: {} }, { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: {} }]),
      user([{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'x' }, { type: 'tool_result', tool_use_id: 'toolu_b', content: 'y' }], { toolDenialKind: 'user-rejected' }),
      user('queued while busy', { isQueuedCommand: true }),
      assistant([{ type: 'text', text: 'No response requested.' }], { closesQuietTurn: true }),
      assistant([{ type: 'text', text: '' }], { closesQuietTurn: true }),
      assistant([{ type: 'text', text: 'a real answer' }], { closesQuietTurn: true }),
      assistant([{ type: 'text', text: 'No response requested.' }, { type: 'text', text: 'more' }], { closesQuietTurn: true }),
      user('next'),
      assistant([{ type: 'text', text: 'No response requested.' }], { closesQuietTurn: 'yes' }),
      user('from a task', { origin: { kind: 'task-notification', subkind: 's', secret: 'dropped', runId: 'run_1', taskKind: 'mcp-task', fireReason: 'done', producer: { a: 1 } } }),
      user('from another task', { origin: { kind: 'task-notification', runId: 'bad id!', taskKind: 'other' } }),
      user('origin false', { origin: false }),
      user('origin zero', { origin: 0 }),
      user('origin empty', { origin: '' }),
      user('origin human', { origin: { kind: 'human', extra: 1 } }),
      user('a channel note', { isMeta: true, origin: { kind: 'channel', server: 'x' } }),
      user('last'),
      assistant([{ type: 'text', text: 'No response requested.' }], { closesQuietTurn: true }),
    )
    const id = write(entries)
    for (const opts of [{}, { includeSystemMessages: true }, { limit: 5, offset: 3 }]) {
      const mine = norm(await ours.getSessionMessages(id, opts))
      assert.deepStrictEqual(mine, norm(await official.getSessionMessages(id, opts)), JSON.stringify(opts))
      if (!opts.limit) {
        assert.equal(mine.filter((m) => m.tool_result_meta).length, 7, 'one tool_result_meta per known kind')
        assert.equal(mine.filter((m) => m.toolDenialUnanswered === 'stream-closed').length, 1)
        assert.ok(mine.some((m) => m.isQueuedCommand === true))
        assert.ok(!mine.some((m) => m.message?.content?.[0]?.text === ''), 'an empty quiet-turn closer is left out')
        assert.deepStrictEqual(mine.find((m) => m.message.content === 'from a task').origin, { kind: 'task-notification', subkind: 's', fireReason: 'done', producer: { a: 1 }, runId: 'run_1', taskKind: 'mcp-task' })
      }
    }
  })
})

/** Raw lines: see rawTranscriptWriter. */
const writeRaw = rawTranscriptWriter({ rand, config, cwd, start: Date.UTC(2026, 3, 1) })

const queued = (prompt, extra = {}) => ({ type: 'attachment', attachment: { type: 'queued_command', prompt, commandMode: 'prompt', ...extra } })

describe('getSessionMessages: queued commands', () => {
  it('answered, unanswered, absorbed mid-turn, trailing, meta, forwarded and duplicate commands match the official', async () => {
    const source = uuidFrom(rand)
    const dup = uuidFrom(rand)
    const delivery = uuidFrom(rand)
    const { sessionId } = writeRaw([
      { id: dup, parent: null, ...user('start') },
      { id: 'a0', ...toolUse('toolu_q1') },
      // Answered: the next deciding entry is the tool result (a reply).
      { id: 'q1', ...queued('answered command', { source_uuid: source }) },
      { id: 'r1', ...result('toolu_q1') },
      // Two copies of one delivery, one absorbed: only the last copy shows.
      { id: 'q2', ...queued('delivered twice', { delivery_id: delivery, source_uuid: uuidFrom(rand) }) },
      { id: 'q3', ...queued('delivered twice', { delivery_id: delivery, source_uuid: uuidFrom(rand) }) },
      { type: 'queue-operation', operation: 'remove', reason: 'absorbed_mid_turn', deliveryId: delivery, content: 'delivered twice' },
      // Meta without a channel origin stays hidden; with one it shows; a forwarded intent stays an attachment.
      { id: 'q4', ...queued('meta command', { isMeta: true }) },
      { id: 'q5', ...queued('meta from a channel', { isMeta: 1, origin: { kind: 'channel', server: 's' } }) },
      { id: 'q6', ...queued('forwarded', { forwardedIntent: { lineage: 'x', source: 'typed' } }) },
      // A task notification's origin gets its run id; an array prompt stays an array.
      { id: 'q7', ...queued([{ type: 'text', text: 'array prompt' }], { commandMode: 'task-notification', runId: 'run_7' }) },
      { id: 'q8', ...queued(42) },
      // Its source uuid is an entry already there: not shown again.
      { id: 'q9', ...queued('duplicate', { source_uuid: dup }) },
      { id: 'a1', ...assistant([{ type: 'text', text: 'answer' }]) },
      // Not answered: a new prompt follows.
      { id: 'q10', ...queued('never answered') },
      { id: 'u1', ...user('a new prompt') },
      { id: 'i1', ...user('[Request interrupted by user]') },
      { id: 'q11', ...queued('before an interruption') },
      { id: 'i2', ...user([{ type: 'text', text: '[Request interrupted by user for tool use]' }]) },
      { id: 'a2', ...assistant([{ type: 'text', text: 'last answer' }]) },
      // Trailing the leaf: hanging off the last message, oldest first, depth first.
      { id: 't2', parent: 'a2', ...queued('trailing second'), timestamp: '2026-04-02T00:00:02.000Z' },
      { id: 't1', parent: 'a2', ...queued('trailing first'), timestamp: '2026-04-02T00:00:01.000Z' },
      { id: 't3', parent: 't1', ...queued('trailing nested', { isMeta: true, origin: { kind: 'peer' } }), timestamp: '2026-04-02T00:00:03.000Z' },
      { id: 'x', parent: 'a2', type: 'system', subtype: 'informational', content: 'x' },
    ])
    for (const opts of [{}, { includeSystemMessages: true }, { limit: 4, offset: 2 }]) {
      const mine = norm(await ours.getSessionMessages(sessionId, opts))
      assert.deepStrictEqual(mine, norm(await official.getSessionMessages(sessionId, opts)), JSON.stringify(opts))
      if (!opts.limit) {
        const shown = mine.filter((m) => m.isQueuedCommand).map((m) => m.message.content)
        assert.deepStrictEqual(shown, ['answered command', 'delivered twice', 'meta from a channel', [{ type: 'text', text: 'array prompt' }], 'before an interruption', 'trailing first', 'trailing nested', 'trailing second'])
        assert.equal(mine.find((m) => m.message.content === 'answered command').uuid, source, 'shown under its source uuid')
        assert.deepStrictEqual(mine.find((m) => m.isQueuedCommand && Array.isArray(m.message.content)).origin, { kind: 'task-notification', runId: 'run_7' })
      }
    }
  })

  it('a voice record left a system entry joins the copies of the command it folds (official JMe reads fold.command)', async () => {
    const source = uuidFrom(rand)
    // Kept as a system entry: its content is not a string (a folded record with a string content
    // and a voice-call origin would read as the command's attachment instead).
    const voice = (extra) => ({ type: 'system', subtype: 'voice_call_talk', level: 'info', content: 42, origin: { kind: 'voice-call' }, fold: { command: { source_uuid: source, prompt: 'spoken' } }, ...extra })
    const { sessionId } = writeRaw([
      { id: 'u0', parent: null, ...user('start') },
      { id: 'a0', ...toolUse('toolu_v1') },
      { id: 'q1', ...queued('said twice', { source_uuid: source }) },
      { id: 'q2', ...queued('said twice', { source_uuid: source }) },
      { type: 'queue-operation', operation: 'remove', reason: 'absorbed_mid_turn', commandUuid: source, content: 'said twice' },
      // Counted with q1 and q2: the one copy absorbed is the last of the three, this record.
      { id: 'v1', ...voice() },
      { id: 'r1', ...result('toolu_v1') },
      { id: 'a1', ...assistant([{ type: 'text', text: 'answer' }]) },
      // A fold whose command is not an object, or a record of another subtype: not counted.
      { id: 'v2', ...voice({ fold: { command: 'x' } }) },
      { id: 'v3', ...voice({ subtype: 'voice_call_other' }) },
      { id: 'u1', ...user('next') },
      { id: 'a2', ...assistant([{ type: 'text', text: 'done' }]) },
    ])
    for (const opts of [{}, { includeSystemMessages: true }]) {
      const mine = norm(await ours.getSessionMessages(sessionId, opts))
      assert.deepStrictEqual(mine, norm(await official.getSessionMessages(sessionId, opts)), JSON.stringify(opts))
      assert.ok(!mine.some((m) => m.isQueuedCommand), 'neither copy shows: the absorbed one is the voice record')
    }
  })

  it('a subagent keeps its meta commands (the official reads subagents with keepMeta)', async () => {
    const sessionId = uuidFrom(rand)
    const dir = path.join(config, 'projects', sanitize(cwd), sessionId, 'subagents')
    fs.mkdirSync(dir, { recursive: true })
    writeRaw([{ id: 's0', parent: null, ...user('parent prompt') }, { id: 's1', ...assistant([{ type: 'text', text: 'ok' }]) }], { sessionId })
    writeRaw([
      { id: 'b0', parent: null, ...user('sub task'), isSidechain: true, agentId: 'abc' },
      { id: 'b1', ...toolUse('toolu_s'), isSidechain: true },
      { id: 'b2', ...queued('meta in a subagent', { isMeta: true }), isSidechain: true },
      { id: 'b3', ...result('toolu_s'), isSidechain: true },
      { id: 'b4', ...assistant([{ type: 'text', text: 'sub done' }]), isSidechain: true },
    ], { sessionId, file: path.join(dir, 'agent-abc.jsonl') })
    fs.writeFileSync(path.join(dir, 'agent-abc.meta.json'), JSON.stringify({ agentType: 'general-purpose', toolUseId: 'toolu_parent' }))
    const mine = norm(await ours.getSubagentMessages(sessionId, 'abc'))
    assert.deepStrictEqual(mine, norm(await official.getSubagentMessages(sessionId, 'abc')))
    assert.ok(mine.some((m) => m.isQueuedCommand && m.is_meta && m.message.content === 'meta in a subagent'))
  })
})

describe('getSessionMessages: split assistant messages', () => {
  it('parallel tool calls on side branches are gathered back with their results, as the official does', async () => {
    const msg = (id, content, extra = {}) => ({ type: 'assistant', message: { id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: 'tool_use' }, ...extra })
    const use = (id) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: `/tmp/${id}` } })
    const res = (id, extra = {}) => user([{ type: 'tool_result', tool_use_id: id, content: `read ${id}` }], extra)
    const { sessionId } = writeRaw([
      { id: 'u0', parent: null, ...user('read three files') },
      { id: 'a1', ...msg('msg_split', [{ type: 'text', text: 'reading' }]) },
      { id: 'a2', parent: 'a1', ...msg('msg_split', [use('t1')]) },
      { id: 'a3', parent: 'a1', ...msg('msg_split', [use('t2')]) },
      { id: 'a4', parent: 'a3', ...msg('msg_split', [use('t3')]) },
      // t1's result hangs off its own part; t2's names its assistant through sourceToolAssistantUUID;
      // t3's sits under an unrelated entry but answers a tool of the group.
      { id: 'r1', parent: 'a2', ...res('t1') },
      { id: 'r2', parent: 'a4', ...res('t2'), sourceToolAssistantUUID: 'a3' },
      { id: 'x', parent: 'u0', type: 'system', subtype: 'informational', content: 'note' },
      { id: 'r3', parent: 'x', ...res('t3') },
      { id: 'r3b', parent: 'r2', ...res('t3') },
      { id: 'u1', parent: 'r3b', ...user('thanks') },
      { id: 'b1', ...assistant([{ type: 'text', text: 'done' }]) },
    ])
    for (const opts of [{}, { includeSystemMessages: true }]) {
      const mine = norm(await ours.getSessionMessages(sessionId, opts))
      assert.deepStrictEqual(mine, norm(await official.getSessionMessages(sessionId, opts)), JSON.stringify(opts))
      assert.ok(mine.some((m) => m.message.content?.[0]?.id === 't1'), 'the side-branch part is gathered back')
    }
  })
})

describe('getSessionMessages: random chains', () => {
  it('random transcripts (repeated uuids, branches, split messages, tool results found by parent, source and id) match the official', async () => {
    const r = rng(4242)
    const pick = (a) => a[Math.floor(r() * a.length)]
    for (let k = 0; k < 150; k++) {
      const sessionId = uuidFrom(r)
      const pool = Array.from({ length: 8 + Math.floor(r() * 30) }, () => uuidFrom(r))
      const msgIds = Array.from({ length: 1 + Math.floor(r() * 6) }, (_, i) => `msg_${i}`)
      const toolIds = Array.from({ length: 1 + Math.floor(r() * 6) }, (_, i) => `toolu_${i}`)
      const used = []
      const lines = []
      for (let i = 0, n = 3 + Math.floor(r() * 40); i < n; i++) {
        const uuid = r() < 0.15 ? pick(pool) : uuidFrom(r)
        const x = r()
        const parentUuid = used.length === 0 || x < 0.05 ? null : x < 0.7 ? used[used.length - 1] : x < 0.9 ? pick(used) : pick(pool)
        const type = pick(['user', 'user', 'assistant', 'assistant', 'assistant', 'system', 'progress', 'attachment'])
        const e = { parentUuid, isSidechain: r() < 0.05, type, uuid, sessionId, timestamp: new Date(Date.UTC(2026, 0, 1) + Math.floor(r() * 1e6)).toISOString() }
        if (type === 'assistant') {
          const content = r() < 0.5 ? [{ type: 'text', text: 'hi' }] : []
          for (let j = Math.floor(r() * 3); j > 0; j--) content.push({ type: 'tool_use', id: pick(toolIds), name: 'Read', input: {} })
          e.message = { id: pick(msgIds), type: 'message', role: 'assistant', content }
        } else if (type === 'user') {
          e.message = { role: 'user', content: r() < 0.5 ? `prompt ${i}` : Array.from({ length: 1 + Math.floor(r() * 2) }, () => ({ type: 'tool_result', tool_use_id: pick(toolIds), content: 'ok' })) }
          if (r() < 0.3 && used.length) e.sourceToolAssistantUUID = pick(used)
        } else if (type === 'system') Object.assign(e, { subtype: 'informational', content: 'note' })
        else if (type === 'attachment') e.attachment = { type: 'note' }
        if (r() < 0.03) e.agentId = 'a1'
        lines.push(JSON.stringify(e))
        used.push(uuid)
      }
      writeTranscript(path.join(config, 'projects', sanitize(cwd), `${sessionId}.jsonl`), lines, Date.UTC(2026, 0, 2))
      for (const opts of [{}, { includeSystemMessages: true }]) {
        assert.deepStrictEqual(norm(await ours.getSessionMessages(sessionId, opts)), norm(await official.getSessionMessages(sessionId, opts)), `transcript ${k} ${JSON.stringify(opts)}:\n${lines.join('\n')}`)
      }
    }
  })
})

describe('getSessionMessages: large results', () => {
  it('a result of many 64 KiB pieces (ASCII ones and UTF-8 ones) reads as the official reads it, with limit and offset across pieces', async () => {
    const entries = []
    for (let i = 0; i < 900; i++) {
      // Every tenth message has non-ASCII text, so some pieces are UTF-8 and others ASCII only.
      const text = `${i % 10 === 0 ? 'héllo wörld 🌍 ' : 'hello world '}${'word '.repeat(40 + (i % 13) * 9)}#${i}`
      entries.push(i % 2 ? assistant([{ type: 'text', text }]) : user(text))
    }
    const sessionId = write(entries)
    const mine = await ours.getSessionMessages(sessionId)
    assert.ok(JSON.stringify(mine).length > 5 * 65536, 'several pieces')
    assert.deepStrictEqual(norm(mine), norm(await official.getSessionMessages(sessionId)))
    for (const opts of [{ limit: 300, offset: 250 }, { offset: 899 }, { limit: 1 }]) {
      assert.deepStrictEqual(norm(await ours.getSessionMessages(sessionId, opts)), norm(await official.getSessionMessages(sessionId, opts)), JSON.stringify(opts))
    }
  })
})

describe('importSessionToStore: line feeds in a result', () => {
  it('a pretty-printed subagent meta.json (raw line feeds in the export) imports as the official imports it', async () => {
    const sessionId = write([user('start'), assistant([{ type: 'text', text: 'ok' }])])
    const dir = path.join(config, 'projects', sanitize(cwd), sessionId, 'subagents')
    fs.mkdirSync(dir, { recursive: true })
    const line = JSON.stringify({ parentUuid: null, isSidechain: true, type: 'user', message: { role: 'user', content: 'sub task' }, uuid: uuidFrom(rand), sessionId, agentId: 'pretty1', timestamp: '2026-03-01T00:00:00.000Z' })
    fs.writeFileSync(path.join(dir, 'agent-pretty1.jsonl'), line + '\n')
    fs.writeFileSync(path.join(dir, 'agent-pretty1.meta.json'), JSON.stringify({ agentType: 'general-purpose', toolUseId: 'toolu_pretty' }, null, 2) + '\n')
    const stores = { ours: new ours.InMemorySessionStore(), official: new official.InMemorySessionStore() }
    await ours.importSessionToStore(sessionId, stores.ours, { dir: cwd })
    await official.importSessionToStore(sessionId, stores.official, { dir: cwd })
    const key = { projectKey: sanitize(fs.realpathSync(cwd)), sessionId }
    assert.deepStrictEqual(stores.ours.getEntries(key), stores.official.getEntries(key))
    for (const subpath of await stores.official.listSubkeys(key)) {
      assert.deepStrictEqual(stores.ours.getEntries({ ...key, subpath }), stores.official.getEntries({ ...key, subpath }), subpath)
    }
    assert.deepStrictEqual(norm(await ours.getSubagentMessages(sessionId, 'pretty1', { dir: cwd })), norm(await official.getSubagentMessages(sessionId, 'pretty1', { dir: cwd })))
  })
})

describe('getSessionMessages: lone surrogates', () => {
  it('a lone surrogate escape (which JSON.parse takes) in any field is read and listed as the official reads it', async () => {
    const S = '\ud800'
    const sessionId = uuidFrom(rand)
    const a1 = uuidFrom(rand)
    const line = (fields) => JSON.stringify({ isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.330', timestamp: '2026-05-01T00:00:00.000Z', ...fields })
    writeRaw([
      // In a uuid, a timestamp and the content; the next entry's parentUuid names that uuid.
      line({ parentUuid: null, ...user(`hi ${S}`), uuid: `u0${S}`, timestamp: `T${'\udc00'}` }),
      line({ parentUuid: `u0${S}`, ...assistant([{ type: 'text', text: 'yo' }]), uuid: a1, sessionId: `s${'\udbff'}` }),
      { id: 's0', parent: a1, ...user('next') },
      { id: 's1', type: 'system', subtype: `info${S}`, content: 'c' },
      { id: 'c1', ...user(`<local-command-caveat>c${S}`), isMeta: true },
      { id: 'c2', ...user(`<command-name>/x${S}`) },
      { id: 'v1', type: 'system', subtype: 'voice_call_talk', level: 'info', content: `said ${S}`, origin: { kind: 'voice-call' } },
      { id: 'o1', ...user('from a channel'), isMeta: true, origin: { kind: 'channel', server: `x${S}` } },
      { id: 'q0', ...toolUse(`toolu_${S}`) },
      { id: 'q1', type: 'attachment', attachment: { type: 'queued_command', prompt: `queued ${S}`, commandMode: 'prompt', source_uuid: `src${'\udfff'}` } },
      { id: 'q2', ...result(`toolu_${S}`) },
      { id: 'b1', type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: `manual${S}`, preservedSegment: { headUuid: `h${S}`, anchorUuid: 'q2', tailUuid: 'x' } } },
      { id: 'a2', ...assistant([{ type: 'text', text: `paired 😀 \ud83d\ude00 lone ${'\ude00'}` }]) },
      { type: 'custom-title', customTitle: `title ${S}` },
      { type: 'tag', tag: `tag${'\udbff'}` },
    ], { sessionId })
    for (const opts of [{}, { includeSystemMessages: true }]) {
      const mine = norm(await ours.getSessionMessages(sessionId, opts))
      const theirs = norm(await official.getSessionMessages(sessionId, opts))
      assert.deepStrictEqual(mine, theirs, JSON.stringify(opts))
      assert.ok(mine.length >= 8, `the entries with a lone surrogate are read (${mine.length})`)
      assert.ok(mine.some((m) => m.uuid === `u0${S}` && m.timestamp === 'T\udc00'), 'the uuid and the timestamp keep their surrogate')
    }
    // The listing reads its title, tag and first prompt as the official does.
    const info = await ours.getSessionInfo(sessionId, { dir: cwd })
    assert.deepStrictEqual(norm(info), norm(await official.getSessionInfo(sessionId, { dir: cwd })))
    assert.equal(info.customTitle, `title ${S}`)
    const listed = async (sdk) => norm((await sdk.listSessions({ dir: cwd })).find((i) => i.sessionId === sessionId))
    assert.deepStrictEqual(await listed(ours), await listed(official))
    // A subagent transcript with one.
    const dir = path.join(config, 'projects', sanitize(cwd), sessionId, 'subagents')
    fs.mkdirSync(dir, { recursive: true })
    writeRaw([
      { id: 'l0', parent: null, ...user(`sub ${S}`), isSidechain: true, agentId: 'lone', timestamp: `t${S}` },
      { id: 'l1', ...assistant([{ type: 'text', text: 'sub done' }]), isSidechain: true },
    ], { sessionId, file: path.join(dir, 'agent-lone.jsonl') })
    const mine = norm(await ours.getSubagentMessages(sessionId, 'lone'))
    assert.deepStrictEqual(mine, norm(await official.getSubagentMessages(sessionId, 'lone')))
    assert.equal(mine.length, 2)
  })
})
