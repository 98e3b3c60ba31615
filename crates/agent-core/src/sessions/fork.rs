//! `forkSession`: a copy of a session's main conversation under a new id, every uuid remapped,
//! each entry marked `forkedFrom`, the last one stamped now, titled "<title> (fork)". Written
//! to a temporary file and renamed, so an interrupted fork leaves nothing half-written.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value};

use super::cut::{CLEARED, KINDS};
use super::info::{self, HeadTail, WINDOW};
use super::mutate::Failure;
use super::{paths, scan, write};

fn s<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

fn head_tail_of(text: &str) -> HeadTail {
    let b = text.as_bytes();
    let head = String::from_utf8_lossy(&b[..b.len().min(WINDOW)]).into_owned();
    let tail = String::from_utf8_lossy(&b[b.len().saturating_sub(WINDOW)..]).into_owned();
    HeadTail {
        head,
        tail,
        mtime_ms: 0,
        size: b.len() as u64,
    }
}

fn derived_title(text: &str, sidecar: Option<String>) -> String {
    let ht = head_tail_of(text);
    let custom = match scan::titled(&ht.tail, "custom-title") {
        Some(c) => Some(c),
        None => sidecar.or_else(|| scan::titled(&ht.head, "custom-title")),
    };
    custom
        .filter(|c| !c.is_empty())
        .or_else(|| scan::titled(&ht.tail, "ai-title").filter(|c| !c.is_empty()))
        .or_else(|| scan::titled(&ht.head, "ai-title").filter(|c| !c.is_empty()))
        .unwrap_or_else(|| scan::first_prompt(&ht.head))
}

fn remap_compact(meta: &Value, map: &HashMap<String, String>) -> Option<Value> {
    let obj = meta.as_object()?;
    let (pm, ps, rt) = (
        obj.get("preservedMessages"),
        obj.get("preservedSegment"),
        obj.get("runningTurnSends"),
    );
    if pm.is_none() && ps.is_none() && rt.is_none() {
        return None;
    }
    let one = |v: &Value| -> Value {
        match v.as_str() {
            Some(u) => Value::String(map.get(u).cloned().unwrap_or_else(|| u.to_string())),
            None => v.clone(),
        }
    };
    let fix = |v: &Value, keys: &[&str]| -> Value {
        let Some(o) = v.as_object() else { return v.clone() };
        let mut o = o.clone();
        for k in keys {
            if let Some(x) = o.get(*k).cloned() {
                let nv = match &x {
                    Value::Array(a) => Value::Array(a.iter().map(one).collect()),
                    other => one(other),
                };
                o.insert(k.to_string(), nv);
            }
        }
        Value::Object(o)
    };
    let mut out = Map::new();
    for (k, v) in obj {
        if !matches!(
            k.as_str(),
            "preservedMessages" | "preservedSegment" | "runningTurnSends"
        ) {
            out.insert(k.clone(), v.clone());
        }
    }
    if let Some(p) = pm {
        out.insert("preservedMessages".into(), fix(p, &["anchorUuid", "uuids", "allUuids"]));
    }
    if let Some(p) = ps {
        out.insert(
            "preservedSegment".into(),
            fix(p, &["headUuid", "anchorUuid", "tailUuid"]),
        );
    }
    Some(Value::Object(out))
}

/// Sets `key` (kept in place when present, appended otherwise); `None` removes it.
fn put(o: &mut Map<String, Value>, key: &str, v: Option<Value>) {
    match v {
        Some(v) => {
            o.insert(key.to_string(), v);
        }
        None => {
            o.shift_remove(key);
        }
    }
}

