// Issue 31, "a runaway CLI cannot take the host down": `resourceLimits: { maxMemoryMb?,
// maxCpuSeconds? }` bounds the CLI and everything it starts. A fake CLI that allocates without
// bound, one whose children (one of them in a session of its own, out of the CLI's process group)
// do, and a CPU spinner: each query ends with an Error of code RESOURCE_LIMIT naming the limit and
// the figure reached, after every message the CLI wrote before; the CLI and its children are gone.
// Bad values are refused naming the field; the option raises no unknown-option warning.
// (Linux here: a /proc watchdog, as this machine's cgroup v2 hierarchy has no memory controller;
// crates/agent-core/src/cli/limits/ has the engine's own tests.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sdk, collect, mockOptions, mockPids, scenarioRecords, alive, eventually } from './helpers/sdk.mjs'
import { within } from './helpers/process.mjs'

const { query } = sdk
const supported = process.platform === 'linux' || process.platform === 'darwin' || process.platform === 'win32'

/** A turn that writes an assistant message, then does `work` (scenario source) for ever. */
function runaway(work) {
  return `
    import { spawn } from 'node:child_process'
    export default async function (cli) {
      await cli.initialize()
      await cli.nextUserMessage()
      cli.systemInit()
      await cli.assistantText('before the runaway')
      await cli.sleep(100)
      ${work}
    }`
}

const HOG = 'const keep = []; setInterval(() => keep.push(Buffer.alloc(8 << 20, 1)), 20)'

async function runLimited(scenario, resourceLimits) {
  const { log, options } = mockOptions(scenario, { resourceLimits })
  const warnings = []
  const onWarning = (w) => warnings.push(w)
  process.on('warning', onWarning)
  try {
    const t0 = Date.now()
    const { messages, error } = await within(collect(query({ prompt: 'go', options })), 60000, 'the query to end at its limit')
    return { messages, error, log, warnings, ms: Date.now() - t0 }
  } finally {
    process.off('warning', onWarning)
  }
}

function assertEndedAtLimit({ messages, error, warnings }, field) {
  assert.ok(error, 'the query ended with an error')
  assert.equal(error.code, 'RESOURCE_LIMIT', `${error.code}: ${error.message}`)
  assert.ok(error instanceof Error)
  assert.match(error.message, new RegExp(`resourceLimits\\.${field}`), error.message)
  // The figure reached, after the limit.
  assert.match(error.message, field === 'maxMemoryMb' ? /used \d+\.\d MB of memory/ : /used \d+\.\d\d s of CPU time/, error.message)
  if (process.platform !== 'win32') assert.equal(error.signal, 'SIGKILL', `the CLI was killed (${error.signal} / ${error.exitCode})`)
  assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant'], 'every message before the breach was delivered')
  assert.equal(messages[1].message.content[0].text, 'before the runaway')
  assert.deepEqual(warnings.filter((w) => w.code === 'CLAUDE_AGENT_SDK_NATIVE_UNKNOWN_OPTION').map(String), [])
}

test('a CLI that allocates without bound: RESOURCE_LIMIT naming maxMemoryMb and the figure, the CLI gone, earlier messages delivered', { skip: !supported }, async () => {
  const r = await runLimited(runaway('const keep = []; for (;;) { keep.push(Buffer.alloc(8 << 20, 1)); await cli.sleep(20) }'), { maxMemoryMb: 200 })
  assertEndedAtLimit(r, 'maxMemoryMb')
  assert.match(r.error.message, /maxMemoryMb \(200 MB\)/)
  const used = Number(/used (\d+\.\d) MB/.exec(r.error.message)[1])
  assert.ok(used > 200 && used < 600, `stopped soon after the bound: ${used} MB`)
  const [pid] = mockPids(r.log)
  await eventually(() => !alive(pid), 5000, `the CLI ${pid} to be gone`)
})

test('children (one in a session of its own) that allocate: the limit counts the whole tree and stops all of it', { skip: !supported }, async () => {
  const r = await runLimited(runaway(`
      const kids = [0, 1, 2].map((i) => spawn(process.execPath, ['-e', ${JSON.stringify(HOG)}], { stdio: 'ignore', detached: i === 0 }))
      cli.log({ children: kids.map((k) => k.pid) })
      await new Promise(() => {})`), { maxMemoryMb: 300 })
  assertEndedAtLimit(r, 'maxMemoryMb')
  const [{ children }] = scenarioRecords(r.log)
  assert.equal(children.length, 3)
  const pids = [...mockPids(r.log), ...children]
  await eventually(() => pids.every((p) => !alive(p)), 5000, `every process of the tree to be gone (left: ${pids.filter(alive)})`)
})

test('a CPU spinner: RESOURCE_LIMIT naming maxCpuSeconds and the CPU time used', { skip: !supported }, async () => {
  const r = await runLimited(runaway('for (;;) {}'), { maxCpuSeconds: 1 })
  assertEndedAtLimit(r, 'maxCpuSeconds')
  assert.match(r.error.message, /maxCpuSeconds \(1 s\)/)
  const used = Number(/used (\d+\.\d\d) s/.exec(r.error.message)[1])
  assert.ok(used >= 1 && used < 3, `stopped soon after the bound: ${used} s`)
  const [pid] = mockPids(r.log)
  await eventually(() => !alive(pid), 5000, `the CLI ${pid} to be gone`)
})

test('a query within its limits runs as any other, with no warning', { skip: !supported }, async () => {
  const { messages, error, warnings } = await runLimited(undefined, { maxMemoryMb: 4096, maxCpuSeconds: 600 })
  assert.equal(error, null)
  assert.deepEqual(messages.map((m) => m.type), ['system', 'assistant', 'result'])
  assert.deepEqual(warnings.map(String), [])
})

test('bad limits are refused naming the field', async () => {
  for (const [limits, re] of [
    [{ maxMemoryMb: -1 }, /resourceLimits\.maxMemoryMb must be a positive number of megabytes, got -1/],
    [{ maxMemoryMb: 0 }, /resourceLimits\.maxMemoryMb/],
    [{ maxMemoryMb: NaN }, /resourceLimits\.maxMemoryMb .*NaN/],
    [{ maxCpuSeconds: '10' }, /resourceLimits\.maxCpuSeconds .*string "10"/],
    [{ maxCpuSeconds: Infinity }, /resourceLimits\.maxCpuSeconds/],
    [{ maxMemory: 100 }, /unknown field `maxMemory`/],
    [7, /resourceLimits/],
  ]) {
    const { options } = mockOptions(undefined, { resourceLimits: limits })
    const { error } = await collect(query({ prompt: 'go', options }))
    assert.ok(error, `${JSON.stringify(limits)} is refused`)
    assert.equal(error.code, 'INVALID_OPTION', error.message)
    assert.match(error.message, re)
  }
})

test('limits with a process the app starts itself (spawnClaudeCodeProcess) are refused, not ignored', async () => {
  const { options } = mockOptions(undefined, {
    resourceLimits: { maxMemoryMb: 100 },
    spawnClaudeCodeProcess: () => { throw new Error('not reached') },
  })
  const { error } = await collect(query({ prompt: 'go', options }))
  assert.equal(error?.code, 'INVALID_OPTION', error?.message)
  assert.match(error.message, /resourceLimits cannot be enforced on a process started by spawnClaudeCodeProcess/)
})
