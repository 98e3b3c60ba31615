//! A transcript's entries, read with only the fields the conversation chain needs: every
//! other field is skipped by the parser, and `message`/`origin` stay raw JSON text that is
//! copied to the output as it is.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize, Default, Clone)]
pub(crate) struct PreservedSegment<'a> {
    #[serde(borrow, rename = "headUuid")]
    pub head: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "anchorUuid")]
    pub anchor: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "tailUuid")]
    pub tail: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default, Clone)]
pub(crate) struct PreservedMessages<'a> {
    #[serde(borrow, default)]
    pub uuids: Vec<Cow<'a, str>>,
    #[serde(borrow, rename = "anchorUuid")]
    pub anchor: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default, Clone)]
pub(crate) struct CompactMetadata<'a> {
    #[serde(borrow, rename = "preservedSegment")]
    pub preserved_segment: Option<PreservedSegment<'a>>,
    #[serde(borrow, rename = "preservedMessages")]
    pub preserved_messages: Option<PreservedMessages<'a>>,
}

#[derive(Deserialize, Default, Clone)]
pub(crate) struct AttachmentPeek<'a> {
    #[serde(borrow, rename = "type")]
    pub kind: Option<Cow<'a, str>>,
}

/// A JSON value's text, borrowed from a transcript line the line scanner checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Raw<'a>(&'a str);

impl<'a> Raw<'a> {
    pub fn get(&self) -> &'a str {
        self.0
    }
}

impl serde::Serialize for Raw<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = RawValue::from_string(self.0.to_string()).map_err(serde::ser::Error::custom)?;
        v.serialize(s)
    }
}

/// One transcript line, reduced to what the chain walk and the output need.
#[derive(Clone, Default)]
pub(crate) struct Entry<'a> {
    pub kind: Option<Cow<'a, str>>,
    pub uuid: Option<Cow<'a, str>>,
    pub parent: Option<Cow<'a, str>>,
    pub subtype: Option<Cow<'a, str>>,
    pub sidechain: bool,
    pub team_name: Option<Raw<'a>>,
    pub meta: bool,
    pub compact_summary: bool,
    pub transcript_only: bool,
    pub interrupted_by_shutdown: bool,
    /// Boxed: few entries have one, and every entry would carry its size.
    pub compact: Option<Box<CompactMetadata<'a>>>,
    pub attachment: Option<AttachmentPeek<'a>>,
    pub message: Option<Raw<'a>>,
    pub session_id: Option<Cow<'a, str>>,
    pub timestamp: Option<Cow<'a, str>>,
    pub origin: Option<Raw<'a>>,
    pub agent_id: Option<Cow<'a, str>>,
    pub source_tool_assistant: Option<Cow<'a, str>>,
    pub prompt_source: Option<Raw<'a>>,
    pub closes_quiet_turn: bool,
    pub queued_command: bool,
    pub denial_kind: Option<Raw<'a>>,
    pub denial_unanswered: Option<Raw<'a>>,
    /// `isVirtual: true` (a row the host ran, written beside the conversation).
    pub is_virtual: bool,
    /// `hostHiddenToolUseIds` (the tool calls the host ran and hid), raw.
    pub host_hidden: Option<Raw<'a>>,
    /// `ranByToolUseId` (the hidden call a virtual row belongs to), raw.
    pub ran_by: Option<Raw<'a>>,
    /// `hostContent` (what the host showed for a hidden call), raw.
    pub host_content: Option<Raw<'a>>,
    /// `fold` (of a voice-call record: the queued command it folds), raw.
    pub fold: Option<Raw<'a>>,
    /// Set on entries rewritten by the chain walk (compaction relinking).
    pub relinked_parent: Option<Option<String>>,
    /// Marked by the local-command pass.
    pub completed_local_command: bool,
    /// The `attachment` object's text.
    pub attachment_raw: Option<Raw<'a>>,
    /// The message (and origin) of an entry made by the engine rather than read (a queued
    /// command shown as the user message it was).
    pub made: Option<Box<Made>>,
    /// A user or assistant line's `tool_result` and `tool_use` blocks, taken by the line scan
    /// as it passed the message (`None` for an entry read otherwise: then the split-message pass
    /// reads the message again).
    pub scanned_tools: Option<Vec<ScannedTool<'a>>>,
}

/// A `tool_use` or `tool_result` block of an entry's message, as the line scan found it (see
/// [`super::skim::ToolSpan`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ScannedTool<'a> {
    /// A `tool_result` block (else a `tool_use` one).
    pub result: bool,
    /// Its `type` string has an escape.
    pub type_escaped: bool,
    /// Its id (`id` of a `tool_use`, `tool_use_id` of a `tool_result`), when a string (that
    /// decodes).
    pub id: Option<Cow<'a, str>>,
}

