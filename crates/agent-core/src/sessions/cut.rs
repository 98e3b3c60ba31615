//! Where `forkSession({ upToMessageId })` cuts a conversation (the official's `Vj` lookup,
//! `YUe`, `ZUe` and `JUe`): the message is found on the conversation chain (or by the source
//! uuid of a queued command); a cut that ends just past a compaction boundary goes back to
//! before it; a boundary anchored at the cut loses its preserved segment; and entries of the
//! cut that are not on the way to its last entry (dead branches, boundaries preserving nothing
//! alive) are left out until the chain of what remains is the cut's own chain.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{chain, transcript, write};

/// The entry types a fork copies (the rest of a transcript is metadata).
pub(super) const KINDS: [&str; 5] = ["user", "assistant", "attachment", "system", "progress"];
/// Fields a fork clears (the official's `Wj`: they describe the original's place among agents
/// and turns), which the chain walk must not see either.
pub(super) const CLEARED: [&str; 10] = [
    "teamName",
    "agentName",
    "sessionKind",
    "slug",
    "sourceToolAssistantUUID",
    "summarizedTurnPromptUuids",
    "droppedPromptUuids",
    "sentAsUuid",
    "rowsAheadOfPutBack",
    "turnAttributionKey",
];

fn s<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn uuid(v: &Value) -> &str {
    s(v, "uuid").unwrap_or("")
}

/// A non-empty parent uuid.
fn parent(v: &Value) -> Option<&str> {
    s(v, "parentUuid").filter(|p| !p.is_empty())
}

fn meta(v: &Value) -> Option<&Map<String, Value>> {
    v.get("compactMetadata").and_then(Value::as_object)
}

fn is_boundary(v: &Value) -> bool {
    s(v, "type") == Some("system") && s(v, "subtype") == Some("compact_boundary")
}

/// The preserved part a boundary anchors (official `p_`): `preservedMessages`, else
/// `preservedSegment`, when it is an object with an `anchorUuid`.
fn preserved(v: &Value) -> Option<&Map<String, Value>> {
    let m = meta(v)?;
    let pm = m.get("preservedMessages").filter(|x| !x.is_null());
    let o = pm
        .or_else(|| m.get("preservedSegment").filter(|x| !x.is_null()))?
        .as_object()?;
    o.contains_key("anchorUuid").then_some(o)
}

fn anchor_is(v: &Value, u: &str) -> bool {
    preserved(v).and_then(|p| p.get("anchorUuid")).and_then(Value::as_str) == Some(u)
}

/// A boundary written when nothing was summarised (official `qj`).
fn empty_boundary(v: &Value) -> bool {
    meta(v).and_then(|m| m.get("durationMs")).and_then(Value::as_f64) == Some(0.0) && anchor_is(v, uuid(v))
}

/// A compaction boundary that counts (official `Yj`).
fn real_boundary(v: &Value) -> bool {
    is_boundary(v) && !empty_boundary(v)
}

/// The uuids a boundary preserves (official `Yh`; only strings can match a uuid).
fn kept_uuids(v: &Value) -> Vec<&str> {
    let Some(m) = meta(v) else { return Vec::new() };
    let mut out: Vec<&str> = Vec::new();
    if let Some(Value::Array(u)) = m.get("preservedMessages").and_then(|p| p.get("uuids")) {
        out.extend(u.iter().filter_map(Value::as_str));
    }
    if let Some(seg) = m.get("preservedSegment").filter(|x| x.is_object()) {
        out.extend(["headUuid", "tailUuid"].iter().filter_map(|k| s(seg, k)));
    }
    out
}

/// The source uuid of a queued command attachment, or of a voice call's folded command
/// (official `Np`).
fn source_uuid(v: &Value) -> Option<&str> {
    if s(v, "type") == Some("system") && s(v, "subtype") == Some("voice_call_talk") {
        let cmd = v.get("fold")?.as_object()?.get("command")?.as_object()?;
        return cmd.get("source_uuid").and_then(Value::as_str).filter(|u| !u.is_empty());
    }
    if s(v, "type") != Some("attachment") {
        return None;
    }
    let a = v.get("attachment")?;
    (s(a, "type") == Some("queued_command"))
        .then(|| s(a, "source_uuid"))
        .flatten()
        .filter(|u| !u.is_empty())
}

