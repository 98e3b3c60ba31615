// The official TypeScript SDK's `{ sessionStore }` session functions, importSessionToStore and
// foldSessionSummary, for the Rust SDK's side-by-side test (tests/stored.rs).
//   node official-store.mjs build <configDir> <workRoot>  → { ids, big } (a generated corpus)
//   node official-store.mjs run <configDir> <plan JSON>    → what each step returned
// The store is deterministic (its clock is a counter, one tick per append) and records every
// append, so both sides' stores can be compared call for call; tests/stored.rs has its twin.
import path from 'node:path'
import { pathToFileURL, fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const [mode, configDir, arg] = process.argv.slice(2)
process.env.CLAUDE_CONFIG_DIR = configDir
if (mode === 'build') {
  const { buildCorpus } = await import(pathToFileURL(path.join(root, '__test__/helpers/session-corpus.mjs')).href)
  // One transcript over 1 MiB (an import's batch ends there), the rest small.
  const corpus = buildCorpus(configDir, { root: arg, sessions: 14, bigCount: 1, bigLines: 600, bigPad: 9000 })
  const big = corpus.big[0].id
  // Entries the summary fold reads that the generator does not write.
  const extra = [
    { type: 'summary', summary: 'A summary line', leafUuid: 'x' },
    { type: 'last-prompt', lastPrompt: 'the last prompt' },
    { type: 'relocated', relocatedCwd: '/relocated/here' },
    { type: 'tag', tag: '' },
  ]
  const fs = await import('node:fs')
  corpus.sessions.slice(6, 6 + extra.length).forEach((s, i) => fs.appendFileSync(s.file, JSON.stringify({ ...extra[i], sessionId: s.id }) + '\n'))
  process.stdout.write(JSON.stringify({ ids: corpus.sessions.map((s) => s.id).filter((id) => id !== big), big }))
  process.exit(0)
}
const sdk = await import(pathToFileURL(path.join(root, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs')).href)
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))
const plan = JSON.parse(arg)

class CountingStore {
  entries = new Map()
  mtimes = new Map()
  summaries = new Map()
  tick = 1000
  calls = []
  k(key) {
    return [key.projectKey, key.sessionId, ...(key.subpath ? [key.subpath] : [])].join('/')
  }
  async append(key, entries) {
    this.calls.push([key.sessionId, key.subpath ?? null, entries.length])
    const k = this.k(key)
    this.entries.set(k, [...(this.entries.get(k) ?? []), ...structuredClone(entries)])
    this.tick += 1
    this.mtimes.set(k, this.tick)
    if (!key.subpath) this.summaries.set(k, sdk.foldSessionSummary(this.summaries.get(k), key, entries, { mtime: this.tick }))
  }
  async load(key) {
    return this.entries.get(this.k(key)) ?? null
  }
  async listSessions(projectKey) {
    const out = []
    for (const k of this.entries.keys()) {
      const [p, id, ...rest] = k.split('/')
      if (p === projectKey && rest.length === 0) out.push({ sessionId: id, mtime: this.mtimes.get(k) })
    }
    return out
  }
  async listSessionSummaries(projectKey) {
    return [...this.summaries.entries()].filter(([k]) => k.startsWith(projectKey + '/')).map(([, v]) => v)
  }
  async listSubkeys(key) {
    const prefix = `${key.projectKey}/${key.sessionId}/`
    return [...this.entries.keys()].filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length))
  }
  async delete(key) {
    const k = this.k(key)
    for (const m of [this.entries, this.mtimes, this.summaries]) {
      for (const x of [...m.keys()]) if (x === k || (!key.subpath && x.startsWith(k + '/'))) m.delete(x)
    }
  }
}

const error = async (f) => {
  try {
    await f()
    return null
  } catch (e) {
    return e.message
  }
}

const store = new CountingStore()
const out = { imported: [], sessions: {} }
for (const id of plan.ids) {
  out.imported.push(await error(() => sdk.importSessionToStore(id, store, { batchSize: plan.batchSize })))
}
out.importedBig = await error(() => sdk.importSessionToStore(plan.big, store, { includeSubagents: false }))
out.calls = store.calls.slice()
// Listings: from the summaries; the same store without them (a load per session); a page.
const sessionStore = store
const plain = { append: (k, e) => store.append(k, e), load: (k) => store.load(k), listSessions: (p) => store.listSessions(p) }
out.list = await sdk.listSessions({ sessionStore })
out.listPage = await sdk.listSessions({ sessionStore, limit: 3, offset: 2 })
out.listPlain = await sdk.listSessions({ sessionStore: plain })
out.listPlainPage = await sdk.listSessions({ sessionStore: plain, limit: 4, offset: 1 })
out.summaries = await store.listSessionSummaries(plan.projectKey)
for (const id of plan.ids) {
  const agents = await sdk.listSubagents(id, { sessionStore })
  out.sessions[id] = {
    info: await sdk.getSessionInfo(id, { sessionStore }),
    messages: await sdk.getSessionMessages(id, { sessionStore }),
    system: await sdk.getSessionMessages(id, { sessionStore, includeSystemMessages: true, limit: 5, offset: 1 }),
    agents,
    agentMessages: await Promise.all(agents.map((a) => sdk.getSubagentMessages(id, a, { sessionStore }))),
    agentPlain: await Promise.all(agents.map((a) => sdk.getSubagentMessages(id, a, { sessionStore: plain, limit: 2 }))),
    // The whole session folded at once, from its stored entries.
    folded: sdk.foldSessionSummary(undefined, { projectKey: plan.projectKey, sessionId: id }, (await store.load({ projectKey: plan.projectKey, sessionId: id })) ?? [], { mtime: 1 }),
  }
}
// Changes: a title, a tag, a tag cleared, a fork, a delete; then the listings again.
await sdk.renameSession(plan.ids[0], '  Stored title ', { sessionStore })
await sdk.tagSession(plan.ids[1], 'ｔａｇ\u200B two', { sessionStore })
await sdk.tagSession(plan.ids[2], 'gone', { sessionStore })
await sdk.tagSession(plan.ids[2], null, { sessionStore })
const fork = await sdk.forkSession(plan.ids[3], { sessionStore, title: 'Forked' })
out.forkMessages = (await sdk.getSessionMessages(fork.sessionId, { sessionStore })).map((m) => [m.type, m.message?.content])
await sdk.deleteSession(plan.ids[4], { sessionStore })
await sdk.deleteSession(plan.ids[5], { sessionStore: plain }) // no delete: nothing happens
out.fork = fork.sessionId
out.after = await sdk.listSessions({ sessionStore })
out.afterPlain = await sdk.listSessions({ sessionStore: plain })
// Bad input and stores that lack a method.
out.errors = {
  listNone: await error(() => sdk.listSessions({ sessionStore: { append: plain.append, load: plain.load } })),
  subagentsNone: await error(() => sdk.listSubagents(plan.ids[0], { sessionStore: plain })),
  forkMissing: await error(() => sdk.forkSession('00000000-0000-4000-8000-000000000000', { sessionStore })),
  importMissing: await error(() => sdk.importSessionToStore('00000000-0000-4000-8000-000000000000', store)),
  importBad: await error(() => sdk.importSessionToStore('../x', store)),
  renameEmpty: await error(() => sdk.renameSession(plan.ids[0], '  ', { sessionStore })),
  infoBad: (await sdk.getSessionInfo('../x', { sessionStore })) ?? null,
  messagesUnknown: await sdk.getSessionMessages('00000000-0000-4000-8000-000000000000', { sessionStore }),
}
process.stdout.write(JSON.stringify(norm(out)))
