//! Session transcript functions: adapts the Rust SDK's typed `raw::sessions` functions to
//! JavaScript. This is where their arguments and results become JSON: each function takes the
//! caller's [`SessionsContext`] and typed arguments; the work (file I/O) runs on tokio's blocking
//! pool, never on the JS thread; the result crosses as JSON text, which lib/sessions.js parses:
//! one string, or, for messages asked for in pieces (JSON arrays one per line), a handle JS takes
//! the pieces from one at a time (`sessionsPiece`). A failure rejects with the one error of the
//! binding (`code` `SESSIONS_ERROR`, and `safe`: whether the official reports it as a
//! `TelemetrySafeError`).

use claude_agent_sdk::raw::sessions as engine;
use napi::bindgen_prelude::{External, PromiseRaw};
use napi::{Env, Error, Result, Status};

use crate::errors::js_sessions_error;

/// Where the functions look, as the caller's runtime sees its environment (under Bun,
/// assignments to `process.env` do not reach the process environment).
#[napi(object)]
pub struct SessionsContext {
    /// The config folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`).
    pub config_dir: Option<String>,
    /// `CLAUDE_CODE_PROJECT_DIR_NAME` where the CLI uses it.
    pub project_dir_name: Option<String>,
    /// File times truncated to the millisecond (Bun's `stats.mtime`) rather than rounded (Node's).
    pub floor_mtime: Option<bool>,
}

impl From<SessionsContext> for engine::Context {
    fn from(c: SessionsContext) -> Self {
        engine::Context {
            config_dir: c.config_dir.filter(|d| !d.is_empty()).map(Into::into),
            dir_name: c.project_dir_name,
            floor_mtime: c.floor_mtime.unwrap_or(false),
        }
    }
}

/// A page of messages: `limit`, `offset` (numbers; not finite ones are left out, as
/// `JSON.stringify` leaves them), and whether system messages are included.
#[napi(object)]
pub struct MessagesPage {
    pub limit: Option<f64>,
    pub offset: Option<f64>,
    pub include_system_messages: Option<bool>,
}

fn int(v: Option<f64>) -> Option<i64> {
    v.filter(|f| f.is_finite()).map(|f| f as i64)
}

impl MessagesPage {
    /// The engine's page, written in pieces.
    fn page(&self) -> engine::Page {
        engine::Page {
            limit: int(self.limit),
            offset: int(self.offset),
            pieces: true,
        }
    }
}

/// What `listSessions` lists.
#[napi(object)]
pub struct ListArgs {
    pub dir: Option<String>,
    pub limit: Option<f64>,
    pub offset: Option<f64>,
    pub include_worktrees: Option<bool>,
    pub include_programmatic: Option<bool>,
}

/// Runs `work` on the blocking pool; a Promise for its result.
fn blocking<'env>(
    env: &'env Env,
    work: impl FnOnce() -> std::result::Result<Pieces, engine::SessionsFailure> + Send + 'static,
) -> Result<PromiseRaw<'env, Pieces>> {
    env.spawn_future_with_callback(
        async move { Ok(tokio::task::spawn_blocking(work).await) },
        |env, joined| match joined {
            Ok(Ok(pieces)) => Ok(pieces),
            Ok(Err(f)) => Err(js_sessions_error(env, &f)),
            Err(e) => Err(js_sessions_error(
                env,
                &engine::SessionsFailure {
                    message: format!("sessions: worker failed: {e}"),
                    safe: false,
                    code: None,
                },
            )),
        },
    )
}

/// A string argument that crosses as its JSON text (`JSON.stringify(title)`), so that one cut
/// inside a surrogate pair arrives whole: read masked (the engine writes it back as it came).
fn string_arg(json: Option<String>) -> Result<Option<String>> {
    json.map(|j| {
        claude_agent_sdk::raw::parse_js_json::<String>(&j)
            .map(|(s, _)| s)
            .map_err(|e| Error::new(Status::InvalidArg, format!("invalid string argument: {e}")))
    })
    .transpose()
}

/// JSON text of a list of strings.
fn strings_json(v: &[String]) -> Pieces {
    Pieces::whole(serde_json::Value::from(v).to_string())
}

/// Session metadata as JSON text: text read with its lone surrogates masked has them written
/// back as their escapes.
fn infos_json<'a>(infos: impl IntoIterator<Item = &'a engine::SessionInfo> + Clone, text: String) -> Pieces {
    Pieces::whole(if infos.into_iter().any(|i| i.masked) {
        engine::unmask_surrogates(&text)
    } else {
        text
    })
}

