// Typings of claude-agent-sdk-native/codex: @openai/codex-sdk's API (0.163), field for field, plus
// the thread options this package adds (in-process MCP servers, callbacks for Codex's requests).
import type { McpSdkServerConfigWithInstance } from './index.js'

/** An MCP content block (the shapes of @modelcontextprotocol/sdk's `ContentBlock`). */
export type ContentBlock =
  | { type: 'text'; text: string; _meta?: { [key: string]: unknown }; annotations?: { [key: string]: unknown } }
  | { type: 'image'; data: string; mimeType: string; _meta?: { [key: string]: unknown }; annotations?: { [key: string]: unknown } }
  | { type: 'audio'; data: string; mimeType: string; _meta?: { [key: string]: unknown }; annotations?: { [key: string]: unknown } }
  | { type: 'resource_link'; uri: string; name: string; [key: string]: unknown }
  | { type: 'resource'; resource: { uri: string; text: string; mimeType?: string; [key: string]: unknown } | { uri: string; blob: string; mimeType?: string; [key: string]: unknown }; [key: string]: unknown }

/** The status of a command execution. */
export type CommandExecutionStatus = 'in_progress' | 'completed' | 'failed'
/** A command executed by the agent. */
export type CommandExecutionItem = {
  id: string
  type: 'command_execution'
  /** The command line executed by the agent. */
  command: string
  /** Aggregated stdout and stderr captured while the command was running. */
  aggregated_output: string
  /** Set when the command exits; omitted while still running. */
  exit_code?: number
  /** Current status of the command execution. */
  status: CommandExecutionStatus
}
/** Indicates the type of the file change. */
export type PatchChangeKind = 'add' | 'delete' | 'update'
/** A set of file changes by the agent. */
export type FileUpdateChange = { path: string; kind: PatchChangeKind }
/** The status of a file change. */
export type PatchApplyStatus = 'completed' | 'failed'
/** A set of file changes by the agent. Emitted once the patch succeeds or fails. */
export type FileChangeItem = { id: string; type: 'file_change'; changes: FileUpdateChange[]; status: PatchApplyStatus }
/** The status of an MCP tool call. */
export type McpToolCallStatus = 'in_progress' | 'completed' | 'failed'
/**
 * A call to an MCP tool — here also a call of an in-process tool (`server` is the name the
 * server was given in `mcpServers`).
 */
export type McpToolCallItem = {
  id: string
  type: 'mcp_tool_call'
  /** Name of the MCP server handling the request. */
  server: string
  /** The tool invoked on the MCP server. */
  tool: string
  /** Arguments forwarded to the tool invocation. */
  arguments: unknown
  /** Result payload returned by the MCP server for successful calls. */
  result?: { content: ContentBlock[]; _meta?: unknown; structured_content: unknown }
  /** Error message reported for failed calls. */
  error?: { message: string }
  /** Current status of the tool invocation. */
  status: McpToolCallStatus
}
/** Response from the agent. Either natural-language text or JSON when structured output is requested. */
export type AgentMessageItem = { id: string; type: 'agent_message'; text: string }
/** Agent's reasoning summary. */
export type ReasoningItem = { id: string; type: 'reasoning'; text: string }
/** Captures a web search request. Completes when results are returned to the agent. */
export type WebSearchItem = { id: string; type: 'web_search'; query: string }
/** Describes a non-fatal error surfaced as an item. */
export type ErrorItem = { id: string; type: 'error'; message: string }
/** An item in the agent's to-do list. */
export type TodoItem = { text: string; completed: boolean }
/** Tracks the agent's running to-do list. */
export type TodoListItem = { id: string; type: 'todo_list'; items: TodoItem[] }
/** Canonical union of thread items and their type-specific payloads. */
export type ThreadItem = AgentMessageItem | ReasoningItem | CommandExecutionItem | FileChangeItem | McpToolCallItem | WebSearchItem | TodoListItem | ErrorItem

