// @ts-check
'use strict'
// The headers every request of the bridge carries, as the official `./bridge` sends them: the
// Anthropic API version, the client platform read from CLAUDE_CODE_ENTRYPOINT, and a User-Agent
// naming the official release this package mirrors.

const API_VERSION = '2023-06-01'
const MIRRORED_VERSION = '0.3.332'
const USER_AGENT = `claude-code/${MIRRORED_VERSION}`

const PLATFORMS = {
  'claude-vscode': 'claude_code_vscode',
  remote: 'claude_code_remote',
  remote_baku: 'claude_code_remote',
  remote_cowork: 'claude_code_remote',
  remote_desktop: 'claude_code_remote',
  remote_mobile: 'claude_code_remote',
  remote_projects: 'claude_code_remote',
  'claude-in-teams': 'claude_code_remote',
  'sdk-cli': 'claude_code_sdk',
  'sdk-ts': 'claude_code_sdk',
  'sdk-py': 'claude_code_sdk',
  mcp: 'claude_code_mcp',
  'claude-code-github-action': 'claude_code_github_action',
  'local-agent': 'claude_code_local_agent',
  claude_in_slack: 'claude_in_slack',
  'claude-in-slack': 'claude-in-slack',
}

/** @param {string} [entrypoint] */
function clientPlatform(entrypoint = process.env.CLAUDE_CODE_ENTRYPOINT) {
  return Object.hasOwn(PLATFORMS, entrypoint ?? '') ? PLATFORMS[/** @type {keyof typeof PLATFORMS} */ (entrypoint)] : 'claude_code_cli'
}

// Headers of the OAuth-authenticated calls (session create, /bridge).
/** @param {string} accessToken */
function oauthHeaders(accessToken) {
  return {
    Authorization: `Bearer ${accessToken}`,
    'Content-Type': 'application/json',
    'anthropic-version': API_VERSION,
    'anthropic-client-platform': clientPlatform(),
    'User-Agent': USER_AGENT,
  }
}

// Headers of the worker's own calls (PUT /worker, events, heartbeat, the event stream).
/** @param {string} token @param {Record<string, string>} [extra] */
function workerHeaders(token, extra) {
  return {
    Authorization: `Bearer ${token}`,
    ...extra,
    'anthropic-version': API_VERSION,
    'anthropic-client-platform': clientPlatform(),
    'User-Agent': USER_AGENT,
  }
}

module.exports = { API_VERSION, USER_AGENT, clientPlatform, oauthHeaders, workerHeaders }
