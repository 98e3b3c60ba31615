//! The Rust SDK's errors as JavaScript sees them: an `Error` with its message and a stable
//! `code`, plus `exitCode`, `signal` and `stderr` when the CLI died. Made here, once, for every
//! method that can fail.

use napi::bindgen_prelude::{JsObjectValue, Object, ToNapiValue};
use napi::{Env, Error, Result, Status};

/// The JS Error for an engine error, ready to throw or to reject with.
pub fn js_error(env: &Env, e: &claude_agent_sdk::Error) -> Error {
    build(env, e, None, None).unwrap_or_else(|failed| failed)
}

/// A session function's failure: the error of [`claude_agent_sdk::Error::Sessions`]
/// (`SESSIONS_ERROR`, or the failure's own code: a session file the fence refused is
/// `SESSION_OUTSIDE_PROJECTS` or `SESSION_NOT_A_FILE`), with `safe`: whether the official SDK
/// reports it as a `TelemetrySafeError`.
pub fn js_sessions_error(env: &Env, f: &claude_agent_sdk::raw::SessionsFailure) -> Error {
    build(
        env,
        &claude_agent_sdk::Error::Sessions(f.message.clone()),
        Some(f.safe),
        f.code,
    )
    .unwrap_or_else(|failed| failed)
}

fn build(env: &Env, e: &claude_agent_sdk::Error, safe: Option<bool>, code: Option<&str>) -> Result<Error> {
    let mut err = env.create_error(Error::new(Status::GenericFailure, e.to_string()))?;
    if let Some(safe) = safe {
        err.set_named_property("safe", safe)?;
    }
    err.set_named_property("code", code.unwrap_or(e.code()))?;
    set_exit_fields(&mut err, e.exit_code(), e.signal(), e.stderr())?;
    Ok(Error::from(err.into_unknown(env)?))
}

/// Sets those of `exitCode`, `signal` and `stderr` that are known (the CLI, or Codex, died) on
/// a JS error.
pub fn set_exit_fields(
    err: &mut Object,
    exit_code: Option<i32>,
    signal: Option<String>,
    stderr: Option<&str>,
) -> Result<()> {
    if let Some(code) = exit_code {
        err.set_named_property("exitCode", code)?;
    }
    if let Some(signal) = signal {
        err.set_named_property("signal", signal)?;
    }
    if let Some(stderr) = stderr {
        err.set_named_property("stderr", stderr)?;
    }
    Ok(())
}
