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
// The interface adds the store's methods to the class below (a declaration has no fields to leave uninitialised).
// oxlint-disable-next-line typescript/no-unsafe-declaration-merging
export interface RedisSessionStore extends Required<SessionStore> {}
/** A SessionStore on Redis: lists per transcript; an append is one atomic script. */
export declare class RedisSessionStore {
  constructor(options: RedisSessionStoreOptions)
}
