//! `codex app-server` notifications as the events of `codex exec --experimental-json` (the
//! `ThreadEvent`s of `@openai/codex-sdk`), mapped as Codex's own exec does (its
//! `event_processor_with_jsonl_output.rs`), field for field: items numbered `item_N` from 0 in
//! each turn (exec runs one process per turn), agent messages and reasoning only on completion,
//! `turn.completed` carrying the thread's running token total. Beyond exec: a dynamic tool call
//! (an in-process tool) is an `mcp_tool_call` item (server = its namespace), which exec never
//! sees.

use std::collections::HashMap;

use serde_json::{json, Value};

/// One thread's mapping state.
#[derive(Default)]
pub struct EventMapper {
    next_id: u64,
    ids: HashMap<String, String>,
    todo: Option<(String, Vec<Value>)>,
    usage: Option<Value>,
    last_error: Option<String>,
}

/// How a turn ended, when a notification ends one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnEnd {
    Completed,
    Failed(String),
    Interrupted,
}

impl EventMapper {
    pub fn new() -> Self {
        Self::default()
    }

    fn next(&mut self) -> String {
        let id = format!("item_{}", self.next_id);
        self.next_id += 1;
        id
    }

    fn started_id(&mut self, raw: &str) -> String {
        if let Some(id) = self.ids.get(raw) {
            return id.clone();
        }
        let id = self.next();
        self.ids.insert(raw.to_string(), id.clone());
        id
    }

    fn completed_id(&mut self, raw: &str) -> String {
        match self.ids.remove(raw) {
            Some(id) => id,
            None => self.next(),
        }
    }

    /// The exec events for one notification, and whether it ended a turn.
    pub fn map(&mut self, method: &str, params: &Value) -> (Vec<Value>, Option<TurnEnd>) {
        let mut out = Vec::new();
        let mut end = None;
        match method {
            "configWarning" | "deprecationNotice" => {
                let message = with_details(params["summary"].as_str().unwrap_or(""), params["details"].as_str());
                let id = self.next();
                out.push(
                    json!({ "type": "item.completed", "item": { "id": id, "type": "error", "message": message } }),
                );
            }
            "error" => {
                // A retryable error is only progress; exec reports every one as an `error` event.
                let e = &params["error"];
                let message = with_details(
                    e["message"].as_str().unwrap_or("error"),
                    e["additionalDetails"].as_str(),
                );
                self.last_error = Some(message.clone());
                out.push(json!({ "type": "error", "message": message }));
            }
            "model/rerouted" => {
                let id = self.next();
                let message = format!(
                    "model rerouted: {} -> {} ({})",
                    str_of(&params["fromModel"]),
                    str_of(&params["toModel"]),
                    str_of(&params["reason"])
                );
                out.push(
                    json!({ "type": "item.completed", "item": { "id": id, "type": "error", "message": message } }),
                );
            }
            "turn/started" => {
                self.next_id = 0;
                self.ids.clear();
                self.todo = None;
                self.last_error = None;
                out.push(json!({ "type": "turn.started" }));
            }
            "item/started" => {
                let item = &params["item"];
                let kind = item["type"].as_str().unwrap_or("");
                if kind != "agentMessage" && kind != "reasoning" {
                    let raw = item["id"].as_str().unwrap_or("").to_string();
                    let again = kind == "fileChange" && self.ids.contains_key(&raw);
                    if let Some(details) = details(item) {
                        let id = self.started_id(&raw);
                        let ty = if again { "item.updated" } else { "item.started" };
                        out.push(json!({ "type": ty, "item": with_id(id, details) }));
                    }
                }
            }
            "item/completed" => {
                if let Some(e) = self.completed(&params["item"]) {
                    out.push(e);
                }
            }
            "item/fileChange/patchUpdated" => {
                let raw = params["itemId"].as_str().unwrap_or("").to_string();
                let item =
                    json!({ "type": "fileChange", "id": raw, "changes": params["changes"], "status": "inProgress" });
                if let Some(details) = details(&item) {
                    let id = self.started_id(&raw);
                    out.push(json!({ "type": "item.updated", "item": with_id(id, details) }));
                }
            }
            "turn/plan/updated" => {
                let items: Vec<Value> = params["plan"]
                    .as_array()
                    .map(|steps| {
                        steps
                            .iter()
                            .map(|s| json!({ "text": s["step"], "completed": s["status"] == "completed" }))
                            .collect()
                    })
                    .unwrap_or_default();
                match &mut self.todo {
                    Some((id, current)) => {
                        *current = items.clone();
                        out.push(json!({ "type": "item.updated", "item": { "id": id, "type": "todo_list", "items": items } }));
                    }
                    None => {
                        let id = self.next();
                        self.todo = Some((id.clone(), items.clone()));
                        out.push(json!({ "type": "item.started", "item": { "id": id, "type": "todo_list", "items": items } }));
                    }
                }
            }
            "thread/tokenUsage/updated" => {
                self.usage = Some(params["tokenUsage"]["total"].clone());
            }
            "turn/completed" => {
                if let Some((id, items)) = self.todo.take() {
                    out.push(
                        json!({ "type": "item.completed", "item": { "id": id, "type": "todo_list", "items": items } }),
                    );
                }
                let turn = &params["turn"];
                for item in turn["items"].as_array().into_iter().flatten() {
                    if item["id"].as_str().is_some_and(|raw| self.ids.contains_key(raw)) {
                        if let Some(e) = self.completed(item) {
                            out.push(e);
                        }
                    }
                }
                match turn["status"].as_str() {
                    Some("completed") => {
                        out.push(json!({ "type": "turn.completed", "usage": self.usage() }));
                        end = Some(TurnEnd::Completed);
                    }
                    Some("failed") => {
                        let e = &turn["error"];
                        let message = e["message"]
                            .as_str()
                            .map(|m| with_details(m, e["additionalDetails"].as_str()))
                            .or_else(|| self.last_error.clone())
                            .unwrap_or_else(|| "turn failed".into());
                        out.push(json!({ "type": "turn.failed", "error": { "message": message } }));
                        end = Some(TurnEnd::Failed(message));
                    }
                    Some("interrupted") => end = Some(TurnEnd::Interrupted),
                    _ => {}
                }
            }
            _ => {}
        }
        (out, end)
    }

