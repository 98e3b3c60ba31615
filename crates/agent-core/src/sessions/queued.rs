//! Queued commands in `getSessionMessages` (the official's `KT`, `XMe`, `YMe`, `JMe`, `eNe`,
//! `MB`/`NB`). A prompt typed while the model works is written as a `queued_command`
//! attachment; the official shows it as the user message it was (`isQueuedCommand`) when the
//! model went on to answer it, when it was absorbed mid-turn (`queue-operation` lines), or when
//! it trails the conversation's last message. Nothing here runs unless the transcript mentions
//! `queued_command`.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::skim::Skimmer;
use super::transcript::{Entry, Made};

/// The phrases that mark a user entry as the record of an interruption (official `wF`): such an
/// entry counts as a reply, not a new prompt.
const INTERRUPTIONS: [&str; 11] = [
  "[Request interrupted by user]",
  "[Request interrupted: the session ended before this agent finished. Nobody asked it to stop.]",
  "[This turn ended before it finished.]",
  "[Agent call interrupted: the process running this conversation stopped before this agent finished, so it returned no result. Nobody asked it to stop.]",
  "[Request interrupted by user for tool use]",
  "[Tool call did not complete: the turn was ended to deliver the message that follows. Nothing refused it; re-run it if still needed.]",
  "[Tool call interrupted: the session ended before this call's result was recorded, so its outcome is unknown. Check whether it took effect before relying on it or running it again.]",
  "[Tool call result not in this copy: this session was copied from another session before that session recorded this call's result. The call may have finished there, may still be running there, or may never have run. Check whether it took effect before relying on it or running it again.]",
  "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.",
  "[Tool call skipped: the turn was stopped before this call ran, by the check whose denial is on another call in this batch. Nothing refused this call and it had no effects; re-run it if still needed.]",
  "[Tool call skipped: the turn ended to deliver the message that follows before this call ran. Nothing refused it; re-run it if still needed.]",
];

/// The fields of a `queued_command` attachment the official reads.
const FIELDS: [&str; 9] = [
    "type",
    "prompt",
    "source_uuid",
    "delivery_id",
    "isMeta",
    "origin",
    "commandMode",
    "runId",
    "forwardedIntent",
];
const PROMPT: usize = 1;
const SOURCE: usize = 2;
const DELIVERY: usize = 3;
const META: usize = 4;
const ORIGIN: usize = 5;
const MODE: usize = 6;
const RUN: usize = 7;
const FORWARDED: usize = 8;

/// A queued command attachment's fields, as JSON texts.
struct Command<'a> {
    f: [Option<&'a str>; 9],
}

impl<'a> Command<'a> {
    /// The attachment of an entry when it is a `queued_command` (official `V$`).
    fn of(e: &Entry<'a>) -> Option<Command<'a>> {
        if e.kind() != "attachment" || e.attachment.as_ref().and_then(|a| a.kind.as_deref()) != Some("queued_command") {
            return None;
        }
        let raw = e.attachment_raw?.get();
        let mut f = [None; 9];
        Skimmer::default()
            .object_fields(raw, &FIELDS, &mut f)
            .then_some(Command { f })
    }

    /// The command a voice-call record folds, when the record was left a `system` entry (its
    /// content or origin is not one the official converts) and its `fold.command` is an object:
    /// the official's `V$` reads the command's `delivery_id` and `source_uuid` there too, so the
    /// record joins the copies of that command when absorbed copies are counted (`JMe`).
    fn folded(e: &Entry<'a>) -> Option<Command<'a>> {
        if e.kind() != "system" || e.subtype.as_deref() != Some("voice_call_talk") {
            return None;
        }
        let fold = e.fold?.get();
        let mut sk = Skimmer::default();
        let mut command = [None; 1];
        if !sk.object_fields(fold, &["command"], &mut command) {
            return None;
        }
        let command = command[0].filter(|c| c.starts_with('{'))?;
        let mut f = [None; 9];
        sk.object_fields(command, &FIELDS, &mut f).then_some(Command { f })
    }

    /// A non-empty string field, decoded.
    fn string(&self, n: usize) -> Option<String> {
        let t = self.f[n]?;
        if !t.starts_with('"') {
            return None;
        }
        serde_json::from_str::<String>(t).ok().filter(|s| !s.is_empty())
    }
}

/// JavaScript truthiness of a JSON value's text.
fn truthy(t: Option<&str>) -> bool {
    match t {
        None | Some("null" | "false" | "\"\"") => false,
        Some(t) if t.starts_with(|c: char| c == '-' || c.is_ascii_digit()) => {
            serde_json::from_str::<f64>(t).map_or(true, |n| n != 0.0)
        }
        Some(_) => true,
    }
}

/// An origin the official keeps (`X$`): an object with a string `kind`.
fn origin_object(t: Option<&str>) -> Option<Value> {
    let v: Value = serde_json::from_str(t?).ok()?;
    v.get("kind").is_some_and(Value::is_string).then_some(v)
}

/// Ids the official keeps (`Qd`): `[A-Za-z0-9_.:-]{1,128}`.
fn valid_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 128
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':' | b'-'))
}

