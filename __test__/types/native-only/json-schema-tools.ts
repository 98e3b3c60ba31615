// claude-agent-sdk-native extension: tools whose input is a plain JSON Schema object.
import { createSdkMcpServer, query, tool, type SdkMcpJsonSchemaToolDefinition, type ToolInputJsonSchema } from 'claude-agent-sdk-native'
import { z } from 'zod'

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, default: 1 } },
  required: ['city'],
  additionalProperties: false,
} as const

const forecast = tool('forecast', 'Weather forecast', schema, async (args) => {
  const a: Record<string, unknown> = args
  const city = String(args.city)
  return { content: [{ type: 'text', text: `${city}: sunny ${JSON.stringify(a)}` }] }
})
const asJsonTool: SdkMcpJsonSchemaToolDefinition = forecast

const declared: ToolInputJsonSchema = { type: 'object', properties: {}, $schema: 'http://json-schema.org/draft-07/schema#' }
const empty = tool('noop', 'No input', declared, async () => ({ content: [] }), { annotations: { readOnlyHint: true }, alwaysLoad: true })

// Zod and JSON Schema tools on one server; a Zod tool keeps its inferred arguments.
const zodTool = tool('add', 'Adds', { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }))
const server = createSdkMcpServer({ name: 'mixed', tools: [forecast, empty, zodTool] })

for await (const m of query({ prompt: 'Forecast for Paris', options: { mcpServers: { mixed: server } } })) void m

// A JSON Schema must describe an object.
// @ts-expect-error
tool('t', 'd', { type: 'array', items: {} }, async () => ({ content: [] }))

// `args` of a JSON Schema tool are not typed from the schema.
// @ts-expect-error
tool('t', 'd', schema, async (args) => ({ content: [{ type: 'text', text: args.city.toUpperCase() }] }))

// The handler still returns a CallToolResult.
// @ts-expect-error
tool('t', 'd', schema, async () => ({ content: 'text' }))

void asJsonTool
