// forkSession({ upToMessageId }) side by side with the official SDK, cut at every entry of
// hand-made transcripts in the CLI's formats: compaction boundaries with preserved messages and
// segments (a cut at, inside and just past a boundary), an empty boundary, dead branches and
// progress entries (pruned from the cut), a queued command's source uuid as the cut, and the
// session records a fork carries over (atis latch, tools used, history suppression, hybrid
// organizations). Fork files are compared line by line with uuids mapped back to the original's.
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours } from './helpers/sdk.mjs'
import { rng, uuidFrom, writeTranscript, sanitize, tempConfig } from './helpers/session-corpus.mjs'
import { forkEverywhere } from './helpers/fork-compare.mjs'

const { config, cwd } = tempConfig('sessions-fork-', { before, after })
const rand = rng(91)

/**
 * Writes a transcript of `{ id, parent, ...fields }` lines (`id`/`parent` are short names made
 * into uuids; `parent` undefined chains to the previous line, null starts a root); a line
 * without `id` is written as given. Returns the session id and file.
 */
function write(lines) {
  const sessionId = uuidFrom(rand)
  const names = new Map()
  const uuid = (n) => (names.has(n) ? names.get(n) : (names.set(n, uuidFrom(rand)), names.get(n)))
  const map = (v) => (typeof v === 'string' && v.startsWith('@') ? uuid(v.slice(1)) : Array.isArray(v) ? v.map(map) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, map(x)])) : v)
  let prev = null
  let t = Date.UTC(2026, 4, 1)
  const out = lines.map((l) => {
    if (!('id' in l)) return JSON.stringify({ sessionId, ...map(l) })
    const { id, parent, ...rest } = l
    const line = { parentUuid: parent === undefined ? prev : parent === null ? null : uuid(parent), isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.330', ...map(rest), uuid: uuid(id), timestamp: new Date((t += 1000)).toISOString() }
    prev = line.uuid
    return JSON.stringify(line)
  })
  const file = path.join(config, 'projects', sanitize(cwd), `${sessionId}.jsonl`)
  writeTranscript(file, out, t)
  return { sessionId, file }
}

