//! The `data-flow-records`, `data-flow-incomplete` and `derived-from` records a fork carries
//! (official `jj`, `av`, `Fj`, `Bj`, `Nj` and the fork's closing records in `Vj`): what the
//! session's tool calls read and wrote, folded over every session the transcript holds records
//! of, written once into the fork as a snapshot, with the sessions it derives from.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

/// The record format version the official reads and writes (`sv`).
const V: f64 = 1.0;
/// "Records were lost" (`Pl`), "a turn ran without data flow" (`uL`), "a boundary was not
/// covered by a snapshot" (`dL`).
const LOST: i64 = 12;
const UNTRACKED: i64 = 11;
const UNCOVERED: i64 = 13;
/// How a session derives from another (`fL`).
const VIA: [&str; 12] = [
    "clear",
    "fork",
    "branch",
    "background",
    "cloud",
    "teleport",
    "teammate",
    "launch",
    "subprocess",
    "resume",
    "import",
    "compact",
];

/// One session's records (official `{ records, incomplete }`).
#[derive(Default, Clone)]
pub(crate) struct Flow {
    records: Vec<Map<String, Value>>,
    incomplete: Option<Vec<i64>>,
}

impl Flow {
    /// Adds codes not there yet (official `As`).
    fn mark(&mut self, codes: &[i64]) {
        for &c in codes {
            let list = self.incomplete.get_or_insert_with(Vec::new);
            if !list.contains(&c) {
                list.push(c);
            }
        }
    }
}

/// A string the official accepts as an id (`kn`): 1–256 UTF-16 units, no control characters.
fn id_like(v: Option<&Value>) -> Option<&str> {
    let s = v?.as_str()?;
    let units = s.encode_utf16().count();
    (units > 0 && units <= 256 && !s.chars().any(|c| (c as u32) < 0x20 || c as u32 == 0x7f)).then_some(s)
}

/// A Messages API response id (`Mj`).
fn response_id(v: &Value) -> bool {
    let Some(rest) = v.as_str().and_then(|s| s.strip_prefix("msg_")) else {
        return false;
    };
    let ok = |r: &str| !r.is_empty() && r.len() <= 64 && r.bytes().all(|b| b.is_ascii_alphanumeric());
    ok(rest) || rest.strip_prefix("staging_").is_some_and(ok) || rest.strip_prefix("local_").is_some_and(ok)
}

/// A tagged id `…_01<22 base58 characters>` as the UUID it encodes (`ov`/`Lj`); others as they are.
fn connector_id(id: &str) -> String {
    let decode = || -> Option<String> {
        let tail = &id[id.rfind('_')? + 1..];
        let digits = tail.strip_prefix("01")?;
        if digits.chars().count() != 22 {
            return None;
        }
        const ALPHABET: &str = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
        let mut n: u128 = 0;
        for c in digits.chars() {
            let d = ALPHABET.find(c)? as u128;
            n = n.checked_mul(58)?.checked_add(d)?;
        }
        let h = format!("{n:032x}");
        Some(format!(
            "{}-{}-{}-{}-{}",
            &h[..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..]
        ))
    };
    decode().unwrap_or_else(|| id.to_string())
}

/// What a plugin id that is not of a known form becomes (0.3.332's `xh`).
const UNKNOWN_PLUGIN: &str = "unknown";

/// A plugin id the official keeps (`nT`): `third_party`, `unknown`, or `name@marketplace`
/// (`^[\w.-]{1,128}@[\w.-]{1,64}$`, ASCII word characters).
fn plugin_id(v: &Value) -> bool {
    let Some(s) = v.as_str() else { return false };
    if s == "third_party" || s == UNKNOWN_PLUGIN {
        return true;
    }
    let part = |p: &str, max: usize| {
        (1..=max).contains(&p.len())
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
    };
    matches!(s.split_once('@'), Some((name, market)) if part(name, 128) && part(market, 64))
}

/// A record's `web` steps as the official keeps them (0.3.332's `eI`): 1 to 8 steps, each `[k]`
/// with k in 0..=4, or `[k, 0, r]` with k in 0..=1 and r in 1..=2.
fn web_steps(v: &Value) -> bool {
    let num = |x: &Value, allowed: &[f64]| x.as_f64().is_some_and(|n| allowed.contains(&n));
    let step = |s: &Value| match s.as_array().map(Vec::as_slice) {
        Some([k]) => num(k, &[0.0, 1.0, 2.0, 3.0, 4.0]),
        Some([k, z, r]) => num(k, &[0.0, 1.0]) && num(z, &[0.0]) && num(r, &[1.0, 2.0]),
        _ => false,
    };
    matches!(v.as_array(), Some(a) if (1..=8).contains(&a.len()) && a.iter().all(step))
}

