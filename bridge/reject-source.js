// @ts-check
'use strict'
// Who wrote a 403, from its response headers: the origin (`request-id: req_…`), a Cloudflare
// edge (`cf-ray`, or a `server` naming Cloudflare), or another hop.

const ORIGIN_REQUEST_ID = /^req_[A-Za-z0-9_-]{1,36}$/

/** @param {(name: string) => string | null | undefined} getHeader a response's header by name */
function rejectSource(getHeader) {
  const requestId = getHeader('request-id')
  if (typeof requestId === 'string' && ORIGIN_REQUEST_ID.test(requestId.trim())) return 'origin'
  const ray = getHeader('cf-ray')
  const server = getHeader('server')
  if ((typeof ray === 'string' && ray !== '') || (typeof server === 'string' && /cloudflare/i.test(server))) return 'nonorigin_cf'
  return 'nonorigin_other'
}

module.exports = { rejectSource }
