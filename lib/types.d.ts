// Types the JSDoc of lib/ names (no runtime code; checked by `tsc -p jsconfig.json`). The public
// typings are types/*.d.ts; these are the shapes the front passes around inside.
import type { ChildProcess } from 'node:child_process'
import type { Options } from '../types/options'

/** What an app's callback may return: a value or a promise of one. */
export type MaybePromise<T> = T | PromiseLike<T>

/**
 * A query's options as lib/ reads them: the official Options, plus the keys the official SDK
 * reads though its Options type does not name them (see lib/option-keys.js, OFFICIAL_UNTYPED).
 */
export type QueryOptions = Options & {
  getOAuthToken?: (request: { signal: AbortSignal; onDecline: (reason: string) => void; kind?: unknown; tokenState?: string; refusedCall?: string; refusedBearerSha256?: string[] }) => MaybePromise<string | null | undefined>
  getHostAuthToken?: (request: { signal: AbortSignal; status?: unknown; tokenState?: string }) => MaybePromise<unknown>
  onProcessSpawned?: (pid: number, info: { spawnSyncMs: number }) => unknown
  onProcessExit?: (code: number | null) => unknown
  hostSpawn?: (command: string, args: string[], options: { cwd?: string; stdio: ['pipe', 'pipe', 'pipe']; signal: AbortSignal; env: Record<string, string | undefined>; windowsHide: true }) => ChildProcess
  workload?: string
  initializeTimeoutMs?: number
  workspaceTrust?: unknown
  managedSettingsDelivery?: 'argv' | 'initialize'
  settingsDelivery?: 'argv' | 'initialize'
  disallowedToolsDelivery?: 'argv' | 'initialize'
}

/** The options' plain data as it crosses to the engine (JSON), keyed by option name. */
export type EngineOptionData = Record<string, unknown> & {
  env?: Record<string, string | undefined>
  extraArgs?: Record<string, string | null>
  mcpServers?: Record<string, unknown>
  agents?: unknown
  hooks?: Record<string, Array<{ matcher?: string; hookCallbackIds: string[]; timeout?: number }>>
  workspaceTrust?: unknown
}

/** What spawnClaudeCodeProcess (or hostSpawn through lib/host-spawn.js) is called with. */
export type SpawnRequest = { command: string; args: string[]; cwd?: string; env: Record<string, string | undefined>; signal: AbortSignal }

/** The process an app's spawner returns: a ChildProcess, or anything with its streams and events. */
export type SpawnedProcess = Pick<ChildProcess, 'pid' | 'stdin' | 'stdout' | 'stderr' | 'on' | 'once' | 'exitCode' | 'killed' | 'kill'>

/** The native engine (native/binding.d.ts, which napi-rs generates from src/*.rs at build). */
export type NativeBinding = typeof import('../native/binding')
/** One CLI session the engine owns (startSession()). */
export type EngineSession = import('../native/binding').NativeSession