/// The MCP server a record names (`LUe`/`d_`).
fn server(v: &Value) -> Value {
    let shaped = || -> Option<Value> {
        let o = v.as_object()?;
        match o.get("type")?.as_str()? {
            "anthropic" => Some(json!({ "type": "anthropic", "id": id_like(o.get("id"))? })),
            "claude_ai_connector" => {
                let id = id_like(o.get("id"))?;
                let dir = match o.get("directory_id") {
                    Some(Value::Null) => Value::Null,
                    d => Value::String(id_like(d)?.to_string()),
                };
                Some(json!({ "type": "claude_ai_connector", "id": connector_id(id), "directory_id": dir }))
            }
            "client_configured" => {
                let t = o
                    .get("transport")?
                    .as_str()
                    .filter(|t| matches!(*t, "stdio" | "http" | "in_process"))?;
                let mut out = Map::new();
                out.insert("type".into(), "client_configured".into());
                out.insert("transport".into(), t.into());
                if let Some(h) = o.get("plugin_id_hash") {
                    out.insert("plugin_id_hash".into(), id_like(Some(h))?.into());
                }
                // 0.3.332: a plugin's id kept when it has the plugin@marketplace form (or names a third
                // party); `unknown` when one was given otherwise, or only its hash was.
                match o.get("plugin_id") {
                    Some(p) if plugin_id(p) => {
                        out.insert("plugin_id".into(), p.clone());
                    }
                    Some(_) => {
                        out.insert("plugin_id".into(), UNKNOWN_PLUGIN.into());
                    }
                    None if o.contains_key("plugin_id_hash") => {
                        out.insert("plugin_id".into(), UNKNOWN_PLUGIN.into());
                    }
                    None => {}
                }
                Some(Value::Object(out))
            }
            _ => None,
        }
    };
    shaped().unwrap_or_else(|| json!({ "type": "unknown" }))
}

/// A record as the official keeps it (`FUe`); `None` when it is dropped.
fn record(v: &Value) -> Option<Map<String, Value>> {
    let e = v.as_object()?;
    let mut t = Map::new();
    if let Some(r) = e.get("response_id") {
        if !response_id(r) {
            return None;
        }
        t.insert("response_id".into(), r.clone());
        let listed = match e.get("listed") {
            Some(Value::Array(a)) => a.iter().filter(|x| response_id(x)).cloned().collect(),
            _ => Vec::new(),
        };
        t.insert("listed".into(), Value::Array(listed));
        if let Some(m) = id_like(e.get("mark_sent_by")) {
            t.insert("mark_sent_by".into(), m.into());
        }
        return Some(t);
    }
    if let Some(Value::String(n)) = e.get("tool_name") {
        t.insert("tool_name".into(), n.clone().into());
    }
    if let Some(u) = id_like(e.get("tool_use_id")) {
        t.insert("tool_use_id".into(), u.into());
    }
    if let Some(u) = id_like(e.get("event_id")) {
        t.insert("event_id".into(), u.into());
    }
    if !t.contains_key("tool_use_id") && !t.contains_key("event_id") {
        return None;
    }
    if t.contains_key("tool_use_id") && !t.contains_key("tool_name") {
        t.insert("tool_name".into(), "".into());
    }
    if let Some(i) = e.get("inner_call_index") {
        let n = i.as_f64()?;
        if n.fract() != 0.0 || !(0.0..2147483648.0).contains(&n) {
            return None;
        }
        t.insert("inner_call_index".into(), (n as i64).into());
    }
    for k in ["no_message", "implicit", "carried"] {
        if e.get(k) == Some(&Value::Bool(true)) {
            t.insert(k.into(), true.into());
        }
    }
    if let Some(s) = e.get("server") {
        t.insert("server".into(), server(s));
    }
    if let Some(m) = id_like(e.get("mcp_tool_name")) {
        t.insert("mcp_tool_name".into(), m.into());
    }
    if let Some(w) = e.get("web").filter(|w| web_steps(w)) {
        t.insert("web".into(), w.clone());
    }
    if let Some(p) = e.get("plugin_id") {
        t.insert(
            "plugin_id".into(),
            if plugin_id(p) { p.clone() } else { UNKNOWN_PLUGIN.into() },
        );
    }
    if let Some(s) = e.get("source") {
        let o = s.as_object()?;
        let ty = id_like(o.get("type"))?;
        let id = match o.get("id") {
            Some(Value::Null) => Value::Null,
            i => id_like(i)?.into(),
        };
        t.insert("source".into(), json!({ "type": ty, "id": id }));
    }
    if let Some(s) = e.get("touched") {
        let o = s.as_object()?;
        let kind = o
            .get("kind")?
            .as_str()
            .filter(|k| matches!(*k, "artifact" | "memory" | "session"))?;
        let action = o
            .get("action")?
            .as_str()
            .filter(|k| matches!(*k, "read" | "write" | "copy"))?;
        let id = match o.get("id") {
            Some(Value::Null) => Value::Null,
            i => id_like(i)?.into(),
        };
        let mut out = Map::new();
        out.insert("kind".into(), kind.into());
        out.insert("id".into(), id);
        out.insert("action".into(), action.into());
        if let Some(to) = o.get("to") {
            out.insert("to".into(), id_like(Some(to))?.into());
        }
        t.insert("touched".into(), Value::Object(out));
    }
    Some(t)
}

