// The custom-tool example of the documentation: an in-process MCP server with one Zod 4 tool.
import { query, tool, createSdkMcpServer } from '@anthropic-ai/claude-agent-sdk'
import { z } from 'zod'

const customServer = createSdkMcpServer({
  name: 'my-custom-tools',
  version: '1.0.0',
  tools: [
    tool(
      'get_weather',
      'Get current temperature for a location using coordinates',
      {
        latitude: z.number().describe('Latitude coordinate'),
        longitude: z.number().describe('Longitude coordinate'),
      },
      async (args) => {
        const lat: number = args.latitude
        const lon: number = args.longitude
        const response = await fetch(
          `https://api.open-meteo.com/v1/forecast?latitude=${lat}&longitude=${lon}&current=temperature_2m&temperature_unit=fahrenheit`,
        )
        const data = (await response.json()) as { current: { temperature_2m: number } }
        return {
          content: [
            {
              type: 'text',
              text: `Temperature: ${data.current.temperature_2m}°F`,
            },
          ],
        }
      },
    ),
  ],
})

async function* generateMessages() {
  yield {
    type: 'user' as const,
    message: {
      role: 'user' as const,
      content: 'What is the weather in San Francisco?',
    },
    parent_tool_use_id: null,
  }
}

for await (const message of query({
  prompt: generateMessages(),
  options: {
    mcpServers: {
      'my-custom-tools': customServer,
    },
    allowedTools: ['mcp__my-custom-tools__get_weather'],
    maxTurns: 3,
  },
})) {
  if (message.type === 'result' && message.subtype === 'success') {
    console.log(message.result)
  }
}