/// The conversation chain of `entries` as uuids, and the terminal entry its walk started from.
/// `cleared`: walk them as the fork writes them (without agent fields, none a sidechain).
fn chain_of<'v>(
    entries: impl Iterator<Item = &'v Value>,
    extra: Option<Value>,
    cleared: bool,
) -> (Vec<String>, Option<String>) {
    let mut text = String::new();
    let extra = extra.map(|x| x.to_string());
    for e in entries {
        if cleared {
            let mut o = e.as_object().cloned().unwrap_or_default();
            o.insert("isSidechain".into(), Value::Bool(false));
            for k in CLEARED {
                o.shift_remove(k);
            }
            text.push_str(&Value::Object(o).to_string());
        } else {
            text.push_str(&e.to_string());
        }
        text.push('\n');
    }
    if let Some(x) = extra {
        text.push_str(&x);
        text.push('\n');
    }
    let mut parsed = transcript::parse_entries(&text, &KINDS);
    let (list, _, terminal) = chain::walk_found(&mut parsed);
    (
        list.into_iter().map(|i| parsed[i].uuid().to_string()).collect(),
        terminal.map(|t| parsed[t].uuid().to_string()),
    )
}

/// The index in `main` of the entry the fork ends at, or `None` when there is no such message.
fn find(main: &[Value], target: &str) -> Option<usize> {
    let (walked, _) = chain_of(main.iter(), None, false);
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut last: HashMap<&str, &Value> = HashMap::new();
    for (n, e) in main.iter().enumerate() {
        first.entry(uuid(e)).or_insert(n);
        last.insert(uuid(e), e);
    }
    let end = walked
        .iter()
        .filter_map(|u| first.get(u.as_str()))
        .max()
        .map_or(0, |l| l + 1);
    // The chain, then what follows its last entry in the file.
    let order: Vec<&Value> = walked
        .iter()
        .filter_map(|u| last.get(u.as_str()).copied())
        .chain(main[end.min(main.len())..].iter())
        .collect();
    let found = order
        .iter()
        .position(|e| uuid(e) == target)
        .or_else(|| order.iter().position(|e| source_uuid(e) == Some(target)));
    match found {
        Some(p) => first.get(uuid(order[p])).copied(),
        None => main
            .iter()
            .position(|e| uuid(e) == target)
            .or_else(|| main.iter().position(|e| source_uuid(e) == Some(target))),
    }
}

/// A cut that ends past the last message at a compaction boundary goes back to the last entry
/// the boundary preserved or continued from (official `YUe`).
fn before_boundary(e: Vec<Value>) -> Vec<Value> {
    let last_message = e
        .iter()
        .rposition(|p| matches!(s(p, "type"), Some("user" | "assistant")));
    let from = last_message.map_or(0, |t| t + 1);
    let Some(n) = (from..e.len()).find(|&f| real_boundary(&e[f])) else {
        return e;
    };
    let r = &e[n];
    let o = &e[..n];
    let mut wanted: HashSet<&str> = HashSet::new();
    if !anchor_is(r, uuid(r)) {
        wanted.extend(kept_uuids(r));
        wanted.extend(s(r, "logicalParentUuid"));
    }
    let i = o.iter().rposition(|p| wanted.contains(uuid(p)));
    let a = o.iter().rev().find(|p| is_boundary(p));
    let l = match (i, a) {
        (Some(i), Some(a)) if !empty_boundary(a) && kept_uuids(a).contains(&uuid(&o[i])) => {
            let anchor = preserved(a).and_then(|p| p.get("anchorUuid")).and_then(Value::as_str);
            anchor.and_then(|an| o.iter().rposition(|p| uuid(p) == an))
        }
        _ => None,
    };
    let c = match (i, l) {
        (Some(i), Some(l)) => Some(i.max(l)),
        (x, y) => x.or(y),
    };
    let d = match c {
        Some(c) => &o[..=c],
        None => o,
    };
    if d.iter().any(|p| s(p, "type") != Some("progress")) {
        d.to_vec()
    } else {
        e
    }
}

