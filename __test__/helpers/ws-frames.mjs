// RFC 6455 framing for the tests' WebSocket servers: frames out unmasked (server side), frames in
// masked or not, any payload length.

/** One frame: FIN set, `opcode`, the payload. */
export function wsFrame(opcode, payload) {
  const len = payload.length
  let head
  if (len < 126) head = Buffer.from([0x80 | opcode, len])
  else if (len < 65536) head = Buffer.from([0x80 | opcode, 126, len >> 8, len & 255])
  else {
    head = Buffer.alloc(10)
    head[0] = 0x80 | opcode
    head[1] = 127
    head.writeBigUInt64BE(BigInt(len), 2)
  }
  return Buffer.concat([head, payload])
}

/** The first whole frame of `buf` ({fin, opcode, payload, size}), or null while incomplete. */
export function readWsFrame(buf) {
  if (buf.length < 2) return null
  const fin = (buf[0] & 0x80) !== 0
  const opcode = buf[0] & 0x0f
  const masked = (buf[1] & 0x80) !== 0
  let len = buf[1] & 0x7f
  let at = 2
  if (len === 126) {
    if (buf.length < 4) return null
    len = buf.readUInt16BE(2)
    at = 4
  } else if (len === 127) {
    if (buf.length < 10) return null
    len = Number(buf.readBigUInt64BE(2))
    at = 10
  }
  const maskAt = at
  if (masked) at += 4
  if (buf.length < at + len) return null
  const payload = Buffer.from(buf.subarray(at, at + len))
  if (masked) for (let i = 0; i < len; i++) payload[i] ^= buf[maskAt + (i & 3)]
  return { fin, opcode, payload, size: at + len }
}
