//! Sessions end with the JavaScript environment that started them: when a Worker is terminated
//! (or the main thread's environment is torn down) every session it started is aborted, so its
//! CLI is stopped and its pipes and task end. One env cleanup hook per environment aborts the
//! sessions registered under it; the registry holds [`AbortHandle`]s, which do not keep a
//! session alive.
//!
//! Finalizing a Worker's `NativeSession` objects is not enough on its own: a session can also be
//! held by a task on the engine's runtime (a pending `initializationResult()` holds a clone of
//! its handle until the CLI answers `initialize`), and that runtime outlives the Worker whenever
//! another thread uses the addon. Without this hook such a CLI lives on until the initialize
//! timeout (`__test__/workers.test.mjs`, "awaits initialize", fails without it on Node 18, 20,
//! 22 and Bun).

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use claude_agent_sdk::raw::{AbortHandle, Session};
use napi::{Env, Result};

/// Live sessions by the environment (its `napi_env` address) that started them.
static SESSIONS: LazyLock<Mutex<HashMap<usize, Vec<AbortHandle>>>> = LazyLock::new(Default::default);

/// Registers a session with its environment's cleanup.
pub fn track(env: &Env, handle: &Session) -> Result<()> {
    let key = env.raw() as usize;
    let first = {
        let mut sessions = SESSIONS.lock().unwrap_or_else(|p| p.into_inner());
        let list = sessions.entry(key).or_default();
        // Sessions whose every handle is gone have ended already.
        list.retain(AbortHandle::is_alive);
        list.push(handle.abort_handle());
        list.len() == 1 && !HOOKED.lock().unwrap_or_else(|p| p.into_inner()).contains(&key)
    };
    if first {
        HOOKED.lock().unwrap_or_else(|p| p.into_inner()).push(key);
        env.add_env_cleanup_hook(key, |key| {
            HOOKED.lock().unwrap_or_else(|p| p.into_inner()).retain(|k| *k != key);
            let sessions = SESSIONS
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&key)
                .unwrap_or_default();
            for session in sessions {
                session.abort();
            }
        })?;
    }
    Ok(())
}

/// Environments whose cleanup hook is registered.
static HOOKED: Mutex<Vec<usize>> = Mutex::new(Vec::new());
