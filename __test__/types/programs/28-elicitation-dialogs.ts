// MCP elicitation and user dialogs answered by the host.
import { query, type ElicitationResult, type OnElicitation, type OnUserDialog } from '@anthropic-ai/claude-agent-sdk'

const onElicitation: OnElicitation = async (request, { signal }) => {
  if (signal.aborted) return { action: 'cancel' }
  console.log(request.serverName, request.message, request.mode, request.url, request.requestedSchema)
  const answer: ElicitationResult = { action: 'accept', content: { username: 'octocat', remember: true, scopes: ['repo'], retries: 3 } }
  return answer
}

const onUserDialog: OnUserDialog = async (request) =>
  request.dialogKind === 'confirm' ? { behavior: 'completed', result: { confirmed: true } } : { behavior: 'cancelled' }

for await (const m of query({ prompt: 'Log in to the service', options: { onElicitation, onUserDialog, supportedDialogKinds: ['confirm'] } })) {
  if (m.type === 'system' && m.subtype === 'elicitation_complete') console.log(m.mcp_server_name, m.elicitation_id)
}
