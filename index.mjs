import api from './index.js'

export const { query, tool, createSdkMcpServer, AbortError } = api
export default api
