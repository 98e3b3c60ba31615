// @ts-check
'use strict'
// matchDeniedModels(): which of a list of model names a `deniedModels` setting blocks, with the
// warnings the official SDK gives for entries it cannot match exactly. Same parsing of model IDs
// (families, versions, snapshots, cloud-provider prefixes) and the same warning texts.

const FAMILIES = ['sonnet', 'opus', 'haiku', 'fable']
const ALIASES = ['sonnet', 'opus', 'haiku', 'fable', 'best', 'sonnet[1m]', 'opus[1m]', 'fable[1m]', 'opusplan']
const REGIONS = ['us', 'eu', 'apac', 'jp', 'au', 'us-gov', 'global']
const NOT_A_LIST = '"deniedModels" was present but is not a list of model names, so it was ignored and blocks no models until it is fixed.'

const isFamily = (s) => FAMILIES.includes(s)
const withoutContextTags = (s) => s.replace(/\[(1|2)m\]/gi, '')
const capitalized = (s) => s.charAt(0).toUpperCase() + s.slice(1)

/** The text of a user value inside a message: control characters masked, at most 128 characters. */
function shown(s) {
  // oxlint-disable-next-line no-control-regex -- masking control characters is the point
  const t = s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
  return t.length > 128 ? `${t.slice(0, 128)}…` : t
}

function familiesInWords() {
  const all = [...FAMILIES]
  const last = all.pop()
  return all.length === 0 ? last ?? '' : `${all.join(', ')} or ${last}`
}

/** Damerau-Levenshtein distance, bounded: any distance above `max` is `max + 1`. */
function distance(a, b, max) {
  if (a === b) return 0
  const n = a.length
  const m = b.length
  const over = max + 1
  if (Math.abs(n - m) > max) return over
  let before = new Int32Array(m + 2).fill(over)
  let prev = new Int32Array(m + 2).fill(over)
  let cur = new Int32Array(m + 2).fill(over)
  for (let j = 0; j <= Math.min(m, max); j++) prev[j] = j
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max)
    const hi = Math.min(m, i + max)
    cur[lo - 1] = lo === 1 ? Math.min(i, over) : over
    let rowMin = cur[lo - 1]
    for (let j = lo; j <= hi; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1), over)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1)
      cur[j] = d
      rowMin = Math.min(rowMin, d)
    }
    cur[hi + 1] = over
    if (rowMin > max) return over
    ;[before, prev, cur] = [prev, cur, before]
  }
  return prev[m]
}

/** The family/version head of a model ID: `claude-opus-4-5…` or the legacy `claude-3-5-sonnet…`. */
function versionHead(s) {
  const modern = /^claude-([a-z]+)-(\d{1,2})(?!\d)(?:-(\d{1,2})(?!\d))?/.exec(s)
  if (modern) {
    const [base, family = '', major = '', minor] = modern
    return { family, major: Number(major), minor: minor === undefined ? undefined : Number(minor), legacyVersionFirst: false, base }
  }
  const legacy = /^claude-(\d{1,2})(?!\d)(?:-(\d{1,2})(?!\d))?-([a-z]+)/.exec(s)
  if (legacy) {
    const [base, major = '', minor, family = ''] = legacy
    return { family, major: Number(major), minor: minor === undefined ? undefined : Number(minor), legacyVersionFirst: true, base }
  }
  return null
}

const isKnownSuffix = (s) => /^(?:-fast|-latest)?(?:-v\d{1,3}@\d{8}|[-@]\d{8})?(?:-v\d{1,3}(?::\d{1,3})?)?$/.test(s)

/** Parses a model ID (also `region.anthropic.claude-…` and `provider/…` forms); null if it is none. */
function parseModelId(input) {
  let s = input.trim().toLowerCase()
  if (s === '' || /\s/.test(s)) return null
  s = s.replace(/\[[12]m\]$/, '')
  const slash = s.lastIndexOf('/')
  if (slash !== -1) s = s.slice(slash + 1)
  const bedrock = /^(?:([a-z-]+)\.)?anthropic\.(claude-.*)$/.exec(s)
  if (bedrock) {
    const [, region, rest = ''] = bedrock
    if (region !== undefined && !REGIONS.includes(region)) return null
    s = rest
  }
  const head = versionHead(s)
  if (!head) return null
  const suffix = s.slice(head.base.length)
  if (suffix !== '' && !/^[-@]/.test(suffix)) return null
  const id = { family: head.family, major: head.major, legacyVersionFirst: head.legacyVersionFirst, base: head.base }
  if (head.minor !== undefined) id.minor = head.minor
  if (!isKnownSuffix(suffix)) id.trailer = suffix
  else {
    const date = /(?:-v\d+@|[-@])(\d{8})/.exec(suffix)?.[1]
    if (date !== undefined) id.date = date
  }
  return id
}

function blocksWhat(id) {
  const family = capitalized(id.family)
  return id.minor === undefined ? `every ${family} ${id.major}.x model` : `${family} ${id.major}.${id.minor} in every spelling and snapshot`
}

