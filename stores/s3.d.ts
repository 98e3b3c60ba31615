// Typings of claude-agent-sdk-native/stores/s3.
import type { S3Client } from '@aws-sdk/client-s3'
import type { SessionStore } from '../index.js'

export type S3SessionStoreOptions = {
  /** Bucket name. */
  bucket: string
  /** Key prefix (e.g. `transcripts`); a trailing `/` is normalized. */
  prefix?: string
  /** A configured S3Client (region, credentials; `endpoint` and `forcePathStyle: true` for an S3-compatible server). */
  client: S3Client
}

/** Every method of the SessionStore interface, none optional. */
// The interface adds the store's methods to the class below (a declaration has no fields to leave uninitialised).
// oxlint-disable-next-line typescript/no-unsafe-declaration-merging
export interface S3SessionStore extends Required<SessionStore> {}
/** A SessionStore on S3 or any S3-compatible store: one object per append. */
export declare class S3SessionStore {
  constructor(options: S3SessionStoreOptions)
  /** Creates the bucket if it does not exist (idempotent). */
  ensureBucket(): Promise<void>
}
