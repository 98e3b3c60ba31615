// A custom SessionStore keeping transcripts in memory (shape check of the interface).
import { query, type SessionKey, type SessionStore, type SessionStoreEntry } from '@anthropic-ai/claude-agent-sdk'

class MapStore implements SessionStore {
  private entries = new Map<string, SessionStoreEntry[]>()
  private key(k: SessionKey): string {
    return `${k.projectKey}/${k.sessionId}/${k.subpath ?? ''}`
  }
  async append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void> {
    this.entries.set(this.key(key), [...(this.entries.get(this.key(key)) ?? []), ...entries])
  }
  async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    return this.entries.get(this.key(key)) ?? null
  }
  async listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>> {
    return [...this.entries.keys()].filter((k) => k.startsWith(`${projectKey}/`)).map((k) => ({ sessionId: k.split('/')[1] ?? '', mtime: Date.now() }))
  }
}

for await (const m of query({ prompt: 'Remember this', options: { sessionStore: new MapStore(), sessionStoreFlush: 'eager' } })) void m
