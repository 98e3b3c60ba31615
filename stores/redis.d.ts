// Typings of claude-agent-sdk-native/stores/redis.
import type { Redis } from 'ioredis'
import type { SessionKey, SessionStore, SessionStoreEntry, SessionSummaryEntry } from '../index.js'

export type RedisSessionStoreOptions = {
  /** A configured ioredis client: the caller controls host, port, auth and TLS. */
  client: Redis
  /** Key prefix (e.g. `transcripts`); a trailing `:` is normalized. */
  prefix?: string
}

/** A SessionStore on Redis: lists per transcript; an append is one atomic script. */
export declare class RedisSessionStore implements SessionStore {
  constructor(options: RedisSessionStoreOptions)
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void>
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>
  listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>>
  listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]>
  delete(key: SessionKey): Promise<void>
  listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]>
}