    fn completed(&mut self, item: &Value) -> Option<Value> {
        let kind = item["type"].as_str().unwrap_or("");
        let details = details(item)?;
        let id = if kind == "agentMessage" || kind == "reasoning" {
            self.next()
        } else {
            self.completed_id(item["id"].as_str().unwrap_or(""))
        };
        Some(json!({ "type": "item.completed", "item": with_id(id, details) }))
    }

    /// `turn.completed`'s usage: the thread's running total, as exec reports it.
    fn usage(&self) -> Value {
        let u = self.usage.as_ref();
        let n = |k: &str| u.and_then(|u| u[k].as_i64()).unwrap_or(0);
        json!({
          "input_tokens": n("inputTokens"),
          "cached_input_tokens": n("cachedInputTokens"),
          "cache_write_input_tokens": n("cacheWriteInputTokens"),
          "output_tokens": n("outputTokens"),
          "reasoning_output_tokens": n("reasoningOutputTokens"),
        })
    }
}

fn str_of(v: &Value) -> String {
    v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())
}

fn with_details(message: &str, details: Option<&str>) -> String {
    match details {
        Some(d) if !d.is_empty() => format!("{message} ({d})"),
        _ => message.to_string(),
    }
}

fn with_id(id: String, details: Value) -> Value {
    let mut item = json!({ "id": id });
    if let (Some(o), Value::Object(d)) = (item.as_object_mut(), details) {
        o.extend(d);
    }
    item
}

