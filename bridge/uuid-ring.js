// @ts-check
'use strict'
// A set of the last N uuids (outbound writes, inbound prompts), the oldest forgotten first.

class UuidRing {
  /** @param {number} capacity */
  constructor(capacity) {
    this.capacity = capacity
    /** @type {Array<string | undefined>} */
    this.ring = new Array(capacity)
    /** @type {Set<string>} */
    this.set = new Set()
    this.next = 0
  }

  /** @param {string} uuid */
  add(uuid) {
    if (this.set.has(uuid)) return
    const old = this.ring[this.next]
    if (old !== undefined) this.set.delete(old)
    this.ring[this.next] = uuid
    this.set.add(uuid)
    this.next = (this.next + 1) % this.capacity
  }

  /** @param {string} uuid */
  has(uuid) {
    return this.set.has(uuid)
  }
}

module.exports = { UuidRing }
