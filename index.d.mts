// Typings of the ES module entry (index.mjs): the same declarations as index.d.ts (which types
// the CommonJS entry, index.js), and the default export index.mjs has: the CommonJS exports object.
import api from './index.js'

export * from './index.js'
export default api
