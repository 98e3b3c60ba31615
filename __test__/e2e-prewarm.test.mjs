// prewarm() end to end with the real CLI (2.1.332; --await-claim since 2.1.330) and the
// scripted model, side by side with the official SDK: a claimed spare answers the prompt in the
// claimed folder; a claim the CLI refuses rejects `claimed` with the CLI's reason and the prompt
// gets the `not_claimed` error result; the SDK-side refusals (a second claim, a closed spare,
// hook settings) are the official ones.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { CLIS } from './helpers/clis.mjs'
import { sdk as ours, collect } from './helpers/sdk.mjs'
import { startScriptedModel } from '../testing/index.mjs'

const cli = CLIS['2.1.332']
const outcome = (p) => p.then((c) => ({ ok: true, cwd: c.cwd, sessionId: typeof c.sessionId, sdkMcpSettled: c.sdkMcpSettled }), (e) => ({ ok: false, message: e.message }))

async function claimRun(sdk, model, claimOptions) {
  const spare = await sdk.prewarm({ options: { pathToClaudeCodeExecutable: cli, env: model.env() } })
  const q = spare.claim({ prompt: 'hello', options: claimOptions })
  const { messages, error } = await collect(q)
  const result = messages.find((m) => m.type === 'result')
  const claimed = await outcome(spare.claimed)
  await spare.exited
  return { claimed, result: result && { subtype: result.subtype, is_error: result.is_error, text: result.result ?? result.errors }, error: error?.message ?? null, q }
}

