// Strings cut inside an emoji (issue 31 items 5 and 6): a JavaScript string may hold a lone
// surrogate, which `JSON.stringify` writes as `\udXXX`. Every value that crosses from JS to the
// engine takes it and reaches the CLI exactly as JSON.stringify wrote it (the official passes
// them through): options (systemPrompt, an agent's prompt, a tool description; an env value as
// Node's spawn encodes it), setModel(), an MCP progress notification, forkSession({ title }).
// And forkSession copies every line of a transcript whose tool result holds such an escape or
// whose tool input is nested 300 deep, as getSessionMessages reads them and as the official
// forks them. Side by side with the official against the mock CLI, then with the real CLI.
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours, mockOptions, collect, readLog } from './helpers/sdk.mjs'
import { CLIS } from './helpers/clis.mjs'
import { forkLines } from './helpers/fork-compare.mjs'
import { startScriptedModel, toolResults } from '../testing/index.mjs'

const CUT = '\u{1F600}'.slice(0, 1) // the high half of 😀: a lone surrogate
const LOW = '\u{1F600}'.slice(1) // and the low half
const packages = [['ours', ours], ['official', official]]

/** The lines the CLI read on stdin, as text (escapes as written). */
const stdinLines = (log) => readLog(log).filter((r) => r.kind === 'stdin').map((r) => r.line)

/** Runs `scenario` on the mock CLI with each package; the stdin lines of each. */
async function sideBySide(scenario, options = () => ({}), drive = async (q) => collect(q)) {
  const out = {}
  for (const [name, sdk] of packages) {
    const { log, options: base } = mockOptions(scenario)
    const extra = options(sdk, base)
    const q = sdk.query({ prompt: 'hi', options: { ...base, ...extra } })
    const r = await drive(q, sdk)
    assert.equal(r.error?.message, undefined, `${name}: ${r.error?.message}`)
    out[name] = { stdin: stdinLines(log), log }
  }
  return out
}

const ANSWER_AND_END = `export default async function (cli) {
  await cli.initialize()
  await cli.nextUserMessage()
  cli.systemInit(); cli.assistantText('ok'); cli.result(); cli.sessionState('idle')
}`

describe('lone surrogates from JS reach the CLI as JSON.stringify wrote them (mock CLI, side by side)', () => {
  it('systemPrompt, an agent prompt and a tool description: in initialize, escapes kept', async () => {
    const runs = await sideBySide(ANSWER_AND_END, (sdk) => ({
      systemPrompt: `sp ${CUT}|${LOW}x`,
      agents: { helper: { description: `d ${LOW}`, prompt: `p ${CUT}` } },
      mcpServers: { s: sdk.createSdkMcpServer({ name: 's', tools: [sdk.tool('t', `desc ${CUT}`, { a: z.string() }, async () => ({ content: [] }))] }) },
    }))
    for (const [name, { stdin }] of Object.entries(runs)) {
      const init = stdin.find((l) => l.includes('"initialize"'))
      for (const escaped of ['"sp \\ud83d|\\ude00x"', '"d \\ude00"', '"p \\ud83d"', '"desc \\ud83d"']) {
        assert.ok(init.includes(escaped), `${name}: ${escaped} in ${init}`)
      }
      const parsed = JSON.parse(init).request
      assert.equal(parsed.agents.helper.prompt, `p ${CUT}`, name)
    }
  })

  it('an env value: as Node spawn encodes it (U+FFFD), the query runs', async () => {
    const seen = {}
    for (const [name, sdk] of packages) {
      const { log, options } = mockOptions(ANSWER_AND_END)
      options.env.MOCK_CUT = `e ${CUT}`
      const r = await collect(sdk.query({ prompt: 'hi', options }))
      assert.equal(r.error?.message, undefined, `${name}: ${r.error?.message}`)
      seen[name] = readLog(log).find((x) => x.kind === 'start').env.MOCK_CUT
    }
    assert.equal(seen.ours, seen.official)
    assert.equal(seen.ours, 'e \uFFFD')
  })

  it('setModel() and an MCP progress notification with a lone surrogate', async () => {
    const scenario = `export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      await cli.nextControlRequest('set_model')
      await cli.mcp('s', { method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: { progressToken: 'p1' } } })
      cli.assistantText('ok'); cli.result(); cli.sessionState('idle')
    }`
    const runs = await sideBySide(
      scenario,
      (sdk) => ({
        mcpServers: {
          s: sdk.createSdkMcpServer({
            name: 's',
            tools: [sdk.tool('slow', 'reports progress', {}, async (_args, extra) => {
              await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta?.progressToken ?? 'p1', progress: 1, total: 2, message: `half ${CUT}` } })
              return { content: [{ type: 'text', text: `done ${LOW}` }] }
            })],
          }),
        },
      }),
      async (q) => {
        const messages = []
        try {
          for await (const m of q) {
            messages.push(m)
            if (m.type === 'system' && m.subtype === 'init') await q.setModel(`model-${CUT}`)
          }
          return { messages, error: null }
        } catch (error) {
          return { messages, error }
        }
      },
    )
    for (const [name, { stdin }] of Object.entries(runs)) {
      const setModel = stdin.find((l) => l.includes('"set_model"'))
      assert.ok(setModel?.includes('"model-\\ud83d"'), `${name}: ${setModel}`)
      const progress = stdin.find((l) => l.includes('notifications/progress'))
      assert.ok(progress?.includes('"half \\ud83d"'), `${name}: progress ${progress}`)
      const answer = stdin.find((l) => l.includes('"done '))
      assert.ok(answer?.includes('"done \\ude00"'), `${name}: tool answer ${answer}`)
    }
  })
})

