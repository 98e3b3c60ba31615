// Types for claude-agent-sdk-native/testing — a scripted fake Anthropic Messages API.

/** A content block the fake model can answer with. */
export type ScriptedContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input?: unknown; id?: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | ({ type: string } & Record<string, unknown>)

/** One model response. A bare string is shorthand for `{ text }`. */
export interface ResponseSpec {
  /** One text block (emitted after `thinking`, before `toolUses`). */
  text?: string
  /** One thinking block (emitted first). */
  thinking?: string
  /** tool_use blocks; several entries = parallel tool calls in one turn. `id` defaults to a unique id. */
  toolUses?: Array<{ name: string; input?: unknown; id?: string }>
  /** Full content, used instead of text/thinking/toolUses. */
  content?: Array<ScriptedContentBlock | string>
  /** Default: `'tool_use'` if a tool_use block is present, else `'end_turn'`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | (string & {})
  /** Merged into the default usage `{ input_tokens: 10, output_tokens: ≈chars/4, cache_*: 0 }`. */
  usage?: Record<string, unknown>
  /** Model name in the response; default: the requested model. */
  model?: string
  /** Overrides the server-wide `delayMs` for this response. */
  delayMs?: number
  /** Answer with an HTTP error instead (default status 500, type 'api_error'). The CLI retries 429/5xx/529. */
  error?: { status?: number; type?: string; message?: string }
}

/** Parsed JSON body of a `POST /v1/messages` request. */
export type MessagesRequest = {
  model: string
  messages: Array<{ role: 'user' | 'assistant' | 'system' | (string & {}); content: string | Array<any> }>
  system?: string | Array<{ type: 'text'; text: string; [k: string]: unknown }>
  tools?: Array<{ name: string; [k: string]: unknown }>
  stream?: boolean
  max_tokens?: number
  [k: string]: unknown
}

export interface TurnInfo {
  /** 0-based index of the agent turn; -1 for side queries. */
  index: number
  kind: 'turn' | 'side'
  /** True when the script was exhausted and `fallback` answers. */
  fallback?: boolean
}

export type ScriptEntry =
  | ResponseSpec
  | string
  | ((request: MessagesRequest, info: TurnInfo) => ResponseSpec | string | Promise<ResponseSpec | string>)

export interface ScriptedModelOptions {
  /** Consumed in order, one per agent turn (see `isAgentTurn`). */
  turns?: ScriptEntry[]
  /** Answer once the script is exhausted. Default `{ text: 'done' }`. */
  fallback?: ScriptEntry
  /** Answer to side queries (requests that are not agent turns). Default `{ text: 'ok' }`. */
  sideQuery?: ScriptEntry
  /** Overrides the agent-turn rule. */
  isTurn?: (body: MessagesRequest, req: { method: string; url: string; headers: Record<string, unknown> }) => boolean
  /** Delay before answering each /v1/messages request, ms. Default 0. */
  delayMs?: number
  /** Delay between SSE events, ms. Default 0. */
  chunkDelayMs?: number
  /** Split text / tool-input JSON deltas into pieces of this many characters. Default: one delta per block. */
  textChunkSize?: number
  /** Log each request (`true` = console.error). */
  log?: boolean | ((line: string) => void)
}

export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string | string[] | undefined>
  body: unknown
  kind: 'turn' | 'side' | 'count_tokens' | 'probe' | 'other'
}

export interface ScriptedModel {
  /** e.g. `http://127.0.0.1:43123` */
  readonly url: string
  readonly port: number
  /** Parsed bodies of agent-turn requests, in order. */
  readonly requests: MessagesRequest[]
  /** Parsed bodies of side-query requests. */
  readonly sideRequests: MessagesRequest[]
  /** Every HTTP request received. */
  readonly allRequests: RecordedRequest[]
  /** Errors thrown by turn functions (each answered with HTTP 400). */
  readonly errors: unknown[]
  /** Agent turns answered so far. */
  readonly turnCount: number
  /** Script entries not consumed yet. */
  readonly remainingTurns: number
  addTurns(...entries: ScriptEntry[]): void
  /**
   * Env for the CLI: `process.env` minus ANTHROPIC_*, CLAUDE_*, CLAUDECODE, NODE_OPTIONS, DEBUG; plus
   * ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY=sk-test, DISABLE_TELEMETRY=1,
   * CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, ENABLE_TOOL_SEARCH=false, fresh temp HOME (+USERPROFILE) and
   * CLAUDE_CONFIG_DIR; then `extra` (`undefined` values delete).
   */
  env(extra?: Record<string, string | undefined>): Record<string, string>
  /** A temp dir (e.g. for `cwd`), removed by `close()`. */
  tempDir(prefix?: string): string
  close(): Promise<void>
}

export function startScriptedModel(options?: ScriptedModelOptions): Promise<ScriptedModel>

export type ToolResultBlock = { type: 'tool_result'; tool_use_id: string; content?: string | Array<any>; is_error?: boolean }

