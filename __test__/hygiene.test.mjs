// Process hygiene: however a query ends — normally, abort, close(), break, a throw in the loop
// body, garbage collection, the host exiting or being killed — no CLI process (nor anything in its
// process group) is left behind, and the caller never waits for the CLI's shutdown.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { sdk, collect, mockOptions, mockPids, eventually, readLog, scenarioRecords } from './helpers/sdk.mjs'
import { gone, groupMembers, runHost, entry, root, within } from './helpers/process.mjs'

const { query, AbortError } = sdk
const mockIndex = path.join(root, '__test__/mock-cli/index.mjs')

/** Mid-run until stdin closes, then exits (as the CLI does); optionally starts a grandchild in its group. */
function polite({ grandchild = true } = {}) {
  return `
  import { spawn } from 'node:child_process'
  export default async function (cli) {
    await cli.initialize()
    await cli.nextUserMessage()
    ${grandchild ? "const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' }); sleeper.unref(); cli.log({ grandchild: sleeper.pid })" : ''}
    cli.systemInit()
    cli.assistantText('working')
    await cli.waitStdinClosed()
    await cli.exit(0)
  }`
}
const POLITE = polite()

/** Ignores stdin EOF and SIGTERM: only SIGKILL ends it. Optionally starts a grandchild. */
function stubborn({ grandchild = true } = {}) {
  return `
  import { spawn } from 'node:child_process'
  export default async function (cli) {
    cli.onSignal('SIGTERM', () => {})
    cli.onSignal('SIGHUP', () => {})
    setInterval(() => {}, 1000)
    await cli.initialize()
    await cli.nextUserMessage()
    ${grandchild ? "cli.log({ grandchild: spawn('sleep', ['600'], { stdio: 'ignore' }).pid })" : ''}
    cli.systemInit()
    cli.assistantText('working')
    await new Promise(() => {})
  }`
}

function pids(log) {
  const [cli] = mockPids(log)
  const grandchild = scenarioRecords(log).find((r) => r.grandchild)?.grandchild
  return { cli, grandchild }
}

/** Kills what a test's mock may have left (a grandchild outside the engine's reach). */
function cleanup(log) {
  const { cli, grandchild } = pids(log)
  for (const pid of [grandchild, cli]) {
    if (pid) try { process.kill(pid, 'SIGKILL') } catch {}
  }
}

/** Promise.all that lets every branch finish (and clean up) before rejecting with the first error. */
async function settleAll(promises) {
  const results = await Promise.allSettled(promises)
  const failed = results.find((r) => r.status === 'rejected')
  if (failed) throw failed.reason
  return results.map((r) => r.value)
}

async function allGone(log, ms = 10000) {
  const { cli } = pids(log)
  assert.ok(cli > 0, 'the mock logged its pid')
  await eventually(() => gone(cli), ms, `CLI ${cli} to be gone and reaped`)
}

// --- every way a query can end ------------------------------------------------------------------------

test('normal end: the CLI exits and is reaped', async () => {
  const { log, options } = mockOptions(undefined)
  const { error } = await collect(query({ prompt: 'hi', options }))
  assert.equal(error, null)
  await allGone(log)
})

test('abort(), close(), break, and a throw in the loop body: the CLI is gone afterwards', async () => {
  const runs = {
    abort: async (options) => {
      const abortController = new AbortController()
      const q = query({ prompt: 'hi', options: { ...options, abortController } })
      await q.next()
      abortController.abort()
      await assert.rejects(drainAfterAbort(q), AbortError)
    },
    close: async (options) => {
      const q = query({ prompt: 'hi', options })
      await q.next()
      q.close()
      assert.equal((await collect(q)).error, null) // what was already buffered may still come, then the end
    },
    break: async (options) => {
      for await (const m of query({ prompt: 'hi', options })) if (m.type === 'system') break
    },
    throw: async (options) => {
      await assert.rejects(async () => {
        for await (const m of query({ prompt: 'hi', options })) if (m.type === 'system') throw new Error('consumer bug')
      }, /consumer bug/)
    },
  }
  await settleAll(Object.entries(runs).map(async ([how, run]) => {
    const { log, options } = mockOptions(POLITE)
    try {
      await within(run(options), 10000, `${how} to return`)
      await allGone(log)
      assert.ok(readLog(log).some((r) => r.kind === 'stdin_end'), `${how}: stdin was closed first`)
    } finally {
      cleanup(log)
    }
  }))
})

test('close(): a process the CLI started (its process group) does not outlive the session', async () => {
  const { log, options } = mockOptions(POLITE)
  try {
    const q = query({ prompt: 'hi', options })
    await q.next()
    q.close()
    await allGone(log)
    const { cli, grandchild } = pids(log)
    assert.ok(grandchild > 0)
    await eventually(() => groupMembers(cli).length === 0, 5000, `the CLI's process group ${cli} (grandchild ${grandchild}) to be empty`)
  } finally {
    cleanup(log)
  }
})

// --- graceful, in the background ------------------------------------------------------------------------

