// Tools defined with Zod 3 (zod/v3) shapes infer their arguments too, and mix with Zod 4 tools.
import { tool, createSdkMcpServer, query } from '@anthropic-ai/claude-agent-sdk'
import { z as z3 } from 'zod/v3'
import { z as z4 } from 'zod/v4'

const legacy = tool(
  'legacy_lookup',
  'Looks a record up (Zod 3 schema)',
  {
    id: z3.string().uuid(),
    fields: z3.array(z3.enum(['name', 'email'])).optional(),
    deep: z3.object({ depth: z3.number().default(1) }),
  },
  async (args) => {
    const id: string = args.id
    const fields: ('name' | 'email')[] | undefined = args.fields
    const depth: number = args.deep.depth
    return { content: [{ type: 'text', text: `${id} ${fields?.join(',')} ${depth}` }] }
  },
)

const modern = tool('modern', 'Zod 4 schema', { when: z4.iso.datetime(), count: z4.int() }, async ({ when, count }) => {
  const w: string = when
  const c: number = count
  return { content: [{ type: 'text', text: `${w} ${c}` }] }
})

const server = createSdkMcpServer({ name: 'mixed', tools: [legacy, modern] })

for await (const m of query({ prompt: 'Look up record 42', options: { mcpServers: { mixed: server } } })) {
  if (m.type === 'result') console.log(m.subtype)
}