/// The task-notification shape of an origin (official `xR`); others unchanged.
fn shaped(o: Value) -> Value {
    if o.get("kind").and_then(Value::as_str) != Some("task-notification") {
        return o;
    }
    let mut out = serde_json::Map::new();
    out.insert("kind".into(), "task-notification".into());
    for k in ["subkind", "fireReason", "producer"] {
        if let Some(v) = o.get(k) {
            out.insert(k.into(), v.clone());
        }
    }
    if let Some(run) = o.get("runId").and_then(Value::as_str).filter(|r| valid_id(r)) {
        out.insert("runId".into(), run.into());
    }
    if o.get("taskKind").and_then(Value::as_str) == Some("mcp-task") {
        out.insert("taskKind".into(), "mcp-task".into());
    }
    Value::Object(out)
}

/// The origin of a queued command shown as a user message (official `W0`).
fn command_origin(c: &Command<'_>) -> Option<Value> {
    let mode = c.f[MODE].and_then(|t| serde_json::from_str::<String>(t).ok());
    let origin = origin_object(c.f[ORIGIN]).map(shaped).or_else(|| {
        (mode.as_deref() == Some("task-notification")).then(|| serde_json::json!({ "kind": "task-notification" }))
    });
    let run = c.f[RUN]
        .and_then(|t| serde_json::from_str::<String>(t).ok())
        .filter(|r| valid_id(r));
    match (origin, run) {
        (Some(Value::Object(mut o)), Some(run))
            if o.get("kind").and_then(Value::as_str) == Some("task-notification") && !o.contains_key("runId") =>
        {
            o.insert("runId".into(), run.into());
            Some(Value::Object(o))
        }
        (o, _) => o,
    }
}

/// A forwarded intent the official recognises (`ILe`): an object with a non-empty `lineage`.
fn forwarded(t: Option<&str>) -> bool {
    let Some(Ok(Value::Object(o))) = t.map(serde_json::from_str::<Value>) else {
        return false;
    };
    o.get("lineage").and_then(Value::as_str).is_some_and(|l| !l.is_empty())
}