fn info_json(info: Option<engine::SessionInfo>) -> Pieces {
    let text = serde_json::to_string(&info).unwrap_or_else(|_| "null".into());
    infos_json(info.iter(), text)
}

fn null() -> Pieces {
    Pieces::whole("null".into())
}

/// `listSessions`: the listing's JSON array.
#[napi(js_name = "sessionsList", ts_return_type = "Promise<string>")]
pub fn sessions_list<'env>(env: &'env Env, cx: SessionsContext, args: ListArgs) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    let o = engine::ListOptions {
        dir: args.dir,
        limit: int(args.limit),
        offset: int(args.offset),
        include_worktrees: args.include_worktrees,
        include_programmatic: args.include_programmatic,
    };
    blocking(env, move || {
        let list = engine::list(&cx, &o);
        let text = serde_json::to_string(&list).unwrap_or_else(|_| "[]".into());
        Ok(infos_json(list.iter(), text))
    })
}

/// `getSessionInfo`: the session's JSON, or `null`.
#[napi(js_name = "sessionsInfo", ts_return_type = "Promise<string>")]
pub fn sessions_info<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        Ok(info_json(engine::info(&cx, &session_id, dir.as_deref())))
    })
}

/// A stored session's metadata from its JSONL text (`mtime`: its last change), or `null`.
#[napi(js_name = "sessionsInfoFromText", ts_return_type = "Promise<string>")]
pub fn sessions_info_from_text<'env>(
    env: &'env Env,
    session_id: String,
    text: String,
    mtime: f64,
) -> Result<PromiseRaw<'env, Pieces>> {
    blocking(env, move || {
        Ok(info_json(engine::info_from_text(
            &session_id,
            &text,
            int(Some(mtime)).unwrap_or(0),
        )))
    })
}

/// `getSessionMessages`, in pieces (`precompactSkip`: read a transcript over 5 MiB from its last
/// compaction boundary).
#[napi(js_name = "sessionsMessages", ts_return_type = "Promise<string | object>")]
pub fn sessions_messages<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
    page: MessagesPage,
    precompact_skip: bool,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        Ok(Pieces::cut(engine::messages(
            &cx,
            &session_id,
            dir.as_deref(),
            page.include_system_messages.unwrap_or(false),
            &page.page(),
            precompact_skip,
        )))
    })
}

/// A stored session's messages from its JSONL text, in pieces.
#[napi(js_name = "sessionsMessagesFromText", ts_return_type = "Promise<string | object>")]
pub fn sessions_messages_from_text<'env>(
    env: &'env Env,
    text: String,
    page: MessagesPage,
) -> Result<PromiseRaw<'env, Pieces>> {
    blocking(env, move || {
        Ok(Pieces::cut(engine::messages_from_text(
            &text,
            page.include_system_messages.unwrap_or(false),
            &page.page(),
        )))
    })
}

/// `listSubagents`: the ids' JSON array.
#[napi(js_name = "sessionsSubagents", ts_return_type = "Promise<string>")]
pub fn sessions_subagents<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        Ok(strings_json(&engine::subagents(&cx, &session_id, dir.as_deref())))
    })
}

/// `getSubagentMessages`, in pieces.
#[napi(js_name = "sessionsSubagentMessages", ts_return_type = "Promise<string | object>")]
pub fn sessions_subagent_messages<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    agent_id: String,
    dir: Option<String>,
    page: MessagesPage,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        Ok(Pieces::cut(engine::subagent_messages(
            &cx,
            &session_id,
            &agent_id,
            dir.as_deref(),
            &page.page(),
        )))
    })
}

/// A stored subagent's messages from its JSONL text, attributed to the tool use that ran it.
#[napi(
    js_name = "sessionsSubagentMessagesFromText",
    ts_return_type = "Promise<string | object>"
)]
pub fn sessions_subagent_messages_from_text<'env>(
    env: &'env Env,
    text: String,
    tool_use_id: Option<String>,
    parent_agent_id: Option<String>,
    page: MessagesPage,
) -> Result<PromiseRaw<'env, Pieces>> {
    blocking(env, move || {
        Ok(Pieces::cut(engine::subagent_messages_from_text(
            &text,
            tool_use_id.as_deref(),
            parent_agent_id.as_deref(),
            &page.page(),
        )))
    })
}

