// Listing, reading and changing past sessions, and copying one into a store.
import {
  archiveSession, deleteSession, foldSessionSummary, forkSession, getSessionInfo, getSessionMessages, getSubagentMessages,
  importSessionToStore, InMemorySessionStore, listSessions, listSubagents, renameSession, tagSession, unarchiveSession,
  type SDKSessionInfo, type SessionMessage, type SessionSummaryEntry,
} from '@anthropic-ai/claude-agent-sdk'

async function main(): Promise<void> {
  const sessions: SDKSessionInfo[] = await listSessions({ dir: process.cwd(), limit: 20, includeWorktrees: false, includeProgrammatic: false })
  const first = sessions[0]
  if (!first) return
  const info = await getSessionInfo(first.sessionId, { dir: process.cwd() })
  const title: string = info?.customTitle ?? info?.summary ?? ''
  const messages: SessionMessage[] = await getSessionMessages(first.sessionId, { limit: 10, offset: 0, includeSystemMessages: true })
  const lastUuid: string | undefined = messages.at(-1)?.uuid
  for (const agentId of await listSubagents(first.sessionId)) {
    const sub = await getSubagentMessages(first.sessionId, agentId, { limit: 5 })
    const parent: string | null = sub[0]?.parent_tool_use_id ?? null
    void parent
  }
  await renameSession(first.sessionId, `${title} (reviewed)`)
  await tagSession(first.sessionId, 'keep')
  await tagSession(first.sessionId, null)
  await archiveSession(first.sessionId)
  await unarchiveSession(first.sessionId, { dir: process.cwd() })
  const { sessionId } = await forkSession(first.sessionId, { upToMessageId: lastUuid, title: 'Branch' })
  const store = new InMemorySessionStore()
  await importSessionToStore(sessionId, store, { includeSubagents: true, batchSize: 100 })
  const stored = await listSessions({ sessionStore: store })
  const n: number = store.size + stored.length
  const summary: SessionSummaryEntry = foldSessionSummary(undefined, { projectKey: 'p', sessionId }, store.getEntries({ projectKey: 'p', sessionId }), { mtime: Date.now() })
  void n
  void summary
  await deleteSession(sessionId, { sessionStore: store })
  await deleteSession(first.sessionId)
}

void main()
