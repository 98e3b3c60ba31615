// Several tools: the handler's `args` are inferred from the Zod 4 shape (optional, default,
// enum, array, object, union, nullable), plus annotations, extras and error results.
import { tool, createSdkMcpServer, type SdkMcpToolDefinition } from '@anthropic-ai/claude-agent-sdk'
// As the documentation does: the result type from the MCP SDK (our inlined type must match it).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'

const search = tool(
  'search_docs',
  'Search the documentation',
  {
    query: z.string().min(1),
    limit: z.number().int().positive().optional(),
    sort: z.enum(['relevance', 'date']).default('relevance'),
    tags: z.array(z.string()),
    filters: z.object({ since: z.string().optional(), author: z.string().nullable() }),
    mode: z.union([z.literal('fast'), z.literal('thorough')]),
  },
  async (args) => {
    const q: string = args.query
    const limit: number | undefined = args.limit
    const sort: 'relevance' | 'date' = args.sort
    const tags: string[] = args.tags
    const author: string | null = args.filters.author
    const since: string | undefined = args.filters.since
    const mode: 'fast' | 'thorough' = args.mode
    return {
      content: [{ type: 'text', text: `${q} ${limit ?? 10} ${sort} ${tags.join(',')} ${author} ${since} ${mode}` }],
      structuredContent: { hits: 0 },
    }
  },
  {
    annotations: { readOnlyHint: true, openWorldHint: false, title: 'Search docs' },
    searchHint: 'documentation lookup',
    alwaysLoad: true,
  },
)

// A tool without arguments.
const ping = tool('ping', 'Replies pong', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }))

// A failing tool reports an error result to the model.
const divide = tool('divide', 'Divides a by b', { a: z.number(), b: z.number() }, async ({ a, b }): Promise<CallToolResult> => {
  if (b === 0) return { content: [{ type: 'text', text: 'Division by zero' }], isError: true }
  return { content: [{ type: 'text', text: String(a / b) }] }
})

// Other content kinds.
const chart = tool('chart', 'Draws a chart', { title: z.string() }, async ({ title }) => ({
  content: [
    { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    { type: 'resource_link', uri: 'file:///tmp/chart.png', name: title },
    { type: 'resource', resource: { uri: 'file:///tmp/chart.csv', mimeType: 'text/csv', text: 'a,b\n1,2' } },
  ],
}))

// The handler also receives `extra` (unknown in the typings).
const withExtra = tool('with_extra', 'Uses extra', { n: z.number() }, async (args, extra) => {
  void extra
  return { content: [{ type: 'text', text: String(args.n) }] }
})

const typedDefinition: SdkMcpToolDefinition<{ a: z.ZodNumber; b: z.ZodNumber }> = divide
void typedDefinition

export const server = createSdkMcpServer({
  name: 'docs',
  version: '2.0.0',
  instructions: 'Tools for the documentation site',
  tools: [search, ping, divide, chart, withExtra],
  alwaysLoad: false,
  timeout: 30_000,
})
const kind: 'sdk' = server.type
const name: string = server.name
void kind
void name
