// @ts-check
'use strict'
// claude-agent-sdk-native/stores/s3: S3SessionStore (needs the optional peer dependency `@aws-sdk/client-s3`).
module.exports = require('../lib/stores/s3.js')