/// The `delivered` map of the official's `MB`/`NB`, from every line of the transcript (`lines`:
/// those the line scan noted as possible delivery records, in file order): how many copies of a
/// queued command were absorbed mid-turn, and which delivery copies count.
fn delivered(lines: &[&str]) -> HashMap<String, usize> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut copies: HashMap<String, String> = HashMap::new();
    let mut mixed: Vec<String> = Vec::new();
    let mut delivery_uuids: HashSet<String> = HashSet::new();
    let mut delivery_copies: Vec<(String, Vec<String>)> = Vec::new();
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    for &line in lines {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if !v.is_object() {
            continue;
        }
        if s(&v, "type").as_deref() == Some("queue-operation")
            && s(&v, "operation").as_deref() == Some("remove")
            && s(&v, "reason").as_deref() == Some("absorbed_mid_turn")
        {
            let (delivery, command) = (s(&v, "deliveryId"), s(&v, "commandUuid"));
            if delivery.is_none() && command.is_none() {
                // Not the absorbed-removal shape: read on as any other line.
            } else {
                let key = match (delivery, command) {
                    (Some(d), _) if !d.is_empty() => Some(format!("delivery:{d}")),
                    (_, Some(c)) => Some(format!("uuid:{c}")),
                    _ => None,
                };
                if let Some(k) = key {
                    if !counts.contains_key(&k) {
                        order.push(k.clone());
                    }
                    *counts.entry(k).or_insert(0) += 1;
                }
                continue;
            }
        }
        let (Some(_), Some(uuid)) = (s(&v, "type"), s(&v, "uuid")) else {
            continue;
        };
        let att = match v.get("attachment") {
            Some(a @ Value::Object(o))
                if v.get("type").and_then(Value::as_str) == Some("attachment")
                    && o.get("type").and_then(Value::as_str) == Some("queued_command") =>
            {
                a
            }
            _ => continue,
        };
        if let Some(d) = s(att, "delivery_id").filter(|d| !d.is_empty()) {
            if delivery_uuids.insert(uuid.clone()) {
                let key = format!("delivery:{d}");
                match delivery_copies.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, list)) => list.push(uuid),
                    None => delivery_copies.push((key, vec![uuid])),
                }
            }
            continue;
        }
        let Some(source) = s(att, "source_uuid").filter(|d| !d.is_empty()) else {
            continue;
        };
        let text = att.to_string();
        match copies.get(&source) {
            None => {
                copies.insert(source, text);
            }
            Some(first) if *first != text => mixed.push(source),
            Some(_) => {}
        }
    }
    for m in mixed {
        counts.remove(&format!("uuid:{m}"));
    }
    for (key, uuids) in delivery_copies {
        let n = counts.get(&key).copied().unwrap_or(0);
        for u in &uuids[uuids.len().saturating_sub(n)..] {
            counts.insert(format!("entry:{u}"), 1);
        }
    }
    counts
}

/// A user entry whose message holds a tool result (official `UB`).
fn has_tool_result(e: &Entry<'_>, msg: &Value) -> bool {
    e.parent().is_some_and(|p| !p.is_empty())
        && msg.get("content").and_then(Value::as_array).is_some_and(|c| {
            c.iter()
                .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
        })
}

/// A user entry recording an interruption (official `TF`).
fn is_interruption(msg: &Value) -> bool {
    let starts = |t: &str| INTERRUPTIONS.iter().any(|p| t.starts_with(p));
    match msg.get("content") {
        Some(Value::String(t)) => starts(t),
        Some(Value::Array(blocks)) => {
            !blocks.is_empty()
                && blocks.iter().all(|b| {
                    let text = match b.get("type").and_then(Value::as_str) {
                        Some("text") => b.get("text"),
                        Some("tool_result") if b.get("is_error") == Some(&Value::Bool(true)) => b.get("content"),
                        _ => None,
                    };
                    text.and_then(Value::as_str).is_some_and(starts)
                })
        }
        _ => false,
    }
}