/// What a made entry has that a line would hold.
#[derive(Clone, Default)]
pub struct Made {
    /// The `message` JSON text.
    pub message: String,
    /// The `origin` JSON text.
    pub origin: Option<String>,
    /// `ranByToolUseId` of a virtual row made from a `host-row` line.
    pub ran_by: Option<String>,
}

/// The top-level keys an [`Entry`] is read from, in the order of [`Entry::from_fields`].
const KEYS: [&str; 28] = [
    "type",
    "uuid",
    "parentUuid",
    "subtype",
    "isSidechain",
    "teamName",
    "isMeta",
    "isCompactSummary",
    "isVisibleInTranscriptOnly",
    "interruptedByShutdown",
    "compactMetadata",
    "attachment",
    "message",
    "sessionId",
    "timestamp",
    "origin",
    "agentId",
    "sourceToolAssistantUUID",
    "promptSource",
    "closesQuietTurn",
    "isQueuedCommand",
    "toolDenialKind",
    "toolDenialUnanswered",
    "isVirtual",
    "hostHiddenToolUseIds",
    "ranByToolUseId",
    "hostContent",
    "fold",
];

/// A key's place in [`KEYS`], told apart by its length and a letter or two before one
/// comparison.
#[inline]
fn slot(k: &[u8]) -> Option<usize> {
    let n = match (k.len(), *k.first()?) {
        (4, b't') => 0,
        (4, b'u') => 1,
        (10, b'p') => 2,
        (7, b's') => 3,
        (11, b'i') => 4,
        (8, b't') => 5,
        (6, b'i') => 6,
        (16, b'i') => 7,
        (25, b'i') => 8,
        (21, b'i') => 9,
        (15, b'c') if k[2] == b'm' => 10,
        (10, b'a') => 11,
        (7, b'm') => 12,
        (9, b's') => 13,
        (9, b't') => 14,
        (6, b'o') => 15,
        (7, b'a') => 16,
        (23, b's') => 17,
        (12, b'p') => 18,
        (15, b'c') => 19,
        (15, b'i') => 20,
        (14, b't') => 21,
        (20, b't') => 22,
        (9, b'i') => 23,
        (20, b'h') => 24,
        (14, b'r') => 25,
        (11, b'h') => 26,
        (4, b'f') => 27,
        _ => return None,
    };
    same(KEYS[n].as_bytes(), k).then_some(n)
}

/// `a == b` for keys: a few overlapping word compares rather than a call to memcmp (a line has a
/// score of keys).
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let w8 = |s: &[u8], at: usize| {
        s.get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map(u64::from_le_bytes)
    };
    let w4 = |s: &[u8], at: usize| {
        s.get(at..at + 4)
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map(u32::from_le_bytes)
    };
    match n {
        4..=7 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        8..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        17..=32 => {
            w8(a, 0) == w8(b, 0)
                && w8(a, 8) == w8(b, 8)
                && w8(a, n - 16) == w8(b, n - 16)
                && w8(a, n - 8) == w8(b, n - 8)
        }
        _ => a == b,
    }
}

/// A string field: `None` when absent or null; `Err` when it is another kind of value or a
/// string Rust cannot hold (a lone surrogate), which makes the line unreadable (as it was for
/// the serde reader this replaces).
fn str_field(v: Option<&str>, escaped: bool) -> Result<Option<Cow<'_, str>>, ()> {
    match v {
        None | Some("null") => Ok(None),
        Some(t) if t.starts_with('"') => {
            let inner = &t[1..t.len() - 1];
            if escaped {
                serde_json::from_str::<String>(t)
                    .map(|s| Some(Cow::Owned(s)))
                    .map_err(|_| ())
            } else {
                Ok(Some(Cow::Borrowed(inner)))
            }
        }
        Some(_) => Err(()),
    }
}

/// Only `true` counts (a flag written as anything else is treated as unset).
fn flag(v: Option<&str>) -> bool {
    v == Some("true")
}

fn raw(v: Option<&str>) -> Option<Raw<'_>> {
    v.filter(|t| *t != "null").map(Raw)
}

/// A nested object read with serde: `None` when absent or null; `Err` when it does not fit.
fn nested<'a, T: Deserialize<'a>>(v: Option<&'a str>) -> Result<Option<T>, ()> {
    match v {
        None | Some("null") => Ok(None),
        Some(t) => serde_json::from_str::<T>(t).map(Some).map_err(|_| ()),
    }
}

