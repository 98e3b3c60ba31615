// Negative: wrong tool definitions are rejected. Every line after a `@ts-expect-error` must be an
// error against both packages, with the same error code unless the directive says otherwise.
import { createSdkMcpServer, tool } from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'

const ok = tool('t', 'd', { n: z.number(), s: z.string().optional() }, async (args) => ({ content: [{ type: 'text', text: `${args.n} ${args.s}` }] }))

// The handler declares the wrong argument type.
// @ts-expect-error
tool('t', 'd', { n: z.number() }, async (args: { n: string }) => ({ content: [] }))

// The handler reads an argument the schema does not have.
// @ts-expect-error
tool('t', 'd', { n: z.number() }, async (args) => ({ content: [{ type: 'text', text: String(args.missing) }] }))

// The handler uses a number as a string.
// @ts-expect-error
tool('t', 'd', { n: z.number() }, async (args) => ({ content: [{ type: 'text', text: args.n.toUpperCase() }] }))

// An optional argument is possibly undefined (Zod 3 shape).
// @ts-expect-error
tool('t', 'd', { maybe: z3.number().optional() }, async (args) => ({ content: [{ type: 'text', text: args.maybe.toFixed() }] }))

// An optional argument is possibly undefined (Zod 4 shape).
// @ts-expect-error
tool('t', 'd', { maybe: z.number().optional() }, async (args) => { const n: number = args.maybe; return { content: [{ type: 'text', text: String(n) }] } })

// The result's content must be an array of content blocks.
// @ts-expect-error
tool('t', 'd', {}, async () => ({ content: 'plain text' }))

// A content block of an unknown type.
// @ts-expect-error
tool('t', 'd', {}, async () => ({ content: [{ type: 'txt', text: 'x' }] }))

// A text block without text.
// @ts-expect-error
tool('t', 'd', {}, async () => ({ content: [{ type: 'text' }] }))

// The handler must return a Promise.
// @ts-expect-error
tool('t', 'd', {}, () => ({ content: [] }))

// The input schema must be a Zod raw shape (for claude-agent-sdk-native: or a JSON Schema object).
// @ts-expect-error -- code may differ: our inputSchema also takes a JSON Schema, so the message names both
tool('t', 'd', { n: 'number' }, async () => ({ content: [] }))

// Annotations have boolean hints.
// @ts-expect-error
tool('t', 'd', {}, async () => ({ content: [] }), { annotations: { readOnlyHint: 'yes' } })

// A server needs a name.
// @ts-expect-error
createSdkMcpServer({ version: '1.0.0', tools: [ok] })

// Tools must be tool definitions.
// @ts-expect-error -- code may differ: our `tools` also takes JSON Schema tool definitions
createSdkMcpServer({ name: 's', tools: [{ name: 'x', description: 'y' }] })

// The server's config is not a stdio config.
// @ts-expect-error
const command: string = createSdkMcpServer({ name: 's' }).command
void command