/// For each position of `list`, whether the next entry that decides the turn is a reply (an
/// assistant message, a tool result, an interruption) rather than a new prompt (official `YMe`).
fn replied(entries: &[Entry<'_>], list: &[usize]) -> Vec<bool> {
    let mut out = vec![false; list.len()];
    let mut reply = false;
    for (n, &i) in list.iter().enumerate().rev() {
        out[n] = reply;
        let e = &entries[i];
        if e.kind() == "assistant" {
            reply = true;
            continue;
        }
        if e.kind() != "user" {
            continue;
        }
        let msg: Value = e
            .message_text()
            .and_then(|m| serde_json::from_str(m).ok())
            .unwrap_or_default();
        if has_tool_result(e, &msg) || is_interruption(&msg) {
            reply = true;
        } else if !e.meta && !e.compact_summary && !e.completed_local_command {
            reply = false;
        }
    }
    out
}

/// Which positions of `list` a delivery record decides (official `JMe`).
fn decided(entries: &[Entry<'_>], list: &[usize], delivered: &HashMap<String, usize>) -> HashMap<usize, bool> {
    let mut out = HashMap::new();
    if delivered.is_empty() {
        return out;
    }
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (n, &i) in list.iter().enumerate() {
        let Some(c) = Command::of(&entries[i]).or_else(|| Command::folded(&entries[i])) else {
            continue;
        };
        let key = match (c.string(DELIVERY), c.string(SOURCE)) {
            (Some(d), _) => format!("delivery:{d}"),
            (None, Some(s)) => format!("uuid:{s}"),
            _ => continue,
        };
        if !delivered.contains_key(&key) {
            continue;
        }
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(n),
            None => groups.push((key, vec![n])),
        }
    }
    for (key, group) in groups {
        if key.starts_with("delivery:") {
            for n in group {
                out.insert(n, delivered.contains_key(&format!("entry:{}", entries[list[n]].uuid())));
            }
            continue;
        }
        let count = delivered[&key];
        let len = group.len();
        for (k, n) in group.into_iter().enumerate() {
            out.insert(n, k + count >= len);
        }
    }
    out
}

/// Queued-command attachments hanging off the leaf after the conversation's last message, in
/// the official's depth-first, oldest-first order (official `eNe`).
fn trailing(entries: &[Entry<'_>], chain: &[usize], leaf: usize) -> Vec<usize> {
    let by_uuid: HashMap<&str, usize> = entries.iter().enumerate().map(|(i, e)| (e.uuid(), i)).collect();
    let mut children: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if e.is_message() {
            continue;
        }
        let original = e.parent.as_deref();
        // The relinked parent of the entry holding this uuid (the last one).
        let relinked = by_uuid.get(e.uuid()).and_then(|&c| entries[c].parent());
        for p in [original, relinked.filter(|r| Some(*r) != original)]
            .into_iter()
            .flatten()
        {
            if !p.is_empty() {
                children.entry(p).or_default().push(i);
            }
        }
    }
    let mut seen: HashSet<&str> = chain.iter().map(|&i| entries[i].uuid()).collect();
    // Ancestors of main-conversation messages off the chain.
    let mut feeding: HashSet<&str> = HashSet::new();
    for e in entries {
        if !e.is_message() || e.sidechain || e.has_team() || seen.contains(e.uuid()) {
            continue;
        }
        let mut cur = e
            .parent
            .as_deref()
            .filter(|p| !p.is_empty())
            .and_then(|p| by_uuid.get(p).copied());
        while let Some(c) = cur {
            let u = entries[c].uuid();
            if seen.contains(u) || !feeding.insert(u) {
                break;
            }
            cur = entries[c]
                .parent
                .as_deref()
                .filter(|p| !p.is_empty())
                .and_then(|p| by_uuid.get(p).copied());
        }
    }
    let ts = |i: usize| entries[i].timestamp.as_deref().unwrap_or("");
    let mut out = Vec::new();
    let mut stack = vec![leaf];
    while let Some(p) = stack.pop() {
        if p != leaf {
            let u = entries[p].uuid();
            if !seen.insert(u) {
                continue;
            }
            if Command::of(&entries[p]).is_some() && !feeding.contains(u) {
                out.push(p);
            }
        }
        let mut kids = children.get(entries[p].uuid()).cloned().unwrap_or_default();
        // A stable sort, as the official's.
        kids.sort_by(|&a, &b| ts(a).cmp(ts(b)));
        for &k in kids.iter().rev() {
            if !seen.contains(entries[k].uuid()) {
                stack.push(k);
            }
        }
    }
    out
}

/// The user message a queued command is shown as (official `XMe`), or `None` when it stays an
/// attachment.
fn as_user<'a>(e: &Entry<'a>, keep_meta: bool, uuids: &mut HashSet<String>) -> Option<Entry<'a>> {
    let c = Command::of(e)?;
    let origin = origin_object(c.f[ORIGIN]);
    let meta = truthy(c.f[META]);
    let origin_text = origin.as_ref().map(Value::to_string);
    if meta && !keep_meta && !kinds_keep_origin(origin_text.as_deref()) {
        return None;
    }
    let prompt = c.f[PROMPT].filter(|p| p.starts_with('"') || p.starts_with('['))?;
    if forwarded(c.f[FORWARDED]) {
        return None;
    }
    let uuid = c.string(SOURCE).unwrap_or_else(|| e.uuid().to_string());
    if uuid != e.uuid() && uuids.contains(&uuid) {
        return None;
    }
    uuids.insert(uuid.clone());
    Some(Entry {
        kind: Some(Cow::Borrowed("user")),
        uuid: Some(Cow::Owned(uuid)),
        parent: e.parent.clone(),
        relinked_parent: e.relinked_parent.clone(),
        session_id: e.session_id.clone(),
        timestamp: e.timestamp.clone(),
        meta,
        queued_command: true,
        sidechain: e.sidechain,
        team_name: e.team_name,
        made: Some(Box::new(Made {
            message: format!("{{\"role\":\"user\",\"content\":{prompt}}}"),
            origin: command_origin(&c).map(|o| o.to_string()),
            ran_by: None,
        })),
        ..Entry::default()
    })
}