function literalWarning(raw, value) {
  const base = `"${shown(raw)}" blocks only the exact model name "${shown(value)}"; other spellings of the same model are not blocked.`
  const hyphenated = value.replace(/(\d)\.(\d)/g, '$1-$2')
  if (hyphenated !== value) {
    const id = hyphenated.startsWith('claude-') ? hyphenated : `claude-${hyphenated}`
    if (parseModelId(id) !== null) return `${base} To block a version, write it with a hyphen: "${shown(id)}".`
  }
  const spoken = new RegExp(`^(${FAMILIES.join('|')})\\s+(\\d+)(?:\\.(\\d+))?$`).exec(value)
  if (spoken) {
    const [, family, major, minor] = spoken
    return minor !== undefined
      ? `${base} To block a version, write its model ID, for example "claude-${family}-${major}-${minor}".`
      : `${base} To block only version ${major}, write "claude-${family}-${major}-0"; "claude-${family}-${major}" blocks every ${capitalized(family)} ${major}.x model.`
  }
  if (/^[a-z]+$/.test(value)) {
    const near = FAMILIES.find((f) => distance(value, f, 1) === 1)
    return near !== undefined
      ? `${base} If you meant the ${capitalized(near)} family, write "${near}".`
      : `${base} To block a model family other than ${familiesInWords()}, list its versioned IDs.`
  }
  return base
}

/** One deniedModels entry: what it blocks ({kind: literal|family|model}, or null) and a warning. */
function parseEntry(raw) {
  const lower = raw.trim().toLowerCase()
  const name = withoutContextTags(lower).trim()
  const tagNote = name !== lower ? ' Context-size tags such as [1m] are ignored: the entry blocks the model at every context size.' : ''
  if (name === '') return { entry: null, warning: 'An empty deniedModels entry was ignored.' }
  if (isFamily(name)) return { entry: { kind: 'family', family: name }, ...(tagNote !== '' && { warning: `"${shown(raw)}" blocks every ${capitalized(name)} model.${tagNote}` }) }
  if (ALIASES.includes(name) || name === 'default') {
    return { entry: null, warning: `"${shown(raw)}" was ignored: it names a different model depending on the release and settings. Name the model instead, for example "claude-opus-5-5".` }
  }
  const parsed = parseModelId(name)
  const spelled = parsed !== null || name.startsWith('claude-') ? name : `claude-${name}`
  const id = parsed ?? (spelled !== name ? parseModelId(spelled) : null)
  if (id) {
    const at = spelled.lastIndexOf(id.base)
    const rest = at === -1 ? '' : spelled.slice(at + id.base.length)
    const restNote = id.trailer === undefined && rest !== '' ? ` "${shown(rest)}" is ignored.` : ''
    return { entry: { kind: 'model', id }, ...((tagNote !== '' || restNote !== '') && { warning: `"${shown(raw)}" blocks ${blocksWhat(id)}.${restNote}${tagNote}` }) }
  }
  return { entry: { kind: 'literal', value: name }, warning: literalWarning(raw, name) }
}

function sameModel(entry, model) {
  if (entry.family !== model.family || entry.major !== model.major) return false
  if (entry.minor !== undefined && (model.minor ?? 0) !== entry.minor) return false
  if (entry.trailer === undefined) return true
  const trailer = model.trailer ?? ''
  return trailer === entry.trailer || trailer.startsWith(`${entry.trailer}-`)
}

/** Whether `family` occurs in `name` as a whole word. */
function containsWord(name, family) {
  for (let i = name.indexOf(family); i !== -1; i = name.indexOf(family, i + 1)) {
    const startOk = i === 0 || !/[a-z0-9]/i.test(name[i - 1])
    const end = i + family.length
    if (startOk && (end === name.length || !/[a-z0-9]/i.test(name[end]))) return true
  }
  return false
}

function entryBlocks(entry, name, id) {
  switch (entry.kind) {
    case 'literal': return name === entry.value
    case 'family': return id?.family === entry.family || containsWord(name, entry.family)
    case 'model': return id !== null && sameModel(entry.id, id)
  }
}

function isDenied(model, entries) {
  const name = withoutContextTags(model.trim()).toLowerCase()
  const id = parseModelId(name)
  return entries.some((raw) => {
    const { entry } = parseEntry(raw)
    return entry !== null && entryBlocks(entry, name, id)
  })
}

const typeName = (v) => (v === null ? 'null' : typeof v)
const unique = (list) => [...new Set(list)]

/**
 * For each of `models`, whether `deniedModels` blocks it; and the warnings about entries (and
 * models) that are not what they look like. Never throws on bad input: bad input is a warning.
 */
async function matchDeniedModels(models, deniedModels) {
  const list = Array.isArray(models) ? models : []
  const modelNotes = Array.isArray(models)
    ? list.flatMap((m) => (typeof m === 'string' ? [] : `"models" contained a non-string entry (${typeName(m)}), which is not a model name, so it cannot be matched.`))
    : ['"models" is not a list of model names, so nothing was matched.']
  const denied = deniedModels ?? []
  if (!Array.isArray(denied)) return { denied: list.map(() => false), warnings: unique([NOT_A_LIST, ...modelNotes]) }
  const entries = []
  const entryNotes = []
  for (const e of denied) {
    if (typeof e === 'string') entries.push(e)
    else entryNotes.push(`"deniedModels" contained a non-string entry (${typeName(e)}); the entry was ignored.`)
  }
  return {
    denied: list.map((m) => typeof m === 'string' && isDenied(m, entries)),
    warnings: unique([...entryNotes, ...entries.flatMap((e) => parseEntry(e).warning ?? []), ...modelNotes]),
  }
}

module.exports = { matchDeniedModels, parseModelId }