impl<'a> Entry<'a> {
    fn from_fields(f: &[Option<&'a str>; 28], esc: u64) -> Result<Entry<'a>, ()> {
        Ok(Entry {
            kind: str_field(f[0], esc & (1 << 0) != 0)?,
            uuid: str_field(f[1], esc & (1 << 1) != 0)?,
            parent: str_field(f[2], esc & (1 << 2) != 0)?,
            subtype: str_field(f[3], esc & (1 << 3) != 0)?,
            sidechain: flag(f[4]),
            team_name: raw(f[5]),
            meta: flag(f[6]),
            compact_summary: flag(f[7]),
            transcript_only: flag(f[8]),
            interrupted_by_shutdown: flag(f[9]),
            compact: nested::<CompactMetadata<'a>>(f[10])?.map(Box::new),
            attachment: nested(f[11])?,
            message: raw(f[12]),
            session_id: str_field(f[13], esc & (1 << 13) != 0)?,
            timestamp: str_field(f[14], esc & (1 << 14) != 0)?,
            origin: raw(f[15]),
            agent_id: str_field(f[16], esc & (1 << 16) != 0)?,
            source_tool_assistant: str_field(f[17], esc & (1 << 17) != 0)?,
            prompt_source: raw(f[18]),
            closes_quiet_turn: flag(f[19]),
            queued_command: flag(f[20]),
            denial_kind: raw(f[21]),
            denial_unanswered: raw(f[22]),
            is_virtual: flag(f[23]),
            host_hidden: raw(f[24]),
            ran_by: raw(f[25]),
            host_content: raw(f[26]),
            fold: raw(f[27]),
            relinked_parent: None,
            completed_local_command: false,
            attachment_raw: raw(f[11]),
            made: None,
            scanned_tools: None,
        })
    }

    /// One line as an entry; `None` when it is not a JSON object or a field has the wrong kind.
    #[cfg(test)]
    pub fn parse(line: &'a str, skimmer: &mut super::skim::Skimmer) -> Option<Entry<'a>> {
        let mut f = [None; 28];
        let esc = skimmer.object_slots(line, slot, &mut f)?;
        Entry::from_fields(&f, esc).ok()
    }
}

impl<'a> Entry<'a> {
    pub fn kind(&self) -> &str {
        self.kind.as_deref().unwrap_or("")
    }
    pub fn uuid(&self) -> &str {
        self.uuid.as_deref().unwrap_or("")
    }
    /// The parent after relinking.
    pub fn parent(&self) -> Option<&str> {
        match &self.relinked_parent {
            Some(p) => p.as_deref(),
            None => self.parent.as_deref(),
        }
    }
    pub(crate) fn is_message(&self) -> bool {
        matches!(self.kind(), "user" | "assistant")
    }
    /// The message's JSON text (a made entry's, or the line's).
    pub fn message_text(&self) -> Option<&str> {
        match &self.made {
            Some(m) => Some(&m.message),
            None => self.message.map(|m| m.get()),
        }
    }
    /// The origin's JSON text (a made entry's, or the line's).
    pub(crate) fn origin_text(&self) -> Option<&str> {
        match &self.made {
            Some(m) => m.origin.as_deref(),
            None => self.origin.map(|o| o.get()),
        }
    }
    /// An assistant entry that hid tool calls or ran for one (official `gc`).
    pub(crate) fn hides_tools(&self) -> bool {
        self.kind() == "assistant"
            && (self.host_hidden.is_some_and(|h| h.get().starts_with('[')) || self.ran_by_text().is_some())
    }
    /// `ranByToolUseId` when it is a string.
    pub(crate) fn ran_by_text(&self) -> Option<String> {
        if let Some(r) = self.made.as_ref().and_then(|m| m.ran_by.clone()) {
            return Some(r);
        }
        self.ran_by
            .filter(|r| r.get().starts_with('"'))
            .and_then(|r| serde_json::from_str(r.get()).ok())
    }
    pub(crate) fn has_team(&self) -> bool {
        self.team_name
            .is_some_and(|t| !matches!(t.get(), "null" | "\"\"" | "false" | "0"))
    }
}

/// The message's `id` and its content blocks' tool ids, parsed on demand.
#[derive(Deserialize, Default)]
pub struct MessagePeek<'a> {
    #[serde(borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub content: Option<&'a RawValue>,
}

#[derive(Deserialize)]
pub struct BlockPeek<'a> {
    #[serde(borrow, rename = "type")]
    pub kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub tool_use_id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    pub text: Option<Cow<'a, str>>,
}

/// An assistant message's `id` (a string), read without scanning the rest of the message: the
/// parse stops at the key. `None` when the message is not an object or has no string `id`.
pub(crate) fn message_id<'a>(e: &Entry<'a>) -> Option<Cow<'a, str>> {
    use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, Visitor};
    struct IsId;
    impl<'de> DeserializeSeed<'de> for IsId {
        type Value = bool;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
            d.deserialize_str(self)
        }
    }
    impl<'de> Visitor<'de> for IsId {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a key")
        }
        fn visit_str<E>(self, v: &str) -> Result<bool, E> {
            Ok(v == "id")
        }
    }
    struct Find<'s>(&'s mut Option<String>);
    impl<'de> Visitor<'de> for Find<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a message object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(is_id) = map.next_key_seed(IsId)? {
                if is_id {
                    *self.0 = map.next_value::<Option<String>>().ok().flatten();
                    // Stop here: the rest of the message is not needed.
                    return Err(A::Error::custom("found"));
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let raw = e.message?.get();
    // The CLI writes the id first: `{"id":"msg_…",…}`; read it straight when it has no escapes.
    if let Some(rest) = raw.strip_prefix("{\"id\":\"") {
        if let Some(end) = memchr::memchr2(b'"', b'\\', rest.as_bytes()) {
            if rest.as_bytes()[end] == b'"' && !rest.as_bytes()[..end].iter().any(|&b| b < 0x20) {
                return Some(Cow::Borrowed(&rest[..end]));
            }
        }
    }
    let mut found = None;
    let mut de = serde_json::Deserializer::from_str(raw);
    let _ = serde::Deserializer::deserialize_map(&mut de, Find(&mut found));
    found.map(Cow::Owned)
}

/// The blocks of kind `want` (`tool_use` or `tool_result`) in a message's content array, in one
/// scan of the message: whether there is one, and their ids (`id` for `tool_use`,
/// `tool_use_id` otherwise). A block that is not an object, or whose `type`, `id`,
/// `tool_use_id` or `text` is neither a string nor null, or that repeats one of them, is skipped
/// (as [`blocks`] skips it).
pub(crate) fn tool_blocks<'a>(e: &Entry<'a>, want: &str) -> (bool, Vec<Cow<'a, str>>) {
    let mut out = (false, Vec::new());
    let Some(m) = e.message else { return out };
    // The id's slot among a block's keys: `id` for `tool_use`, `tool_use_id` otherwise.
    let id_slot = if want == "tool_use" { 1 } else { 2 };
    let mut sk = super::skim::Skimmer::default();
    let mut content = [None; 1];
    // The message is a value of a line the scanner took: its strings are not checked again.
    if !sk.object_fields_taken(m.get(), &["content"], &mut content) {
        return out;
    }
    let Some(content) = content[0] else { return out };
    let mut blocks = super::skim::Skimmer::default();
    sk.array_items(content, |block| {
        if !block.starts_with('{') {
            return;
        }
        let counts = std::cell::Cell::new([0u8; 4]);
        let mut f = [None; 4];
        let slot = |k: &[u8]| -> Option<usize> {
            let n = match k {
                b"type" => 0,
                b"id" => 1,
                b"tool_use_id" => 2,
                b"text" => 3,
                _ => return None,
            };
            let mut c = counts.get();
            c[n] = c[n].saturating_add(1);
            counts.set(c);
            Some(n)
        };
        let Some(escaped) = blocks.object_slots_taken(block, slot, &mut f) else {
            return;
        };
        if counts.get().iter().any(|&c| c > 1) {
            return;
        }
        // Each of the four is a string or null, or the block does not count.
        let mut values: [Option<Cow<'_, str>>; 4] = [None, None, None, None];
        for (n, v) in f.iter().enumerate() {
            match *v {
                None | Some("null") => {}
                Some(t) if t.starts_with('"') => {
                    values[n] = if escaped & (1 << n) != 0 {
                        serde_json::from_str::<String>(t).ok().map(Cow::Owned)
                    } else {
                        Some(Cow::Borrowed(&t[1..t.len() - 1]))
                    };
                }
                Some(_) => return,
            }
        }
        if values[0].as_deref() == Some(want) {
            out.0 = true;
            out.1.extend(values[id_slot].take());
        }
    });
    out
}

pub(crate) fn peek_message<'a>(e: &Entry<'a>) -> MessagePeek<'a> {
    e.message
        .and_then(|m| serde_json::from_str::<MessagePeek<'a>>(m.get()).ok())
        .unwrap_or_default()
}