/// Appends one JSONL line to a session's transcript (`renameSession`, `tagSession`).
#[napi(js_name = "sessionsAppend", ts_return_type = "Promise<string>")]
pub fn sessions_append<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
    line: String,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        engine::append(&cx, &session_id, dir.as_deref(), &line).map(|()| null())
    })
}

/// `archiveSession` / `unarchiveSession`.
#[napi(js_name = "sessionsArchive", ts_return_type = "Promise<string>")]
pub fn sessions_archive<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
    archived: bool,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        engine::set_archived(&cx, &session_id, dir.as_deref(), archived).map(|()| null())
    })
}

/// `deleteSession`.
#[napi(js_name = "sessionsDelete", ts_return_type = "Promise<string>")]
pub fn sessions_delete<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        engine::delete(&cx, &session_id, dir.as_deref()).map(|()| null())
    })
}

/// `forkSession`: `{"sessionId"}` of the fork.
#[napi(js_name = "sessionsFork", ts_return_type = "Promise<string>")]
pub fn sessions_fork<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
    up_to_message_id: Option<String>,
    title: Option<String>,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    let title = string_arg(title)?;
    blocking(env, move || {
        let id = engine::fork(
            &cx,
            &session_id,
            dir.as_deref(),
            up_to_message_id.as_deref(),
            title.as_deref(),
        )?;
        Ok(Pieces::whole(serde_json::json!({ "sessionId": id }).to_string()))
    })
}

/// A fork of a stored session from its JSONL text: `{"sessionId", "entries"}`.
#[napi(js_name = "sessionsForkText", ts_return_type = "Promise<string>")]
pub fn sessions_fork_text<'env>(
    env: &'env Env,
    session_id: String,
    text: String,
    up_to_message_id: Option<String>,
    title: Option<String>,
) -> Result<PromiseRaw<'env, Pieces>> {
    let title = string_arg(title)?;
    blocking(env, move || {
        let forked = engine::fork_text(&session_id, &text, up_to_message_id.as_deref(), title.as_deref())?;
        Ok(Pieces::whole(format!(
            "{{\"sessionId\":{},\"entries\":[{}]}}",
            serde_json::Value::String(forked.session_id),
            forked.entries.join(",")
        )))
    })
}

/// Writes a stored session out for the CLI to resume; `request` is the JSON of the engine's
/// `MaterializeRequest` (camelCase keys).
#[napi(js_name = "sessionsMaterialize", ts_return_type = "Promise<string>")]
pub fn sessions_materialize<'env>(env: &'env Env, request: String) -> Result<PromiseRaw<'env, Pieces>> {
    blocking(env, move || {
        let r: engine::MaterializeRequest = serde_json::from_str(&request).map_err(|e| engine::SessionsFailure {
            message: format!("sessions: bad arguments for materialize: {e}"),
            safe: false,
            code: None,
        })?;
        engine::materialize(&r).map(|()| null())
    })
}

/// A local session's entries for `importSessionToStore`: `{"main", "subagents"?}` (each entry
/// its JSON as written), or `null`.
#[napi(js_name = "sessionsExport", ts_return_type = "Promise<string>")]
pub fn sessions_export<'env>(
    env: &'env Env,
    cx: SessionsContext,
    session_id: String,
    dir: Option<String>,
    include_subagents: bool,
) -> Result<PromiseRaw<'env, Pieces>> {
    let cx = engine::Context::from(cx);
    blocking(env, move || {
        let Some(export) = engine::export(&cx, &session_id, dir.as_deref(), include_subagents) else {
            return Ok(null());
        };
        let mut out = format!("{{\"main\":[{}]", export.main.join(","));
        if include_subagents {
            out.push_str(",\"subagents\":[");
            for (n, agent) in export.subagents.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(&format!(
                    "{{\"subpath\":{},\"entries\":[{}],\"meta\":{}}}",
                    serde_json::Value::String(agent.subpath.clone()),
                    agent.entries.join(","),
                    agent.meta.as_deref().unwrap_or("null")
                ));
            }
            out.push(']');
        }
        out.push('}');
        Ok(Pieces::whole(out))
    })
}

