use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// Only the envelope fields routing needs. Everything else in a line is skipped by serde without
/// being materialised, and consumer messages are passed on as the original text. A key the line
/// repeats counts with its last value, as `JSON.parse` (the official SDK's reader) takes it.
#[derive(Default)]
struct Envelope<'a> {
    kind: Option<Cow<'a, str>>,
    subtype: Option<Cow<'a, str>>,
    /// Any JSON value: the CLI's ids are strings, but a number (or anything else) is answered too.
    request_id: Option<&'a RawValue>,
    /// Kept even when `null` (such a request gets an error answer).
    request: Option<&'a RawValue>,
    response: Option<&'a RawValue>,
    state: Option<Cow<'a, str>>,
    sdk_host_only: Option<bool>,
}

impl<'de> Deserialize<'de> for Envelope<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EnvelopeVisitor)
    }
}

struct EnvelopeVisitor;

impl<'de> serde::de::Visitor<'de> for EnvelopeVisitor {
    type Value = Envelope<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Envelope<'de>, A::Error> {
        let mut env = Envelope::default();
        while let Some(key) = map.next_key::<Field>()? {
            match key {
                Field::Kind => env.kind = map.next_value::<Option<Text>>()?.map(|t| t.0),
                Field::Subtype => env.subtype = map.next_value::<Option<Text>>()?.map(|t| t.0),
                Field::RequestId => env.request_id = Some(map.next_value()?),
                Field::Request => env.request = Some(map.next_value()?),
                Field::Response => env.response = Some(map.next_value()?),
                Field::State => env.state = map.next_value::<Option<Text>>()?.map(|t| t.0),
                Field::SdkHostOnly => env.sdk_host_only = map.next_value()?,
                Field::Other => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(env)
    }
}

enum Field {
    Kind,
    Subtype,
    RequestId,
    Request,
    Response,
    State,
    SdkHostOnly,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, key: &str) -> Result<Field, E> {
                Ok(match key {
                    "type" => Field::Kind,
                    "subtype" => Field::Subtype,
                    "request_id" => Field::RequestId,
                    "request" => Field::Request,
                    "response" => Field::Response,
                    "state" => Field::State,
                    "sdk_host_only" => Field::SdkHostOnly,
                    _ => Field::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A string value, borrowed from the line when it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// The CLI's id for one of its requests. `key` names it here (in the set of calls in flight, to
/// the host, in cancels): the string itself for a string id (what the CLI sends), else the id's
/// JSON text. `json` is the id exactly as the CLI wrote it, when its answer must echo those bytes
/// rather than `key` quoted: a number, a string with escapes (a lone surrogate such as
/// `"x\ud800"`, which no Rust string holds), or any other JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestId {
    pub key: String,
    pub json: Option<Box<str>>,
}

impl RequestId {
    fn read(raw: &RawValue) -> Self {
        let text = raw.get();
        if text.starts_with('"') {
            if !text.contains('\\') {
                return Self {
                    key: text[1..text.len() - 1].to_string(),
                    json: None,
                };
            }
            if let Ok(key) = serde_json::from_str::<String>(text) {
                return Self {
                    key,
                    json: Some(text.into()),
                };
            }
        }
        Self {
            key: text.to_string(),
            json: Some(text.into()),
        }
    }
}

#[derive(Deserialize)]
struct ResponseBody<'a> {
    #[serde(borrow, default)]
    subtype: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    request_id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    response: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<serde_json::Value>,
}

/// One line from the CLI, classified.
#[derive(Debug)]
pub enum Incoming {
    /// The CLI asks us something (`can_use_tool`, `mcp_message`, `hook_callback`, ...).
    /// `request` is kept as sent, `null` included (answered with an error).
    ControlRequest {
        request_id: RequestId,
        request: Box<RawValue>,
    },
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
        // Answered whenever it has an id to answer under, as the official SDK answers it (an error
        // when `request` is missing or not a request).
        Some("control_request") => match env.request_id {
            Some(id) => Incoming::ControlRequest {
                request_id: RequestId::read(id),
                request: env
                    .request
                    .map(RawValue::to_owned)
                    .unwrap_or_else(|| RawValue::from_string("null".into()).expect("null is JSON")),
            },
            None => Incoming::Malformed("control_request without request_id".into()),
        },
        Some("control_response") => classify_response(env.response),
        Some("control_cancel_request") => match env.request_id {
            Some(id) => Incoming::ControlCancel {
                request_id: RequestId::read(id).key,
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
    // Ours are plain strings; any other id matches none of them.
    let request_id = RequestId::read(request_id).key;
    let outcome = if body.subtype.as_deref() == Some("error") {
        Err(match body.error {
            Some(serde_json::Value::String(s)) => s,
            Some(other) => other.to_string(),
            None => "the CLI answered with an error and no message".to_string(),
        })
    } else {
        Ok(body.response.map(|r| r.to_owned()))
    };
    Incoming::ControlResponse { request_id, outcome }
}

/// What is wrong with a `result` line the consumer could not read, if anything: an error result
/// whose `errors` is neither an array nor absent (the official SDK throws a TypeError reading it).
/// Only lines that mention `"errors"` are parsed.
pub(crate) fn result_problem(line: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Head<'a> {
        #[serde(default)]
        is_error: Option<bool>,
        #[serde(borrow, default)]
        subtype: Option<Cow<'a, str>>,
        #[serde(borrow, default)]
        errors: Option<&'a RawValue>,
    }
    if !line.contains("\"errors\"") {
        return None;
    }
    let head: Head = serde_json::from_str(line).ok()?;
    let errors = head.errors?.get();
    if head.is_error != Some(true)
        || head.subtype.as_deref() == Some("success")
        || errors.starts_with('[')
        || errors == "null"
    {
        return None;
    }
    let kind = match errors.as_bytes()[0] {
        b'"' => "a string",
        b'{' => "an object",
        b't' | b'f' => "a boolean",
        _ => "a number",
    };
    let shown: String = errors.chars().take(200).collect();
    let more = if shown.len() < errors.len() { "…" } else { "" };
    Some(format!(
        "Claude Code sent a malformed result (subtype {}): its `errors` is {kind}, not an array of strings: {shown}{more}",
        head.subtype.as_deref().unwrap_or("missing")
    ))
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
                assert_eq!(request_id.key, "r1");
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

    fn request_id(line: &str) -> (RequestId, String) {
        match classify(line) {
            Incoming::ControlRequest { request_id, request } => (request_id, request.get().to_string()),
            other => panic!("{other:?}"),
        }
    }

    /// Every id JSON can hold is read, as `JSON.parse` reads it; the answer echoes its bytes.
    #[test]
    fn control_requests_are_read_under_any_json_id() {
        let plain = |key: &str| RequestId {
            key: key.into(),
            json: None,
        };
        let echoed = |key: &str, json: &str| RequestId {
            key: key.into(),
            json: Some(json.into()),
        };
        let req = r#""request":{"subtype":"x"}"#;
        let with_id = |id: &str| request_id(&format!(r#"{{"type":"control_request","request_id":{id},{req}}}"#)).0;
        assert_eq!(with_id(r#""r1""#), plain("r1"));
        assert_eq!(with_id("7"), echoed("7", "7"));
        assert_eq!(with_id("-1.5e3"), echoed("-1.5e3", "-1.5e3"));
        // A lone surrogate: no Rust string holds it; the id's text names it.
        assert_eq!(with_id(r#""x\ud800""#), echoed(r#""x\ud800""#, r#""x\ud800""#));
        // Valid escapes: the string itself, the bytes kept for the answer.
        assert_eq!(with_id(r#""a\u0041""#), echoed("aA", r#""a\u0041""#));
        assert_eq!(with_id("null"), echoed("null", "null"));
        // A repeated key counts with its last value (any key: `type` too).
        let (id, request) = request_id(
            r#"{"type":"control_request","request_id":"first","request":{"subtype":"a"},"request_id":"last","request":{"subtype":"b"}}"#,
        );
        assert_eq!(id, plain("last"));
        assert_eq!(request, r#"{"subtype":"b"}"#);
        assert!(matches!(
            classify(r#"{"type":"control_request","type":"keep_alive","request_id":"r"}"#),
            Incoming::HostOnly
        ));
        // A null or missing request is still a request (answered with an error).
        assert_eq!(
            request_id(r#"{"type":"control_request","request_id":"n","request":null}"#).1,
            "null"
        );
        assert_eq!(request_id(r#"{"type":"control_request","request_id":"n"}"#).1, "null");
        // No id: nothing to answer under.
        assert!(matches!(
            classify(r#"{"type":"control_request","request":{"subtype":"x"}}"#),
            Incoming::Malformed(_)
        ));
        // Cancels and answers name the same keys.
        same(
            classify(r#"{"type":"control_cancel_request","request_id":7}"#),
            Incoming::ControlCancel { request_id: "7".into() },
        );
        match classify(r#"{"type":"control_response","response":{"subtype":"success","request_id":7}}"#) {
            Incoming::ControlResponse { request_id, .. } => assert_eq!(request_id, "7"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_result_whose_errors_is_not_an_array_is_named() {
        for fine in [
            r#"{"type":"result","subtype":"success","result":"ok"}"#,
            r#"{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["a"]}"#,
            r#"{"type":"result","subtype":"error_during_execution","is_error":true,"errors":null}"#,
            // Not read by anyone when it is not an error result.
            r#"{"type":"result","subtype":"success","is_error":false,"errors":"x"}"#,
        ] {
            assert_eq!(result_problem(fine), None, "{fine}");
        }
        let problem =
            result_problem(r#"{"type":"result","subtype":"error_max_turns","is_error":true,"errors":"ran away"}"#)
                .unwrap();
        assert_eq!(
            problem,
            r#"Claude Code sent a malformed result (subtype error_max_turns): its `errors` is a string, not an array of strings: "ran away""#
        );
        assert!(
            result_problem(r#"{"type":"result","subtype":"error_max_turns","is_error":true,"errors":{"a":1}}"#)
                .unwrap()
                .contains("is an object")
        );
    }
}