/** tool_result blocks of the last `user` message. */
export function toolResults(request: MessagesRequest): ToolResultBlock[]
/** Last tool_result block of the last `user` message. */
export function lastToolResult(request: MessagesRequest): ToolResultBlock | undefined
/** Text of a tool_result block (or its content), `<system-reminder>` sections stripped. */
export function toolResultText(blockOrContent: ToolResultBlock | string | Array<any> | undefined): string
/** Text of the latest user message having non-reminder text (reminders stripped), '' if none. */
export function lastUserText(request: MessagesRequest): string
/** The system prompt joined into one string. */
export function systemText(request: MessagesRequest): string
/** Names of the offered tools. */
export function toolNames(request: MessagesRequest): string[]
/** The default agent-turn rule. */
export function isAgentTurn(body: MessagesRequest): boolean
/** Removes `<system-reminder>…</system-reminder>` sections and trims. */
export function stripReminders(text: string): string
/** User-message substrings that mark forked side agents. */
export const SIDE_AGENT_MARKERS: string[]

import type { SessionStore } from '../index.js'

export interface SessionStoreConformanceOptions {
  /** The test function to register with (node:test's, bun:test's or vitest's); found when not given. */
  test?: (...args: any[]) => unknown
  /** Same as `test`. */
  it?: (...args: any[]) => unknown
  /** Wraps the contracts in `describe(name, ...)`; `false` for no block. */
  describe?: ((name: string, fn: () => void) => unknown) | false
  /** Name of the describe block. Default 'SessionStore conformance'. */
  name?: string
  /** Milliseconds per contract. Default 60000. */
  timeout?: number
  /** The store stores an entry whose `uuid` it already holds (for that key) only once. */
  idempotent?: boolean
  /** A store whose backend cannot be reached: every call must reject. */
  makeUnreachableStore?: () => SessionStore | Promise<SessionStore>
}

/**
 * Registers one test per SessionStore contract (the official repository's 13, then hostile ids,
 * unicode, huge entries, concurrency, summaries, mtimes, shapes, idempotency, an unreachable
 * backend). `makeStore` must return a fresh, empty, isolated store on every call.
 */
export function runSessionStoreConformance(makeStore: () => SessionStore | Promise<SessionStore>, options?: SessionStoreConformanceOptions): void
/** The contracts, in order (the official 13 first); `requires` names an optional method or option. */
export const sessionStoreContracts: ReadonlyArray<{ name: string; requires: string | null }>
// ---------------------------------------------------------------------------
// The scripted OpenAI Responses API, for the real Codex binary (testing/responses.js)
// ---------------------------------------------------------------------------

/** One function call the fake model makes; `namespace` for a dynamic-tool namespace (an in-process MCP server). */
export interface ScriptedFunctionCall {
  name: string
  namespace?: string
  /** An object (serialized) or the raw arguments string. */
  arguments?: unknown
  callId?: string
}

/** One model response. A bare string is shorthand for `{ text }`. */
export interface ResponsesSpec {
  /** A reasoning item with this summary (first). */
  reasoning?: string
  /** An assistant message. */
  text?: string
  /** function_call items; several = parallel calls in one response. */
  functionCalls?: ScriptedFunctionCall[]
  /** Raw output items, used instead of the above. */
  output?: Array<Record<string, unknown>>
  /** Merged into the default usage (10 in, 5 out). */
  usage?: Record<string, unknown>
  delayMs?: number
  /** Answer with an HTTP error instead (default 500). */
  error?: { status?: number; type?: string; code?: string; message?: string }
}

/** Parsed body of a `POST /v1/responses` request. */
export type ResponsesRequest = { model: string; input: Array<Record<string, any>>; tools?: Array<Record<string, any>>; [k: string]: unknown }

export interface ScriptedResponsesOptions {
  /** One entry per request, in order; a function gets the request (and its index). */
  turns?: Array<ResponsesSpec | string | ((request: ResponsesRequest, info: { index: number; fallback: boolean }) => ResponsesSpec | string | Promise<ResponsesSpec | string>)>
  /** Past the script's end. Default `{ text: 'ok' }`. */
  fallback?: ResponsesSpec | string | ((request: ResponsesRequest, info: { index: number; fallback: boolean }) => ResponsesSpec | string | Promise<ResponsesSpec | string>)
  delayMs?: number
  /** The model name (default `gpt-5.5`, one Codex knows). */
  model?: string
  port?: number
}

export interface ScriptedResponses {
  port: number
  /** `http://127.0.0.1:PORT/v1`. */
  url: string
  requests: ResponsesRequest[]
  readonly turnCount: number
  /** The provider settings as a nested object (`@openai/codex-sdk`'s and our `config` option). */
  config(): { [key: string]: any }
  /** The same settings as `config.toml` text. */
  configToml(): string
  /** A temporary CODEX_HOME holding config.toml (removed by close()). */
  codexHome(): string
  /** A fresh temporary working directory (removed by close()). */
  tempDir(): string
  /** PATH, HOME/CODEX_HOME, the provider's key and TMPDIR: Codex reaches only this fake. */
  env(extra?: Record<string, string>): Record<string, string>
  close(): Promise<void>
}

/** Starts the scripted Responses API on 127.0.0.1. */
export function startScriptedResponses(options?: ScriptedResponsesOptions): Promise<ScriptedResponses>
/** The text of the last user message of a Responses request. */
export function responsesLastUserText(request: ResponsesRequest): string
/** Every `function_call_output` item of a request. */
export function functionCallOutputs(request: ResponsesRequest): Array<Record<string, any>>
/** The output text of the last function call (or of `callId`'s). */
export function lastFunctionCallOutput(request: ResponsesRequest, callId?: string): string | undefined
/** The tools a request offers (namespaced ones as `ns.tool`). */
export function responsesToolNames(request: ResponsesRequest): string[]
