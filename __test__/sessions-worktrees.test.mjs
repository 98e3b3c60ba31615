// listSessions({ dir }) and the lookups by id with `dir`, side by side with the official SDK, in
// real git repositories (made by the real `git`) of every layout the engine reads the worktree
// list from git's files for (crates/agent-core/src/sessions/gitmeta.rs) and of some it leaves to
// git: linked worktrees (locked, prunable, added through a symlink), called from a subfolder and
// from inside a worktree, a bare repository with worktrees, a `.git` file naming a repository
// elsewhere, relative worktree paths as git 2.48 writes them, core.ignorecase, no repository.
// Each listing must also hold the sessions expected, so that both SDKs listing nothing fails.
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as official from '@anthropic-ai/claude-agent-sdk'
import { sdk as ours } from './helpers/sdk.mjs'
import { rng, transcript, uuidFrom, writeTranscript, sanitize } from './helpers/session-corpus.mjs'

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sessions-worktrees-')))
const config = path.join(base, 'config')
const norm = (x) => JSON.parse(JSON.stringify(x ?? null))
const rand = rng(32)

async function same(fn, label) {
  const a = norm(await fn(ours))
  const b = norm(await fn(official))
  assert.deepStrictEqual(a, b, label)
  return a
}

const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' }
const git = (cwd, ...args) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] }).toString()

function repo(rel) {
  const d = path.join(base, rel)
  fs.mkdirSync(d, { recursive: true })
  git(d, 'init', '-q')
  git(d, 'commit', '-q', '--allow-empty', '-m', 'one')
  return d
}

/** A session that ran in `cwd`, in cwd's project folder. */
function session(cwd) {
  const id = uuidFrom(rand)
  const { lines } = transcript(rand, { sessionId: id, cwd, turns: 2 })
  writeTranscript(path.join(config, 'projects', sanitize(cwd), `${id}.jsonl`), lines, Date.UTC(2026, 1, 1) + Math.floor(rand() * 1e9))
  return id
}

/** Both SDKs list the same sessions for `dir`, and exactly `ids`; lookups by id with `dir` agree. */
async function listsExactly(dir, ids, label) {
  const listed = await same((m) => m.listSessions({ dir }), label)
  assert.deepStrictEqual(listed.map((s) => s.sessionId).sort(), [...ids].sort(), label)
  await same((m) => m.listSessions({ dir, limit: 2, offset: 1 }), `${label}, paged`)
  for (const id of ids) await same((m) => m.getSessionInfo(id, { dir }), `${label}: info ${id}`)
}

const saved = {}
before(() => {
  saved.CLAUDE_CONFIG_DIR = process.env.CLAUDE_CONFIG_DIR
  process.env.CLAUDE_CONFIG_DIR = config
})

after(() => {
  if (saved.CLAUDE_CONFIG_DIR === undefined) delete process.env.CLAUDE_CONFIG_DIR
  else process.env.CLAUDE_CONFIG_DIR = saved.CLAUDE_CONFIG_DIR
  fs.rmSync(base, { recursive: true, force: true })
})

describe('listSessions({ dir }) across git worktrees', () => {
  it('linked worktrees: from the main one, a subfolder and inside a worktree; locked, prunable, added through a symlink', async () => {
    const main = repo('proj/r')
    fs.mkdirSync(path.join(main, 'src/deep'), { recursive: true })
    fs.symlinkSync(path.join(base, 'proj'), path.join(base, 'proj-link'))
    const trees = ['wt-b', 'wt-a', 'Wt-C'].map((n) => path.join(base, 'proj', n))
    for (const t of trees) git(main, 'worktree', 'add', '-q', t)
    git(main, 'worktree', 'add', '-q', path.join(base, 'proj-link', 'via-link'))
    trees.push(path.join(base, 'proj', 'via-link'))
    const ids = [session(main), session(main), ...trees.map(session)]
    await listsExactly(main, ids, 'main worktree')
    await listsExactly(path.join(main, 'src/deep'), ids, 'subfolder')
    await listsExactly(trees[0], ids, 'inside a linked worktree')
    await listsExactly(path.join(base, 'proj-link', 'wt-a'), ids, 'a worktree through a symlinked path')
    // Locked and prunable worktrees are still listed by git, so their sessions are too.
    git(main, 'worktree', 'lock', '--reason', 'offline', trees[1])
    fs.rmSync(trees[2], { recursive: true, force: true })
    await listsExactly(main, ids, 'locked and prunable')
    await same((m) => m.listSessions({ dir: main, includeWorktrees: false }), 'without worktrees')
  })

  it('a bare repository with worktrees, and a `.git` file naming a repository elsewhere', async () => {
    const src = repo('bare-src')
    git(base, 'clone', '-q', '--bare', src, 'hub.git')
    const hub = path.join(base, 'hub.git')
    const trees = ['hub/one', 'hub/two'].map((n) => path.join(base, n))
    git(hub, 'worktree', 'add', '-q', trees[0])
    git(hub, 'worktree', 'add', '-q', trees[1], 'main')
    const ids = trees.map(session)
    await listsExactly(trees[0], ids, 'bare repository, from a worktree')
    await same((m) => m.listSessions({ dir: hub }), 'inside the bare repository')

    const work = path.join(base, 'sep/work')
    fs.mkdirSync(work, { recursive: true })
    fs.mkdirSync(path.join(base, 'sep/store'), { recursive: true })
    git(work, 'init', '-q', '--separate-git-dir', path.join(base, 'sep/store/work.git'))
    git(work, 'commit', '-q', '--allow-empty', '-m', 'one')
    const side = path.join(base, 'sep/side')
    git(work, 'worktree', 'add', '-q', side)
    // git lists the repository folder as the main worktree here, not `work`.
    const sepIds = [session(side), session(path.join(base, 'sep/store/work.git'))]
    await listsExactly(side, sepIds, '.git file elsewhere, from its worktree')
    await same((m) => m.listSessions({ dir: work }), '.git file elsewhere, from its folder')
  })

  it('relative worktree paths as git 2.48 writes them, core.ignorecase, and no repository', async () => {
    const main = repo('rel/r')
    const wt = path.join(base, 'rel/wt')
    git(main, 'worktree', 'add', '-q', wt)
    fs.writeFileSync(path.join(main, '.git/worktrees/wt/gitdir'), '../../../../rel/wt/.git\n')
    fs.writeFileSync(path.join(wt, '.git'), 'gitdir: ../r/.git/worktrees/wt\n')
    session(main)
    session(wt)
    await same((m) => m.listSessions({ dir: main }), 'relative worktree path, from the main worktree')
    await same((m) => m.listSessions({ dir: wt }), 'relative worktree path, from the worktree')

    const ci = repo('ci/r')
    const trees = ['Upper', 'apple'].map((n) => path.join(base, 'ci', n))
    for (const t of trees) git(ci, 'worktree', 'add', '-q', t)
    git(ci, 'config', 'core.ignorecase', 'true')
    const ids = [session(ci), ...trees.map(session)]
    await listsExactly(ci, ids, 'core.ignorecase')

    const none = path.join(base, 'plain/folder')
    fs.mkdirSync(none, { recursive: true })
    await listsExactly(none, [session(none)], 'no repository')
  })
})
