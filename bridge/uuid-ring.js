// @ts-check
'use strict'
// A set of the last N uuids (outbound writes, inbound prompts), the oldest forgotten first.

class UuidRing {
  constructor(capacity) {
    this.capacity = capacity
    this.ring = new Array(capacity)
    this.set = new Set()
    this.next = 0
  }

  add(uuid) {
    if (this.set.has(uuid)) return
    const old = this.ring[this.next]
    if (old !== undefined) this.set.delete(old)
    this.ring[this.next] = uuid
    this.set.add(uuid)
    this.next = (this.next + 1) % this.capacity
  }

  has(uuid) {
    return this.set.has(uuid)
  }
}

module.exports = { UuidRing }
