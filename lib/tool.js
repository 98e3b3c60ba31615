// @ts-check
'use strict'

/**
 * Defines an in-process MCP tool, as the official `tool()`: the definition is plain data plus
 * the handler. `extras.searchHint` / `extras.alwaysLoad` travel in `_meta` under the
 * `anthropic/` keys the CLI reads.
 * @param {string} name
 * @param {string} description
 * @param {unknown} inputSchema a zod shape, a zod object or a JSON Schema
 * @param {(args: any, extra: unknown) => unknown} handler
 * @param {{ annotations?: Record<string, unknown>, searchHint?: string, alwaysLoad?: boolean }} [extras]
 */
function tool(name, description, inputSchema, handler, extras) {
  /** @type {Record<string, unknown>} */
  const meta = {}
  if (extras && extras.searchHint) meta['anthropic/searchHint'] = extras.searchHint
  if (extras && extras.alwaysLoad) meta['anthropic/alwaysLoad'] = true
  return {
    name,
    description,
    inputSchema,
    handler,
    annotations: extras ? extras.annotations : undefined,
    _meta: Object.keys(meta).length > 0 ? meta : undefined,
  }
}

module.exports = { tool }
