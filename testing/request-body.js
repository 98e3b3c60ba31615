// @ts-check
'use strict'
// A request's body as text, decompressed when the client compressed it (gzip, deflate, br, and
// zstd where this Node has it): shared by the scripted Messages and Responses APIs.
const zlib = require('node:zlib')

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<string>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const parts = []
    req.on('data', /** @param {Buffer} c */ (c) => parts.push(c))
    req.on('error', reject)
    req.on('end', () => {
      let buf = Buffer.concat(parts)
      try {
        const enc = String(req.headers['content-encoding'] || '').toLowerCase()
        if (enc === 'gzip') buf = zlib.gunzipSync(buf)
        else if (enc === 'deflate') buf = zlib.inflateSync(buf)
        else if (enc === 'br') buf = zlib.brotliDecompressSync(buf)
        else if (enc === 'zstd' && typeof zlib.zstdDecompressSync === 'function') buf = zlib.zstdDecompressSync(buf)
      } catch (e) {
        return reject(e)
      }
      resolve(buf.toString('utf8'))
    })
  })
}

module.exports = { readBody }
