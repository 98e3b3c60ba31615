//! A transcript's entries, read with only the fields the conversation chain needs: every
//! other field is skipped by the parser, and `message`/`origin` stay raw JSON text that is
//! copied to the output as it is.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize, Default, Clone)]
pub struct PreservedSegment<'a> {
  #[serde(borrow, rename = "headUuid")]
  pub head: Option<Cow<'a, str>>,
  #[serde(borrow, rename = "anchorUuid")]
  pub anchor: Option<Cow<'a, str>>,
  #[serde(borrow, rename = "tailUuid")]
  pub tail: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default, Clone)]
pub struct PreservedMessages<'a> {
  #[serde(borrow, default)]
  pub uuids: Vec<Cow<'a, str>>,
  #[serde(borrow, rename = "anchorUuid")]
  pub anchor: Option<Cow<'a, str>>,
}

#[derive(Deserialize, Default, Clone)]
pub struct CompactMetadata<'a> {
  #[serde(borrow, rename = "preservedSegment")]
  pub preserved_segment: Option<PreservedSegment<'a>>,
  #[serde(borrow, rename = "preservedMessages")]
  pub preserved_messages: Option<PreservedMessages<'a>>,
}

#[derive(Deserialize, Default, Clone)]
pub struct AttachmentPeek<'a> {
  #[serde(borrow, rename = "type")]
  pub kind: Option<Cow<'a, str>>,
}

/// One transcript line, reduced to what the chain walk and the output need.
#[derive(Deserialize, Clone)]
pub struct Entry<'a> {
  #[serde(borrow, rename = "type")]
  pub kind: Option<Cow<'a, str>>,
  #[serde(borrow)]
  pub uuid: Option<Cow<'a, str>>,
  #[serde(borrow, rename = "parentUuid")]
  pub parent: Option<Cow<'a, str>>,
  #[serde(borrow)]
  pub subtype: Option<Cow<'a, str>>,
  #[serde(rename = "isSidechain", default, deserialize_with = "truthy")]
  pub sidechain: bool,
  #[serde(borrow, rename = "teamName", default)]
  pub team_name: Option<&'a RawValue>,
  #[serde(rename = "isMeta", default, deserialize_with = "truthy")]
  pub meta: bool,
  #[serde(rename = "isCompactSummary", default, deserialize_with = "truthy")]
  pub compact_summary: bool,
  #[serde(rename = "isVisibleInTranscriptOnly", default, deserialize_with = "truthy")]
  pub transcript_only: bool,
  #[serde(rename = "interruptedByShutdown", default, deserialize_with = "truthy")]
  pub interrupted_by_shutdown: bool,
  #[serde(borrow, rename = "compactMetadata", default)]
  pub compact: Option<CompactMetadata<'a>>,
  #[serde(borrow, default)]
  pub attachment: Option<AttachmentPeek<'a>>,
  #[serde(borrow, default)]
  pub message: Option<&'a RawValue>,
  #[serde(borrow, rename = "sessionId")]
  pub session_id: Option<Cow<'a, str>>,
  #[serde(borrow)]
  pub timestamp: Option<Cow<'a, str>>,
  #[serde(borrow, default)]
  pub origin: Option<&'a RawValue>,
  #[serde(borrow, rename = "agentId")]
  pub agent_id: Option<Cow<'a, str>>,
  #[serde(borrow, rename = "sourceToolAssistantUUID")]
  pub source_tool_assistant: Option<Cow<'a, str>>,
  #[serde(borrow, rename = "promptSource", default)]
  pub prompt_source: Option<&'a RawValue>,
  /// Set on entries rewritten by the chain walk (compaction relinking).
  #[serde(skip)]
  pub relinked_parent: Option<Option<String>>,
  /// Marked by the local-command pass.
  #[serde(skip)]
  pub completed_local_command: bool,
}

/// Only `true` counts (a flag written as anything else is treated as unset).
fn truthy<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
  let v = Option::<&RawValue>::deserialize(d)?;
  Ok(v.map_or(false, |r| r.get() == "true"))
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
  pub fn is_message(&self) -> bool {
    matches!(self.kind(), "user" | "assistant")
  }
  pub fn has_team(&self) -> bool {
    self.team_name.map_or(false, |t| !matches!(t.get(), "null" | "\"\"" | "false" | "0"))
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

pub fn peek_message<'a>(e: &Entry<'a>) -> MessagePeek<'a> {
  e.message.and_then(|m| serde_json::from_str::<MessagePeek<'a>>(m.get()).ok()).unwrap_or_default()
}

/// Content blocks when the content is an array; blocks that are not objects are skipped.
pub fn blocks<'a>(e: &Entry<'a>) -> Vec<BlockPeek<'a>> {
  let Some(c) = peek_message(e).content else { return Vec::new() };
  if !c.get().starts_with('[') {
    return Vec::new();
  }
  let raw: Vec<&'a RawValue> = serde_json::from_str(c.get()).unwrap_or_default();
  raw.into_iter().filter(|r| r.get().starts_with('{')).filter_map(|r| serde_json::from_str(r.get()).ok()).collect()
}

/// The string content, or the last text block's text.
pub fn last_text<'a>(e: &Entry<'a>) -> Option<Cow<'a, str>> {
  let c = peek_message(e).content?;
  if c.get().starts_with('"') {
    return serde_json::from_str::<Cow<'a, str>>(c.get()).ok();
  }
  blocks(e).into_iter().rev().find(|b| b.kind.as_deref() == Some("text")).and_then(|b| b.text)
}

pub fn block_ids(e: &Entry<'_>, kind: &str) -> Vec<String> {
  blocks(e)
    .into_iter()
    .filter(|b| b.kind.as_deref() == Some(kind))
    .filter_map(|b| if kind == "tool_use" { b.id } else { b.tool_use_id })
    .map(|s| s.into_owned())
    .collect()
}

/// Splits `text` into lines and parses those that are conversation entries (user, assistant,
/// progress, system, attachment with a string uuid). Corrupt lines are skipped.
pub fn parse_entries<'a>(text: &'a str, kinds: &[&str]) -> Vec<Entry<'a>> {
  let mut out = Vec::new();
  for line in text.split('\n') {
    let line = line.trim_start_matches(|c: char| (c as u32) <= 32);
    if line.is_empty() {
      continue;
    }
    let Ok(e) = serde_json::from_str::<Entry<'a>>(line) else { continue };
    if e.uuid.is_some() && kinds.contains(&e.kind()) {
      out.push(e);
    }
  }
  out
}
