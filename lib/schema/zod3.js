// @ts-check
'use strict'
// zod 3 input schemas: as the official SDK does it — zod 3's object() over the shape, the
// schema's own safeParseAsync, and zod-to-json-schema with strictUnions and pipeStrategy
// "input". zod and zod-to-json-schema load on first use only.
const { loadZod3, loadZodToJsonSchema } = require('./zod-loader')

function zod3Backend(inputSchema, form) {
  let built
  return {
    build() {
      if (built) return built
      const schema = form === 'shape' ? loadZod3().object(inputSchema) : inputSchema
      built = { schema, objectSchema: schema.shape !== undefined ? schema : undefined }
      return built
    },
    jsonSchemaConverter() {
      const zodToJsonSchema = loadZodToJsonSchema()
      return (objectSchema) => zodToJsonSchema(objectSchema, { strictUnions: true, pipeStrategy: 'input' })
    },
    safeParseAsync(schema, args) {
      return schema.safeParseAsync(args)
    },
    converterVersion() {
      return { major: 3, minor: 0, patch: 0 }
    },
  }
}

module.exports = { zod3Backend }