describe('forkSession({ title }) with a lone surrogate', () => {
  let dir
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lone-title-'))
    process.env.CLAUDE_CONFIG_DIR = dir
  })
  after(() => {
    delete process.env.CLAUDE_CONFIG_DIR
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('the title is written as JSON.stringify writes it, as the official writes it', async () => {
    const id = '00000000-0000-4000-8000-000000000001'
    const proj = path.join(dir, 'projects', '-w')
    fs.mkdirSync(proj, { recursive: true })
    const a = { type: 'user', message: { role: 'user', content: 'hi' }, uuid: '00000000-0000-4000-8000-00000000000a', parentUuid: null, sessionId: id, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w', isSidechain: false }
    fs.writeFileSync(path.join(proj, `${id}.jsonl`), JSON.stringify(a) + '\n')
    const titles = {}
    for (const [name, sdk] of packages) {
      const { sessionId } = await sdk.forkSession(id, { title: `t ${CUT}` })
      const text = fs.readFileSync(path.join(proj, `${sessionId}.jsonl`), 'utf8')
      assert.ok(text.includes('"customTitle":"t \\ud83d"'), `${name}: ${text}`)
      titles[name] = (await official.getSessionInfo(sessionId)).customTitle
    }
    assert.equal(titles.ours, titles.official)
  })
})

describe('with the real CLI 2.1.332 (scripted model)', { timeout: 180000 }, () => {
  let model
  let env
  let cwd
  const DEPTH = 300
  const deep = (n) => (n === 0 ? 'bottom' : { d: deep(n - 1) })

  before(async () => {
    model = await startScriptedModel({
      fallback: (req) => {
        if (toolResults(req).length > 0) return { text: 'finished' }
        return { toolUses: [{ name: 'mcp__cut__echo', input: { deep: deep(DEPTH) } }] }
      },
    })
    env = model.env()
    cwd = model.tempDir('lone-real-')
  })
  after(async () => {
    delete process.env.CLAUDE_CONFIG_DIR
    await model?.close()
  })

  function server(sdk) {
    return sdk.createSdkMcpServer({
      name: 'cut',
      tools: [sdk.tool('echo', `Echoes ${CUT}`, { deep: z.any() }, async () => ({ content: [{ type: 'text', text: `cut ${CUT} here` }] }))],
    })
  }

  async function run(sdk, extra = {}) {
    let sessionId
    let result
    let stderr = ''
    for await (const m of sdk.query({ prompt: 'call the tool', options: { pathToClaudeCodeExecutable: CLIS['2.1.332'], env, cwd, mcpServers: { cut: server(sdk) }, allowedTools: ['mcp__cut__echo'], stderr: (d) => (stderr += d), ...extra } })) {
      if (m.session_id) sessionId = m.session_id
      if (m.type === 'result') result = m
    }
    assert.equal(result?.subtype, 'success', `no success; stderr: ${stderr}`)
    return sessionId
  }

  it('a systemPrompt and a tool description with lone surrogates reach the model as they do from the official', async () => {
    const seen = {}
    for (const [name, sdk] of packages) {
      const from = model.requests.length
      await run(sdk, { systemPrompt: `You are cut ${CUT} short.` })
      const req = model.requests[from]
      const system = (Array.isArray(req.system) ? req.system.map((b) => b.text).join('\n') : req.system) ?? ''
      const tool = req.tools.find((t) => t.name === 'mcp__cut__echo')
      const at = system.indexOf('You are cut')
      seen[name] = { system: at < 0 ? null : system.slice(at, system.indexOf('short.', at) + 6), description: tool?.description }
    }
    // The CLI itself drops the lone surrogate before calling the API: what matters is that it got
    // the same text from both packages (and that ours ran at all: it used to fail on the option).
    assert.deepStrictEqual(seen.ours, seen.official)
    assert.ok(seen.ours.system?.startsWith('You are cut'), JSON.stringify(seen.ours))
    assert.ok(seen.ours.description?.startsWith('Echoes'), JSON.stringify(seen.ours))
  })

  it('forkSession copies the tool result with a lone surrogate and the tool input 300 deep, as the official does', async () => {
    const id = await run(ours)
    process.env.CLAUDE_CONFIG_DIR = env.CLAUDE_CONFIG_DIR
    const folder = fs.readdirSync(path.join(env.CLAUDE_CONFIG_DIR, 'projects')).find((d) => fs.existsSync(path.join(env.CLAUDE_CONFIG_DIR, 'projects', d, `${id}.jsonl`)))
    const file = path.join(env.CLAUDE_CONFIG_DIR, 'projects', folder, `${id}.jsonl`)
    const text = fs.readFileSync(file, 'utf8')
    assert.ok(text.includes('cut \\ud83d here'), 'the CLI wrote the escape')
    const messages = await ours.getSessionMessages(id)
    assert.deepStrictEqual(messages.map((m) => m.type), ['user', 'assistant', 'user', 'assistant'])
    const forks = {}
    for (const [name, sdk] of packages) {
      const { sessionId } = await sdk.forkSession(id)
      const forked = await official.getSessionMessages(sessionId)
      assert.deepStrictEqual(forked.map((m) => m.type), messages.map((m) => m.type), `${name}: the fork keeps all four messages`)
      assert.deepStrictEqual(forked.map((m) => m.message), messages.map((m) => m.message), `${name}: unchanged`)
      const lines = fs.readFileSync(path.join(path.dirname(file), `${sessionId}.jsonl`), 'utf8')
      assert.ok(lines.includes('cut \\ud83d here'), `${name}: the escape kept`)
      forks[name] = forkLines(path.join(path.dirname(file), `${sessionId}.jsonl`))
    }
    assert.deepStrictEqual(forks.ours, forks.official)
  })
})