/// Content blocks when the content is an array; blocks that are not objects are skipped.
pub(crate) fn blocks<'a>(e: &Entry<'a>) -> Vec<BlockPeek<'a>> {
    blocks_of(peek_message(e).content)
}

/// The blocks of a message's raw `content` (see [`blocks`]).
pub(crate) fn blocks_of<'a>(content: Option<&'a RawValue>) -> Vec<BlockPeek<'a>> {
    let Some(c) = content else { return Vec::new() };
    if !c.get().starts_with('[') {
        return Vec::new();
    }
    let raw: Vec<&'a RawValue> = serde_json::from_str(c.get()).unwrap_or_default();
    raw.into_iter()
        .filter(|r| r.get().starts_with('{'))
        .filter_map(|r| serde_json::from_str(r.get()).ok())
        .collect()
}

/// The string content, or the last text block's text.
pub(crate) fn last_text<'a>(e: &Entry<'a>) -> Option<Cow<'a, str>> {
    let c = peek_message(e).content?;
    if c.get().starts_with('"') {
        return serde_json::from_str::<Cow<'a, str>>(c.get()).ok();
    }
    blocks(e)
        .into_iter()
        .rev()
        .find(|b| b.kind.as_deref() == Some("text"))
        .and_then(|b| b.text)
}