const user = (text, extra = {}) => ({ type: 'user', message: { role: 'user', content: text }, ...extra })
const assistant = (text, extra = {}) => ({ type: 'assistant', message: { id: `msg_${Math.floor(rand() * 1e9)}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }] }, ...extra })
const boundary = (compactMetadata, extra = {}) => ({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info', isMeta: false, compactMetadata: { trigger: 'manual', preTokens: 100, durationMs: 120, ...compactMetadata }, ...extra })
const summary = (text) => user(`This session is being continued from a previous conversation. ${text}`, { isCompactSummary: true, isVisibleInTranscriptOnly: true })
const progress = () => ({ type: 'progress', data: { type: 'hook_progress' } })

describe('forkSession up to every entry, side by side', () => {
  it('compaction with a preserved segment: cuts at, inside and just past the boundary', async () => {
    const { sessionId, file } = write([
      { id: 'u1', parent: null, ...user('one') },
      { id: 'a1', ...assistant('answer one') },
      { id: 'u2', ...user('two') },
      { id: 'a2', ...assistant('answer two') },
      { id: 'b1', parent: null, logicalParentUuid: '@a2', ...boundary({ postTokens: 40, preservedSegment: { headUuid: '@u2', anchorUuid: '@s1', tailUuid: '@a2' } }) },
      { id: 's1', parent: 'b1', ...summary('first') },
      { id: 'p1', ...progress() },
      { id: 'u3', parent: 'a2', ...user('three') },
      { id: 'a3', ...assistant('answer three') },
      { id: 'b2', parent: null, logicalParentUuid: '@a3', ...boundary({ preservedSegment: { headUuid: '@a3', anchorUuid: '@s2', tailUuid: '@a3' } }) },
      { id: 'x1', parent: 'b2', type: 'attachment', attachment: { type: 'date', date: '2026-05-01' } },
      { id: 's2', parent: 'x1', ...summary('second') },
      { id: 'u4', parent: 'a3', ...user('four') },
      { id: 'a4', ...assistant('answer four') },
    ])
    assert.ok((await forkEverywhere(ours, official, sessionId, file)) >= 14)
  })

  it('compaction with preserved messages, an empty boundary, dead branches and progress entries', async () => {
    const { sessionId, file } = write([
      { id: 'u1', parent: null, ...user('one') },
      { id: 'a1', ...assistant('answer one') },
      // A retried prompt: the first try is a dead branch.
      { id: 'u2x', parent: 'a1', ...user('two, first try') },
      { id: 'a2x', ...assistant('abandoned') },
      { id: 'p0', ...progress() },
      { id: 'u2', parent: 'a1', ...user('two') },
      { id: 'a2', ...assistant('answer two') },
      { id: 'b1', parent: null, logicalParentUuid: '@a2', ...boundary({ preservedMessages: { anchorUuid: '@s1', uuids: ['@u2', '@a2'], allUuids: ['@u2', '@a2'] } }) },
      { id: 's1', parent: 'b1', ...summary('kept two') },
      { id: 'p1', parent: 's1', ...progress() },
      { id: 'u3', parent: 'a2', ...user('three') },
      { id: 'a3', ...assistant('answer three') },
      // An empty boundary (nothing summarised, anchored at itself).
      { id: 'b0', parent: 'a3', logicalParentUuid: '@a3', ...boundary({ durationMs: 0, preservedSegment: { headUuid: '@a3', anchorUuid: '@b0', tailUuid: '@a3' } }) },
      { id: 'u4', parent: 'b0', ...user('four') },
      { id: 'p2', ...progress() },
      { id: 'a4', parent: 'u4', ...assistant('answer four') },
      { id: 'u5x', parent: 'a4', ...user('five, abandoned') },
      { id: 'p3', ...progress() },
    ])
    assert.ok((await forkEverywhere(ours, official, sessionId, file)) >= 18)
  })

  it('a queued command cut by its source uuid; the records a fork carries over', async () => {
    const { sessionId, file } = write([
      { type: 'history-suppression', cause: 'veto' },
      { type: 'hybrid-organization', organizationUuid: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE' },
      { type: 'hybrid-organization', organizationUuid: 'not-an-id' },
      { id: 'u1', parent: null, ...user('one') },
      { id: 'a1', ...assistant('working') },
      { id: 'q1', type: 'attachment', attachment: { type: 'queued_command', prompt: 'queued', source_uuid: '@src', delivery_id: 'd1', commandMode: 'prompt' } },
      // An entry holding the source uuid, so the fork maps it to its new id.
      { id: 'q2', type: 'attachment', attachment: { type: 'queued_command', prompt: 'queued again', source_uuid: '@u1', commandMode: 'prompt' } },
      { id: 'a2', ...assistant('done') },
      { type: 'atis-latch', atis: 'abc-123' },
      { type: 'atis-latch', atis: 'not printable ascii é' },
      { type: 'tools-used', tools: ['Bash', '', 3, 'Read'] },
      { type: 'content-replacement', replacements: [{ kind: 'x' }] },
    ])
    const src = fs.readFileSync(file, 'utf8').match(/"source_uuid":"([^"]+)"/)[1]
    assert.ok((await forkEverywhere(ours, official, sessionId, file)) >= 6)
    // The source uuid alone names the cut.
    const fork = await ours.forkSession(sessionId, { upToMessageId: src })
    const lines = fs.readFileSync(path.join(path.dirname(file), `${fork.sessionId}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    assert.equal(lines.filter((l) => l.forkedFrom).at(-1).attachment?.prompt, 'queued')
    assert.deepStrictEqual(lines.filter((l) => !l.forkedFrom).map((l) => l.type), ['history-suppression', 'hybrid-organization', 'content-replacement', 'atis-latch', 'tools-used', 'custom-title'])
  })

  it('data-flow and derived-from records, and a voice call\'s folded command, as the official carries them', async () => {
    const other = uuidFrom(rand)
    const { sessionId, file } = write([
      {
        type: 'data-flow-records',
        v: 1,
        records: [
          { tool_name: 'Read', tool_use_id: 'toolu_1', source: { type: 'file', id: '/a' }, touched: { kind: 'artifact', id: 'art1', action: 'read' } },
          { tool_use_id: 'toolu_2', inner_call_index: 2, carried: true },
          { event_id: 'ev1', tool_name: 'x', no_message: true, implicit: true },
          { response_id: 'msg_abc', listed: ['msg_old', 'bad id'], mark_sent_by: 'u' },
          { response_id: 'msg_keep' },
          { tool_use_id: 'bad\u0001' },
          'not an object',
          { tool_name: 'Srv', tool_use_id: 'toolu_3', server: { type: 'claude_ai_connector', id: 'mcpsrv_01' + 'H8xN5jZ3qKdWm2LpR7vTbY', directory_id: null }, mcp_tool_name: 'search' },
          { tool_use_id: 'toolu_4', server: { type: 'client_configured', transport: 'stdio', plugin_id_hash: 'h' }, touched: { kind: 'memory', id: null, action: 'copy', to: 'm2' } },
          { tool_use_id: 'toolu_5', server: null, source: { type: 'web', id: null } },
          { tool_use_id: 'toolu_6', inner_call_index: -1 },
          // 0.3.332: plugin ids (kept in the plugin@marketplace form, else 'unknown') and web steps.
          { tool_use_id: 'toolu_7', plugin_id: 'fmt@market.place', server: { type: 'client_configured', transport: 'http', plugin_id: 'third_party' }, web: [[0], [1, 0, 2], [4]] },
          { tool_use_id: 'toolu_8', plugin_id: 'no marketplace', server: { type: 'client_configured', transport: 'in_process', plugin_id: 'x@' }, web: [[5]] },
          { tool_use_id: 'toolu_9', plugin_id: null, web: [[0], [0], [0], [0], [0], [0], [0], [0], [0]] },
          { tool_use_id: 'toolu_10', server: { type: 'client_configured', transport: 'stdio' }, web: [] },
        ],
      },
      { id: 'u1', parent: null, ...user('one'), dataFlowOn: true },
      { id: 'a1', ...assistant('answer one'), dataFlowOn: true },
      {
        type: 'data-flow-records',
        v: 1,
        records: [
          { tool_use_id: 'toolu_2', inner_call_index: 2, tool_name: '' },
          { tool_use_id: 'toolu_1', tool_name: 'Read', source: { type: 'file', id: '/a' }, touched: { kind: 'artifact', id: 'art1', action: 'read' }, no_message: true },
          { response_id: 'msg_def', listed: ['msg_abc'] },
        ],
      },
      { type: 'data-flow-records', v: 1, sessionId: other, records: [{ response_id: 'msg_zzz' }, { tool_use_id: 'toolu_o', tool_name: 'Bash' }] },
      { type: 'data-flow-incomplete', sessionId: other, codes: [3, 3, 300, 'x'] },
      { type: 'data-flow-records', v: 1, agentId: 'sub', records: [{ tool_use_id: 'toolu_sub' }] },
      { type: 'data-flow-records', v: 2, records: [] },
      { type: 'derived-from', v: 1, sessions: [{ type: 'claude_code_session', id: other, via: 'resume', started: '2026-01-01' }, { type: 'unknown', id: null, via: 'teleport' }, { type: 'bogus' }] },
      { id: 'u2', ...user('two'), forkedFrom: { sessionId: 'an-earlier-session', messageUuid: 'x' } },
      { id: 'v1', type: 'system', subtype: 'voice_call_talk', content: 'spoken', origin: { kind: 'voice-call' }, fold: { command: { source_uuid: '@u1', commandMode: 'prompt' } } },
      { id: 'a2', ...assistant('answer two') },
      { id: 'b1', parent: null, logicalParentUuid: '@a2', ...boundary({}) },
      { id: 'u3', parent: 'b1', ...user('three') },
    ])
    assert.ok((await forkEverywhere(ours, official, sessionId, file)) >= 7)
    const fork = await ours.forkSession(sessionId)
    const lines = fs.readFileSync(path.join(path.dirname(file), `${fork.sessionId}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    assert.deepStrictEqual(lines.filter((l) => !l.forkedFrom).map((l) => l.type), ['data-flow-incomplete', 'data-flow-records', 'derived-from', 'custom-title'])
    const voice = lines.find((l) => l.subtype === 'voice_call_talk')
    assert.equal(voice.fold.command.source_uuid, lines.find((l) => l.message?.content === 'one').uuid, 'the folded command names the fork\'s entry')
  })

  it('a derived-from record alone, and data-flow records of another session only', async () => {
    const other = uuidFrom(rand)
    const a = write([
      { type: 'derived-from', v: 1, sessions: [{ type: 'claude_code_session', id: other, via: 'clear' }, { type: 'claude_code_session', id: other, via: 'clear' }] },
      { id: 'u1', parent: null, ...user('one') },
      { id: 'a1', ...assistant('answer one') },
    ])
    assert.ok((await forkEverywhere(ours, official, a.sessionId, a.file)) >= 2)
    const b = write([
      { type: 'data-flow-records', v: 1, sessionId: other, records: [{ tool_use_id: 'toolu_o', tool_name: 'Bash' }] },
      { id: 'u1', parent: null, ...user('one') },
      { id: 'a1', ...assistant('answer one') },
      { type: 'data-flow-records', v: 1, snapshot: true, records: [{ tool_use_id: 'toolu_s' }, { tool_use_id: 'toolu_s' }] },
    ])
    assert.ok((await forkEverywhere(ours, official, b.sessionId, b.file)) >= 2)
  })
})