/// Piece `index` of a result handed over in pieces, as a JS string; `null` past the last.
/// Taking the last frees the text. Each piece's string is made only when JS parses it, so one
/// lives at a time: all of them made at once were a megabyte and more of young-generation
/// strings alive through the collections the parse itself sets off (copied, then promoted).
#[napi(js_name = "sessionsPiece", ts_return_type = "string | null")]
pub fn sessions_piece(env: Env, pieces: &mut External<Pieces>, index: u32) -> Result<Option<Made>> {
    let index = index as usize;
    let Some(&(end, ascii)) = pieces.ends.get(index) else {
        return Ok(None);
    };
    let start = if index == 0 { 0 } else { pieces.ends[index - 1].0 + 1 };
    // SAFETY: a napi function runs on the JS thread, in `env`, which is live for the call.
    let made = unsafe { js_string(env.raw(), &pieces.text.as_bytes()[start..end], ascii)? };
    if index + 1 == pieces.ends.len() {
        pieces.text = String::new();
        pieces.ends = Vec::new();
    }
    Ok(Some(Made(made)))
}

/// A JS value made in the current call, returned as it is.
pub struct Made(napi::sys::napi_value);

impl napi::bindgen_prelude::ToNapiValue for Made {
    // SAFETY: napi-rs calls this on the JS thread, in the call that made the value (in `env`),
    // which is where the value is valid; nothing unsafe happens in the body.
    unsafe fn to_napi_value(_env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        Ok(val.0)
    }
}

impl napi::bindgen_prelude::TypeName for Made {
    fn type_name() -> &'static str {
        "string"
    }

    fn value_type() -> napi::ValueType {
        napi::ValueType::String
    }
}

/// A result's JSON text and its pieces (the lines it was written in; one for any result but
/// messages asked for in pieces). Each piece becomes a JS string of its own: a Latin-1 copy when
/// it is ASCII (a plain copy for V8, where UTF-8 text is decoded first), else from UTF-8. A
/// piece is a small young-generation string; one string of the whole (a megabyte or more) was a
/// V8 large object, freshly mapped pages on the JS thread each call.
pub struct Pieces {
    text: String,
    /// Each piece's end in `text` (its line feed, or the text's end) and whether it is ASCII.
    ends: Vec<(usize, bool)>,
}

impl Pieces {
    /// `text` as one piece.
    fn whole(text: String) -> Pieces {
        let ascii = text.is_ascii();
        Pieces {
            ends: vec![(text.len(), ascii)],
            text,
        }
    }

    /// Cuts `text` at its line feeds (on the blocking pool, off the JS thread).
    fn cut(text: String) -> Pieces {
        let mut ends = Vec::new();
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len())) {
            ends.push((end, text.as_bytes()[start..end].is_ascii()));
            start = end + 1;
        }
        Pieces { text, ends }
    }
}

/// One JS string from `bytes` (Latin-1 when `ascii`, else UTF-8).
///
/// SAFETY: `env` is the live environment of the JS thread this runs on.
unsafe fn js_string(env: napi::sys::napi_env, bytes: &[u8], ascii: bool) -> Result<napi::sys::napi_value> {
    let mut out = std::ptr::null_mut();
    // The pointer and length describe `bytes`, which outlives the call (V8 copies them); `out` is
    // a valid place for the result. ASCII bytes are the same characters read as Latin-1.
    // SAFETY: `env` is live (this function's contract), and the arguments are as above.
    let status = unsafe {
        if ascii {
            napi::sys::napi_create_string_latin1(env, bytes.as_ptr().cast(), bytes.len() as isize, &mut out)
        } else {
            napi::sys::napi_create_string_utf8(env, bytes.as_ptr().cast(), bytes.len() as isize, &mut out)
        }
    };
    if status != napi::sys::Status::napi_ok {
        return Err(Error::new(
            Status::GenericFailure,
            "sessions: could not create the result string",
        ));
    }
    Ok(out)
}

impl napi::bindgen_prelude::ToNapiValue for Pieces {
    // SAFETY: napi-rs calls this on the JS thread with its live environment `env`, which is what
    // the unsafe calls in the body need.
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        if let [(end, ascii)] = val.ends[..] {
            // SAFETY: napi-rs converts return values on the JS thread, in its live environment.
            return unsafe { js_string(env, &val.text.as_bytes()[..end], ascii) };
        }
        // SAFETY: as above.
        unsafe { External::to_napi_value(env, External::new(val)) }
    }
}

impl napi::bindgen_prelude::TypeName for Pieces {
    fn type_name() -> &'static str {
        "string"
    }

    fn value_type() -> napi::ValueType {
        napi::ValueType::String
    }
}
