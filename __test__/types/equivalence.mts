// Checks that our declarations are structurally the same as the official ones: compiled (on the
// claude-agent-sdk-native side only) together with equivalence-names.mts, which the runner
// generates with one check per type name both packages export.
import type * as O from '@anthropic-ai/claude-agent-sdk'
import type * as N from 'claude-agent-sdk-native'
import type * as Mcp from '@modelcontextprotocol/sdk/types.js'
import type * as OCore from '@anthropic-ai/claude-agent-sdk/core'
import type * as NCore from 'claude-agent-sdk-native/core'
import type * as OTools from '@anthropic-ai/claude-agent-sdk/sdk-tools'
import type * as NTools from 'claude-agent-sdk-native/sdk-tools'
import type { UUID } from 'node:crypto'
import type { Readable, Writable } from 'node:stream'
import type { z as z4 } from 'zod/v4'
import type { z as z3 } from 'zod/v3'

type IsExactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Opaque<T> =
  IsExactly<T, AbortSignal> extends true ? true
    : IsExactly<T, AbortController> extends true ? true
      : IsExactly<T, Readable> extends true ? true
        : IsExactly<T, Writable> extends true ? true
          : false

/** T with intersections flattened and aliases expanded, deeply, so that identity is structural. */
export type Norm<T> =
  Opaque<T> extends true ? T
    : T extends (...args: infer A) => infer R ? (...args: { [K in keyof A]: Norm<A[K]> }) => Norm<R>
      : T extends Promise<infer U> ? Promise<Norm<U>>
        : T extends object ? { [K in keyof T]: Norm<T[K]> }
          : T

/** True when A and B are identical once normalized: same keys, optionality, readonly-ness, types. */
export type Same<A, B> = (<G>() => G extends Norm<A> ? 1 : 2) extends (<G>() => G extends Norm<B> ? 1 : 2) ? true : false

/** Passes when the types are the same (the argument must be `true`). */
export declare function same<A, B>(ok: Same<A, B>): void
/** Passes when A is assignable to B. */
export declare function assignable<A, B>(a: A): B

// --- types whose official form names the MCP SDK's McpServer --------------------------------------
// Our `instance` is our own server class (the MCP SDK's McpServer is not accepted at runtime), so
// these are compared with `instance` left aside.
type WithoutInstance<T> = T extends { instance: unknown } ? Omit<T, 'instance'> : T
same<WithoutInstance<O.McpSdkServerConfigWithInstance>, WithoutInstance<N.McpSdkServerConfigWithInstance>>(true)
same<WithoutInstance<O.McpServerConfig>, WithoutInstance<N.McpServerConfig>>(true)
// Options of ours the official SDK does not have (issue 31: resourceLimits).
type OurOptions = 'resourceLimits'
same<Omit<O.Options, 'mcpServers'>, Omit<N.Options, 'mcpServers' | OurOptions>>(true)
same<keyof O.Options, Exclude<keyof N.Options, OurOptions>>(true)
same<Omit<O.Query, 'setMcpServers' | typeof Symbol.asyncIterator | 'next' | 'return' | 'throw'>, Omit<N.Query, 'setMcpServers' | typeof Symbol.asyncIterator | 'next' | 'return' | 'throw'>>(true)
same<keyof O.Query, keyof N.Query>(true)
same<Parameters<O.Query['next']>, Parameters<N.Query['next']>>(true)
same<ReturnType<O.Query['next']>, ReturnType<N.Query['next']>>(true)
same<ReturnType<O.Query['setMcpServers']>, ReturnType<N.Query['setMcpServers']>>(true)
same<WithoutInstance<Parameters<O.Query['setMcpServers']>[0][string]>, WithoutInstance<Parameters<N.Query['setMcpServers']>[0][string]>>(true)
same<keyof O.WarmQuery, keyof N.WarmQuery>(true)
same<Parameters<O.WarmQuery['query']>, Parameters<N.WarmQuery['query']>>(true)
same<O.WarmQuery['close'], N.WarmQuery['close']>(true)
same<O.WarmQuery[typeof Symbol.asyncDispose], N.WarmQuery[typeof Symbol.asyncDispose]>(true)
// Everything but an in-process server flows both ways.
declare const officialProcessServers: Record<string, Exclude<O.McpServerConfig, { type: 'sdk' }>>
declare const nativeProcessServers: Record<string, Exclude<N.McpServerConfig, { type: 'sdk' }>>
assignable<typeof officialProcessServers, N.Options['mcpServers']>(officialProcessServers)
assignable<typeof nativeProcessServers, O.Options['mcpServers']>(nativeProcessServers)

