// Typings of claude-agent-sdk-native/stores/postgres.
import type { SessionStore } from '../index.js'

/** What PostgresSessionStore uses of a `pg` Pool (a `pg.Pool` is one). */
export interface PgPoolLike {
  query(text: string | { text: string; values?: unknown[]; rowMode?: 'array' }, values?: unknown[]): Promise<{ rows: any[] }>
  connect(): Promise<{ query(text: string, values?: unknown[]): Promise<{ rows: any[] }>; release(destroy?: boolean | Error): void }>
}

export type PostgresSessionStoreOptions = {
  /** A configured pg Pool: the caller controls connection parameters, pooling and TLS. */
  pool: PgPoolLike
  /** Table name (letters, digits, `_`; at most 40 characters). Default `claude_session_entries`; summaries go to `<table>_summaries`. */
  tableName?: string
}

/** Every method of the SessionStore interface, none optional. */
// The interface adds the store's methods to the class below (a declaration has no fields to leave uninitialised).
// oxlint-disable-next-line typescript/no-unsafe-declaration-merging
export interface PostgresSessionStore extends Required<SessionStore> {}
/** A SessionStore on PostgreSQL: one row per entry; an append is all or nothing. */
export declare class PostgresSessionStore {
  constructor(options: PostgresSessionStoreOptions)
  /** Creates the tables and indexes if absent (idempotent; safe from many processes at once). */
  ensureSchema(): Promise<void>
}
