// @ts-check
import bridge from './index.js'

export const { attachBridgeSession, createCodeSession, fetchRemoteCredentials, isCreateSessionFailure, isCredentialsFailure, isCredentialsRejection } = bridge