/** Emitted when a new thread is started as the first event (on every run). */
export type ThreadStartedEvent = { type: 'thread.started'; thread_id: string }
/** Emitted when a turn is started by sending a new prompt to the model. */
export type TurnStartedEvent = { type: 'turn.started' }
/** Describes the usage of tokens (the thread's running total, as `codex exec` reports it). */
export type Usage = {
  input_tokens: number
  cached_input_tokens: number
  cache_write_input_tokens: number
  output_tokens: number
  reasoning_output_tokens: number
}
/** Emitted when a turn is completed. */
export type TurnCompletedEvent = { type: 'turn.completed'; usage: Usage }
/** Indicates that a turn failed with an error. */
export type TurnFailedEvent = { type: 'turn.failed'; error: ThreadError }
/** Emitted when a new item is added to the thread. */
export type ItemStartedEvent = { type: 'item.started'; item: ThreadItem }
/** Emitted when an item is updated. */
export type ItemUpdatedEvent = { type: 'item.updated'; item: ThreadItem }
/** Signals that an item has reached a terminal state. */
export type ItemCompletedEvent = { type: 'item.completed'; item: ThreadItem }
/** Fatal error emitted by the stream. */
export type ThreadError = { message: string }
/** Represents an unrecoverable error emitted directly by the event stream. */
export type ThreadErrorEvent = { type: 'error'; message: string }
/** The events of a turn. */
export type ThreadEvent = ThreadStartedEvent | TurnStartedEvent | TurnCompletedEvent | TurnFailedEvent | ItemStartedEvent | ItemUpdatedEvent | ItemCompletedEvent | ThreadErrorEvent

export type CyberAccessProgram = 'standard' | 'daybreak_blue' | 'daybreak_red'
export type TurnOptions = {
  /** Accepted for compatibility; not sent to app-server. */
  cyberAccessProgram?: CyberAccessProgram
  /** JSON schema describing the expected agent output. */
  outputSchema?: unknown
  /** Interrupts the turn (`turn/interrupt`); the run then throws an AbortError. */
  signal?: AbortSignal
}

/** Completed turn. */
export type Turn = { items: ThreadItem[]; finalResponse: string; usage: Usage | null }
export type RunResult = Turn
export type StreamedTurn = { events: AsyncGenerator<ThreadEvent> }
export type RunStreamedResult = StreamedTurn
/** An input to send to the agent. */
export type UserInput = { type: 'text'; text: string } | { type: 'local_image'; path: string }
export type Input = string | UserInput[]

export type CodexConfigValue = string | number | boolean | CodexConfigValue[] | CodexConfigObject
export type CodexConfigObject = { [key: string]: CodexConfigValue }
export type CodexOptions = {
  codexPathOverride?: string
  baseUrl?: string
  apiKey?: string
  /** `--config key=value` overrides, flattened to dotted paths with TOML literals. */
  config?: CodexConfigObject
  /** Raw `--config key=value` overrides, after `config`. */
  configOverrides?: string[]
  /** The process's whole environment (process.env is not inherited when given). */
  env?: Record<string, string>
}

export type ApprovalMode = 'never' | 'on-request' | 'on-failure' | 'untrusted'
export type SandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access'
export type ModelReasoningEffort = 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | 'ultra' | 'persistent'
export type WebSearchMode = 'disabled' | 'cached' | 'live'

/** What Codex asks approval for: a command, a file change, or extra permissions. */
export type CodexApprovalRequest = {
  kind: 'commandExecution' | 'fileChange' | 'permissions'
  /** The app-server method (`item/commandExecution/requestApproval`, ...). */
  method: string
  threadId: string
  turnId: string
  itemId: string
  command?: string
  cwd?: string
  reason?: string
  permissions?: unknown
  changes?: unknown
  grantRoot?: string
  /** The request's params as Codex sent them. */
  params: Record<string, unknown>
}
/**
 * An approval's answer, as canUseTool's: allow (`scope: 'session'` allows alike requests for the
 * rest of the session) or deny (`interrupt: true` also stops the turn). Codex's own answer
 * object (`{ decision }`, `{ permissions, scope }`) is sent as it is.
 */
