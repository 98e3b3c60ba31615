// The typings of claude-agent-sdk-native/bridge against the official `./bridge` declarations,
// with `tsc --strict`: every exported type and function is structurally the same, except where
// the official names its full SDKControlRequest / SDKControlResponse unions (ours declares the
// envelopes with an open `request`), where every official envelope must still be accepted.
// Also compiles an app using the entry through both module formats. skipLibCheck keeps tsc off the
// official's whole sdk.d.ts (13 s instead of 2 s); a broken import in ours still fails, since every
// type that uses it is compared with the official's.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

const CHECK = `
import type * as O from '@anthropic-ai/claude-agent-sdk/bridge'
import type * as N from 'claude-agent-sdk-native/bridge'
import { attachBridgeSession, createCodeSession, fetchRemoteCredentials, isCreateSessionFailure, isCredentialsFailure, isCredentialsRejection } from 'claude-agent-sdk-native/bridge'
type Norm<T> = T extends (...args: infer A) => infer R ? (...args: { [K in keyof A]: Norm<A[K]> }) => Norm<R> : T extends Promise<infer U> ? Promise<Norm<U>> : T extends object ? { [K in keyof T]: Norm<T[K]> } : T
type Same<A, B> = (<G>() => G extends Norm<A> ? 1 : 2) extends (<G>() => G extends Norm<B> ? 1 : 2) ? true : false
declare function same<A, B>(ok: Same<A, B>): void
same<O.SessionState, N.SessionState>(true)
same<O.RemoteCredentials, N.RemoteCredentials>(true)
same<O.CredentialsFailure, N.CredentialsFailure>(true)
same<O.CredentialsRejection, N.CredentialsRejection>(true)
same<O.CodeSessionGitContext, N.CodeSessionGitContext>(true)
same<O.BranchDropLogDedup, N.BranchDropLogDedup>(true)
same<O.CreateSessionFailure, N.CreateSessionFailure>(true)
same<typeof O.attachBridgeSession extends (o: infer X) => unknown ? keyof X : never, typeof N.attachBridgeSession extends (o: infer X) => unknown ? keyof X : never>(true)
same<typeof O.createCodeSession, typeof N.createCodeSession>(true)
same<typeof O.fetchRemoteCredentials, typeof N.fetchRemoteCredentials>(true)
same<typeof O.isCredentialsFailure, typeof N.isCredentialsFailure>(true)
same<typeof O.isCredentialsRejection, typeof N.isCredentialsRejection>(true)
same<typeof O.isCreateSessionFailure, typeof N.isCreateSessionFailure>(true)
type OO = O.AttachBridgeSessionOptions; type NO = N.AttachBridgeSessionOptions
type OH = O.BridgeSessionHandle; type NH = N.BridgeSessionHandle
same<keyof OO, keyof NO>(true)
same<keyof OH, keyof NH>(true)
same<Omit<OO, 'onPermissionResponse'>, Omit<NO, 'onPermissionResponse'>>(true)
same<Omit<OH, 'sendControlRequest' | 'sendControlResponse'>, Omit<NH, 'sendControlRequest' | 'sendControlResponse'>>(true)
same<ReturnType<OH['sendControlRequest']>, ReturnType<NH['sendControlRequest']>>(true)
same<ReturnType<OH['sendControlResponse']>, ReturnType<NH['sendControlResponse']>>(true)
{ const r = null as unknown as Parameters<OH['sendControlRequest']>[0]; const n: Parameters<NH['sendControlRequest']>[0] = r; void n }
{ const r = null as unknown as Parameters<OH['sendControlResponse']>[0]; const n: Parameters<NH['sendControlResponse']>[0] = r; void n }
{ const r = null as unknown as Parameters<NonNullable<OO['onPermissionResponse']>>[0]; const n: Parameters<NonNullable<NO['onPermissionResponse']>>[0] = r; void n }

// An app.
async function app(): Promise<void> {
  const creds = await fetchRemoteCredentials('cse_1', 'https://api.example', 'oauth', 10_000)
  if (creds === null || isCredentialsFailure(creds) || isCredentialsRejection(creds)) return
  const id = await createCodeSession('https://api.example', 'oauth', 'title', 10_000, ['t'], { gitRepoUrl: 'acme/w', branch: 'b', defaultBranch: 'main' })
  if (isCreateSessionFailure(id)) { const s: number = id.status; void s; return }
  const handle: N.BridgeSessionHandle = await attachBridgeSession({
    sessionId: creds.worker_jwt, ingressToken: creds.worker_jwt, apiBaseUrl: creds.api_base_url, epoch: creds.worker_epoch,
    onInboundMessage: async (m) => { if (m.type === 'user') void m.message },
    onClose: (code) => { void code },
    onSetModel: (model) => (model ? { ok: true } : { ok: false, error: 'no' }),
  })
  handle.reportState('running')
  await handle.reconnectTransport({ ingressToken: 'jwt', apiBaseUrl: 'https://api.example' })
  // @ts-expect-error not a SessionState
  handle.reportState('busy')
  handle.close()
}
void app
`

// Typings do not depend on the runtime: checked once, under Node.
test('bridge typings: the same as the official ./bridge declarations (tsc --strict)', { timeout: 120_000, skip: process.versions.bun ? 'runtime-independent; checked under Node' : false }, () => {
  const dir = fs.mkdtempSync(path.join(root, '.tmp', 'bridge-types-'))
  try {
    fs.writeFileSync(path.join(dir, 'check.mts'), CHECK)
    fs.writeFileSync(path.join(dir, 'app.cts'), "import bridge = require('claude-agent-sdk-native/bridge')\nconst r: Promise<string | null | object> = bridge.createCodeSession('https://x', 't', 't', 1)\nvoid r\n")
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], skipLibCheck: true, pretty: false },
      files: ['check.mts', 'app.cts'],
    }))
    const pkg = require.resolve('typescript/package.json', { paths: [root] })
    const meta = JSON.parse(fs.readFileSync(pkg, 'utf8'))
    const bin = path.join(path.dirname(pkg), typeof meta.bin === 'string' ? meta.bin : meta.bin.tsc)
    const r = spawnSync(process.versions.bun ? 'node' : process.execPath, [bin, '-p', dir], { encoding: 'utf8' })
    assert.equal(r.status, 0, `tsc failed:\n${r.stdout}${r.stderr}`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