/// A boundary anchored at the cut keeps no preserved segment (official `ZUe`).
fn unanchor(cut: &str, e: &mut [Value]) {
    for v in e.iter_mut() {
        if real_boundary(v) && anchor_is(v, cut) {
            if let Some(Value::Object(m)) = v.get_mut("compactMetadata") {
                for k in ["preservedMessages", "preservedSegment", "postTokens"] {
                    m.shift_remove(k);
                }
            }
        }
    }
}

/// Leaves out the entries of the cut that are not on the way to its last entry (official
/// `JUe`, `cv`, `$j`).
fn prune(e: Vec<Value>) -> Vec<Value> {
    let Some(t) = e.last() else { return e };
    let probe = serde_json::json!({ "type": "system", "uuid": write::uuid_v4(), "parentUuid": uuid(t), "sessionId": t.get("sessionId"), "timestamp": t.get("timestamp") });
    let (r, _) = chain_of(e.iter(), Some(probe), true);
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut by_uuid: HashMap<&str, &Value> = HashMap::new();
    for (n, v) in e.iter().enumerate() {
        index.entry(uuid(v)).or_insert(n);
        by_uuid.insert(uuid(v), v);
    }
    let Some(&start) = r.first().and_then(|u| index.get(u.as_str())) else {
        return e;
    };
    let on_chain: HashSet<&str> = r.iter().map(String::as_str).collect();
    let mut live: HashSet<&str> = HashSet::new();
    for p in std::iter::once(uuid(t)).chain(r.iter().map(String::as_str)) {
        let mut f = by_uuid.get(p).copied();
        while let Some(v) = f {
            if !live.insert(uuid(v)) {
                break;
            }
            f = parent(v).and_then(|p| by_uuid.get(p).copied());
        }
    }
    let cut_off = |u: &str| !live.contains(u) && index.get(u).copied().unwrap_or(start) >= start;
    let mut left_out: HashSet<String> = HashSet::new();
    let leave = |left_out: &mut HashSet<String>, from: &str| {
        let mut f = by_uuid.get(from).copied();
        while let Some(v) = f {
            if !cut_off(uuid(v)) || !left_out.insert(uuid(v).to_string()) {
                break;
            }
            f = parent(v).and_then(|p| by_uuid.get(p).copied());
        }
        for v in &e {
            if parent(v).is_some_and(|p| left_out.contains(p)) {
                left_out.insert(uuid(v).to_string());
            }
        }
    };
    for p in &e {
        if is_boundary(p) && cut_off(uuid(p)) && !kept_uuids(p).iter().any(|f| live.contains(f)) {
            leave(&mut left_out, uuid(p));
        }
    }
    loop {
        let (f, terminal) = chain_of(e.iter().filter(|v| !left_out.contains(uuid(v))), None, true);
        if f.len() == on_chain.len() && f.iter().all(|u| on_chain.contains(u.as_str())) {
            break;
        }
        match terminal {
            Some(t) if cut_off(&t) => leave(&mut left_out, &t),
            _ => break,
        }
    }
    if left_out.is_empty() {
        return e;
    }
    e.into_iter().filter(|v| !left_out.contains(uuid(v))).collect()
}

/// The entries a fork up to `target` keeps, or `None` when `target` is not in the session.
pub fn cut(main: Vec<Value>, target: &str) -> Option<Vec<Value>> {
    let at = find(&main, target)?;
    let cut_uuid = uuid(&main[at]).to_string();
    let mut slice = before_boundary(main[..=at].to_vec());
    unanchor(&cut_uuid, &mut slice);
    Some(prune(slice))
}
