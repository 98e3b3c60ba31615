// The official TypeScript SDK's session functions on a generated corpus, for the Rust SDK's
// side-by-side test (tests/sessions.rs).
//   node official-sessions.mjs build <configDir> <workRoot>   → { projectPaths, ids, withSubagents }
//   node official-sessions.mjs read <configDir> <plan JSON>    → what the plan's reads return
//   node official-sessions.mjs mutate <configDir> <plan JSON>  → applies the plan's changes
import path from 'node:path'
import { pathToFileURL, fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..')
const [mode, configDir, arg] = process.argv.slice(2)
process.env.CLAUDE_CONFIG_DIR = configDir
const sdk = await import(pathToFileURL(path.join(root, 'node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs')).href)
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))

if (mode === 'build') {
  const { buildCorpus } = await import(pathToFileURL(path.join(root, '__test__/helpers/session-corpus.mjs')).href)
  const corpus = buildCorpus(configDir, { root: arg, sessions: 18, bigCount: 1, bigLines: 300 })
  const ids = corpus.sessions.map((s) => s.id ?? s.sessionId).filter(Boolean)
  process.stdout.write(JSON.stringify({ projectPaths: corpus.projectPaths, ids }))
} else if (mode === 'read') {
  const plan = JSON.parse(arg)
  const out = {
    all: await sdk.listSessions(),
    page: await sdk.listSessions({ limit: 5, offset: 2 }),
    programmatic: await sdk.listSessions({ includeProgrammatic: true }),
    project: await sdk.listSessions({ dir: plan.dir }),
    sessions: {},
  }
  for (const id of plan.ids) {
    const agents = await sdk.listSubagents(id)
    out.sessions[id] = {
      info: await sdk.getSessionInfo(id),
      messages: await sdk.getSessionMessages(id),
      system: await sdk.getSessionMessages(id, { includeSystemMessages: true, limit: 7, offset: 1 }),
      agents,
      agentMessages: await Promise.all(agents.map((a) => sdk.getSubagentMessages(id, a))),
    }
  }
  process.stdout.write(JSON.stringify(norm(out)))
} else if (mode === 'mutate') {
  const plan = JSON.parse(arg)
  await sdk.renameSession(plan.rename, '  A new title  ')
  await sdk.tagSession(plan.tag, 'ｔａｇ\u200B one')
  await sdk.tagSession(plan.untag, null)
  await sdk.archiveSession(plan.archive)
  await sdk.deleteSession(plan.delete)
  const forked = await sdk.forkSession(plan.fork, { title: 'Forked' })
  process.stdout.write(JSON.stringify({ forked: forked.sessionId }))
}
