//! Tool calls the host ran and hid (official `Wh`, `Vh`, `qh`): an assistant entry lists them in
//! `hostHiddenToolUseIds`; the rows the host ran for them are virtual entries beside the chain
//! (`isVirtual`, `ranByToolUseId`) or `host-row` lines; what the host showed instead is the
//! entry's `hostContent`. The conversation shows the virtual rows after the entry that hid
//! them, leaves the hidden calls and their results out, and shows `hostContent` where the
//! official does.
//!
//! All of this is skipped (one flag test per entry) unless some chain entry hid tools or a
//! `host-row` line exists.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::scan;
use super::transcript::{lines, Entry, Made};

/// A `host-row` line (official `Mp`): a row the host ran for a hidden call.
pub(crate) struct HostRow {
    withheld: bool,
    row_uuid: Option<String>,
    ran_by: String,
    block: Value,
    timestamp: Option<String>,
}

/// The `host-row` lines of a transcript's text, in file order.
pub(crate) fn host_rows(text: &str) -> Vec<HostRow> {
    if !scan::has(text, "host-row") {
        return Vec::new();
    }
    let mut out = Vec::new();
    for line in lines(text) {
        if !scan::has(line, "host-row") {
            continue;
        }
        let line = line.trim_start_matches(|c: char| (c as u32) <= 32);
        let Ok(Value::Object(o)) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if o.get("type").and_then(Value::as_str) != Some("host-row") {
            continue;
        }
        let Some(ran_by) = o.get("ranByToolUseId").and_then(Value::as_str) else {
            continue;
        };
        out.push(HostRow {
            withheld: o.get("withheld") == Some(&Value::Bool(true)),
            row_uuid: o.get("rowUuid").and_then(Value::as_str).map(str::to_string),
            ran_by: ran_by.to_string(),
            block: o.get("block").cloned().unwrap_or(Value::Null),
            timestamp: o.get("timestamp").and_then(Value::as_str).map(str::to_string),
        });
    }
    out
}

/// A JavaScript `Map`/`Set` key for a JSON value (`SameValueZero`); `None` for `undefined`,
/// objects and arrays are never equal to another value, so they get no key.
#[derive(Hash, PartialEq, Eq, Clone)]
enum Key {
    Undefined,
    Null,
    Bool(bool),
    Num(u64),
    Str(String),
}

fn key(v: Option<&Value>) -> Option<Key> {
    Some(match v {
        None => Key::Undefined,
        Some(Value::Null) => Key::Null,
        Some(Value::Bool(b)) => Key::Bool(*b),
        Some(Value::Number(n)) => {
            let f = n.as_f64().unwrap_or(0.0);
            Key::Num(if f == 0.0 { 0 } else { f.to_bits() })
        }
        Some(Value::String(s)) => Key::Str(s.clone()),
        Some(_) => return None,
    })
}

/// JavaScript `===` of two fields (`None` is `undefined`; objects are never equal).
fn strict_eq(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(x @ (Value::Null | Value::Bool(_) | Value::String(_))), Some(y)) => x == y,
        _ => false,
    }
}

/// An object whose `type` is `kind` (official `Es`).
fn is_block(v: Option<&Value>, kind: &str) -> bool {
    matches!(v, Some(Value::Object(o)) if o.get("type").and_then(Value::as_str) == Some(kind))
}

fn array_of(raw: Option<super::transcript::Raw<'_>>) -> Vec<Value> {
    raw.filter(|r| r.get().starts_with('['))
        .and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or_default()
}

/// A copy of entry `i` showing `message` (and, with `clear_denial`, without its denial fields).
fn with_message(entries: &mut Vec<Entry<'_>>, i: usize, message: &Value, clear_denial: bool) -> usize {
    let mut e = entries[i].clone();
    let origin = e.origin_text().map(str::to_string);
    let ran_by = e.made.as_ref().and_then(|m| m.ran_by.clone());
    e.made = Some(Box::new(Made {
        message: message.to_string(),
        origin,
        ran_by,
    }));
    if clear_denial {
        e.denial_kind = None;
        e.denial_unanswered = None;
    }
    entries.push(e);
    entries.len() - 1
}

/// `{ ...message, content }`.
fn replace_content(message: &Map<String, Value>, content: Vec<Value>) -> Value {
    let mut m = message.clone();
    m.insert("content".into(), Value::Array(content));
    Value::Object(m)
}

