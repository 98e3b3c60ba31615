// Handling the SDKMessage union: every `type`, and the system subtypes an app usually shows.
import type { SDKMessage, SDKSystemMessage, SDKAssistantMessage, SDKUserMessage, SDKUserMessageReplay } from '@anthropic-ai/claude-agent-sdk'
import { query } from '@anthropic-ai/claude-agent-sdk'

function render(message: SDKMessage): string | undefined {
  switch (message.type) {
    case 'assistant':
      return message.message.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('')
    case 'user': {
      const content = message.message.content
      if (typeof content === 'string') return `> ${content}`
      return content.map((b) => (b.type === 'tool_result' ? `[result of ${b.tool_use_id}]` : `[${b.type}]`)).join('')
    }
    case 'result':
      return `result: ${message.subtype}`
    case 'stream_event':
      return undefined
    case 'tool_progress':
      return `${message.tool_name} running for ${message.elapsed_time_seconds}s`
    case 'tool_use_summary':
      return message.summary
    case 'auth_status':
      return message.output.join('\n')
    case 'rate_limit_event':
      return `rate limit: ${message.rate_limit_info.status} ${message.rate_limit_info.resetsAt ?? ''}`
    case 'prompt_suggestion':
      return `suggestion: ${message.suggestion}`
    case 'conversation_reset':
      return `reset to ${message.new_conversation_id}`
    case 'system':
      switch (message.subtype) {
        case 'init':
          return `session ${message.session_id} with ${message.model}`
        case 'compact_boundary':
          return `compacted (${message.compact_metadata.trigger}, ${message.compact_metadata.pre_tokens} tokens)`
        case 'status':
          return `status: ${message.status ?? 'idle'}`
        case 'api_retry':
          return `retry ${message.attempt}/${message.max_retries} in ${message.retry_delay_ms}ms (${message.error})`
        case 'task_started':
        case 'task_progress':
          return `${message.subtype} ${message.task_id}: ${message.description}`
        case 'task_notification':
          return `${message.task_id} ${message.status}`
        case 'hook_started':
        case 'hook_progress':
        case 'hook_response':
          return `${message.hook_event} ${message.hook_name}`
        case 'notification':
          return message.text
        case 'informational':
          return `${message.level}: ${message.content}`
        case 'permission_denied':
          return `denied ${message.tool_name}: ${message.message}`
        case 'files_persisted':
          return message.files.map((f) => f.filename).join(',')
        default:
          return message.subtype
      }
  }
}

function isInit(m: SDKMessage): m is SDKSystemMessage {
  return m.type === 'system' && m.subtype === 'init'
}

function isReplay(m: SDKUserMessage | SDKUserMessageReplay): m is SDKUserMessageReplay {
  return 'isReplay' in m && m.isReplay === true
}

const transcript: SDKAssistantMessage[] = []
for await (const message of query({ prompt: 'Hi' })) {
  const text = render(message)
  if (text) console.log(text)
  if (isInit(message)) console.log(message.claude_code_version)
  if (message.type === 'assistant') transcript.push(message)
  if (message.type === 'user' && isReplay(message)) console.log('replay', message.session_id)
}
