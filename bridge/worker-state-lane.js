// @ts-check
'use strict'
// PUT {session}/worker patches, one at a time: patches queued while one is in flight merge into
// the next (external_metadata and internal_metadata key by key, the rest replaced), except that
// two status changes never merge, so every reported status reaches the service in order.
const { BatchLane, PermanentFailure } = require('./batch-lane.js')

function mergePatch(a, b) {
  const out = { ...a }
  for (const [key, value] of Object.entries(b)) {
    const both = (key === 'external_metadata' || key === 'internal_metadata') && isPlain(out[key]) && isPlain(value)
    out[key] = both ? { ...out[key], ...value } : value
  }
  return out
}

function isPlain(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

class WorkerStateLane {
  constructor(put) {
    this.lane = new BatchLane({
      maxBatchSize: 1,
      send: async ([patch]) => {
        const r = await put(patch)
        if (r.ok) return
        if (r.permanent) throw new PermanentFailure(`PUT /worker refused (${r.status})`)
        throw new Error(`PUT /worker failed (${r.reason})`)
      },
    })
  }

  enqueue(patch) {
    const waiting = this.lane.pending
    const last = waiting.at(-1)
    if (last && !('worker_status' in last && 'worker_status' in patch)) waiting[waiting.length - 1] = mergePatch(last, patch)
    else this.lane.enqueue([patch])
  }

  flush() {
    return this.lane.flush()
  }

  close() {
    this.lane.close()
  }
}

module.exports = { WorkerStateLane, mergePatch }
