import api from './index.js'

export const { query, startup, tool, createSdkMcpServer, AbortError } = api
export default api
