// @ts-check
'use strict'
// Partial-message frames (`stream_event`) a worker writes are held for 100 ms and sent together,
// as the official `./bridge` sends them: runs of consecutive deltas of one content block (text,
// tool input JSON, thinking) are merged into the first one of the run, up to 57,344 bytes of
// delta; a frame over 61,440 bytes is dropped; any other write sends what is held first. They
// are ephemeral: not carried to a rebuilt transport, and dropped first when the service refuses
// a batch.

const FLUSH_INTERVAL_MS = 100
const MAX_FRAME_BYTES = 61440
const MAX_MERGED_BYTES = MAX_FRAME_BYTES - 4096

// The mergeable part of a delta event, or null.
function deltaOf(event) {
  if (event?.type !== 'content_block_delta') return null
  const d = event.delta
  switch (d?.type) {
    case 'text_delta': return typeof d.text === 'string' ? { type: d.type, chunk: d.text } : null
    case 'input_json_delta': return typeof d.partial_json === 'string' ? { type: d.type, chunk: d.partial_json } : null
    case 'thinking_delta': return typeof d.thinking === 'string' ? { type: d.type, chunk: d.thinking, tokens: d.estimated_tokens ?? undefined } : null
    default: return null
  }
}

// The bytes a chunk adds inside a JSON string.
const jsonBytes = (chunk) => Buffer.byteLength(JSON.stringify(chunk)) - 2

function sameRun(run, frame, delta, bytes) {
  return run.first.event.index === frame.event.index && run.type === delta.type &&
    run.first.parent_tool_use_id === frame.parent_tool_use_id && run.first.thinking_display === frame.thinking_display &&
    run.first.api_message_id === frame.api_message_id && run.bytes + bytes <= MAX_MERGED_BYTES
}

function merged(run) {
  if (run.count === 1) return run.first
  const delta = run.type === 'text_delta' ? { type: 'text_delta', text: run.text }
    : run.type === 'input_json_delta' ? { type: 'input_json_delta', partial_json: run.text }
      : { type: 'thinking_delta', thinking: run.text, estimated_tokens: run.tokens ?? null }
  return { ...run.first, event: { ...run.first.event, delta: { ...run.first.event.delta, ...delta } } }
}

// Merges runs; `byBytes` caps a run by its JSON size (used when the text is large).
function coalesceWith(frames, byBytes) {
  const out = []
  /** @type {{ first: any, type: any, text: string, tokens: any, bytes: number, count: number } | null} */
  let run = null
  let total = 0
  for (const frame of frames) {
    const delta = deltaOf(frame.event)
    if (delta === null) {
      if (run) out.push(merged(run))
      run = null
      out.push(frame)
      continue
    }
    const bytes = byBytes ? jsonBytes(delta.chunk) : 0
    if (!byBytes) total += delta.chunk.length
    if (run && sameRun(run, frame, delta, bytes)) {
      run.text += delta.chunk
      run.bytes += bytes
      run.count++
      if (typeof delta.tokens === 'number') run.tokens = (run.tokens ?? 0) + delta.tokens
      continue
    }
    if (run) out.push(merged(run))
    run = { first: frame, type: delta.type, text: delta.chunk, tokens: delta.tokens, bytes, count: 1 }
  }
  if (run) out.push(merged(run))
  return total * 6 > MAX_MERGED_BYTES ? null : out
}

function coalesce(frames) {
  if (frames.length <= 1) return frames
  return coalesceWith(frames, false) ?? coalesceWith(frames, true)
}

class StreamEventBuffer {
  // send(frames) enqueues the frames to leave, in order.
  constructor(send) {
    this.send = send
    this.frames = []
    this.timer = null
  }

  hold(frame) {
    this.frames.push(frame)
    this.timer ??= setTimeout(() => this.release(), FLUSH_INTERVAL_MS)
  }

  // What is held, merged, to leave with the write that ends the wait.
  take() {
    clearTimeout(this.timer)
    this.timer = null
    const frames = this.frames
    this.frames = []
    return frames.length === 0 ? [] : coalesce(frames).filter((f) => Buffer.byteLength(JSON.stringify(f)) <= MAX_FRAME_BYTES)
  }

  // Sends what is held, merged.
  release() {
    const out = this.take()
    if (out.length > 0) this.send(out)
  }

  // Drops what is held (the worker closed).
  drop() {
    clearTimeout(this.timer)
    this.timer = null
    this.frames = []
  }
}

module.exports = { StreamEventBuffer, coalesce }