// --- types the official package imports from elsewhere ----------------------------------------------
same<Mcp.CallToolResult, N.CallToolResult>(true)
same<Mcp.ToolAnnotations, N.ToolAnnotations>(true)
same<Mcp.ElicitResult, N.ElicitResult>(true)
same<UUID, N.UUID>(true)

// --- functions --------------------------------------------------------------------------------------
same<Parameters<typeof O.query>[0]['prompt'], Parameters<typeof N.query>[0]['prompt']>(true)
same<ReturnType<typeof O.query>['next'], ReturnType<typeof N.query>['next']>(true)
same<typeof O.AbortError, typeof N.AbortError>(true)
same<Omit<NonNullable<Parameters<typeof O.startup>[0]>, 'options'>, Omit<NonNullable<Parameters<typeof N.startup>[0]>, 'options'>>(true)
same<Parameters<typeof O.startup>['length'], Parameters<typeof N.startup>['length']>(true)
// createSdkMcpServer takes every official options object (ours also takes JSON Schema tools).
assignable<Parameters<typeof O.createSdkMcpServer>[0], Parameters<typeof N.createSdkMcpServer>[0]>(null!)
same<WithoutInstance<ReturnType<typeof O.createSdkMcpServer>>, WithoutInstance<ReturnType<typeof N.createSdkMcpServer>>>(true)

// --- the rest of the runtime surface: constants, settings and model helpers, prewarm ------------------
same<typeof O.HOOK_EVENTS, typeof N.HOOK_EVENTS>(true)
same<typeof O.EXIT_REASONS, typeof N.EXIT_REASONS>(true)
same<typeof O.BUILTIN_TOOL_NAMES, typeof N.BUILTIN_TOOL_NAMES>(true)
same<typeof O.LEGACY_TOOL_NAME_ALIASES, typeof N.LEGACY_TOOL_NAME_ALIASES>(true)
same<typeof O.USAGE_LIMIT_ERROR_PREFIXES, typeof N.USAGE_LIMIT_ERROR_PREFIXES>(true)
same<typeof O.USAGE_TRANSITION_PREFIXES, typeof N.USAGE_TRANSITION_PREFIXES>(true)
same<typeof O.USAGE_WARNING_PREFIXES, typeof N.USAGE_WARNING_PREFIXES>(true)
same<typeof O.ORG_POLICY_LIMIT_PREFIXES, typeof N.ORG_POLICY_LIMIT_PREFIXES>(true)
same<typeof O.SYSTEM_PROMPT_DYNAMIC_BOUNDARY, typeof N.SYSTEM_PROMPT_DYNAMIC_BOUNDARY>(true)
same<typeof O.resolveSettings, typeof N.resolveSettings>(true)
same<typeof O.filterEscalatingDefaultMode, typeof N.filterEscalatingDefaultMode>(true)
same<typeof O.matchDeniedModels, typeof N.matchDeniedModels>(true)
same<Omit<NonNullable<Parameters<typeof O.prewarm>[0]>, 'options'>, Omit<NonNullable<Parameters<typeof N.prewarm>[0]>, 'options'>>(true)
same<Omit<NonNullable<NonNullable<Parameters<typeof O.prewarm>[0]>['options']>, 'mcpServers'>, Omit<NonNullable<NonNullable<Parameters<typeof N.prewarm>[0]>['options']>, 'mcpServers' | OurOptions>>(true)
same<keyof O.SpareProcess, keyof N.SpareProcess>(true)
same<Omit<O.SpareProcess, 'claim'>, Omit<N.SpareProcess, 'claim'>>(true)
same<Parameters<O.SpareProcess['claim']>, Parameters<N.SpareProcess['claim']>>(true)
same<O.ClaimOptions, N.ClaimOptions>(true)
// ./core: the same constants and helpers; ./sdk-tools: the same tool types.
same<typeof OCore.HOOK_EVENTS, typeof NCore.HOOK_EVENTS>(true)
same<typeof OCore.resolveSettings, typeof NCore.resolveSettings>(true)
same<typeof OCore.matchDeniedModels, typeof NCore.matchDeniedModels>(true)
same<OCore.ClaimOptions, NCore.ClaimOptions>(true)
same<OTools.ToolInputSchemas, NTools.ToolInputSchemas>(true)
same<OTools.BashInput, NTools.BashInput>(true)
same<OTools.FileEditInput, NTools.FileEditInput>(true)