/// JavaScript's template text of a field (`${x ?? ""}`).
fn text(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// A record's identity (official `fr`); `None` for response records.
fn identity(r: &Map<String, Value>) -> Option<String> {
    let head = if r.contains_key("tool_use_id") {
        match r.get("inner_call_index") {
            None => format!("call\n{}\n", text(r.get("tool_use_id"))),
            Some(i) => format!(
                "call\n{}\n{}\n{}",
                text(r.get("tool_use_id")),
                text(Some(i)),
                text(r.get("tool_name"))
            ),
        }
    } else if r.contains_key("event_id") {
        format!(
            "event\n{}\n{}\n{}",
            text(r.get("event_id")),
            text(r.get("tool_name")),
            text(r.get("inner_call_index"))
        )
    } else {
        return None;
    };
    let sub = |k: &str, f: &str| text(r.get(k).and_then(|o| o.get(f)));
    Some(
        [
            head,
            sub("source", "type"),
            sub("source", "id"),
            sub("touched", "kind"),
            sub("touched", "id"),
            sub("touched", "action"),
            sub("touched", "to"),
        ]
        .join("\n"),
    )
}

fn response_of(r: &Map<String, Value>) -> Option<&str> {
    r.get("response_id").and_then(Value::as_str)
}

/// Codes of a `data-flow-incomplete` record (official `pL`).
fn codes(v: Option<&Value>) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    if let Some(Value::Array(a)) = v {
        for c in a {
            let n = c
                .as_f64()
                .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 255.0)
                .map_or(1, |n| n as i64);
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    if out.is_empty() {
        vec![1]
    } else {
        out
    }
}

/// Folds one record line into `flows[at]` (official `av`); with `everywhere`, a line's `listed`
/// responses are taken out of every session's state in `flows`.
fn fold(line: &Value, flows: &mut [(String, Flow)], at: usize, everywhere: bool) {
    let kind = line.get("type").and_then(Value::as_str);
    if kind == Some("data-flow-incomplete") {
        flows[at].1.mark(&codes(line.get("codes")));
        return;
    }
    if kind != Some("data-flow-records") {
        return;
    }
    let t = &mut flows[at].1;
    if line.get("v").and_then(Value::as_f64) != Some(V) {
        t.mark(&[LOST]);
        return;
    }
    let Some(Value::Array(raw)) = line.get("records") else {
        t.mark(&[LOST]);
        return;
    };
    let r: Vec<Map<String, Value>> = raw.iter().filter_map(record).collect();
    if r.len() < raw.len() {
        t.mark(&[LOST]);
    }
    let snapshot = line.get("snapshot") == Some(&Value::Bool(true));
    let cut = t
        .records
        .iter()
        .rposition(|c| !c.contains_key("response_id"))
        .map_or(0, |n| n + 1);
    let tail: Vec<Map<String, Value>> = t.records.split_off(cut);
    // Response records by id, in JavaScript Map order.
    let mut responses: Map<String, Value> = Map::new();
    if !snapshot {
        for c in tail {
            let id = response_of(&c).unwrap_or("").to_string();
            responses.insert(id, Value::Object(c));
        }
    }
    let mut calls = Vec::new();
    let mut listed_all: HashSet<String> = HashSet::new();
    for mut c in r {
        if !c.contains_key("response_id") {
            calls.push(c);
            continue;
        }
        let listed = c.shift_remove("listed");
        if let Some(Value::Array(l)) = listed {
            for f in l {
                let f = f.as_str().unwrap_or("").to_string();
                responses.shift_remove(&f);
                listed_all.insert(f);
            }
        }
        let id = response_of(&c).unwrap_or("").to_string();
        responses.insert(id, Value::Object(c));
    }
    if !listed_all.is_empty() && everywhere {
        for (_, flow) in flows.iter_mut() {
            let last = flow
                .records
                .iter()
                .rev()
                .find(|p| response_of(p).is_none_or(|id| listed_all.contains(id)));
            if last.is_some_and(|p| p.contains_key("response_id")) {
                flow.records
                    .retain(|p| response_of(p).is_none_or(|id| !listed_all.contains(id)));
            }
        }
    }
    let t = &mut flows[at].1;
    let responses = responses.into_iter().filter_map(|(_, v)| match v {
        Value::Object(m) => Some(m),
        _ => None,
    });
    if snapshot {
        let mut seen = HashSet::new();
        let mut out: Vec<Map<String, Value>> = calls
            .into_iter()
            .filter(|c| identity(c).is_none_or(|k| seen.insert(k)))
            .collect();
        out.extend(responses);
        t.records = out;
        return;
    }
    if calls.is_empty() {
        t.records.extend(responses);
        return;
    }
    let mut at_key: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (n, c) in t.records.iter().enumerate() {
        if let Some(k) = identity(c) {
            at_key.insert(k, n);
        }
    }
    for c in calls {
        let key = identity(&c);
        let Some(p) = key
            .as_ref()
            .and_then(|k| at_key.get(k).copied())
            .filter(|&p| p < t.records.len())
        else {
            t.records.push(c);
            if let Some(k) = key {
                at_key.insert(k, t.records.len() - 1);
            }
            continue;
        };
        let f = &t.records[p];
        let flag = |m: &Map<String, Value>, k: &str| m.get(k) == Some(&Value::Bool(true));
        if flag(f, "carried") && !flag(&c, "carried") {
            t.records[p] = c;
            continue;
        }
        if flag(&c, "no_message") && !flag(f, "no_message") {
            t.records[p].insert("no_message".into(), true.into());
        }
    }
    t.records.extend(responses);
}

/// A `derived-from` session (official `HUe`).
fn derived(v: &Value) -> Option<Value> {
    let o = v.as_object()?;
    let ty = o
        .get("type")?
        .as_str()
        .filter(|t| matches!(*t, "claude_code_session" | "unknown"))?;
    let via = o.get("via")?.as_str().filter(|t| VIA.contains(t))?;
    let id = if ty == "unknown" {
        (o.get("id") == Some(&Value::Null)).then_some(Value::Null)?
    } else {
        Value::String(id_like(o.get("id"))?.to_string())
    };
    let mut out = Map::new();
    out.insert("type".into(), ty.into());
    out.insert("id".into(), id);
    out.insert("via".into(), via.into());
    if let Some(s) = id_like(o.get("started")) {
        out.insert("started".into(), s.into());
    }
    Some(Value::Object(out))
}

/// Sessions without repeats (official `Gp`, by `Ea`).
fn distinct(list: Vec<Value>) -> Vec<Value> {
    let mut seen = HashSet::new();
    list.into_iter()
        .filter(|s| {
            seen.insert(format!(
                "{}\n{}\n{}\n{}",
                text(s.get("type")),
                text(s.get("id")),
                text(s.get("via")),
                text(s.get("started"))
            ))
        })
        .collect()
}

/// What the fork reads of a transcript's lines, in file order.
#[derive(Default)]
pub(crate) struct Reader {
    flows: Vec<(String, Flow)>,
    uncovered: HashSet<String>,
    derived_from: Option<Vec<Value>>,
    /// The sessions the entries were forked from (`forkedFrom.sessionId`), in file order.
    forked_from: Vec<String>,
}

impl Reader {
    fn flow(&mut self, session: &str) -> usize {
        match self.flows.iter().position(|(k, _)| k == session) {
            Some(n) => n,
            None => {
                self.flows.push((session.to_string(), Flow::default()));
                self.flows.len() - 1
            }
        }
    }

    /// A conversation entry (user, assistant, attachment, system, progress).
    pub fn entry(&mut self, e: &Value) {
        if let Some(f) = e
            .get("forkedFrom")
            .filter(|f| f.is_object())
            .and_then(|f| id_like(f.get("sessionId")))
        {
            self.forked_from.push(f.to_string());
        }
        let s = |k: &str| e.get(k).and_then(Value::as_str);
        if s("type") == Some("system")
            && s("subtype") == Some("compact_boundary")
            && e.get("isSidechain") != Some(&Value::Bool(true))
        {
            if let Some(id) = s("sessionId") {
                self.uncovered.insert(id.to_string());
            }
        }
        let sidechain = match e.get("isSidechain") {
            None | Some(Value::Null) | Some(Value::Bool(false)) => false,
            Some(Value::String(x)) => !x.is_empty(),
            Some(Value::Number(n)) => n.as_f64() != Some(0.0),
            Some(_) => true,
        };
        if e.get("dataFlowOn") != Some(&Value::Bool(true)) && !sidechain {
            for (_, f) in &mut self.flows {
                f.mark(&[UNTRACKED]);
            }
        }
    }

    /// Any other line; returns whether it was one of the records read here.
    pub fn other(&mut self, e: &Value, id: &str) -> bool {
        let kind = e.get("type").and_then(Value::as_str).unwrap_or("");
        if matches!(kind, "data-flow-records" | "data-flow-incomplete") {
            let Some(session) = e.get("sessionId").and_then(Value::as_str) else {
                return false;
            };
            if e.get("agentId").is_some() {
                return false;
            }
            let at = self.flow(session);
            fold(e, &mut self.flows, at, true);
            if kind == "data-flow-records" && e.get("snapshot") == Some(&Value::Bool(true)) {
                self.uncovered.remove(session);
            }
            return true;
        }
        if kind == "derived-from" && e.get("sessionId").and_then(Value::as_str) == Some(id) {
            let (sessions, lost) = match e.get("sessions") {
                Some(Value::Array(a)) if e.get("v").and_then(Value::as_f64) == Some(V) => {
                    let each: Vec<Option<Value>> = a.iter().map(derived).collect();
                    let lost = each.iter().any(Option::is_none);
                    (distinct(each.into_iter().flatten().collect()), lost)
                }
                _ => (Vec::new(), true),
            };
            self.derived_from = Some(if lost {
                let mut all = self.derived_from.take().unwrap_or_default();
                all.extend(sessions);
                distinct(all)
            } else {
                sessions
            });
            if lost {
                let at = self.flow(id);
                self.flows[at].1.mark(&[LOST]);
            }
            return true;
        }
        false
    }

    /// The closing records of a fork `fork_id` of session `id` (official `Bj`/`Fj` and `Vj`):
    /// `data-flow-incomplete`, a `data-flow-records` snapshot and `derived-from`.
    pub(crate) fn closing(self, id: &str, fork_id: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let data_flow = self.flows.iter().any(|(k, _)| k == id).then(|| {
            let all: Vec<Value> = self
                .flows
                .iter()
                .flat_map(|(_, f)| f.records.iter().cloned().map(Value::Object))
                .collect();
            let mut merged = vec![(String::new(), Flow::default())];
            fold(
                &json!({ "type": "data-flow-records", "v": 1, "records": all }),
                &mut merged,
                0,
                false,
            );
            let mut flow = merged.pop().map(|(_, f)| f).unwrap_or_default();
            let codes: Vec<i64> = self
                .flows
                .iter()
                .flat_map(|(_, f)| f.incomplete.clone().unwrap_or_default())
                .collect();
            flow.mark(&codes);
            if self.flows.iter().any(|(k, _)| self.uncovered.contains(k)) {
                flow.mark(&[UNCOVERED]);
            }
            flow
        });
        if let Some(flow) = &data_flow {
            if let Some(codes) = &flow.incomplete {
                out.push(json!({ "type": "data-flow-incomplete", "v": 1, "sessionId": fork_id, "codes": codes }));
            }
            out.push(json!({ "type": "data-flow-records", "v": 1, "sessionId": fork_id, "records": flow.records.iter().cloned().map(Value::Object).collect::<Vec<_>>(), "snapshot": true }));
        }
        if data_flow.is_some() || self.derived_from.is_some() {
            let mut sessions = distinct(self.derived_from.unwrap_or_default());
            let mut ids: HashSet<String> = sessions.iter().map(|s| text(s.get("id"))).collect();
            for f in &self.forked_from {
                if ids.insert(f.clone()) {
                    sessions.push(json!({ "type": "claude_code_session", "id": f, "via": "fork" }));
                }
            }
            sessions.push(json!({ "type": "claude_code_session", "id": id, "via": "fork" }));
            out.push(json!({ "type": "derived-from", "v": 1, "sessionId": fork_id, "sessions": distinct(sessions) }));
        }
        out
    }
}
