// getSessionMessages / getSubagentMessages side by side with the official SDK on transcripts
// with tool calls the host ran and hid (`hostHiddenToolUseIds`, virtual rows beside the chain,
// `host-row` lines, `hostContent`), voice-call records (`voice_call_talk`), and transcripts
// over 5 MiB (read from the last compaction boundary without a preserved segment).
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours } from './helpers/sdk.mjs'
import { rng, uuidFrom, sanitize, tempConfig, rawTranscriptWriter } from './helpers/session-corpus.mjs'

const { config, cwd } = tempConfig('sessions-hidden-', { before, after })
const rand = rng(1207)
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))

/** Raw lines: see rawTranscriptWriter. */
const writeRaw = rawTranscriptWriter({ rand, config, cwd, start: Date.UTC(2026, 4, 1) })

const user = (content, extra = {}) => ({ type: 'user', message: { role: 'user', content }, ...extra })
let msgN = 0
const assistant = (content, extra = {}) => ({ type: 'assistant', message: { id: `msg_h${++msgN}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: 'tool_use' }, ...extra })
const use = (id, name = 'Bash', input = { command: 'ls' }) => ({ type: 'tool_use', id, name, input })
const res = (id, content = 'ok', extra = {}) => ({ type: 'tool_result', tool_use_id: id, content, ...extra })
const text = (t) => ({ type: 'text', text: t })

/** The hidden-call transcript shared by the session and subagent cases. */
function hiddenLines(side = {}) {
  const dupRow = uuidFrom(rand)
  return [
    { id: 'u0', parent: null, ...user('run the hidden tools'), ...side },
    // Hides toolu_h1 of three blocks; its virtual rows hang off it, beside the chain.
    { id: 'a1', ...assistant([text('running'), use('toolu_h1'), use('toolu_v1')]), hostHiddenToolUseIds: ['toolu_h1', 42], hostContent: [use('toolu_h1', 'Bash', { shown: true })], ...side },
    { id: 'v1', parent: 'a1', ...assistant([use('toolu_in1', 'Read', { file_path: '/x' })]), isVirtual: true, ranByToolUseId: 'toolu_h1', hostContent: [use('toolu_in1', 'Read', { shown: 'host' })], ...side },
    { id: 'v2', parent: 'v1', ...user([res('toolu_in1', 'inner result')]), isVirtual: true, hostContent: [res('toolu_in1', 'shown result')], ...side },
    // Results of the hidden and the visible call: the hidden one goes, with the denial fields.
    { id: 'r1', parent: 'a1', ...user([res('toolu_h1'), res('toolu_v1')]), toolDenialKind: 'user-rejected', toolDenialUnanswered: 'stream-closed', ...side },
    // One lone hidden call shown by hostContent, and its error result shown by the result's.
    { id: 'a2', parent: 'r1', ...assistant([use('toolu_h2')]), hostHiddenToolUseIds: ['toolu_h2'], hostContent: [use('toolu_h2', 'Bash', { shown: 2 })], ...side },
    { id: 'r2', ...user([res('toolu_h2', 'failed', { is_error: true })]), hostContent: [res('toolu_h2', 'host says it failed', { is_error: true })], ...side },
    // A lone hidden call whose result is not an error: both go.
    { id: 'a3', ...assistant([use('toolu_h3')]), hostHiddenToolUseIds: ['toolu_h3'], hostContent: [use('toolu_h3')], ...side },
    { id: 'r3', ...user([res('toolu_h3')]), ...side },
    // A call id used twice is never hidden; a withheld call's rows are not shown.
    { id: 'a4', ...assistant([use('toolu_dup'), use('toolu_w')]), hostHiddenToolUseIds: ['toolu_dup', 'toolu_w'], ...side },
    { id: 'r4', ...user([res('toolu_dup'), res('toolu_w')]), ...side },
    { id: 'a5', ...assistant([use('toolu_dup'), text('again')]), ...side },
    { id: 'r5', ...user([res('toolu_dup')]), ...side },
    { type: 'host-row', ranByToolUseId: 'toolu_h1', rowUuid: uuidFrom(rand), block: use('toolu_row1', 'Grep', { pattern: 'x' }) },
    { type: 'host-row', ranByToolUseId: 'toolu_h1', rowUuid: uuidFrom(rand), block: res('toolu_row1', 'grep out'), timestamp: 'not-a-date' },
    { type: 'host-row', ranByToolUseId: 'toolu_h1', rowUuid: uuidFrom(rand), block: use('toolu_row2', 'Glob') },
    { type: 'host-row', ranByToolUseId: 'toolu_h1', rowUuid: dupRow, block: use('toolu_row3', 'Glob') },
    { type: 'host-row', ranByToolUseId: 'toolu_h1', rowUuid: dupRow, block: use('toolu_row4', 'Glob') },
    { type: 'host-row', ranByToolUseId: 'toolu_w', rowUuid: uuidFrom(rand), block: use('toolu_row5') },
    { type: 'host-row', ranByToolUseId: 'toolu_w', withheld: true },
    { type: 'host-row', ranByToolUseId: 'toolu_h2', rowUuid: 42, block: use('toolu_row6') },
    { type: 'host-row', ranByToolUseId: 7, rowUuid: uuidFrom(rand), block: use('toolu_row7') },
    { id: 'a6', parent: 'r5', ...assistant([text('all done')]), ...side },
  ]
}

describe('getSessionMessages: host-hidden tool rows', () => {
  it('hidden calls, virtual rows, host-row lines and hostContent match the official', async () => {
    const { sessionId } = writeRaw(hiddenLines())
    for (const opts of [{}, { includeSystemMessages: true }, { limit: 4, offset: 2 }]) {
      const mine = norm(await ours.getSessionMessages(sessionId, opts))
      assert.deepStrictEqual(mine, norm(await official.getSessionMessages(sessionId, opts)), JSON.stringify(opts))
      if (!opts.limit) {
        const blocks = mine.flatMap((m) => (Array.isArray(m.message.content) ? m.message.content : []))
        assert.ok(!blocks.some((b) => b.id === 'toolu_h1' || b.id === 'toolu_h3'), 'hidden calls are left out')
        assert.ok(blocks.some((b) => b.id === 'toolu_row1') && blocks.some((b) => b.tool_use_id === 'toolu_row1'), 'host rows are shown')
        assert.ok(blocks.some((b) => b.content === 'host says it failed'), 'the error result shows hostContent')
        assert.ok(!blocks.some((b) => b.id === 'toolu_row5'), 'a withheld call shows no rows')
        assert.ok(!mine.some((m) => m.tool_result_meta || m.toolDenialUnanswered), 'denial fields go with the hidden result')
      }
    }
  })

  it('a subagent with hidden calls matches the official', async () => {
    const sessionId = uuidFrom(rand)
    const dir = path.join(config, 'projects', sanitize(cwd), sessionId, 'subagents')
    fs.mkdirSync(dir, { recursive: true })
    writeRaw([{ id: 's0', parent: null, ...user('parent prompt') }, { id: 's1', ...assistant([text('ok')]) }], { sessionId })
    writeRaw(hiddenLines({ isSidechain: true, agentId: 'hid' }), { sessionId, file: path.join(dir, 'agent-hid.jsonl') })
    fs.writeFileSync(path.join(dir, 'agent-hid.meta.json'), JSON.stringify({ agentType: 'general-purpose', toolUseId: 'toolu_parent' }))
    const mine = norm(await ours.getSubagentMessages(sessionId, 'hid'))
    assert.deepStrictEqual(mine, norm(await official.getSubagentMessages(sessionId, 'hid')))
    assert.ok(mine.some((m) => m.message.content?.[0]?.id === 'toolu_row1'))
  })
})

describe('getSessionMessages: voice-call records', () => {
  it('voice_call_talk records read as user messages and queued commands, as the official reads them', async () => {
    const talk = (content, extra = {}) => ({ type: 'system', subtype: 'voice_call_talk', level: 'info', msgV: 2, content, isMeta: true, origin: { kind: 'voice-call', callId: 'c1' }, ...extra })
    const source = uuidFrom(rand)
    const { sessionId } = writeRaw([
      { id: 'u0', parent: null, ...user('start a call') },
      { id: 'a0', ...assistant([text('calling')]) },
      { id: 'v0', ...talk('hello from the call') },
      { id: 'v1', ...talk('ignored', { blocks: [text('spoken blocks')] }) },
      { id: 'a1', ...assistant([use('toolu_c')]) },
      // A folded queued command: shown as the user message it was once answered.
      { id: 'v2', ...talk('folded prompt', { fold: { command: { source_uuid: source, commandMode: 'prompt' }, extra: 1 } }) },
      { id: 'r1', ...user([res('toolu_c')]) },
      // Not a voice call's, or no string content, or a fold without a command: left as system entries.
      { id: 'v3', ...talk('a phone', { origin: { kind: 'phone' } }) },
      { id: 'v4', ...talk(42) },
      { id: 'v5', ...talk('bad fold', { fold: { nothing: true } }) },
      { id: 'a2', ...assistant([text('bye')]) },
    ])
    for (const opts of [{}, { includeSystemMessages: true }]) {
      const mine = norm(await ours.getSessionMessages(sessionId, opts))
      assert.deepStrictEqual(mine, norm(await official.getSessionMessages(sessionId, opts)), JSON.stringify(opts))
      assert.ok(mine.some((m) => m.message?.content === 'hello from the call' && m.is_meta && m.origin?.kind === 'voice-call'))
      assert.ok(mine.some((m) => m.isQueuedCommand && m.uuid === source && m.message.content === 'folded prompt'))
    }
  })
})

describe('getSessionMessages: transcripts over 5 MiB', () => {
  /**
   * About 6.5 MiB: an old part, a boundary without a preserved segment (skipped from), a part
   * whose split assistant message has a sibling in the old part, a boundary that straddles the
   * 4 MiB chunk edge and does not start with {"type":"system" (the official does not see it),
   * attribution snapshots, and a last part.
   */
  function bigTranscript() {
    const pad = 'x'.repeat(2000)
    const lines = []
    const size = () => lines.reduce((n, l) => n + Buffer.byteLength(typeof l === 'string' ? l : JSON.stringify(l)) + 300, 0)
    let n = 0
    const turns = (until, prefix) => {
      while (size() < until) {
        lines.push({ id: `${prefix}u${n}`, ...user(`${prefix} prompt ${n} ${pad}`) })
        lines.push({ id: `${prefix}a${n}`, ...assistant([text(`${prefix} answer ${n} ${pad}`)]) })
        n++
      }
    }
    lines.push({ id: 'o0', parent: null, ...user('the old start') })
    lines.push({ id: 'sib', ...assistant([use('toolu_sib')]), message: { id: 'msg_shared', type: 'message', role: 'assistant', content: [use('toolu_sib')] } })
    lines.push({ type: 'attribution-snapshot', messageId: 'old', fileStates: {} })
    turns(2 << 20, 'old')
    lines.push({ id: 'b0', parent: null, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 1000 } })
    lines.push({ id: 'p0', ...user('after the first boundary') })
    lines.push({ id: 'shared', ...assistant([text('part of a split message')]), message: { id: 'msg_shared', type: 'message', role: 'assistant', content: [text('part of a split message')] } })
    turns(3.5 * 1048576, 'mid')
    lines.push({ type: 'attribution-snapshot', messageId: 'mid', fileStates: {} })
    return { lines, turns }
  }

  it('the official skips everything before the last plain boundary; so do we (and neither does with CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP)', async () => {
    const { lines, turns } = bigTranscript()
    // A boundary the official does not see: it starts just before the 4 MiB chunk edge.
    turns(4 * 1048576 - 6000, 'pre')
    lines.push({ id: 'filler', ...user('filler') })
    lines.push('__STRADDLE__')
    turns(6.5 * 1048576, 'late')
    lines.push({ type: 'attribution-snapshot', messageId: 'late', fileStates: {} })
    // Write once to learn where the straddling line lands, then size the filler to put it across the edge.
    const write = (fillerLen) => {
      const i = lines.findIndex((l) => l.id === 'filler')
      lines[i] = { id: 'filler', ...user('f'.repeat(fillerLen)) }
      const sessionId = '3b5e8a4e-1f2a-4c3d-9e8f-0a1b2c3d4e5f'
      const file = path.join(config, 'projects', sanitize(cwd), `${sessionId}.jsonl`)
      const straddle = JSON.stringify({ parentUuid: null, logicalParentUuid: null, type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto' }, isSidechain: false, uuid: uuidFrom(rng(5)), sessionId, timestamp: '2026-05-02T00:00:00.000Z' })
      writeRaw(lines.map((l) => (l === '__STRADDLE__' ? straddle : l)), { sessionId, file })
      const text = fs.readFileSync(file, 'utf8')
      return { sessionId, file, at: Buffer.byteLength(text.slice(0, text.indexOf(straddle))) }
    }
    const { at } = write(10)
    const edge = 4 * 1048576
    const { sessionId, file, at: at2 } = write(10 + (edge - 40 - at))
    assert.ok(at2 < edge && at2 + 100 > edge, `the line straddles the edge (${at2})`)
    assert.ok(fs.statSync(file).size > 5 << 20)
    for (const opts of [{ limit: 3 }, { offset: 1, limit: 2 }]) {
      const mine = norm(await ours.getSessionMessages(sessionId, opts))
      assert.deepStrictEqual(mine, norm(await official.getSessionMessages(sessionId, opts)), JSON.stringify(opts))
      if (!opts.offset) assert.equal(mine[0].message.content, 'after the first boundary', 'read from the plain boundary, not the straddling one')
    }
    const all = norm(await ours.getSessionMessages(sessionId))
    assert.deepStrictEqual(all, norm(await official.getSessionMessages(sessionId)))
    assert.ok(!all.some((m) => m.message.content?.[0]?.id === 'toolu_sib'), 'the split sibling before the boundary is not read')
    process.env.CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP = 'yes'
    try {
      const whole = norm(await ours.getSessionMessages(sessionId))
      assert.deepStrictEqual(whole, norm(await official.getSessionMessages(sessionId)))
      assert.ok(whole.some((m) => m.message.content?.[0]?.id === 'toolu_sib'), 'read whole, the split sibling is gathered')
    } finally {
      delete process.env.CLAUDE_CODE_DISABLE_PRECOMPACT_SKIP
    }
  })
})
