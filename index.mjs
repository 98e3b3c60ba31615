import api from './index.js'

export const { query, startup, tool, createSdkMcpServer, AbortError } = api
export const {
  listSessions, getSessionInfo, getSessionMessages, listSubagents, getSubagentMessages, renameSession, tagSession,
  archiveSession, unarchiveSession, deleteSession, forkSession, importSessionToStore, InMemorySessionStore, foldSessionSummary,
} = api
export default api
