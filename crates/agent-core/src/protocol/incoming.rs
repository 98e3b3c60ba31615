use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// Only the envelope fields routing needs. Everything else in a line is skipped by serde without
/// being materialised, and consumer messages are passed on as the original text.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    subtype: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    request_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    request: Option<&'a RawValue>,
    #[serde(borrow, default)]
    response: Option<&'a RawValue>,
    #[serde(borrow, default)]
    state: Option<Cow<'a, str>>,
    #[serde(default)]
    sdk_host_only: Option<bool>,
}

#[derive(Deserialize)]
struct ResponseBody<'a> {
    #[serde(borrow, default)]
    subtype: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    request_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    response: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

/// One line from the CLI, classified.
#[derive(Debug)]
pub enum Incoming {
    /// The CLI asks us something (`can_use_tool`, `mcp_message`, `hook_callback`, ...).
    ControlRequest { request_id: String, request: Box<RawValue> },
    /// The CLI answers a request of ours.
    ControlResponse {
        request_id: String,
        outcome: Result<Option<Box<RawValue>>, String>,
    },
    /// The CLI withdraws a request it made (its callback should be aborted).
    ControlCancel { request_id: String },
    /// `system/session_state_changed`: `running`, `idle`, `requires_action`. `host_only` lines
    /// are for the SDK alone and are not shown to the consumer.
    SessionState { state: String, host_only: bool },
    /// Any other line marked `sdk_host_only`, and protocol chatter (`keep_alive`): nothing for
    /// the consumer.
    HostOnly,
    /// A `transcript_mirror` frame (emitted under `--session-mirror`): for the session store,
    /// never for the consumer.
    TranscriptMirror,
    /// A message for the consumer (system, assistant, user, result, stream_event, or any type we
    /// do not know), passed on untouched.
    Message { is_result: bool },
    /// Not a JSON object we can read.
    Malformed(String),
}

/// Classifies one line. Never fails: a bad line becomes `Malformed` with the parser's reason.
pub(crate) fn classify(line: &str) -> Incoming {
    let env: Envelope = match serde_json::from_str(line) {
        Ok(env) => env,
        Err(e) => return Incoming::Malformed(e.to_string()),
    };
    match env.kind.as_deref() {
        Some("control_request") => match (env.request_id, env.request) {
            (Some(id), Some(req)) => Incoming::ControlRequest {
                request_id: id.into_owned(),
                request: req.to_owned(),
            },
            _ => Incoming::Malformed("control_request without request_id or request".into()),
        },
        Some("control_response") => classify_response(env.response),
        Some("control_cancel_request") => match env.request_id {
            Some(id) => Incoming::ControlCancel {
                request_id: id.into_owned(),
            },
            None => Incoming::Malformed("control_cancel_request without request_id".into()),
        },
        Some("keep_alive") => Incoming::HostOnly,
        Some("transcript_mirror") => Incoming::TranscriptMirror,
        Some("system") if env.subtype.as_deref() == Some("session_state_changed") => Incoming::SessionState {
            state: env.state.map(Cow::into_owned).unwrap_or_default(),
            host_only: env.sdk_host_only == Some(true),
        },
        _ if env.sdk_host_only == Some(true) => Incoming::HostOnly,
        Some(kind) => Incoming::Message {
            is_result: kind == "result",
        },
        None => Incoming::Malformed("line has no \"type\"".into()),
    }
}

fn classify_response(response: Option<&RawValue>) -> Incoming {
    let Some(raw) = response else {
        return Incoming::Malformed("control_response without response".into());
    };
    let body: ResponseBody = match serde_json::from_str(raw.get()) {
        Ok(b) => b,
        Err(e) => return Incoming::Malformed(format!("control_response body: {e}")),
    };
    let Some(request_id) = body.request_id else {
        return Incoming::Malformed("control_response without request_id".into());
    };
    let outcome = if body.subtype.as_deref() == Some("error") {
        Err(match body.error {
            Some(serde_json::Value::String(s)) => s,
            Some(other) => other.to_string(),
            None => "the CLI answered with an error and no message".to_string(),
        })
    } else {
        Ok(body.response.map(|r| r.to_owned()))
    };
    Incoming::ControlResponse {
        request_id: request_id.into_owned(),
        outcome,
    }
}

/// The fields of a control request that routing looks at.
#[derive(Deserialize)]
pub(crate) struct RequestHead<'a> {
    #[serde(borrow)]
    pub subtype: Cow<'a, str>,
    #[serde(borrow, default)]
    pub server_name: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub message: Option<&'a RawValue>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: Incoming, b: Incoming) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }

    #[test]
    fn classifies_every_kind_of_line() {
        let req = classify(
            r#"{"type":"control_request","request_id":"r1","request":{"subtype":"mcp_message","server_name":"s"}}"#,
        );
        match req {
            Incoming::ControlRequest { request_id, request } => {
                assert_eq!(request_id, "r1");
                let head: RequestHead = serde_json::from_str(request.get()).unwrap();
                assert_eq!(head.subtype, "mcp_message");
                assert_eq!(head.server_name.as_deref(), Some("s"));
            }
            other => panic!("{other:?}"),
        }
        same(
            classify(r#"{"type":"control_response","response":{"subtype":"error","request_id":"q","error":"nope"}}"#),
            Incoming::ControlResponse {
                request_id: "q".into(),
                outcome: Err("nope".into()),
            },
        );
        match classify(
            r#"{"type":"control_response","response":{"subtype":"success","request_id":"q","response":{"a":1}}}"#,
        ) {
            Incoming::ControlResponse {
                outcome: Ok(Some(r)), ..
            } => assert_eq!(r.get(), r#"{"a":1}"#),
            other => panic!("{other:?}"),
        }
        same(
            classify(r#"{"type":"control_cancel_request","request_id":"z"}"#),
            Incoming::ControlCancel { request_id: "z".into() },
        );
        same(
            classify(r#"{"type":"system","subtype":"session_state_changed","state":"idle","sdk_host_only":true}"#),
            Incoming::SessionState {
                state: "idle".into(),
                host_only: true,
            },
        );
        same(classify(r#"{"type":"keep_alive"}"#), Incoming::HostOnly);
        same(
            classify(r#"{"type":"transcript_mirror","filePath":"/p/a.jsonl","entries":[]}"#),
            Incoming::TranscriptMirror,
        );
        same(
            classify(r#"{"type":"system","subtype":"x","sdk_host_only":true}"#),
            Incoming::HostOnly,
        );
        same(
            classify(r#"{"type":"result","subtype":"success"}"#),
            Incoming::Message { is_result: true },
        );
        same(
            classify(r#"{"type":"assistant","message":{"content":[{"text":"\"q\" é"}]}}"#),
            Incoming::Message { is_result: false },
        );
        same(
            classify(r#"{"type":"brand_new_type","x":[1,2]}"#),
            Incoming::Message { is_result: false },
        );
        assert!(matches!(classify("{not json"), Incoming::Malformed(_)));
        assert!(matches!(classify("[1,2]"), Incoming::Malformed(_)));
        assert!(matches!(classify(r#"{"no_type":1}"#), Incoming::Malformed(_)));
    }
}
