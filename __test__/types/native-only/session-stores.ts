// The ./stores/* subpaths and the conformance kit, as an app imports them.
import { Redis } from 'ioredis'
import { S3Client } from '@aws-sdk/client-s3'
import { PostgresSessionStore, type PgPoolLike } from 'claude-agent-sdk-native/stores/postgres'
import { RedisSessionStore } from 'claude-agent-sdk-native/stores/redis'
import { S3SessionStore } from 'claude-agent-sdk-native/stores/s3'
import { runSessionStoreConformance, sessionStoreContracts } from 'claude-agent-sdk-native/testing'
import { query, type SessionStore } from 'claude-agent-sdk-native'

declare const pool: PgPoolLike

export async function useStores(): Promise<unknown[]> {
  const postgres = new PostgresSessionStore({ pool, tableName: 'sessions' })
  await postgres.ensureSchema()
  const redis = new RedisSessionStore({ client: new Redis(), prefix: 'transcripts' })
  const s3 = new S3SessionStore({ bucket: 'b', prefix: 'p', client: new S3Client({ forcePathStyle: true }) })
  await s3.ensureBucket()
  const stores: SessionStore[] = [postgres, redis, s3]
  const entries = await postgres.load({ projectKey: 'p', sessionId: 's' })
  const summaries = await redis.listSessionSummaries('p')
  runSessionStoreConformance(async () => redis, { idempotent: true, makeUnreachableStore: () => s3, timeout: 1000 })
  const names: string[] = sessionStoreContracts.map((c) => c.name)
  // @ts-expect-error: the bucket is required
  new S3SessionStore({ client: new S3Client({}) })
  return [stores, entries?.[0]?.type, summaries[0]?.mtime, names, query({ prompt: 'x', options: { sessionStore: postgres } })]
}