describe('prewarm() with the real CLI 2.1.332', { concurrency: true }, () => {
  it('a claimed spare answers in the claimed folder; initializationResult() describes the claimed session', async () => {
    const model = await startScriptedModel({ turns: [{ text: 'claimed hello' }, { text: 'claimed hello' }] })
    try {
      const folder = model.tempDir('claim-')
      const mine = await claimRun(ours, model, { cwd: folder })
      const theirs = await claimRun(official, model, { cwd: folder })
      assert.deepEqual(mine.claimed, { ok: true, cwd: fs.realpathSync(folder), sessionId: 'string', sdkMcpSettled: true })
      assert.deepEqual(mine.result, { subtype: 'success', is_error: false, text: 'claimed hello' })
      assert.deepEqual({ ...mine, q: undefined }, { ...theirs, q: undefined })
      const init = await mine.q.initializationResult()
      assert.ok(Array.isArray(init.commands))
    } finally {
      await model.close()
    }
  })

  it('several spares claimed at once all answer (the prompt never overtakes its claim)', async () => {
    const model = await startScriptedModel({ turns: [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }] })
    try {
      const runs = await Promise.all([0, 1, 2, 3].map(() => claimRun(ours, model, { cwd: model.tempDir('many-') })))
      assert.deepEqual(runs.map((r) => [r.claimed.ok, r.result?.subtype, r.error]), Array(4).fill([true, 'success', null]))
    } finally {
      await model.close()
    }
  })

  it('a claim with model, maxThinkingTokens and a settings overlay (the prompt waits for the overlay)', async () => {
    const model = await startScriptedModel({ turns: [{ text: 'overlay' }, { text: 'overlay' }] })
    try {
      const claim = { model: 'claude-sonnet-4-5', maxThinkingTokens: 1000, settings: { effortLevel: 'high', permissions: { allow: ['Read'] } } }
      const mine = await claimRun(ours, model, { cwd: model.tempDir('overlay-'), ...claim })
      const theirs = await claimRun(official, model, { cwd: model.tempDir('overlay-'), ...claim })
      assert.deepEqual([mine.claimed.ok, mine.result, mine.error], [true, { subtype: 'success', is_error: false, text: 'overlay' }, null])
      assert.deepEqual([mine.claimed.ok, mine.result, mine.error], [theirs.claimed.ok, theirs.result, theirs.error])
    } finally {
      await model.close()
    }
  })

  it('refused claims: the CLI\'s reason in `claimed`, the not_claimed error result for the prompt', async () => {
    const model = await startScriptedModel({ turns: [] })
    try {
      const withEnv = model.tempDir('project-env-')
      fs.mkdirSync(path.join(withEnv, '.claude'))
      fs.writeFileSync(path.join(withEnv, '.claude', 'settings.json'), JSON.stringify({ env: { X: '1' } }))
      for (const cwd of [path.join(withEnv, 'missing'), withEnv]) {
        const mine = await claimRun(ours, model, { cwd })
        const theirs = await claimRun(official, model, { cwd })
        assert.equal(mine.claimed.ok, false)
        assert.match(mine.claimed.message, /^(cwd_not_found|project_settings_not_claimable): /)
        assert.match(mine.error, /^Claude Code returned an error result: not_claimed: /)
        assert.deepEqual({ ...mine, q: undefined }, { ...theirs, q: undefined })
      }
    } finally {
      await model.close()
    }
  })

  it('onCommands reports the parked commands; a claim\'s workspaceTrust makes the CLI trust the folder, as the official', async () => {
    const model = await startScriptedModel({ turns: [{ text: 't1' }, { text: 't2' }, { text: 't3' }, { text: 't4' }] })
    try {
      const env = model.env()
      const trusted = (folder) => JSON.parse(fs.readFileSync(path.join(env.CLAUDE_CONFIG_DIR, '.claude.json'), 'utf8')).projects?.[fs.realpathSync(folder)]?.hasTrustDialogAccepted === true
      const run = async (sdk, attest) => {
        const spare = await sdk.prewarm({ options: { pathToClaudeCodeExecutable: cli, env } })
        const commands = await new Promise((resolve) => spare.onCommands(resolve))
        const folder = model.tempDir('trust-')
        const q = spare.claim({ prompt: 'hi', options: { cwd: folder, ...(attest && { workspaceTrust: { accepted: true, directory: folder } }) } })
        const { error } = await collect(q)
        await spare.claimed
        await spare.exited
        return { commands: commands.map((c) => c.name).sort(), error: error?.message ?? null, trusted: trusted(folder) }
      }
      const mine = await run(ours, true)
      assert.ok(mine.commands.length > 0)
      assert.equal(mine.trusted, true)
      assert.deepEqual(mine, await run(official, true))
      assert.equal((await run(ours, false)).trusted, false)
      assert.equal((await run(official, false)).trusted, false)
    } finally {
      await model.close()
    }
  })

  it('SDK-side refusals: resume at prewarm, hook settings, a second claim, a closed spare', async () => {
    const model = await startScriptedModel({ turns: [] })
    try {
      const errorOf = async (f) => { try { await f(); return null } catch (e) { return e.message } }
      const options = { pathToClaudeCodeExecutable: cli, env: model.env() }
      for (const sdk of [ours, official]) {
        assert.match(await errorOf(() => sdk.prewarm({ options: { ...options, resume: '22222222-2222-4222-8222-222222222222' } })), /^prewarm\(\): resume\/continue\/forkSession/)
      }
      const results = []
      for (const sdk of [ours, official]) {
        const spare = await sdk.prewarm({ options })
        const folder = model.tempDir('c-')
        const hooks = await errorOf(() => spare.claim({ prompt: 'x', options: { cwd: folder, settings: { disableAllHooks: true } } }))
        spare.close()
        const closed = await outcome(spare.claimed)
        const after = await errorOf(() => spare.claim({ prompt: 'x', options: { cwd: folder } }))
        await spare.exited
        results.push({ hooks, closed, after })
      }
      assert.deepEqual(results[0], results[1])
      assert.match(results[0].hooks, /hook settings \(disableAllHooks\) cannot be applied at claim/)
      assert.deepEqual(results[0].closed, { ok: false, message: 'spare_closed: the spare was closed before it was claimed' })
    } finally {
      await model.close()
    }
  })
})
