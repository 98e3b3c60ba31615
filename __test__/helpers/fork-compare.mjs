// Compares `forkSession(id, { upToMessageId })` of ours and the official's, line by line: each
// fork's uuids are mapped back to the original's (through `forkedFrom.messageUuid`), so two forks
// made with different random ids compare equal when they keep the same entries, linked the same.
import fs from 'node:fs'
import path from 'node:path'
import assert from 'node:assert/strict'

/** A fork's lines with its own uuids replaced by the original's and its clock fields dropped. */
export function forkLines(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
  const orig = new Map(lines.filter((l) => l.forkedFrom).map((l) => [l.uuid, l.forkedFrom.messageUuid]))
  const map = (u) => (typeof u === 'string' ? orig.get(u) ?? 'new' : u)
  const lastForked = lines.map((l) => Boolean(l.forkedFrom)).lastIndexOf(true)
  return lines.map((l, n) => {
    const o = structuredClone(l)
    for (const k of ['uuid', 'parentUuid', 'logicalParentUuid']) if (k in o) o[k] = map(o[k])
    o.sessionId = 'fork'
    if (n === lastForked || !o.forkedFrom) delete o.timestamp
    if (!o.forkedFrom) delete o.ts
    if (typeof o.attachment?.source_uuid === 'string') o.attachment.source_uuid = orig.get(o.attachment.source_uuid) ?? o.attachment.source_uuid
    if (typeof o.fold?.command?.source_uuid === 'string') o.fold.command.source_uuid = orig.get(o.fold.command.source_uuid) ?? o.fold.command.source_uuid
    const seg = o.compactMetadata?.preservedSegment
    if (seg) for (const k of ['headUuid', 'anchorUuid', 'tailUuid']) if (k in seg) seg[k] = map(seg[k])
    const pm = o.compactMetadata?.preservedMessages
    if (pm) {
      if ('anchorUuid' in pm) pm.anchorUuid = map(pm.anchorUuid)
      for (const k of ['uuids', 'allUuids']) if (Array.isArray(pm[k])) pm[k] = pm[k].map(map)
    }
    return o
  })
}

/**
 * Forks `sessionId` (whose transcript is `file`, in the current CLAUDE_CONFIG_DIR) up to every
 * uuid and queued-command source uuid it has, with both packages; asserts the same outcome.
 * Returns how many cuts were compared.
 */
export async function forkEverywhere(ours, official, sessionId, file) {
  const entries = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l) } catch { return {} } })
  const targets = new Set()
  for (const e of entries) {
    if (typeof e.uuid === 'string' && e.isSidechain !== true) targets.add(e.uuid)
    if (typeof e.attachment?.source_uuid === 'string') targets.add(e.attachment.source_uuid)
    if (typeof e.fold?.command?.source_uuid === 'string') targets.add(e.fold.command.source_uuid)
  }
  const outcome = async (sdk, upToMessageId) => {
    try {
      const { sessionId: fork } = await sdk.forkSession(sessionId, { upToMessageId })
      return forkLines(path.join(path.dirname(file), `${fork}.jsonl`))
    } catch (e) {
      return `rejected: ${e.message}`
    }
  }
  for (const t of targets) {
    assert.deepStrictEqual(await outcome(ours, t), await outcome(official, t), `fork up to ${t}`)
  }
  return targets.size
}
