// One measurement of the Codex benchmark, in a fresh process:
//   node bench/codex-driver.mjs <ours|official|floor> <turn|conc> <json args>
// args: { codex, env, config, cwd, warmup, turns, calls }. The scripted Responses API runs in
// the parent (bench/codex.mjs); a prompt `calls:N` makes it ask for N parallel calls of
// `bench.echo` when the request offers that tool, then answer text once their outputs are in.
//   ours     claude-agent-sdk-native/codex: one app-server for the thread, `bench` an in-process
//            createSdkMcpServer() server (zod shape), its calls answered through the engine
//   official @openai/codex-sdk: `codex exec` per turn, no tool (it has no in-process tools)
//   floor    no SDK: spawns `codex app-server`, JSON-RPC by hand (readline + JSON.parse per line,
//            JSON.stringify per answer), `item/tool/call` answered with the text back
// Prints one JSON line: per-turn times (ms) after `warmup` turns, the measured span, tool calls
// answered, the host's CPU (process.cpuUsage(), all threads) and codex's CPU (its children's
// utime+stime from /proc, Linux) over the measured turns.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const [sdkName, scenario, argsText] = process.argv.slice(2)
const args = JSON.parse(argsText)
const prompt = `calls:${scenario === 'conc' ? args.calls : 1}`
let toolCalls = 0

/** CPU ms of this process's children (the codex processes still running), from /proc. */
function childrenCpuMs() {
  if (process.platform !== 'linux') return NaN
  const tick = 100 // USER_HZ on Linux
  let ms = 0
  for (const tid of fs.readdirSync('/proc/self/task')) {
    let kids = ''
    try {
      kids = fs.readFileSync(`/proc/self/task/${tid}/children`, 'utf8')
    } catch {}
    for (const pid of kids.split(' ').filter(Boolean)) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        ms += ((Number(f[11]) + Number(f[12])) * 1000) / tick // utime, stime
      } catch {}
    }
  }
  return ms
}

/** Something with `turn()` (one turn of `prompt`, resolving when it completes) and `close()`. */
async function open() {
  if (sdkName === 'ours') {
    const { Codex } = await import(pathToFileURL(path.join(root, 'codex.mjs')).href)
    const { createSdkMcpServer, tool } = await import(pathToFileURL(path.join(root, 'index.mjs')).href)
    const { z } = await import('zod')
    const server = createSdkMcpServer({
      name: 'bench',
      version: '1.0.0',
      tools: [tool('echo', 'Returns the text', { text: z.string() }, async ({ text }) => (toolCalls++, { content: [{ type: 'text', text }] }))],
    })
    const thread = new Codex({ codexPathOverride: args.codex, env: args.env, config: args.config }).startThread({ workingDirectory: args.cwd, skipGitRepoCheck: true, mcpServers: { bench: server } })
    return {
      turn: async () => {
        const r = await thread.run(prompt)
        if (r.finalResponse !== 'done') throw new Error(`ours: unexpected final response ${JSON.stringify(r.finalResponse)}`)
      },
      close: () => thread.close(),
    }
  }
  if (sdkName === 'official') {
    const { Codex } = await import('@openai/codex-sdk')
    const thread = new Codex({ codexPathOverride: args.codex, env: args.env, config: args.config }).startThread({ workingDirectory: args.cwd, skipGitRepoCheck: true })
    return {
      turn: async () => {
        const r = await thread.run(prompt)
        if (r.finalResponse !== 'done') throw new Error(`official: unexpected final response ${JSON.stringify(r.finalResponse)}`)
      },
      close: () => {},
    }
  }
  if (sdkName === 'floor') return floor()
  throw new Error(`unknown SDK ${sdkName}; known: ours, official, floor`)
}

async function floor() {
  await import('zod') // the same app without an SDK still has its zod
  const child = spawn(args.codex, ['app-server'], { env: args.env, cwd: args.cwd, stdio: ['pipe', 'pipe', 'ignore'] })
  let nextId = 0
  const pending = new Map()
  let turnDone = null
  const send = (msg) => child.stdin.write(JSON.stringify(msg) + '\n')
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++nextId
      pending.set(id, { resolve, reject })
      send({ id, method, params })
    })
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line)
    if (msg.method && msg.id !== undefined) {
      if (msg.method === 'item/tool/call') {
        toolCalls++
        send({ id: msg.id, result: { contentItems: [{ type: 'inputText', text: String(msg.params.arguments?.text ?? '') }], success: true } })
      } else send({ id: msg.id, error: { code: -32601, message: `not handled: ${msg.method}` } })
    } else if (msg.method) {
      if (msg.method === 'turn/completed' && turnDone) turnDone(msg.params)
    } else {
      const p = pending.get(msg.id)
      pending.delete(msg.id)
      if (msg.error) p?.reject(new Error(JSON.stringify(msg.error)))
      else p?.resolve(msg.result)
    }
  })
  await request('initialize', { clientInfo: { name: 'bench-floor', title: null, version: '0' }, capabilities: { experimentalApi: true } })
  send({ method: 'initialized' })
  const started = await request('thread/start', {
    cwd: args.cwd,
    approvalPolicy: 'never',
    dynamicTools: [
      {
        type: 'namespace',
        name: 'bench',
        description: 'Tools of the bench',
        tools: [{ type: 'function', name: 'echo', description: 'Returns the text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }],
      },
    ],
  })
  const threadId = started.thread.id
  return {
    turn: async () => {
      const done = new Promise((r) => (turnDone = r))
      await request('turn/start', { threadId, input: [{ type: 'text', text: prompt, text_elements: [] }] })
      const params = await done
      if (params?.turn?.status && params.turn.status !== 'completed') throw new Error(`floor: turn ended ${params.turn.status}`)
    },
    close: () => child.stdin.end(),
  }
}

const client = await open()
for (let i = 0; i < args.warmup; i++) await client.turn()
const calls0 = toolCalls
const times = []
const cpu0 = process.cpuUsage()
const child0 = childrenCpuMs()
const t0 = process.hrtime.bigint()
for (let i = 0; i < args.turns; i++) {
  const t = process.hrtime.bigint()
  await client.turn()
  times.push(Number(process.hrtime.bigint() - t) / 1e6)
}
const spanMs = Number(process.hrtime.bigint() - t0) / 1e6
const cpu = process.cpuUsage(cpu0)
// For the official SDK each turn's process has exited by now, so its CPU is not seen here.
const codexCpuMs = sdkName === 'official' ? NaN : childrenCpuMs() - child0
await client.close()
console.log(JSON.stringify({ sdk: sdkName, scenario, times, span_ms: spanMs, tool_calls: toolCalls - calls0, host_cpu_ms: (cpu.user + cpu.system) / 1000, codex_cpu_ms: codexCpuMs }))
process.exit(0)