test('break, abort() and close() return at once; a CLI that ignores EOF and SIGTERM gets SIGTERM after 2 s, then SIGKILL after 5 s', async () => {
  const ends = {
    break: async (q) => {
      let t0
      for await (const m of q) {
        if (m.type === 'system') {
          t0 = performance.now()
          break
        }
      }
      return performance.now() - t0
    },
    abort: async (q, abortController) => {
      await q.next()
      const t0 = performance.now()
      abortController.abort()
      await assert.rejects(drainAfterAbort(q), AbortError)
      return performance.now() - t0
    },
    close: async (q) => {
      await q.next()
      const t0 = performance.now()
      q.close()
      const { error } = await collect(q)
      assert.equal(error, null)
      return performance.now() - t0
    },
  }
  const figures = await settleAll(Object.entries(ends).map(async ([how, end]) => {
    const abortController = new AbortController()
    const { log, options } = mockOptions(stubborn(), { abortController })
    const q = query({ prompt: 'hi', options })
    let ms
    try {
      ms = await end(q, abortController)
    } catch (e) {
      cleanup(log)
      throw e
    }
    const { cli, grandchild } = pids(log)
    try {
      await eventually(() => gone(cli) && groupMembers(cli).length === 0, 15000, `${how}: CLI ${cli} and its group to be gone`)
    } finally {
      cleanup(log)
    }
    const records = readLog(log)
    const at = (pred) => records.find(pred)?.ts
    const stdinEnd = at((r) => r.kind === 'stdin_end')
    const sigterm = at((r) => r.kind === 'signal' && r.signal === 'SIGTERM')
    const killedAt = Date.now()
    assert.ok(stdinEnd, `${how}: stdin closed first`)
    assert.ok(sigterm, `${how}: then SIGTERM`)
    assert.ok(!records.some((r) => r.kind === 'exit'), `${how}: it never exited by itself, so it was SIGKILLed`)
    assert.ok(grandchild > 0)
    return { how, ms, termAfter: sigterm - stdinEnd, killAfter: killedAt - sigterm }
  }))
  for (const f of figures) {
    console.log(`# ${f.how}: control returned in ${f.ms.toFixed(1)} ms; SIGTERM ${f.termAfter} ms after stdin closed; gone <= ${f.killAfter} ms after SIGTERM`)
    // abort: nothing of the CLI's was running here, so nothing is waited for (issue 14.7: only
    // a call in flight makes an abort wait, a moment, for the CLI's interrupted tool result).
    assert.ok(f.ms < 200, `${f.how}: control returned after ${f.ms} ms`)
    assert.ok(f.termAfter >= 1500, `${f.how}: SIGTERM only after the stdin grace period (${f.termAfter} ms)`)
    assert.ok(f.killAfter >= 4000, `${f.how}: SIGKILL only after the SIGTERM grace period`)
  }
})

// --- garbage collection and the host's own end ----------------------------------------------------------

const HOST_PRELUDE = `
  import fs from 'node:fs'
  import { query } from ${JSON.stringify(entry)}
  import { mockCliPath, mockEnv, tempScenario, tempLogPath, readLog } from ${JSON.stringify(mockIndex)}
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
  const alive = (pid) => { try { return !/^\\d+ \\(.*\\) Z/.test(fs.readFileSync('/proc/' + pid + '/stat', 'utf8')) } catch { return false } }
`

test('a Query that is garbage-collected (never iterated to its end) ends its CLI', async () => {
  const host = runHost(`${HOST_PRELUDE}
    const log = tempLogPath()
    const scenario = tempScenario(${JSON.stringify(polite({ grandchild: false }))})
    let q = query({ prompt: 'hi', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario, log }) } })
    await q.next()
    const pid = readLog(log).find((r) => r.kind === 'start').pid
    q = null
    const t0 = Date.now()
    while (alive(pid) && Date.now() - t0 < 10000) {
      globalThis.gc ? globalThis.gc() : Bun.gc(true)
      await sleep(50)
    }
    report({ pid, alive: alive(pid) })
  `)
  try {
    const r = await host.next((x) => x.pid, 20000)
    assert.equal(r.alive, false, `CLI ${r.pid} still runs after its Query was collected`)
    assert.deepEqual(await within(host.exited, 10000, 'the host to exit'), { code: 0, signal: null }, host.stderr())
  } finally {
    host.child.kill('SIGKILL')
  }
})

for (const how of ['process.exit()', 'SIGTERM', 'SIGKILL']) {
  test(`the host ends mid-query (${how}): its CLI does not survive it`, async () => {
    const host = runHost(`${HOST_PRELUDE}
      const log = tempLogPath()
      const scenario = tempScenario(${JSON.stringify(stubborn({ grandchild: false }))})
      const q = query({ prompt: 'hi', options: { pathToClaudeCodeExecutable: mockCliPath, env: mockEnv({ scenario, log }) } })
      await q.next()
      const pid = readLog(log).find((r) => r.kind === 'start').pid
      report({ pid })
      if (process.argv[2] === 'exit') process.exit(0)
      setInterval(() => {}, 1000)
    `, { args: how === 'process.exit()' ? ['exit'] : [] })
    let pid
    try {
      ;({ pid } = await host.next((x) => x.pid, 20000))
      if (how !== 'process.exit()') host.child.kill(how)
      const status = await within(host.exited, 10000, 'the host to end')
      assert.deepEqual(status, how === 'process.exit()' ? { code: 0, signal: null } : { code: null, signal: how })
      await eventually(() => gone(pid), 10000, `CLI ${pid} to die with its host`)
    } finally {
      host.child.kill('SIGKILL')
      if (pid) try { process.kill(pid, 'SIGKILL') } catch {}
    }
  })
}

/** Takes the messages still delivered after an abort; rejects with the abort's error. */
async function drainAfterAbort(q) {
  while (!(await q.next()).done);
}