/// The conversation `list` (the chain, first to last) with the queued commands the official
/// shows turned into user messages (new entries appended to `entries`), and those trailing the
/// leaf appended.
/// `widen` turns the chain into the list the commands are looked for in (the host's virtual
/// rows put in); the trailing commands are found from the chain itself, as the official finds
/// them.
/// `queued`: whether the transcript has a queued-command attachment at all; `delivery`: the
/// lines that may be delivery records ([`super::transcript::Seen::delivery`]).
pub(crate) fn show<'a>(
    delivery: &[&str],
    queued: bool,
    entries: &mut Vec<Entry<'a>>,
    chain: Vec<usize>,
    leaf: Option<usize>,
    widen: impl FnOnce(&mut Vec<Entry<'a>>, Vec<usize>) -> Vec<usize>,
) -> Vec<usize> {
    if !queued {
        return widen(entries, chain);
    }
    let trail = leaf.map(|l| trailing(entries, &chain, l)).unwrap_or_default();
    let mut list = widen(entries, chain);
    let trail_from = list.len();
    list.extend(&trail);
    let delivered = delivered(delivery);
    convert(entries, list, false, trail_from, &delivered)
}

/// [`show`] for a subagent's conversation: meta commands too, nothing trailing, no delivery
/// records (the official's `KT` with `keepMeta`).
pub(crate) fn show_subagent(queued: bool, entries: &mut Vec<Entry<'_>>, list: Vec<usize>) -> Vec<usize> {
    if !queued {
        return list;
    }
    let n = list.len();
    convert(entries, list, true, n, &HashMap::new())
}

fn convert(
    entries: &mut Vec<Entry<'_>>,
    mut list: Vec<usize>,
    keep_meta: bool,
    trail_from: usize,
    delivered: &HashMap<String, usize>,
) -> Vec<usize> {
    if !list.iter().any(|&i| Command::of(&entries[i]).is_some()) {
        return list;
    }
    super::chain::mark_local_commands(entries, &list);
    let replies = replied(entries, &list);
    let decided = decided(entries, &list, delivered);
    let mut uuids: HashSet<String> = list.iter().map(|&i| entries[i].uuid().to_string()).collect();
    for n in 0..list.len() {
        let i = list[n];
        let show = decided.get(&n).copied().unwrap_or(replies[n] || n >= trail_from);
        if !show || entries[i].completed_local_command {
            continue;
        }
        if let Some(user) = as_user(&entries[i], keep_meta, &mut uuids) {
            entries.push(user);
            list[n] = entries.len() - 1;
        }
    }
    list
}

/// Meta entries are shown when they came from a channel, an observer, a Slack ping, a voice
/// call or a peer (official `UT`).
pub(crate) fn kinds_keep_origin(origin: Option<&str>) -> bool {
    let Some(o) = origin else { return false };
    let v: serde_json::Value = serde_json::from_str(o).unwrap_or_default();
    matches!(
        v.get("kind").and_then(|k| k.as_str()),
        Some("channel" | "observer" | "observer-activity" | "slack-ping" | "voice-call" | "peer")
    )
}