/// An app-server `ThreadItem` as an exec item's fields (without `id`); `None` for items exec
/// does not report.
fn details(item: &Value) -> Option<Value> {
    match item["type"].as_str()? {
        "agentMessage" => Some(json!({ "type": "agent_message", "text": item["text"].as_str().unwrap_or("") })),
        "reasoning" => {
            let text = item["summary"]
                .as_array()
                .map(|s| s.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n"))
                .unwrap_or_default();
            if text.trim().is_empty() {
                return None;
            }
            Some(json!({ "type": "reasoning", "text": text }))
        }
        "commandExecution" => {
            let mut d = json!({
              "type": "command_execution",
              "command": item["command"].as_str().unwrap_or(""),
              "aggregated_output": item["aggregatedOutput"].as_str().unwrap_or(""),
              "status": snake(item["status"].as_str().unwrap_or("inProgress")),
            });
            if let Some(code) = item["exitCode"].as_i64() {
                d["exit_code"] = json!(code);
            }
            Some(d)
        }
        "fileChange" => {
            let changes: Vec<Value> = item["changes"]
                .as_array()
                .map(|cs| {
                    cs.iter()
                        .map(|c| {
                            let kind = c["kind"]["type"].as_str().or(c["kind"].as_str()).unwrap_or("update");
                            json!({ "path": c["path"], "kind": kind, "diff": c["diff"] })
                        })
                        .collect()
                })
                .unwrap_or_default();
            let status = match item["status"].as_str() {
                Some("inProgress") => "in_progress",
                Some("completed") => "completed",
                _ => "failed",
            };
            Some(json!({ "type": "file_change", "changes": changes, "status": status }))
        }
        "mcpToolCall" => {
            let mut d = json!({
              "type": "mcp_tool_call",
              "server": item["server"],
              "tool": item["tool"],
              "status": snake(item["status"].as_str().unwrap_or("inProgress")),
              "arguments": item["arguments"],
            });
            if let Some(r) = item["result"].as_object() {
                d["result"] = json!({ "content": r.get("content").cloned().unwrap_or(json!([])), "structured_content": r.get("structuredContent").cloned().unwrap_or(Value::Null) });
            }
            if let Some(e) = item["error"].as_object() {
                d["error"] = json!({ "message": e.get("message").cloned().unwrap_or(json!("")) });
            }
            Some(d)
        }
        "dynamicToolCall" => {
            let status = match item["status"].as_str() {
                Some("inProgress") => "in_progress",
                Some("completed") if item["success"] != false => "completed",
                _ => "failed",
            };
            let mut d = json!({
              "type": "mcp_tool_call",
              "server": item["namespace"].as_str().unwrap_or(""),
              "tool": item["tool"],
              "status": status,
              "arguments": item["arguments"],
            });
            if let Some(items) = item["contentItems"].as_array() {
                let content: Vec<Value> = items.iter().map(mcp_content).collect();
                if status == "failed" {
                    let text = items
                        .iter()
                        .filter_map(|i| i["text"].as_str())
                        .collect::<Vec<_>>()
                        .join("\n");
                    d["error"] = json!({ "message": text });
                } else {
                    d["result"] = json!({ "content": content, "structured_content": null });
                }
            }
            Some(d)
        }
        "webSearch" => Some(
            json!({ "type": "web_search", "id": item["id"], "query": item["query"].as_str().unwrap_or(""), "action": item.get("action").cloned().unwrap_or(json!("other")) }),
        ),
        _ => None,
    }
}

/// A dynamic tool's output item as an MCP content block.
fn mcp_content(i: &Value) -> Value {
    match i["type"].as_str() {
        Some("inputText") => json!({ "type": "text", "text": i["text"] }),
        Some("inputImage") => {
            let url = i["imageUrl"].as_str().unwrap_or("");
            match url.strip_prefix("data:").and_then(|r| r.split_once(";base64,")) {
                Some((mime, data)) => json!({ "type": "image", "data": data, "mimeType": mime }),
                None => json!({ "type": "resource_link", "uri": url, "name": url }),
            }
        }
        _ => json!({ "type": "text", "text": i.to_string() }),
    }
}

fn snake(status: &str) -> &'static str {
    match status {
        "inProgress" => "in_progress",
        "completed" => "completed",
        "declined" => "declined",
        _ => "failed",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_maps_as_exec_maps_it() {
        let mut m = EventMapper::new();
        let (e, _) = m.map("turn/started", &json!({}));
        assert_eq!(e, vec![json!({"type":"turn.started"})]);
        let (e, _) = m.map(
            "item/started",
            &json!({"item":{"type":"agentMessage","id":"m","text":""}}),
        );
        assert!(e.is_empty());
        let (e, _) = m.map("item/started", &json!({"item":{"type":"commandExecution","id":"c","command":"ls","status":"inProgress","aggregatedOutput":null,"exitCode":null}}));
        assert_eq!(
            e,
            vec![
                json!({"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"}})
            ]
        );
        let (e, _) = m.map("item/completed", &json!({"item":{"type":"commandExecution","id":"c","command":"ls","status":"declined","aggregatedOutput":null,"exitCode":null}}));
        assert_eq!(e[0]["item"]["id"], "item_0");
        assert_eq!(e[0]["item"]["status"], "declined");
        let (e, _) = m.map(
            "item/completed",
            &json!({"item":{"type":"agentMessage","id":"m","text":"hi"}}),
        );
        assert_eq!(
            e,
            vec![json!({"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"hi"}})]
        );
        m.map("thread/tokenUsage/updated", &json!({"tokenUsage":{"total":{"inputTokens":10,"cachedInputTokens":1,"cacheWriteInputTokens":0,"outputTokens":5,"reasoningOutputTokens":2}}}));
        let (e, end) = m.map("turn/completed", &json!({"turn":{"status":"completed","items":[]}}));
        assert_eq!(end, Some(TurnEnd::Completed));
        assert_eq!(
            e,
            vec![
                json!({"type":"turn.completed","usage":{"input_tokens":10,"cached_input_tokens":1,"cache_write_input_tokens":0,"output_tokens":5,"reasoning_output_tokens":2}})
            ]
        );
        let (_, end) = m.map("turn/completed", &json!({"turn":{"status":"interrupted","items":[]}}));
        assert_eq!(end, Some(TurnEnd::Interrupted));
        let (e, end) = m.map(
            "turn/completed",
            &json!({"turn":{"status":"failed","error":{"message":"boom","additionalDetails":"x"},"items":[]}}),
        );
        assert_eq!(
            (e[0]["error"]["message"].as_str(), end),
            (Some("boom (x)"), Some(TurnEnd::Failed("boom (x)".into())))
        );
    }

    #[test]
    fn dynamic_tool_calls_are_mcp_tool_call_items() {
        let mut m = EventMapper::new();
        let started = json!({"item":{"type":"dynamicToolCall","id":"call_1","namespace":"calc","tool":"add","arguments":{"a":1},"status":"inProgress","contentItems":null,"success":null}});
        let (e, _) = m.map("item/started", &started);
        assert_eq!(
            e[0]["item"],
            json!({"id":"item_0","type":"mcp_tool_call","server":"calc","tool":"add","status":"in_progress","arguments":{"a":1}})
        );
        let done = json!({"item":{"type":"dynamicToolCall","id":"call_1","namespace":"calc","tool":"add","arguments":{"a":1},"status":"completed","contentItems":[{"type":"inputText","text":"2"}],"success":true}});
        let (e, _) = m.map("item/completed", &done);
        assert_eq!(
            e[0]["item"]["result"],
            json!({"content":[{"type":"text","text":"2"}],"structured_content":null})
        );
        let failed = json!({"item":{"type":"dynamicToolCall","id":"call_2","namespace":"calc","tool":"add","arguments":{},"status":"completed","contentItems":[{"type":"inputText","text":"bad a"}],"success":false}});
        let (e, _) = m.map("item/completed", &failed);
        assert_eq!(
            (
                e[0]["item"]["status"].as_str(),
                e[0]["item"]["error"]["message"].as_str()
            ),
            (Some("failed"), Some("bad a"))
        );
    }
}