export type CodexApprovalResult =
  | { behavior: 'allow'; scope?: 'turn' | 'session'; permissions?: unknown }
  | { behavior: 'deny'; message?: string; interrupt?: boolean }
  | { decision: unknown }
  | { permissions: unknown; scope: 'turn' | 'session' }
export type CodexUserInputRequest = {
  threadId: string
  turnId: string
  itemId: string
  questions: Array<{ id: string; header?: string; question: string; isOther?: boolean; isSecret?: boolean; options?: Array<{ label: string; description?: string }> | null; [key: string]: unknown }>
  isBlocking: boolean
  params: Record<string, unknown>
}
/** Answers by question id: a string, strings, or Codex's `{ answers: { id: { answers } } }`. */
export type CodexUserInputResult = Record<string, string | string[]> | { answers: Record<string, { answers: string[] }> }
export type CodexElicitationRequest = {
  serverName: string
  message: string
  mode?: string
  requestedSchema?: unknown
  url?: string
  elicitationId?: string
  params: Record<string, unknown>
}
export type CodexElicitationResult = { action: 'accept' | 'decline' | 'cancel'; content?: unknown; _meta?: unknown }
export type CodexCallbackOptions = { signal: AbortSignal }

export type ThreadOptions = {
  model?: string
  threadSource?: string
  sandboxMode?: SandboxMode
  workingDirectory?: string
  skipGitRepoCheck?: boolean
  modelReasoningEffort?: ModelReasoningEffort
  networkAccessEnabled?: boolean
  webSearchMode?: WebSearchMode
  webSearchEnabled?: boolean
  /** Default `never`, as `codex exec`. */
  approvalPolicy?: ApprovalMode
  additionalDirectories?: string[]
  /**
   * In-process MCP servers (createSdkMcpServer() results, the values query()'s `mcpServers`
   * takes): each is offered to the model as a namespace of tools named after its key, and its
   * tools run in this process. One server object can serve Claude queries and Codex threads at
   * once.
   */
  mcpServers?: Record<string, McpSdkServerConfigWithInstance>
  /** Approvals (with `approvalPolicy` other than `never`); without it every request is declined. */
  onApproval?: (request: CodexApprovalRequest, options: CodexCallbackOptions) => CodexApprovalResult | Promise<CodexApprovalResult>
  /** `request_user_input` questions; without it they get no answers. */
  onUserInput?: (request: CodexUserInputRequest, options: CodexCallbackOptions) => CodexUserInputResult | Promise<CodexUserInputResult>
  /** An MCP server's elicitation; without it it is declined. */
  onElicitation?: (request: CodexElicitationRequest, options: CodexCallbackOptions) => CodexElicitationResult | Promise<CodexElicitationResult>
  /** Codex's stderr, chunk by chunk. */
  stderr?: (data: string) => void
  /** Per-thread config (`thread/start`'s `config`). */
  config?: CodexConfigObject
}

/** A thread of conversation with the agent: one long-lived `codex app-server` process. */
export declare class Thread {
  private constructor()
  /** The ID of the thread. Populated after the first turn starts. */
  get id(): string | null
  /** Provides the input to the agent and streams events as they are produced during the turn. */
  runStreamed(input: Input, turnOptions?: TurnOptions): Promise<StreamedTurn>
  /** Provides the input to the agent and returns the completed turn. */
  run(input: Input, turnOptions?: TurnOptions): Promise<Turn>
  /** Ends the thread's app-server process (the thread can be resumed later). */
  close(): void
  [Symbol.asyncDispose](): Promise<void>
}

/** The main class for interacting with the Codex agent. */
export declare class Codex {
  constructor(options?: CodexOptions)
  /** Starts a new conversation with an agent. */
  startThread(options?: ThreadOptions): Thread
  /** Resumes a conversation by its id. */
  resumeThread(id: string, options?: ThreadOptions): Thread
}