#[cfg(test)]
pub(crate) fn block_ids(e: &Entry<'_>, kind: &str) -> Vec<String> {
    blocks(e)
        .into_iter()
        .filter(|b| b.kind.as_deref() == Some(kind))
        .filter_map(|b| if kind == "tool_use" { b.id } else { b.tool_use_id })
        .map(|s| s.into_owned())
        .collect()
}

/// Splits `text` into lines and parses those that are conversation entries (user, assistant,
/// progress, system, attachment with a string uuid). Corrupt lines are skipped. A large
/// transcript is cut at line ends into parts parsed on a few threads (the entries keep their
/// file order).
pub(crate) fn parse_entries<'a>(text: &'a str, kinds: &[&str]) -> Vec<Entry<'a>> {
    parse_entries_seen(text, kinds).0
}

/// What the line scan saw besides the entries it keeps: lines the conversation passes read
/// whole, which are looked for only when one was seen (instead of a search of the whole text
/// per kind).
#[derive(Default, Clone)]
pub struct Seen<'a> {
    /// A `system` line of subtype `voice_call_talk`.
    pub voice: bool,
    /// A `host-row` line.
    pub host_row: bool,
    /// A kept attachment entry of type `queued_command`.
    pub queued: bool,
    /// A lone surrogate escape, in any line the scanner read (see [`super::surrogate`]).
    pub lone: bool,
    /// The lines the queued-command delivery records can be among, in file order: every JSON
    /// object line whose `type` is `queue-operation`, and the `attachment` lines of type
    /// `queued_command` (or whose attachment does not read as an entry's).
    pub delivery: Vec<&'a str>,
}

impl<'a> Seen<'a> {
    fn add(&mut self, o: Seen<'a>) {
        self.voice |= o.voice;
        self.host_row |= o.host_row;
        self.queued |= o.queued;
        self.lone |= o.lone;
        self.delivery.extend(o.delivery);
    }
}

/// [`parse_entries`], and what else the scan saw.
///
/// From [`PARALLEL_FROM`] bytes on, on a machine with two processors or more, the text is cut
/// at line ends into parts of about [`PART`] bytes shared with a helper thread
/// ([`super::shared::two_ended`]). This thread's entries go straight into the result; the
/// helper's (the last parts) are appended after. The vectors are allocated here, not on the
/// helper (a thread of its own would take fresh pages from its own allocator arena).
pub(crate) fn parse_entries_seen<'a>(text: &'a str, kinds: &[&str]) -> (Vec<Entry<'a>>, Seen<'a>) {
    parse_entries_from(text, kinds, PARALLEL_FROM, PART)
}

/// [`parse_entries_seen`] of bytes read from a file, checked as UTF-8 as they are scanned (the
/// line scanner checks the string bodies, the only place a line it takes can have bytes
/// outside ASCII; a line it does not take is checked whole): `None` when some line is not
/// UTF-8.
pub(crate) fn parse_entries_utf8<'a>(bytes: &'a [u8], kinds: &[&str]) -> Option<(Vec<Entry<'a>>, Seen<'a>)> {
    parse_parts(bytes, kinds, PARALLEL_FROM, PART)
}

/// Entries scanned by one thread, and where each part it scanned starts among them.
struct Scanned<'a> {
    entries: Vec<Entry<'a>>,
    starts: Vec<usize>,
    seen: Seen<'a>,
    /// A line was not UTF-8.
    bad: bool,
}

fn parse_entries_from<'a>(
    text: &'a str,
    kinds: &[&str],
    parallel_from: usize,
    part_size: usize,
) -> (Vec<Entry<'a>>, Seen<'a>) {
    // Text is UTF-8: never `None`.
    parse_parts(text.as_bytes(), kinds, parallel_from, part_size).unwrap_or_default()
}

/// The entries of `bytes`, cut at line ends into parts (`None`: a line is not UTF-8).
fn parse_parts<'a>(
    bytes: &'a [u8],
    kinds: &[&str],
    parallel_from: usize,
    part_size: usize,
) -> Option<(Vec<Entry<'a>>, Seen<'a>)> {
    let lines = line_count(bytes);
    let front = Scanned {
        entries: Vec::with_capacity(lines),
        starts: Vec::new(),
        seen: Seen::default(),
        bad: false,
    };
    let scan = |a: usize, z: usize, acc: &mut Scanned<'a>| {
        // Once a line is not UTF-8 the result is not used.
        if !acc.bad {
            acc.bad = !parse_part(&bytes[a..z], kinds, &mut acc.seen, &mut acc.entries);
        }
    };
    if !super::shared::worth_helping(bytes.len(), parallel_from) {
        let mut front = front;
        scan(0, bytes.len(), &mut front);
        return (!front.bad).then_some((front.entries, front.seen));
    }
    // Part `i` is `bytes[cuts[i]..cuts[i + 1]]`; every cut but the last follows a line feed.
    let mut cuts = vec![0];
    while let Some(&at) = cuts.last() {
        let next = at + part_size;
        match (next < bytes.len())
            .then(|| memchr::memchr(b'\n', &bytes[next..]))
            .flatten()
        {
            Some(n) if next + n + 1 < bytes.len() => cuts.push(next + n + 1),
            _ => break,
        }
    }
    cuts.push(bytes.len());
    let helper = Scanned {
        entries: Vec::with_capacity(lines / 2 + 1),
        starts: Vec::new(),
        seen: Seen::default(),
        bad: false,
    };
    let (mut front, helped) =
        super::shared::two_ended(cuts.len() - 1, front, Some(helper), |i, acc: &mut Scanned<'a>| {
            acc.starts.push(acc.entries.len());
            scan(cuts[i], cuts[i + 1], acc);
        });
    if let Some(h) = helped {
        let mut back = h.acc;
        front.bad |= back.bad;
        front.seen.add(back.seen);
        // The helper's lowest part is the end of its vector: taken from the end, its parts come
        // in file order.
        for &at in back.starts.iter().rev() {
            front.entries.extend(back.entries.drain(at..));
        }
        // Lines of one text: their addresses are their order.
        front.seen.delivery.sort_unstable_by_key(|l| l.as_ptr() as usize);
    }
    (!front.bad).then_some((front.entries, front.seen))
}

