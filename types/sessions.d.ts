// Session functions: reading, changing and storing Claude Code session transcripts
// (`listSessions`, `getSessionMessages`, `forkSession`, ... and `InMemorySessionStore`), with the
// official declarations' shapes.
import type { SessionKey, SessionStore, SessionStoreEntry, SessionSummaryEntry } from './options.js'

/** Session metadata returned by listSessions and getSessionInfo. */
export type SDKSessionInfo = {
  /** Unique session identifier (UUID). */
  sessionId: string
  /** Display title for the session: custom title, auto-generated summary, or first prompt. */
  summary: string
  /** Last modified time in integer milliseconds since epoch. */
  lastModified: number
  /** File size in bytes. Only populated for local JSONL storage. */
  fileSize?: number
  /** User-set session title via /rename. */
  customTitle?: string
  /** First meaningful user prompt in the session. */
  firstPrompt?: string
  /** Git branch at the end of the session. */
  gitBranch?: string
  /** Working directory for the session. */
  cwd?: string
  /** User-set session tag. */
  tag?: string
  /** Creation time in integer milliseconds since epoch, extracted from the first entry's timestamp. */
  createdAt?: number
  /** Whether the session is archived: false if it was and has been unarchived, or a prompt was sent in it since. Absent if it never was, and with a sessionStore. */
  archived?: boolean
}

/** A message of a stored session, as returned by `getSessionMessages`. */
export type SessionMessage = {
  type: 'user' | 'assistant' | 'system'
  uuid: string
  session_id: string
  message: unknown
  parent_tool_use_id: string | null
  /** agentId of the subagent that spawned this subagent, or null. */
  parent_agent_id: string | null
}

export type ListSessionsOptions = {
  /** Project directory: only its sessions (and its git worktrees'). Default: all projects. */
  dir?: string
  limit?: number
  offset?: number
  /** With `dir`: include sessions of the repository's other git worktrees. Default true. */
  includeWorktrees?: boolean
  /** Include sessions started by an SDK (entrypoint sdk-*) or a daemon. Default true. */
  includeProgrammatic?: boolean
  /** List from this store instead of local files (needs `store.listSessions`). */
  sessionStore?: SessionStore
}

export type GetSessionInfoOptions = {
  /** Project directory path (same semantics as `listSessions({ dir })`). */
  dir?: string
  sessionStore?: SessionStore
}

export type GetSessionMessagesOptions = {
  dir?: string
  limit?: number
  offset?: number
  /** Include system messages (compaction boundaries, ...). Default false. */
  includeSystemMessages?: boolean
  sessionStore?: SessionStore
}

export type ListSubagentsOptions = {
  dir?: string
  sessionStore?: SessionStore
}

export type GetSubagentMessagesOptions = {
  dir?: string
  limit?: number
  offset?: number
  sessionStore?: SessionStore
}

/** Options shared by renameSession, tagSession, archiveSession, unarchiveSession, deleteSession, forkSession. */
export type SessionMutationOptions = {
  /** Project directory path (same semantics as `listSessions({ dir })`). */
  dir?: string
  /** Read/write via this store instead of local files. archiveSession and unarchiveSession reject it. */
  sessionStore?: SessionStore
}

export type ForkSessionOptions = SessionMutationOptions & {
  /** Fork up to and including this message (a SessionMessage uuid). */
  upToMessageId?: string
  /** Title of the fork. Default: "<original title> (fork)". */
  title?: string
}

export type ForkSessionResult = {
  sessionId: string
}

export type ImportSessionToStoreOptions = {
  dir?: string
  /** Also import subagent transcripts. Default true. */
  includeSubagents?: boolean
  /** Entries per `store.append()` call. Default 500. */
  batchSize?: number
}

/** Sessions, newest first: from the first and last 64 KiB of each transcript. */
export declare function listSessions(_options?: ListSessionsOptions): Promise<SDKSessionInfo[]>
/** One session's metadata, or undefined when there is no such session. */
export declare function getSessionInfo(_sessionId: string, _options?: GetSessionInfoOptions): Promise<SDKSessionInfo | undefined>
/** The messages of a session's conversation (the chain from its last entry). */
export declare function getSessionMessages(_sessionId: string, _options?: GetSessionMessagesOptions): Promise<SessionMessage[]>
/** The agent ids of a session's subagents. */
export declare function listSubagents(_sessionId: string, _options?: ListSubagentsOptions): Promise<string[]>
/** The messages of one subagent's conversation. */
export declare function getSubagentMessages(_sessionId: string, _agentId: string, _options?: GetSubagentMessagesOptions): Promise<SessionMessage[]>
/** Sets a session's title (appends a custom-title entry). */
export declare function renameSession(_sessionId: string, _title: string, _options?: SessionMutationOptions): Promise<void>
/** Sets (or, with null, clears) a session's tag. */
export declare function tagSession(_sessionId: string, _tag: string | null, _options?: SessionMutationOptions): Promise<void>
/** Archives a session: it stays on disk and listed, with `archived: true`. */
export declare function archiveSession(_sessionId: string, _options?: SessionMutationOptions): Promise<void>
/** Unarchives a session. */
export declare function unarchiveSession(_sessionId: string, _options?: SessionMutationOptions): Promise<void>
/** Deletes a session's transcript and its folder (subagents). */
export declare function deleteSession(_sessionId: string, _options?: SessionMutationOptions): Promise<void>
/** Copies a session under a new id, every uuid remapped. */
export declare function forkSession(_sessionId: string, _options?: ForkSessionOptions): Promise<ForkSessionResult>
/** Copies a local session (and its subagents) into a SessionStore. */
export declare function importSessionToStore(_sessionId: string, _store: SessionStore, _options?: ImportSessionToStoreOptions): Promise<void>
/** Folds appended entries into a session's summary (for a store's `listSessionSummaries`). */
export declare function foldSessionSummary(prev: SessionSummaryEntry | undefined, key: SessionKey, entries: SessionStoreEntry[], options?: {
  mtime?: number
}): SessionSummaryEntry

/** In-memory SessionStore, for tests and development. */
export declare class InMemorySessionStore implements SessionStore {
  private store
  private mtimes
  private summaries
  private lastMtime
  private keyToString
  private keyParts
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void>
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>
  listSessions(projectKey: string): Promise<Array<{
    sessionId: string
    mtime: number
  }>>
  listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]>
  delete(key: SessionKey): Promise<void>
  listSubkeys(key: {
    projectKey: string
    sessionId: string
  }): Promise<string[]>
  /** Test helper -- get all entries for a key */
  getEntries(key: SessionKey): SessionStoreEntry[]
  /** Test helper -- number of stored sessions (main transcripts only) */
  get size(): number
  /** Test helper -- clear all stored data */
  clear(): void
}
