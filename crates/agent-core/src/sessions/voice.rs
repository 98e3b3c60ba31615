//! Voice-call records (official `ep`): a `system` line of subtype `voice_call_talk` from a voice
//! call is read as the user message it carries, or, when it folds a queued command, as that
//! command's attachment.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::scan;
use super::transcript::lines;

/// The entry a voice-call record reads as; `None` when `v` is not one (or not one the official
/// converts).
fn converted(v: &Value) -> Option<Value> {
    let o = v.as_object()?;
    if o.get("type").and_then(Value::as_str) != Some("system")
        || o.get("subtype").and_then(Value::as_str) != Some("voice_call_talk")
    {
        return None;
    }
    let content = o.get("content").filter(|c| c.is_string())?;
    let origin = o
        .get("origin")
        .filter(|x| x.get("kind").and_then(Value::as_str) == Some("voice-call") && x.is_object())?;
    let prompt = match o.get("blocks") {
        Some(b @ Value::Array(_)) => b.clone(),
        _ => content.clone(),
    };
    let mut rest: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "subtype" | "level" | "msgV" | "content" | "blocks" | "fold"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let Some(fold) = o.get("fold") else {
        rest.insert("type".into(), "user".into());
        rest.insert(
            "message".into(),
            serde_json::json!({ "role": "user", "content": prompt }),
        );
        return Some(Value::Object(rest));
    };
    let command = fold.as_object()?.get("command")?.as_object()?;
    let mut out: Map<String, Value> = fold
        .as_object()?
        .iter()
        .filter(|(k, _)| *k != "command")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (k, v) in rest {
        if k != "isMeta" && k != "origin" {
            out.insert(k, v);
        }
    }
    out.insert("type".into(), "attachment".into());
    let mut attachment = command.clone();
    attachment.insert("type".into(), "queued_command".into());
    attachment.insert("prompt".into(), prompt);
    attachment.insert("origin".into(), origin.clone());
    out.insert("attachment".into(), Value::Object(attachment));
    Some(Value::Object(out))
}

/// `text` with its voice-call records rewritten as the entries they read as (borrowed as it is
/// when it has none).
pub fn normalized(text: &str) -> Cow<'_, str> {
    if !scan::has(text, "voice_call_talk") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (n, line) in lines(text).enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let rewritten = scan::has(line, "voice_call_talk")
            .then(|| serde_json::from_str::<Value>(line.trim_start_matches(|c: char| (c as u32) <= 32)).ok())
            .flatten()
            .and_then(|v| converted(&v));
        match rewritten {
            Some(v) => out.push_str(&v.to_string()),
            None => out.push_str(line),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_voice_record_reads_as_a_user_message_or_a_command() {
        let talk = r#"{"type":"system","subtype":"voice_call_talk","level":"info","content":"hi","uuid":"u","parentUuid":null,"isMeta":true,"origin":{"kind":"voice-call"}}"#;
        let v: Value = serde_json::from_str(&normalized(talk)).unwrap();
        assert_eq!(v["type"], "user");
        assert_eq!(v["message"], serde_json::json!({ "role": "user", "content": "hi" }));
        assert_eq!(v["isMeta"], true);
        assert!(v.get("level").is_none() && v.get("subtype").is_none());
        let folded = r#"{"type":"system","subtype":"voice_call_talk","content":"c","blocks":[{"type":"text","text":"b"}],"fold":{"command":{"source_uuid":"s"},"x":1},"uuid":"u","isMeta":true,"origin":{"kind":"voice-call"}}"#;
        let v: Value = serde_json::from_str(&normalized(folded)).unwrap();
        assert_eq!(v["type"], "attachment");
        assert_eq!(v["x"], 1);
        assert!(v.get("isMeta").is_none());
        assert_eq!(
            v["attachment"],
            serde_json::json!({ "source_uuid": "s", "type": "queued_command", "prompt": [{ "type": "text", "text": "b" }], "origin": { "kind": "voice-call" } })
        );
        let other = r#"{"type":"system","subtype":"voice_call_talk","content":"c","origin":{"kind":"phone"}}"#;
        assert_eq!(normalized(other), other);
    }
}
