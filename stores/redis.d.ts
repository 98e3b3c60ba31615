// Typings of claude-agent-sdk-native/stores/redis.
import type { Redis } from 'ioredis'
import type { SessionStore } from '../index.js'

export type RedisSessionStoreOptions = {
  /** A configured ioredis client: the caller controls host, port, auth and TLS. */
  client: Redis
  /** Key prefix (e.g. `transcripts`); a trailing `:` is normalized. */
  prefix?: string
}

/** Every method of the SessionStore interface, none optional. */
export interface RedisSessionStore extends Required<SessionStore> {}
/** A SessionStore on Redis: lists per transcript; an append is one atomic script. */
export declare class RedisSessionStore {
  constructor(options: RedisSessionStoreOptions)
}