// --- generics, instantiated -------------------------------------------------------------------------
type Shape4 = { a: z4.ZodString; b: z4.ZodOptional<z4.ZodNumber>; c: z4.ZodDefault<z4.ZodBoolean> }
type Shape3 = { a: z3.ZodString; b: z3.ZodOptional<z3.ZodNumber>; c: z3.ZodDefault<z3.ZodBoolean> }
same<O.InferShape<Shape4>, N.InferShape<Shape4>>(true)
same<O.InferShape<Shape3>, N.InferShape<Shape3>>(true)
same<O.SdkMcpToolDefinition<Shape4>, N.SdkMcpToolDefinition<Shape4>>(true)
same<O.SdkMcpToolDefinition<Shape3>, N.SdkMcpToolDefinition<Shape3>>(true)
same<O.SdkMcpToolDefinition, N.SdkMcpToolDefinition>(true)

// --- the checks themselves catch differences ---------------------------------------------------------
// @ts-expect-error an extra optional key
same<{ a: string }, { a: string; b?: number }>(true)
// @ts-expect-error optional vs required
same<{ a?: string }, { a: string }>(true)
// @ts-expect-error a wider union
same<{ a: 'x' }, { a: 'x' | 'y' }>(true)
// @ts-expect-error inside a function's parameter
same<(x: { a: string }) => void, (x: { a: string; b?: number }) => void>(true)
// @ts-expect-error inside a Promise
same<{ f(): Promise<{ a?: string }> }, { f(): Promise<{ a: string }> }>(true)
// @ts-expect-error an index signature
same<{ a: string }, { a: string; [k: string]: unknown }>(true)
// Intersections and aliases are not differences.
same<{ a: string } & { b?: number }, { a: string; b?: number }>(true)

// --- session functions (lib/sessions.js) -----------------------------------------------------------
same<typeof O.listSessions, typeof N.listSessions>(true)
same<typeof O.getSessionInfo, typeof N.getSessionInfo>(true)
same<typeof O.getSessionMessages, typeof N.getSessionMessages>(true)
same<typeof O.listSubagents, typeof N.listSubagents>(true)
same<typeof O.getSubagentMessages, typeof N.getSubagentMessages>(true)
same<typeof O.renameSession, typeof N.renameSession>(true)
same<typeof O.tagSession, typeof N.tagSession>(true)
same<typeof O.archiveSession, typeof N.archiveSession>(true)
same<typeof O.unarchiveSession, typeof N.unarchiveSession>(true)
same<typeof O.deleteSession, typeof N.deleteSession>(true)
same<typeof O.forkSession, typeof N.forkSession>(true)
same<typeof O.importSessionToStore, typeof N.importSessionToStore>(true)
same<typeof O.foldSessionSummary, typeof N.foldSessionSummary>(true)
// The store class: its public surface, and instances usable where the other package's store goes.
type PublicOf<T> = { [K in keyof T]: T[K] }
same<PublicOf<O.InMemorySessionStore>, PublicOf<N.InMemorySessionStore>>(true)
same<ConstructorParameters<typeof O.InMemorySessionStore>, ConstructorParameters<typeof N.InMemorySessionStore>>(true)
{ const s: O.SessionStore = null as unknown as N.InMemorySessionStore; void s }
{ const s: N.SessionStore = null as unknown as O.InMemorySessionStore; void s }
