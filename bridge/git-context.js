// @ts-check
'use strict'
// A CodeSessionGitContext as the `sources` / `outcomes` of POST /v1/code/sessions, as the
// official `./bridge` builds them: the repository URL (https, ssh, git@host:owner/name, or an
// `owner/name` shorthand for github.com) becomes a git_repository source at the requested revision,
// and `branch` is listed in outcomes.branches only when a different defaultBranch is known.
const { defaultBranch } = require('./default-branch.js')

const NAME = /^[A-Za-z0-9._-]+$/
const GITLAB_MAX_DEPTH = 21

function isName(s) {
  return NAME.test(s) && !s.startsWith('-') && s !== '.' && s !== '..'
}

function isHostName(h) {
  if (!/^[A-Za-z0-9.-]+$/.test(h) || h.startsWith('-') || !h.includes('.')) return false
  const tld = h.split('.').pop()
  return Boolean(tld) && /^[a-zA-Z]+$/.test(tld)
}

const beforeColon = (s) => (s.includes(':') ? s.slice(0, s.indexOf(':')) : s)
const normalHost = (h) => beforeColon(h).toLowerCase().replace(/\.+$/, '')
const isGitHub = (h) => normalHost(h) === 'github.com'
const isGitLab = (h) => normalHost(h) === 'gitlab.com' || normalHost(h) === 'altssh.gitlab.com'

function parseGitLab(url) {
  let scheme, host, rest
  const scp = /^git@([^:/@]+):(.+?)(?:\.git)?\/?$/.exec(url)
  if (scp) [host, rest] = [scp[1], scp[2]]
  else {
    const m = /^(https?|ssh|git):\/\/(?:[^@/?#]*@)?([^/:?#@]+(?::\d+)?)\/(.+?)(?:\.git)?\/?$/.exec(url)
    if (!m) return null
    ;[scheme, host, rest] = [m[1], m[2], m[3]]
  }
  const bare = beforeColon(host)
  if (!isHostName(bare) || !isGitLab(bare)) return null
  const parts = rest.split('/')
  const name = parts.at(-1)
  if (parts.length < 3 || name === undefined || parts.length > GITLAB_MAX_DEPTH + 1 || !parts.every(isName)) return null
  return { host: scheme === 'https' || scheme === 'http' ? host : bare, owner: parts.slice(0, -1).join('/'), name }
}

function parseRepoUrl(input) {
  const url = input.trim()
  if (url.includes('%00') || url.includes('\0')) return null
  const scp = /^git@([^:/@]+):([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url)
  if (scp) {
    if (!isHostName(scp[1]) || !isName(scp[2]) || !isName(scp[3])) return null
    return { host: scp[1], owner: scp[2], name: scp[3] }
  }
  const m = /^(https?|ssh|git):\/\/(?:[^@/?#]*@)?([^/:?#@]+(?::\d+)?)\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url)
  if (m) {
    const bare = beforeColon(m[2])
    if (!isHostName(bare) || !isName(m[3]) || !isName(m[4])) return null
    return { host: m[1] === 'https' || m[1] === 'http' ? m[2] : bare, owner: m[3], name: m[4] }
  }
  return parseGitLab(url)
}

// `owner/name` of a github.com URL or shorthand.
function gitHubShorthand(input) {
  const url = input.trim()
  const parsed = parseRepoUrl(url)
  if (parsed) return isGitHub(parsed.host) ? `${parsed.owner}/${parsed.name}` : null
  if (!url.includes('://') && !url.includes('@') && url.includes('/')) {
    const parts = url.split('/')
    if (parts.length === 2 && parts[0] && parts[1]) {
      const name = parts[1].replace(/\.git$/, '')
      return isName(parts[0]) && isName(name) ? `${parts[0]}/${name}` : null
    }
  }
  return null
}

function repoOf(url) {
  const parsed = parseRepoUrl(url)
  if (parsed) return parsed.owner.includes('/') ? null : parsed
  const short = gitHubShorthand(url)
  if (short) {
    const [owner, name] = short.split('/')
    if (owner && name) return { host: 'github.com', owner, name }
  }
  return null
}

// → { sources, outcomes, report: { branchDropped?, warnMessage?, revisionGuessUsed } }
function gitContextBody(repoUrl, requestedBranch, knownDefault) {
  if (!repoUrl) return { sources: [], outcomes: [], report: { revisionGuessUsed: false } }
  let branch = requestedBranch === 'HEAD' ? '' : requestedBranch
  let revision = branch || knownDefault || undefined
  let guessed = false
  if (!revision) {
    revision = defaultBranch() || undefined
    guessed = revision !== undefined
  }
  const branches = branch && knownDefault && branch !== knownDefault ? [branch] : []
  let branchDropped, warnMessage
  if (branch && branches.length === 0) {
    branchDropped = knownDefault ? 'is_default' : 'no_evidence'
    warnMessage = knownDefault
      ? `[bridge] requested branch '${branch}' is the default branch — omitted from outcomes.branches (the runner stays on the clone)`
      : `[bridge] no session-anchored default-branch evidence — omitting requested branch '${branch}' from outcomes.branches; the remote session will work on a generated branch instead. Run 'git remote set-head origin -a' in the repo (or supply defaultBranch via the SDK) to restore branch continuity.`
  }
  const report = { branchDropped, revisionGuessUsed: guessed, warnMessage }
  const repo = repoOf(repoUrl)
  if (!repo) return { sources: [], outcomes: [], report: { revisionGuessUsed: false } }
  return {
    report,
    sources: [{ type: 'git_repository', url: `https://${repo.host}/${repo.owner}/${repo.name}`, revision }],
    outcomes: [{ type: 'git_repository', git_info: { type: 'github', repo: `${repo.owner}/${repo.name}`, branches } }],
  }
}

module.exports = { gitContextBody, parseRepoUrl }
