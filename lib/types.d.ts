// Types the JSDoc of lib/ names (no runtime code; checked by `tsc -p jsconfig.json`). The public
// typings are types/*.d.ts; these are the shapes the front passes around inside.
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
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
  hostSpawn?: (command: string, args: string[], options: { cwd?: string; stdio: ['pipe', 'pipe', 'pipe']; signal: AbortSignal; env: Record<string, string | undefined>; windowsHide: true }) => ChildProcessWithoutNullStreams
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
export type SpawnRequest = import('../types/options').SpawnOptions

/** The process an app's spawner returns (a ChildProcess fits). */
export type SpawnedProcess = import('../types/options').SpawnedProcess

/** The native engine (native/binding.d.ts, which napi-rs generates from src/*.rs at build). */
export type NativeBinding = typeof import('../native/binding')
/** One CLI session the engine owns (startSession()). */
export type EngineSession = import('../native/binding').NativeSession

/**
 * A message of the engine's stream as lib/ reads it (parsed JSON, one SDKMessage of
 * types/messages.d.ts): its kind, and the fields the front looks at.
 */
export type EngineMessage = {
  type: string
  subtype?: string
  /** A result's: whether the turn failed, its text, and its errors. */
  is_error?: boolean
  result?: string
  errors?: unknown[]
  /** A commands_changed frame's commands. */
  commands?: unknown[]
  [key: string]: unknown
}

/** A query's prompt: the text, or the stream of user messages. */
export type Prompt = string | AsyncIterable<import('../types/messages').SDKUserMessage>

/** A control request's body (its `subtype` and fields), sent as JSON. */
export type ControlRequest = { subtype: string; [key: string]: unknown }
