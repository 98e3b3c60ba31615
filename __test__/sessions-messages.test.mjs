// Rarer getSessionMessages fields, side by side with the official SDK on the same transcript:
// permission denials (`toolDenialKind` → `tool_result_meta`, `toolDenialUnanswered`), queued
// commands (`isQueuedCommand`), and assistant entries that only close a quiet turn
// (`closesQuietTurn`, left out), and origins (task notifications keep their known fields).
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours } from './helpers/sdk.mjs'
import { rng, uuidFrom, writeTranscript, sanitize } from './helpers/session-corpus.mjs'

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-messages-')))
const config = path.join(base, 'config')
const cwd = path.join(base, 'work')
const rand = rng(77)
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))
let saved

before(() => {
  saved = process.env.CLAUDE_CONFIG_DIR
  process.env.CLAUDE_CONFIG_DIR = config
  fs.mkdirSync(cwd, { recursive: true })
})

after(() => {
  if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR
  else process.env.CLAUDE_CONFIG_DIR = saved
  fs.rmSync(base, { recursive: true, force: true })
})

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