/// Below this a transcript is scanned on one thread. The 6.3 MB bench transcript's scan took
/// 1.4–1.5 ms shared against 2.3–2.5 ms alone.
const PARALLEL_FROM: usize = 1 << 20;

/// The size of the parts the scan is shared in: small enough that a held-up helper holds little
/// (a part is about 0.1 ms of scanning), large enough that claiming one costs nothing.
const PART: usize = 256 << 10;

/// About how many lines `b` has: the capacity an entry vector needs. Counted in the first MiB
/// and scaled to the whole (a count of every line feed was one more pass over tens of
/// megabytes that are not in the cache; a vector that turns out short grows).
fn line_count(b: &[u8]) -> usize {
    const SAMPLE: usize = 1 << 20;
    let counted = memchr::memchr_iter(b'\n', &b[..b.len().min(SAMPLE)]).count() + 1;
    if b.len() <= SAMPLE {
        return counted;
    }
    (counted as u64 * b.len() as u64 / SAMPLE as u64) as usize + 64
}

/// Scans the lines of `bytes` into `out` and `seen`; `false` when a line is not UTF-8 (then
/// what was scanned is not to be used).
fn parse_part<'a>(bytes: &'a [u8], kinds: &[&str], seen: &mut Seen<'a>, out: &mut Vec<Entry<'a>>) -> bool {
    let mut skimmer = super::skim::Skimmer::default();
    let mut tools = Vec::new();
    for line in byte_lines(bytes) {
        // Leading bytes up to 32 (the characters up to U+0020) are passed over.
        let line = &line[line.iter().position(|&c| c > 32).unwrap_or(line.len())..];
        if line.is_empty() {
            continue;
        }
        let mut f = [None; 28];
        tools.clear();
        let Some((line, esc)) = skimmer.object_slots_utf8(line, slot, &mut f, Some((12, &mut tools))) else {
            let Ok(line) = std::str::from_utf8(line) else {
                return false;
            };
            // A line the scanner does not take may still be one of these to a reader that is
            // not `JSON.parse`: the passes that read them then search the text.
            seen.voice |= super::scan::has(line, "voice_call_talk");
            seen.host_row |= super::scan::has(line, "host-row");
            continue;
        };
        let e = Entry::from_fields(&f, esc);
        match str_field(f[0], esc & 1 != 0).ok().flatten().as_deref() {
            Some("queue-operation") => seen.delivery.push(line),
            Some("attachment")
                if e.as_ref().map_or(true, |e| {
                    e.attachment.as_ref().and_then(|a| a.kind.as_deref()) == Some("queued_command")
                }) =>
            {
                seen.delivery.push(line)
            }
            _ => {}
        }
        let Ok(mut e) = e else { continue };
        if matches!(e.kind(), "user" | "assistant") {
            e.scanned_tools = Some(scanned_tools(line, &tools));
        }
        match e.kind() {
            "system" if e.subtype.as_deref() == Some("voice_call_talk") => seen.voice = true,
            "host-row" => seen.host_row = true,
            "attachment" if e.attachment.as_ref().and_then(|a| a.kind.as_deref()) == Some("queued_command") => {
                seen.queued = true
            }
            _ => {}
        }
        if e.uuid.is_some() && kinds.contains(&e.kind()) {
            out.push(e);
        }
    }
    seen.lone |= skimmer.lone;
    true
}

