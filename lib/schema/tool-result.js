// @ts-check
'use strict'
// What the official server makes of a handler's return value: its McpServer returns it as is,
// and its Server then parses it with the MCP CallToolResultSchema (zod 4, replicated below from
// the copy the official SDK bundles). A value that parses is sent as parsed — `content`
// defaulted to [], keys in schema order (_meta, content, structuredContent, isError, then any
// other keys), unknown keys of content blocks dropped. A value that doesn't parse becomes a
// JSON-RPC error (not a tool result): code -32602, message
// "MCP error -32602: Invalid tools/call result: <zod issues>".
const { INVALID_PARAMS, mcpErrorMessage } = require('./messages')
const { errorText } = require('../thrown')
const { loadZod4Classic } = require('./zod-loader')

/** Thrown by normalizeToolResult for a value the official server refuses to send. */
class InvalidToolResultError extends Error {
  constructor(detail) {
    super(mcpErrorMessage(INVALID_PARAMS, `Invalid tools/call result: ${detail}`))
    this.name = 'McpError'
    this.code = INVALID_PARAMS
  }

  /** The JSON-RPC error object the official server answers with. */
  toJsonRpcError() {
    return { code: this.code, message: this.message }
  }
}

let resultSchema

/** @modelcontextprotocol/sdk's CallToolResultSchema, as bundled in the official SDK. */
function callToolResultSchema() {
  if (resultSchema) return resultSchema
  const z = loadZod4Classic()
  const RelatedTaskMetadata = z.object({ taskId: z.string() })
  const ProgressToken = z.union([z.string(), z.number().int()])
  const RequestMeta = z.looseObject({
    progressToken: ProgressToken.optional(),
    'io.modelcontextprotocol/related-task': RelatedTaskMetadata.optional(),
  })
  const Result = z.looseObject({ _meta: RequestMeta.optional() })
  const Base64 = z.string().refine((v) => {
    try {
      atob(v)
      return true
    } catch {
      return false
    }
  }, { message: 'Invalid Base64 string' })
  const Role = z.enum(['user', 'assistant'])
  const Annotations = z.object({
    audience: z.array(Role).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.union([z.iso.datetime({ offset: true }), z.iso.datetime({ offset: true, precision: -1 })]).optional(),
  })
  const Meta = () => z.record(z.string(), z.unknown()).optional()
  const Icon = z.object({
    src: z.string(),
    mimeType: z.string().optional(),
    sizes: z.array(z.string()).optional(),
    theme: z.enum(['light', 'dark']).optional(),
  })
  const Icons = z.object({ icons: z.array(Icon).optional() })
  const BaseMetadata = z.object({ name: z.string(), title: z.string().optional() })
  const ResourceContents = z.object({ uri: z.string(), mimeType: z.optional(z.string()), _meta: Meta() })
  const TextResourceContents = ResourceContents.extend({ text: z.string() })
  const BlobResourceContents = ResourceContents.extend({ blob: Base64 })
  const Resource = z.object({
    ...BaseMetadata.shape,
    ...Icons.shape,
    uri: z.string(),
    description: z.optional(z.string()),
    mimeType: z.optional(z.string()),
    size: z.optional(z.number()),
    annotations: Annotations.optional(),
    _meta: z.optional(z.looseObject({})),
  })
  const TextContent = z.object({ type: z.literal('text'), text: z.string(), annotations: Annotations.optional(), _meta: Meta() })
  const ImageContent = z.object({ type: z.literal('image'), data: Base64, mimeType: z.string(), annotations: Annotations.optional(), _meta: Meta() })
  const AudioContent = z.object({ type: z.literal('audio'), data: Base64, mimeType: z.string(), annotations: Annotations.optional(), _meta: Meta() })
  const ResourceLink = Resource.extend({ type: z.literal('resource_link') })
  const EmbeddedResource = z.object({
    type: z.literal('resource'),
    resource: z.union([TextResourceContents, BlobResourceContents]),
    annotations: Annotations.optional(),
    _meta: Meta(),
  })
  const ContentBlock = z.union([TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource])
  resultSchema = Result.extend({
    content: z.array(ContentBlock).default([]),
    structuredContent: z.record(z.string(), z.unknown()).optional(),
    isError: z.boolean().optional(),
  })
  return resultSchema
}

// --- fast path: values the schema would return unchanged, recognized without zod -------------

function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

function isBase64(v) {
  try {
    atob(v)
    return true
  } catch {
    return false
  }
}

function sameKeys(obj, keys) {
  const own = Object.keys(obj)
  return own.length === keys.length && own.every((k, i) => k === keys[i]) && Object.getOwnPropertySymbols(obj).length === 0
}

function isCanonicalBlock(b) {
  if (!isPlainObject(b)) return false
  if (b.type === 'text') return sameKeys(b, ['type', 'text']) && typeof b.text === 'string'
  if (b.type === 'image' || b.type === 'audio') {
    return sameKeys(b, ['type', 'data', 'mimeType']) && typeof b.data === 'string' && typeof b.mimeType === 'string' && isBase64(b.data)
  }
  return false
}

const TOP_KEYS = ['content', 'structuredContent', 'isError']

function isCanonical(v) {
  if (!isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return false
  const keys = Object.keys(v)
  if (keys[0] !== 'content') return false
  let at = 0
  for (let i = 1; i < keys.length; i++) {
    const next = TOP_KEYS.indexOf(keys[i])
    if (next <= at) return false
    at = next
  }
  if (!Array.isArray(v.content) || !v.content.every(isCanonicalBlock)) return false
  if ('isError' in v && typeof v.isError !== 'boolean') return false
  if ('structuredContent' in v && !(isPlainObject(v.structuredContent) && Object.getOwnPropertySymbols(v.structuredContent).length === 0)) return false
  return true
}

/**
 * The CallToolResult the official server sends for a handler's return value.
 * A well-formed `{content, isError?}` comes back as the same object; anything else is parsed.
 * @throws {InvalidToolResultError} where the official answers with a JSON-RPC error instead.
 */
function normalizeToolResult(value) {
  if (isCanonical(value)) return value
  const parsed = callToolResultSchema().safeParse(value)
  if (parsed.success) return parsed.data
  throw new InvalidToolResultError(errorText(parsed.error))
}

module.exports = { normalizeToolResult, InvalidToolResultError, callToolResultSchema }