/// Forks a local session into a new transcript beside it (official `forkSession`); the new id.
pub fn fork(
    cx: &paths::Context,
    id: &str,
    dir: Option<&str>,
    up_to: Option<&str>,
    title: Option<&str>,
) -> Result<String, Failure> {
    if !paths::is_uuid(id) {
        return Err(Failure {
            message: format!("Invalid sessionId: {id}"),
            safe: true,
            code: None,
        });
    }
    let not_found = || Failure {
        message: match dir.filter(|d| !d.is_empty()) {
            Some(d) => format!("Session {id} not found in project directory for {d}"),
            None => format!("Session {id} not found"),
        },
        safe: false,
        code: None,
    };
    let loc = super::list::locate(cx, id, dir).ok_or_else(not_found)?;
    let bytes = match super::fence::read(&loc.path) {
        Ok(b) => b,
        Err(r @ (super::fence::Refused::Outside(_) | super::fence::Refused::NotRegular(..))) => {
            return Err(Failure::refused(id, &r))
        }
        Err(_) => return Err(not_found()),
    };
    if bytes.is_empty() {
        return Err(not_found());
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let sidecar = info::sidecar_title(&loc.path, id);
    let (fork_id, out) = build(id, &text, up_to, title, TitleFrom::File(sidecar))?;
    let target = loc.path.with_file_name(format!("{fork_id}.jsonl"));
    write::replace_file(&target, out.as_bytes())?;
    Ok(fork_id)
}

/// Where a fork's default title comes from: a transcript file (head/tail search, with its
/// sidecar title), or a store's entries (the last title of any kind).
pub(crate) enum TitleFrom {
    File(Option<String>),
    Entries,
}

fn entries_title(text: &str) -> String {
    let (mut custom, mut ai) = (None, None);
    let mut prompt = None;
    let mut fallback = None;
    for line in text.split('\n') {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if let Some(t) = s(&v, "customTitle").filter(|t| !t.is_empty()) {
            custom = Some(t.to_string());
        }
        if let Some(t) = s(&v, "aiTitle").filter(|t| !t.is_empty()) {
            ai = Some(t.to_string());
        }
        if prompt.is_none() {
            prompt = scan::prompt_of(&v, &mut fallback);
        }
    }
    custom.or(ai).or(prompt).or(fallback).unwrap_or_default()
}

/// The fork's JSONL text and id, from the original's JSONL text.
pub(crate) fn build(
    id: &str,
    text: &str,
    up_to: Option<&str>,
    title: Option<&str>,
    title_from: TitleFrom,
) -> Result<(String, String), Failure> {
    let mut entries: Vec<Value> = Vec::new();
    let mut replacements: Vec<Value> = Vec::new();
    let mut relocated: Option<String> = None;
    // Session records a fork carries over (official `jj`).
    let mut suppressed = false;
    let mut atis: Option<String> = None;
    let mut tools: Option<Vec<Value>> = None;
    let mut organizations: Vec<String> = Vec::new();
    let mut flow = super::dataflow::Reader::default();
    // Lone surrogate escapes (which `JSON.parse` takes) masked as characters serde takes, and
    // lines deeper than serde builds read through `deep`: a fork copies every line the original
    // has, as `getSessionMessages` reads them (written back as they were at the end).
    let masked = super::surrogate::has_lone(text);
    let masked_text = if masked {
        Cow::Owned(super::surrogate::mask(text))
    } else {
        Cow::Borrowed(text)
    };
    let mut deep = super::deep::Deep::new();
    for line in masked_text.split('\n') {
        let line = line.trim_start_matches(|c: char| (c as u32) <= 32);
        if line.is_empty() {
            continue;
        }
        let Some(v) = deep.read(line) else {
            continue;
        };
        let kind = s(&v, "type").unwrap_or("");
        if KINDS.contains(&kind) && v.get("uuid").is_some_and(Value::is_string) {
            flow.entry(&v);
            entries.push(v);
        } else if kind == "content-replacement" && s(&v, "sessionId") == Some(id) {
            if let Some(Value::Array(r)) = v.get("replacements") {
                replacements.extend(r.iter().filter(|x| x.is_object()).cloned());
            }
        } else if kind == "history-suppression" {
            suppressed = true;
        } else if kind == "atis-latch" && s(&v, "sessionId") == Some(id) {
            if let Some(a) = s(&v, "atis").filter(|a| a.bytes().all(|b| (0x21..=0x7e).contains(&b))) {
                atis = Some(a.to_string());
            }
        } else if kind == "tools-used" && s(&v, "sessionId") == Some(id) {
            if let Some(Value::Array(t)) = v.get("tools") {
                tools = Some(
                    t.iter()
                        .filter(|x| x.as_str().is_some_and(|x| !x.is_empty()))
                        .cloned()
                        .collect(),
                );
            }
        } else if kind == "hybrid-organization" {
            if let Some(o) = s(&v, "organizationUuid")
                .filter(|o| paths::is_uuid(o))
                .map(str::to_lowercase)
            {
                if !organizations.contains(&o) {
                    organizations.push(o);
                }
            }
        } else if flow.other(&v, id) {
            // A data-flow or derived-from record, folded into `flow`.
        } else if kind == "relocated" && s(&v, "sessionId") == Some(id) {
            if let Some(c) = s(&v, "relocatedCwd").filter(|c| !c.is_empty()) {
                relocated = Some(c.to_string());
            }
        }
    }
    let mut main: Vec<Value> = entries
        .into_iter()
        .filter(|e| e.get("isSidechain") != Some(&Value::Bool(true)))
        .collect();
    if main.is_empty() {
        return Err(Failure {
            message: format!("Session {id} has no messages to fork"),
            safe: false,
            code: None,
        });
    }
    if let Some(target) = up_to.filter(|t| !t.is_empty()) {
        main = super::cut::cut(main, target).ok_or_else(|| Failure {
            message: format!("Message {target} not found in session {id}"),
            safe: true,
            code: None,
        })?;
    }
    let mut new_ids: HashMap<String, String> = HashMap::new();
    for e in &main {
        new_ids.insert(s(e, "uuid").unwrap_or("").to_string(), write::uuid_v4());
    }
    let kept: Vec<&Value> = main.iter().filter(|e| s(e, "type") != Some("progress")).collect();
    if kept.is_empty() {
        return Err(Failure {
            message: format!("Session {id} has no messages to fork"),
            safe: false,
            code: None,
        });
    }
    let kept_ids: HashMap<String, String> = kept
        .iter()
        .map(|e| {
            let u = s(e, "uuid").unwrap_or("").to_string();
            let n = new_ids[&u].clone();
            (u, n)
        })
        .collect();
    let by_uuid: HashMap<&str, &Value> = main.iter().map(|e| (s(e, "uuid").unwrap_or(""), e)).collect();
    let fork_id = write::uuid_v4();
    let now = write::now_iso();
    let mut out = String::new();
    if suppressed {
        out.push_str(&serde_json::json!({ "type": "history-suppression", "sessionId": fork_id, "cause": "fork_inherit", "ts": now }).to_string());
        out.push('\n');
    }
    for o in &organizations {
        out.push_str(
            &serde_json::json!({ "type": "hybrid-organization", "sessionId": fork_id, "organizationUuid": o })
                .to_string(),
        );
        out.push('\n');
    }
    for (n, y) in kept.iter().enumerate() {
        let Value::Object(src) = y else { continue };
        let mut o = src.clone();
        let uuid = s(y, "uuid").unwrap_or("").to_string();
        // Parent: the nearest ancestor that is not a progress entry.
        let mut parent: Option<String> = None;
        let mut cur = s(y, "parentUuid").filter(|p| !p.is_empty()).map(str::to_string);
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = cur {
            let Some(pe) = by_uuid.get(p.as_str()) else { break };
            if s(pe, "type") != Some("progress") {
                parent = new_ids.get(&p).cloned();
                break;
            }
            if !seen.insert(p.clone()) {
                parent = new_ids.get(&p).cloned();
                break;
            }
            cur = s(pe, "parentUuid").filter(|x| !x.is_empty()).map(str::to_string);
        }
        if s(y, "type") == Some("system") && s(y, "subtype") == Some("model_refusal_fallback") {
            put(&mut o, "neutralizedByFork", Some(Value::Bool(true)));
        }
        if s(y, "type") == Some("attachment") {
            if let Some(att) = y.get("attachment").and_then(Value::as_object) {
                if att.get("type").and_then(Value::as_str) == Some("deferred_tools_record") {
                    if let Some(Value::Array(names)) = att.get("nameOnlyAnnouncements") {
                        let mut a = att.clone();
                        let mapped: Vec<Value> = names
                            .iter()
                            .filter_map(|x| {
                                x.as_str()
                                    .and_then(|u| new_ids.get(u))
                                    .map(|m| Value::String(m.clone()))
                            })
                            .collect();
                        a.insert("nameOnlyAnnouncements".into(), Value::Array(mapped));
                        put(&mut o, "attachment", Some(Value::Object(a)));
                    }
                }
            }
        }
        if s(y, "type") == Some("attachment") {
            if let Some(att) = y.get("attachment").and_then(Value::as_object) {
                let source = att.get("source_uuid").and_then(Value::as_str).filter(|u| !u.is_empty());
                if let Some(mapped) = source
                    .filter(|_| att.get("type").and_then(Value::as_str) == Some("queued_command"))
                    .and_then(|u| new_ids.get(u))
                {
                    let mut a = o
                        .get("attachment")
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default();
                    a.insert("source_uuid".into(), Value::String(mapped.clone()));
                    put(&mut o, "attachment", Some(Value::Object(a)));
                }
            }
        }
        // A voice call's folded command: its source uuid remapped (official `Z$`).
        if s(y, "type") == Some("system") && s(y, "subtype") == Some("voice_call_talk") {
            if let Some(Value::Object(fold)) = y.get("fold") {
                if let Some(Value::Object(cmd)) = fold.get("command") {
                    if let Some(mapped) = cmd
                        .get("source_uuid")
                        .and_then(Value::as_str)
                        .filter(|u| !u.is_empty())
                        .and_then(|u| new_ids.get(u))
                    {
                        let (mut fold, mut cmd) = (fold.clone(), cmd.clone());
                        cmd.insert("source_uuid".into(), Value::String(mapped.clone()));
                        fold.insert("command".into(), Value::Object(cmd));
                        put(&mut o, "fold", Some(Value::Object(fold)));
                    }
                }
            }
        }
        if s(y, "type") == Some("system") {
            if let Some(m) = y.get("compactMetadata").and_then(|m| remap_compact(m, &kept_ids)) {
                put(&mut o, "compactMetadata", Some(m));
            }
        }
        put(&mut o, "uuid", Some(Value::String(new_ids[&uuid].clone())));
        put(&mut o, "parentUuid", Some(parent.map_or(Value::Null, Value::String)));
        let logical = match y.get("logicalParentUuid") {
            None => None,
            Some(Value::Null) => Some(Value::Null),
            Some(v) => Some(
                v.as_str()
                    .and_then(|u| new_ids.get(u))
                    .map_or(Value::Null, |m| Value::String(m.clone())),
            ),
        };
        put(&mut o, "logicalParentUuid", logical);
        put(&mut o, "sessionId", Some(Value::String(fork_id.clone())));
        let ts = if n == kept.len() - 1 {
            Some(Value::String(now.clone()))
        } else {
            y.get("timestamp").cloned()
        };
        put(&mut o, "timestamp", ts);
        put(&mut o, "isSidechain", Some(Value::Bool(false)));
        for k in CLEARED {
            o.shift_remove(k);
        }
        let request = if s(y, "type") == Some("assistant") {
            [
                y.get("requestSessionId"),
                y.get("forkedFrom").and_then(|f| f.get("sessionId")),
                y.get("sessionId"),
            ]
            .into_iter()
            .flatten()
            .find(|v| v.is_string())
            .cloned()
        } else {
            None
        };
        put(&mut o, "requestSessionId", request);
        put(
            &mut o,
            "forkedFrom",
            Some(serde_json::json!({ "sessionId": id, "messageUuid": uuid })),
        );
        out.push_str(&Value::Object(o).to_string());
        out.push('\n');
    }
    if !replacements.is_empty() {
        let e = serde_json::json!({ "type": "content-replacement", "sessionId": fork_id, "replacements": replacements, "uuid": write::uuid_v4(), "timestamp": now });
        out.push_str(&e.to_string());
        out.push('\n');
    }
    if let Some(a) = atis {
        out.push_str(&serde_json::json!({ "type": "atis-latch", "sessionId": fork_id, "atis": a }).to_string());
        out.push('\n');
    }
    if let Some(t) = tools {
        out.push_str(&serde_json::json!({ "type": "tools-used", "sessionId": fork_id, "tools": t }).to_string());
        out.push('\n');
    }
    for record in flow.closing(id, &fork_id) {
        out.push_str(&record.to_string());
        out.push('\n');
    }
    if let Some(c) = relocated {
        out.push_str(&serde_json::json!({ "type": "relocated", "sessionId": fork_id, "relocatedCwd": c }).to_string());
        out.push('\n');
    }
    let name = match title.filter(|t| !t.is_empty()) {
        Some(t) => t.to_string(),
        None => {
            let d = match title_from {
                TitleFrom::File(sidecar) => derived_title(&masked_text, sidecar),
                TitleFrom::Entries => entries_title(&masked_text),
            };
            format!("{} (fork)", if d.is_empty() { "Forked session" } else { &d })
        }
    };
    out.push_str(&serde_json::json!({ "type": "custom-title", "sessionId": fork_id, "customTitle": name, "uuid": write::uuid_v4(), "timestamp": now }).to_string());
    out.push('\n');
    let out = deep.restore(out);
    // The title given crosses from JS masked the same way (see `surrogate::from_js`).
    let out = if masked || title.is_some_and(super::surrogate::has_masked) {
        super::surrogate::unmask(&out)
    } else {
        out
    };
    Ok((fork_id, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fork_keeps_lines_with_lone_surrogates_and_any_depth_and_their_links() {
        let id = "00000000-0000-4000-8000-000000000001";
        let deep = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        let lines = [
            format!(
                r#"{{"type":"user","uuid":"a","parentUuid":null,"sessionId":"{id}","message":{{"role":"user","content":"hi"}}}}"#
            ),
            format!(
                r#"{{"type":"assistant","uuid":"b","parentUuid":"a","sessionId":"{id}","message":{{"role":"assistant","content":[{{"type":"tool_use","id":"t","name":"X","input":{{"v":{deep}}}}}]}}}}"#
            ),
            format!(
                r#"{{"type":"user","uuid":"c","parentUuid":"b","sessionId":"{id}","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t","content":"cut \ud83d here"}}]}}}}"#
            ),
            format!(
                r#"{{"type":"assistant","uuid":"d","parentUuid":"c","sessionId":"{id}","message":{{"role":"assistant","content":[{{"type":"text","text":"ok"}}]}}}}"#
            ),
        ];
        let (_, out) = build(id, &lines.join("\n"), None, Some("t \u{10F83D}"), TitleFrom::Entries).unwrap();
        let out: Vec<&str> = out.lines().collect();
        assert_eq!(out.len(), 5, "four messages and the title: {out:#?}");
        assert!(out[1].contains(&deep), "the deep input copied as it was");
        assert!(
            out[2].contains(r"cut \ud83d here"),
            "the lone surrogate kept as its escape"
        );
        assert!(out[4].contains(r#""customTitle":"t \ud83d""#), "{}", out[4]);
        let uuid = |l: &str| -> (String, Option<String>) {
            let (masked, _) = super::super::surrogate::from_js(l);
            let mut d = super::super::deep::Deep::new();
            let v = d.read(&masked).unwrap();
            (
                v["uuid"].as_str().unwrap().to_string(),
                v["parentUuid"].as_str().map(str::to_string),
            )
        };
        for n in 1..4 {
            assert_eq!(
                uuid(out[n]).1,
                Some(uuid(out[n - 1]).0),
                "line {n} links to the one before"
            );
        }
        // A line with a member that is not JSON at all is skipped, as a torn line is.
        let torn = format!("{}\n{{\"type\":\"user\",\"uu", lines[0]);
        assert_eq!(
            build(id, &torn, None, None, TitleFrom::Entries)
                .unwrap()
                .1
                .lines()
                .count(),
            2
        );
    }
}