/// The tool blocks the line scan noted in `line` (see [`Entry::scanned_tools`]).
fn scanned_tools<'a>(line: &'a str, spans: &[super::skim::ToolSpan]) -> Vec<ScannedTool<'a>> {
    spans
        .iter()
        .map(|t| ScannedTool {
            result: t.result,
            type_escaped: t.type_escaped,
            id: t.id.and_then(|(a, z)| {
                // The span is a string value the scanner took: cut at its quotes (ASCII).
                let text = &line[a..z];
                if t.id_escaped {
                    serde_json::from_str::<String>(text).ok().map(Cow::Owned)
                } else {
                    Some(Cow::Borrowed(&text[1..text.len() - 1]))
                }
            }),
        })
        .collect()
}

/// The lines of `text` (split at '\n' with memchr's SIMD search).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    // '\n' is ASCII: every cut is on a character boundary.
    byte_lines(text.as_bytes()).map(move |l| {
        let at = l.as_ptr() as usize - text.as_ptr() as usize;
        &text[at..at + l.len()]
    })
}

/// The lines of `b` (split at b'\n' with memchr's SIMD search).
fn byte_lines(b: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    let mut ends = memchr::memchr_iter(b'\n', b);
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        match ends.next() {
            Some(end) => {
                let line = &b[start..end];
                start = end + 1;
                Some(line)
            }
            None => {
                done = true;
                Some(&b[start..])
            }
        }
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn parts_read_as_one() {
        let mut text = String::new();
        for n in 0..2000 {
            text.push_str(&format!(
                "{{\"type\":\"user\",\"uuid\":\"u{n}\",\"message\":{{\"content\":\"{}\"}}}}\n",
                "x".repeat(n % 97)
            ));
            if n == 1500 {
                text.push_str("{\"type\":\"host-row\"}\nnot json\n");
            }
            if n == 300 {
                text.push_str("{\"type\":\"system\",\"subtype\":\"voice_call_talk\",\"uuid\":\"v\"}\n");
            }
        }
        let uuids = |v: &[super::Entry<'_>]| v.iter().map(|e| e.uuid().to_string()).collect::<Vec<_>>();
        let (one, seen_one) = super::parse_entries_from(&text, &["user"], usize::MAX, super::PART);
        assert_eq!(one.len(), 2000);
        assert!(seen_one.host_row && seen_one.voice);
        // Parts of one line up to the whole text, and texts ending with and without a line feed.
        for text in [text.as_str(), text.trim_end()] {
            for part in [1, 40, 333, 4096, 50_000, 1 << 20] {
                for _ in 0..20 {
                    let (two, seen_two) = super::parse_entries_from(text, &["user"], 1, part);
                    assert_eq!(uuids(&one), uuids(&two), "part {part}");
                    assert!(seen_two.host_row && seen_two.voice, "part {part}");
                }
            }
        }
    }

    /// Bytes read from a file: a byte sequence that is not UTF-8 anywhere (in a string body, a
    /// key, between tokens, in a line that is not JSON, in leading whitespace) refuses the whole
    /// (`None`, which the caller reads with replacement characters); a character outside ASCII
    /// anywhere reads as the text's scan reads it, however the bytes are cut into parts.
    #[test]
    fn bytes_read_as_text_or_refused() {
        let mut text = String::new();
        for n in 0..12 {
            text.push_str(&format!(
                "{{\"type\":\"user\",\"uuid\":\"u{n}\",\"message\":{{\"content\":\"\u{2014} {}\\n\u{e9}\"}}}}\n",
                "x".repeat(n * 9)
            ));
            match n {
                3 => text.push_str("not json \u{201c}\n  \n"),
                5 => text.push_str("  {\"type\":\"host-row\",\"uuid\":\"h\"}\n"),
                7 => text.push_str("{\"type\":\"queue-operation\",\"k\":[1,2,\"\u{e9}\"]}\r\n"),
                _ => {}
            }
        }
        let read = |b: &[u8]| {
            super::parse_parts(b, &["user"], 1, 97).map(|(entries, seen)| {
                let e: Vec<_> = entries
                    .iter()
                    .map(|e| (e.uuid().to_string(), e.message_text().map(str::to_string)))
                    .collect();
                (
                    e,
                    seen.host_row,
                    seen.delivery.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
                )
            })
        };
        let mut refused = 0;
        for at in 0..=text.len() {
            if !text.is_char_boundary(at) {
                continue;
            }
            for bad in [&b"\xff"[..], b"\xe2\x80", b"\x80", b"\xc0\xaf"] {
                let mut b = text.as_bytes()[..at].to_vec();
                b.extend_from_slice(bad);
                b.extend_from_slice(&text.as_bytes()[at..]);
                assert_eq!(read(&b), None, "{at} {bad:x?}");
                refused += 1;
            }
            for good in ["\u{e9}", "\u{1f916}"] {
                let mut t = text.clone();
                t.insert_str(at, good);
                let (entries, seen) = super::parse_entries_from(&t, &["user"], usize::MAX, super::PART);
                let want = (
                    entries
                        .iter()
                        .map(|e| (e.uuid().to_string(), e.message_text().map(str::to_string)))
                        .collect::<Vec<_>>(),
                    seen.host_row,
                    seen.delivery.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
                );
                assert_eq!(read(t.as_bytes()), Some(want), "{at} {good}");
            }
        }
        assert!(refused > 4000, "{refused}");
        assert_eq!(read(text.as_bytes()).map(|r| r.0.len()), Some(12));
    }

    /// The lines noted as possible delivery records are every object line whose `type` is
    /// `queue-operation` (escaped or not, whatever its other fields) and the `queued_command`
    /// attachments, in file order however the text is cut into parts; a line that only mentions
    /// them is not noted.
    #[test]
    fn delivery_lines_are_noted_in_order() {
        let mut text = String::new();
        let mut expected = Vec::new();
        for n in 0..600 {
            let line = match n % 7 {
                0 => format!(r#"{{"type":"queue-operation","operation":"remove","n":{n}}}"#),
                1 => format!(r#"{{"type":"queue-operation","uuid":{n}}}"#),
                2 => format!(
                    r#"{{"type":"attachment","uuid":"a{n}","attachment":{{"type":"queued_command","prompt":"p"}}}}"#
                ),
                3 => format!(r#"{{"type":"attachment","uuid":"b{n}","attachment":{{"type":"file"}}}}"#),
                4 => format!(
                    r#"{{"type":"user","uuid":"u{n}","message":{{"content":"queue-operation queued_command"}}}}"#
                ),
                5 => format!(r#"{{"type":"queue-operation","bad":}}{n}"#),
                _ => format!(r#"{{"type":"attachment","uuid":"c{n}","attachment":{{"type":7}}}}"#),
            };
            if matches!(n % 7, 0 | 1 | 2 | 6) {
                expected.push(line.clone());
            }
            text.push_str(&line);
            text.push('\n');
        }
        for part in [1, 100, 4096, 1 << 20] {
            for _ in 0..5 {
                let (_, seen) = super::parse_entries_from(&text, &["user"], 1, part);
                assert_eq!(seen.delivery, expected, "part {part}");
            }
        }
    }

    #[test]
    fn tool_blocks_reads_what_blocks_reads() {
        let messages = [
            r#"{"content":[{"type":"tool_use","id":"a"},{"type":"tool_result","tool_use_id":"b"},{"type":"text","text":"x"}]}"#,
            r#"{"id":"m","content":[{"type":"tool_use","id":"a\u0041","input":{"id":"no"}},{"type":"tool_use"},{"type":"tool_use","id":null}]}"#,
            r#"{"content":[{"type":"tool_use","id":"a","id":"b"},{"type":"tool_use","id":"c","text":5},"tool_use",[{"type":"tool_use","id":"d"}]]}"#,
            r#"{"content":"tool_use"}"#,
            r#"{"content":[]}"#,
            r#"{"content":[{"type":"tool_result","tool_use_id":"ok","text":null,"id":7}]}"#,
            r#"{"content":[ { "type" : "tool_result" , "tool_use_id" : "s p" } ]}"#,
            r#"["tool_use"]"#,
            r#""tool_use""#,
        ];
        for m in messages {
            let line = format!(r#"{{"type":"assistant","uuid":"u","message":{m}}}"#);
            let e = super::Entry::parse(&line, &mut super::super::skim::Skimmer::default()).unwrap();
            for want in ["tool_use", "tool_result"] {
                let any = super::blocks(&e).iter().any(|b| b.kind.as_deref() == Some(want));
                let (found, ids) = super::tool_blocks(&e, want);
                assert_eq!(
                    (found, ids.into_iter().map(|c| c.into_owned()).collect::<Vec<_>>()),
                    (any, super::block_ids(&e, want)),
                    "{m} {want}"
                );
            }
        }
        // A repeated `content`: the last counts (as with `JSON.parse`).
        let line = r#"{"type":"user","uuid":"u","message":{"content":[{"type":"tool_result","tool_use_id":"x"}],"content":[{"type":"tool_use","id":"y"},{"type":"tool_result","tool_use_id":"z"}]}}"#;
        let e = super::Entry::parse(line, &mut super::super::skim::Skimmer::default()).unwrap();
        assert_eq!(super::tool_blocks(&e, "tool_result"), (true, vec!["z".into()]));
        assert_eq!(super::tool_blocks(&e, "tool_use"), (true, vec!["y".into()]));
    }

    #[test]
    fn every_key_has_its_slot() {
        for (n, k) in super::KEYS.iter().enumerate() {
            assert_eq!(super::slot(k.as_bytes()), Some(n), "{k}");
        }
        for k in [
            "cwd",
            "userType",
            "version",
            "gitBranch",
            "types",
            "uuid2",
            "closesQuietTurx",
            "compactMetadatX",
            "",
            "uuiX",
            "isVisibleInTranscriptOnlX",
            "sourceToolAssistantUUIX",
            "sourceToolAXsistantUUID",
            "hostHiddenToolUsXIds",
        ] {
            assert_eq!(super::slot(k.as_bytes()), None, "{k}");
        }
    }
}
