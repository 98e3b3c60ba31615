// Subagents: programmatic agent definitions, and telling their messages apart.
import { query, type AgentDefinition } from '@anthropic-ai/claude-agent-sdk'

const agents: Record<string, AgentDefinition> = {
  'code-reviewer': {
    description: 'Expert code review specialist. Use for quality, security, and maintainability reviews.',
    prompt: 'You are a code review specialist with expertise in security, performance, and best practices.',
    tools: ['Read', 'Grep', 'Glob'],
    model: 'sonnet',
  },
  'test-runner': {
    description: 'Runs and analyzes test suites.',
    prompt: 'You are a test execution specialist.',
    tools: ['Bash', 'Read', 'Grep'],
    disallowedTools: ['Write'],
    model: 'inherit',
    maxTurns: 20,
    effort: 'high',
    permissionMode: 'acceptEdits',
    mcpServers: ['github', { docs: { type: 'http', url: 'https://example.com/mcp' } }],
    skills: ['testing'],
    background: false,
    memory: 'project',
  },
}

for await (const message of query({
  prompt: 'Review the authentication module for security issues',
  options: { allowedTools: ['Read', 'Grep', 'Glob', 'Agent'], agents },
})) {
  if (message.type === 'assistant') {
    const fromSubagent = message.parent_tool_use_id !== null
    for (const block of message.message.content) {
      if (block.type === 'tool_use' && block.name === 'Agent') {
        const input = block.input as { subagent_type?: string; description?: string }
        console.log(`Subagent invoked: ${input.subagent_type}`)
      }
      if (block.type === 'text') console.log(fromSubagent ? '  [sub]' : '', block.text)
    }
  }
  if (message.type === 'system' && message.subtype === 'task_started') console.log('task', message.task_id, message.description)
  if (message.type === 'system' && message.subtype === 'task_notification') console.log('task', message.task_id, message.status, message.summary)
}
