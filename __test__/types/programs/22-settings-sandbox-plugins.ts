// Environment, settings, sandbox and plugins options.
import { query, type Options, type SandboxSettings, type SdkPluginConfig, type SettingSource, type Settings } from '@anthropic-ai/claude-agent-sdk'

const sandbox: SandboxSettings = {
  enabled: true,
  autoAllowBashIfSandboxed: true,
  excludedCommands: ['docker'],
  network: { allowedDomains: ['registry.npmjs.org'], allowLocalBinding: true },
  filesystem: { allowWrite: ['/tmp'], denyRead: ['~/.ssh'] },
}
const plugins: SdkPluginConfig[] = [{ type: 'local', path: './my-plugin' }]
const settingSources: SettingSource[] = ['user', 'project', 'local']
const settings: Settings = {
  permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'], defaultMode: 'acceptEdits' },
  env: { NODE_ENV: 'test' },
  model: 'claude-sonnet-4-5',
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo ok', timeout: 5 }] }] },
  effortLevel: 'high',
}

const options: Options = {
  cwd: '/srv/project',
  additionalDirectories: ['../shared'],
  env: { ...process.env, ANTHROPIC_LOG: 'debug' },
  executable: 'node',
  executableArgs: ['--max-old-space-size=4096'],
  extraArgs: { verbose: null, 'max-tokens': '1000' },
  pathToClaudeCodeExecutable: '/usr/local/bin/claude',
  stderr: (data) => process.stderr.write(data),
  debug: true,
  debugFile: '/tmp/claude-debug.log',
  sandbox,
  plugins,
  settingSources,
  settings,
  tools: { type: 'preset', preset: 'claude_code' },
  betas: ['context-1m-2025-08-07'],
  persistSession: false,
}
const fromFile: Options = { settings: './settings.json', tools: ['Read', 'Grep'] }

for await (const m of query({ prompt: 'Run the tests', options })) {
  if (m.type === 'system' && m.subtype === 'init') console.log(m.cwd, m.plugins.map((p) => p.path), m.skills, m.slash_commands, m.apiKeySource)
}
void fromFile
