// The fake `claude` CLI of scripts/capture-official.mjs and scripts/track.mjs (CommonJS source,
// written to disk with an absolute-node shebang and no extension, so that an SDK spawns it directly
// like the native binary). It reads plan.json beside it and appends what it sees to record.jsonl.
import fs from 'node:fs'
import path from 'node:path'

export const FAKE_CLI_SOURCE = String.raw`
'use strict'
// Fake Claude Code CLI used by scripts/capture-official.mjs.
const fs = require('fs')
const path = require('path')
const { spawn } = require('child_process')
const dir = __dirname
const plan = JSON.parse(fs.readFileSync(path.join(dir, 'plan.json'), 'utf8'))
const recPath = path.join(dir, 'record.jsonl')
const rec = (kind, data) => fs.appendFileSync(recPath, JSON.stringify({ kind, data }) + '\n')
rec('start', { argv: process.argv.slice(2), cwd: process.cwd(), env: process.env })
const safety = setTimeout(() => { rec('safety-timeout', {}); process.exit(3) }, plan.safetyMs || 30000)

function lines(stream, onLine) {
  let buf = ''
  stream.on('data', (d) => {
    buf += d
    let i
    while ((i = buf.indexOf('\n')) >= 0) {
      const l = buf.slice(0, i)
      buf = buf.slice(i + 1)
      if (l.trim()) onLine(l)
    }
  })
}

if (plan.exec) {
  // proxy mode: run the real CLI, record both directions
  const child = spawn(plan.exec, process.argv.slice(2), { stdio: ['pipe', 'pipe', 'pipe'] })
  child.stderr.on('data', (d) => rec('cli-stderr', String(d)))
  lines(process.stdin, (l) => rec('sdk->cli', l))
  process.stdin.on('data', (d) => child.stdin.write(d))
  process.stdin.on('end', () => { rec('stdin-eof', {}); child.stdin.end() })
  lines(child.stdout, (l) => rec('cli->sdk', l))
  child.stdout.on('data', (d) => process.stdout.write(d))
  child.on('exit', (code) => { rec('exit', { code }); clearTimeout(safety); process.exitCode = code == null ? 1 : code })
} else {
  const out = (o) => process.stdout.write(JSON.stringify(o) + '\n')
  let init = null
  let actionsStarted = false
  let seq = 0
  const pending = new Map()
  const send = (request, timeoutMs) => {
    const id = 'fake-cli-' + ++seq
    return new Promise((resolve) => {
      const t = setTimeout(() => { pending.delete(id); resolve({ noResponseWithinMs: timeoutMs }) }, timeoutMs)
      pending.set(id, (msg) => { clearTimeout(t); resolve(msg) })
      out({ type: 'control_request', request_id: id, request })
    })
  }
  const resolveRefs = (request) => {
    if (request.callback_ref) {
      const { callback_ref, ...rest } = request
      const [event, mi, hi] = callback_ref
      const ids = init && init.request.hooks && init.request.hooks[event] && init.request.hooks[event][mi]
      return { ...rest, callback_id: ids ? ids.hookCallbackIds[hi] : 'missing' }
    }
    return request
  }
  const finish = () => {
    out({ type: 'result', subtype: 'success', is_error: false, duration_ms: 0, duration_api_ms: 0, num_turns: 1,
      result: 'captured', stop_reason: 'end_turn', session_id: 'fake-session', total_cost_usd: 0,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      modelUsage: {}, permission_denials: [], uuid: '00000000-0000-4000-8000-000000000000' })
  }
  const runActions = async () => {
    if (actionsStarted) return
    actionsStarted = true
    for (const a of plan.actions || []) {
      const request = resolveRefs(a.request)
      const response = await send(request, a.timeoutMs || 3000)
      rec('action', { name: a.name, request, response })
    }
    finish()
  }
  lines(process.stdin, (l) => {
    rec('stdin', l)
    let m
    try { m = JSON.parse(l) } catch { return }
    if (m.type === 'control_request') {
      if (m.request && m.request.subtype === 'initialize') init = m
      const response = m.request && m.request.subtype === 'initialize'
        ? (plan.initializeResponse || { commands: [], agents: [], models: [], account: {}, output_style: 'default', available_output_styles: ['default'], pid: 0 })
        : {}
      out({ type: 'control_response', response: { subtype: 'success', request_id: m.request_id, response } })
    } else if (m.type === 'control_response') {
      const cb = pending.get(m.response && m.response.request_id)
      if (cb) { pending.delete(m.response.request_id); cb(m) }
    } else if (m.type === 'user') {
      runActions()
    }
  })
  process.stdin.on('end', () => { rec('stdin-eof', {}); clearTimeout(safety); process.exit(0) })
}
`

/** Writes the fake as `<dir>/claude` (and its plan) and returns its path. */
export function writeFakeCli(dir, plan = {}) {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, 'claude')
  fs.writeFileSync(file, `#!${process.execPath}\n${FAKE_CLI_SOURCE}`, { mode: 0o755 })
  fs.writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan))
  return file
}

/** What the fake recorded: [{ kind, data }] in order. */
export function readFakeCliRecord(dir) {
  const p = path.join(dir, 'record.jsonl')
  if (!fs.existsSync(p)) return []
  return fs.readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
}