/// The virtual rows the host ran for a chain entry, from beside the chain (official `Wh`):
/// after each entry, the virtual entries hanging off it are put back into the conversation.
/// `all` is every entry of the transcript in file order (by index, `entries.len()` at the
/// time of the call).
pub(crate) fn put_back_virtual(entries: &[Entry<'_>], chain: Vec<usize>, all: usize) -> Vec<usize> {
    if !chain.iter().any(|&i| entries[i].hides_tools()) {
        return chain;
    }
    let mut seen: HashSet<&str> = chain.iter().map(|&i| entries[i].uuid()).collect();
    let parents: HashSet<&str> = chain.iter().filter_map(|&i| entries[i].parent()).collect();
    // The last entry off the chain under each parent.
    let mut child: HashMap<&str, usize> = HashMap::new();
    for (n, e) in entries[..all].iter().enumerate() {
        if !seen.contains(e.uuid()) {
            if let Some(p) = e.parent.as_deref() {
                child.insert(p, n);
            }
        }
    }
    let mut out: Vec<usize> = Vec::with_capacity(chain.len());
    for i in chain {
        out.push(i);
        let e = &entries[i];
        let Some(mut a) = child.get(e.uuid()).copied() else {
            continue;
        };
        if e.is_virtual {
            continue;
        }
        if e.hides_tools() && entries[a].kind() == "user" {
            seen.insert(entries[a].uuid());
            match child.get(entries[a].uuid()) {
                Some(&n) => a = n,
                None => continue,
            }
        } else if entries[a].kind() == "attachment" && (e.kind() != "user" || parents.contains(e.uuid())) {
            continue;
        }
        loop {
            let c = &entries[a];
            if seen.contains(c.uuid()) {
                break;
            }
            seen.insert(c.uuid());
            let last_hides = out.last().is_some_and(|&l| entries[l].hides_tools());
            if c.is_virtual && (c.hides_tools() || (c.kind() == "user" && last_hides)) {
                out.push(a);
            } else if c.kind() != "attachment" {
                break;
            }
            match child.get(c.uuid()) {
                Some(&n) => a = n,
                None => break,
            }
        }
    }
    out
}

/// The rows of `host-row` lines shown after the entries that hid their calls (official `Vh`):
/// each row as a virtual assistant entry, with the row answering it as a virtual user entry.
pub(crate) fn add_host_rows(
    entries: &mut Vec<Entry<'_>>,
    list: Vec<usize>,
    rows: &[HostRow],
    all: usize,
) -> Vec<usize> {
    if rows.is_empty() {
        return list;
    }
    let mut uuids: HashSet<String> = entries[..all].iter().map(|e| e.uuid().to_string()).collect();
    let mut withheld: HashSet<&str> = HashSet::new();
    let mut results: HashMap<Key, &HostRow> = HashMap::new();
    let mut uses: HashMap<&str, Vec<&HostRow>> = HashMap::new();
    for r in rows {
        if r.withheld {
            withheld.insert(&r.ran_by);
            continue;
        }
        let Some(row) = r.row_uuid.as_deref() else { continue };
        if uuids.contains(row) {
            continue;
        }
        if is_block(Some(&r.block), "tool_result") {
            if let Some(k) = key(r.block.get("tool_use_id")) {
                results.insert(k, r);
            }
        } else if is_block(Some(&r.block), "tool_use") {
            uuids.insert(row.to_string());
            uses.entry(&r.ran_by).or_default().push(r);
        }
    }
    let mut out = Vec::with_capacity(list.len());
    for i in list {
        out.push(i);
        if entries[i].is_virtual {
            continue;
        }
        let hidden = array_of(entries[i].host_hidden);
        for id in &hidden {
            let Some(id) = id.as_str() else { continue };
            let found = uses.remove(id).unwrap_or_default();
            if withheld.contains(id) {
                continue;
            }
            for m in found {
                let answer = key(m.block.get("id")).and_then(|k| results.get(&k).copied());
                for (row, role) in std::iter::once((m, "assistant")).chain(answer.map(|g| (g, "user"))) {
                    let session = entries[i].session_id.clone();
                    let message = serde_json::json!({ "role": role, "content": [row.block.clone()] });
                    entries.push(Entry {
                        kind: Some(role.into()),
                        uuid: row.row_uuid.clone().map(Into::into),
                        session_id: session,
                        timestamp: row.timestamp.clone().map(Into::into),
                        is_virtual: true,
                        made: Some(Box::new(Made {
                            message: message.to_string(),
                            origin: None,
                            ran_by: Some(row.ran_by.clone()),
                        })),
                        ..Entry::default()
                    });
                    out.push(entries.len() - 1);
                }
            }
        }
    }
    out
}

/// `hostContent` when it has exactly one block of `block`'s type, with the same `field` and
/// `name` (official `G$`).
fn host_content_for(e: &Entry<'_>, block: &Value, field: &str) -> Option<Vec<Value>> {
    let content = array_of(e.host_content);
    let kind = block.get("type").and_then(Value::as_str).unwrap_or("");
    let same: Vec<&Value> = content.iter().filter(|b| is_block(Some(b), kind)).collect();
    (same.len() == 1
        && strict_eq(same[0].get(field), block.get(field))
        && strict_eq(same[0].get("name"), block.get("name")))
    .then_some(content)
}

/// The hidden calls and their results taken out of the shown conversation, and what the host
/// showed put in their place (official `qh`).
pub(crate) fn hide_calls(entries: &mut Vec<Entry<'_>>, list: Vec<usize>) -> Vec<usize> {
    if !list.iter().any(|&i| entries[i].hides_tools()) {
        return list;
    }
    let message = |e: &Entry<'_>| -> Option<Map<String, Value>> {
        match e.message_text().map(serde_json::from_str::<Value>) {
            Some(Ok(Value::Object(m))) => Some(m),
            _ => None,
        }
    };
    let content = |m: &Map<String, Value>| -> Vec<Value> {
        match m.get("content") {
            Some(Value::Array(a)) => a.clone(),
            _ => Vec::new(),
        }
    };
    // Tool ids used more than once are never hidden.
    let mut once: HashSet<String> = HashSet::new();
    let mut repeated: HashSet<String> = HashSet::new();
    for &i in &list {
        if entries[i].kind() != "assistant" {
            continue;
        }
        let Some(m) = message(&entries[i]) else { continue };
        for b in content(&m) {
            if is_block(Some(&b), "tool_use") {
                if let Some(id) = b.get("id").and_then(Value::as_str) {
                    if !once.insert(id.to_string()) {
                        repeated.insert(id.to_string());
                    }
                }
            }
        }
    }
    // Hidden call id → the message that hid it; a lone hidden call shown by `hostContent`,
    // waiting for its error result; the ids of virtual rows' calls.
    let mut hid_by: HashMap<String, Map<String, Value>> = HashMap::new();
    let mut pending: HashMap<String, usize> = HashMap::new();
    let mut ran: HashSet<Key> = HashSet::new();
    let mut out = Vec::with_capacity(list.len());
    for i in list {
        let Some(a) = message(&entries[i]) else {
            out.push(i);
            continue;
        };
        let l = content(&a);
        if entries[i].hides_tools() {
            let hidden = array_of(entries[i].host_hidden);
            let mut kept = Vec::with_capacity(l.len());
            for b in &l {
                let id = b.get("id").and_then(Value::as_str);
                let hide = is_block(Some(b), "tool_use")
                    && id.is_some_and(|id| hidden.iter().any(|h| h.as_str() == Some(id)) && !repeated.contains(id));
                if hide {
                    hid_by.insert(id.unwrap_or("").to_string(), a.clone());
                } else {
                    kept.push(b.clone());
                }
            }
            let first = l.first();
            if kept.len() < l.len() {
                let host = array_of(entries[i].host_content);
                let h = host.first();
                if l.len() == 1
                    && is_block(first, "tool_use")
                    && is_block(h, "tool_use")
                    && strict_eq(h.and_then(|h| h.get("id")), first.and_then(|s| s.get("id")))
                {
                    let id = first
                        .and_then(|s| s.get("id"))
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    let shown = with_message(
                        entries,
                        i,
                        &replace_content(&a, vec![h.cloned().unwrap_or(Value::Null)]),
                        false,
                    );
                    pending.insert(id, shown);
                }
                if !kept.is_empty() {
                    out.push(with_message(entries, i, &replace_content(&a, kept), false));
                }
                continue;
            }
            let ran_by = entries[i].ran_by_text();
            if ran_by.is_none() || !entries[i].is_virtual || l.len() != 1 || !is_block(first, "tool_use") {
                out.push(i);
                continue;
            }
            let s = first.cloned().unwrap_or(Value::Null);
            if let Some(k) = key(s.get("id")) {
                ran.insert(k);
            }
            let base = ran_by.as_deref().and_then(|r| hid_by.get(r)).unwrap_or(&a).clone();
            let shown = host_content_for(&entries[i], &s, "id").unwrap_or(l);
            out.push(with_message(entries, i, &replace_content(&base, shown), false));
            continue;
        }
        if entries[i].kind() != "user" {
            out.push(i);
            continue;
        }
        let results: Vec<usize> = (0..l.len()).filter(|&n| is_block(Some(&l[n]), "tool_result")).collect();
        let d = (results.len() == 1).then(|| &l[results[0]]);
        let d_id = d.and_then(|d| d.get("tool_use_id"));
        let p = d_id.and_then(Value::as_str).and_then(|id| pending.get(id).copied());
        let shows_host = match (d, p) {
            (Some(d), Some(_)) => d.get("is_error") == Some(&Value::Bool(true)),
            (Some(_), None) => entries[i].is_virtual && key(d_id).is_some_and(|k| ran.contains(&k)),
            _ => false,
        };
        if shows_host {
            if let Some(f) = host_content_for(&entries[i], d.unwrap_or(&Value::Null), "tool_use_id") {
                if let Some(id) = d_id.and_then(Value::as_str) {
                    pending.remove(id);
                }
                if let Some(p) = p {
                    out.push(p);
                }
                out.push(with_message(entries, i, &replace_content(&a, f), false));
                continue;
            }
        }
        let dropped: Vec<usize> = results
            .iter()
            .copied()
            .filter(|&n| {
                l[n].get("tool_use_id")
                    .and_then(Value::as_str)
                    .is_some_and(|id| hid_by.contains_key(id))
            })
            .collect();
        if dropped.is_empty() {
            out.push(i);
            continue;
        }
        if dropped.len() == results.len() {
            continue;
        }
        let rest: Vec<Value> = l
            .iter()
            .enumerate()
            .filter(|(n, _)| !dropped.contains(n))
            .map(|(_, b)| b.clone())
            .collect();
        out.push(with_message(entries, i, &replace_content(&a, rest), true));
    }
    out
}
