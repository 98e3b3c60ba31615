//! The Rust SDK's raw [`Host`] for JavaScript: one ThreadsafeFunction per session, the `dispatch`
//! function of `lib/dispatch.js`, called as `dispatch(kind, requestId, payloadJson)` without
//! waiting for a result. Calls cross as `dispatch('calls', '', [[kind, id, payload], ...])`;
//! JS answers each later through `NativeSession.reply()`, on its own thread, and the answer is
//! written to the CLI right there. Events (`cancel`, `stderr`, host-process I/O) need no answer.
//! This host holds only each call's [`Reply`], by the id JS knows it by, and the batch of calls
//! JS has not picked up yet; the session loop owns everything else about the call.
//!
//! The batch is bound late: the engine appends calls to it and queues one `Calls` item only when
//! none is queued; the item takes the whole batch when it runs, on the JS thread. Calls that
//! arrive while JS is busy thus reach it in one `dispatch` (one entry into JS, one microtask
//! checkpoint, one `JSON.parse`) however many reads brought them. At 64 calls in flight, one item
//! per read gave 1,300–1,500 entries into JS for 5,000 calls, most of one or two calls.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use claude_agent_sdk::raw::{Call, CallResult, Host, Reply, StderrGate};
use napi::bindgen_prelude::{FnArgs, Function};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode, UnknownReturnValue};
use napi::Status;

/// What the engine queues for the JS thread.
pub enum Dispatch {
    /// `dispatch(kind, id, payload)` as given.
    Event(String, String, String),
    /// `dispatch('calls', '', batch)` with every call in the batch when it runs.
    Calls,
    /// `dispatch('stderr', '', chunk)`: a chunk of the CLI's stderr, within the session's
    /// [`StderrGate`]; the empty string once the gate is closed (JS skips it).
    Stderr(StderrChunk),
    /// On the JS thread: the ThreadsafeFunction stops keeping the event loop alive
    /// ([`Host::detach`]); JS gets an `unref` event it ignores.
    Unref,
}

/// A chunk of stderr on its way to JS. Its room in the gate comes back when it is dropped: once
/// delivered, or never run (a Worker's JS thread gone with items still queued).
pub struct StderrChunk {
    text: String,
    len: usize,
    gate: Arc<StderrGate>,
}

impl StderrChunk {
    /// The text, unless the gate closed since (the query's stream ended): nothing then.
    fn take(mut self) -> String {
        if self.gate.is_closed() {
            String::new()
        } else {
            std::mem::take(&mut self.text)
        }
    }
}

impl Drop for StderrChunk {
    fn drop(&mut self) {
        self.gate.delivered(self.len);
    }
}

/// JS's `dispatch` as it is passed to `startSession`.
pub type DispatchJs<'env> = Function<'env, FnArgs<(String, String, String)>, UnknownReturnValue>;

/// `CalleeHandled = false`: JS gets `(kind, id, payload)`, not the Node-style `(err, ...)`.
type DispatchFn = ThreadsafeFunction<Dispatch, UnknownReturnValue, FnArgs<(String, String, String)>, Status, false>;

/// Calls JS has not picked up yet: `[` and the entries so far, `,`-separated (empty: none).
#[derive(Default)]
struct Batch {
    text: String,
    /// A [`Dispatch::Calls`] is queued and will take the batch.
    queued: bool,
}

pub struct JsHost {
    /// The query has a `stderr` option: the CLI's stderr and our diagnostics go there.
    forward_stderr: bool,
    /// Taken out when the session ends: a live ThreadsafeFunction keeps the event loop alive, and
    /// a finished session must not keep the process running.
    dispatch: Mutex<Option<Arc<DispatchFn>>>,
    /// The replies of the calls JS has not answered yet, by the CLI's request id.
    replies: Mutex<HashMap<String, Reply>>,
    batch: Arc<Mutex<Batch>>,
    /// Bounds the CLI's stderr queued for JS (the JS thread may be busy; see [`StderrGate`]).
    stderr_gate: Arc<StderrGate>,
}

impl JsHost {
    /// Makes the session's ThreadsafeFunction over JS's `dispatch` (on the JS thread, inside
    /// `query()`, whose async context every call then runs in).
    pub fn new(dispatch: DispatchJs<'_>, forward_stderr: bool) -> napi::Result<Self> {
        let batch = Arc::new(Mutex::new(Batch::default()));
        let pending = batch.clone();
        // The function's own handle, for the `Unref` item (set once it is built).
        let raw = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let raw_in = raw.clone();
        let dispatch: DispatchFn = dispatch
            .build_threadsafe_function::<Dispatch>()
            .callee_handled::<false>()
            .build_callback(move |ctx| {
                Ok(match ctx.value {
                    Dispatch::Event(kind, id, payload) => (kind, id, payload).into(),
                    Dispatch::Calls => ("calls".to_string(), String::new(), take_batch(&pending)).into(),
                    Dispatch::Stderr(chunk) => ("stderr".to_string(), String::new(), chunk.take()).into(),
                    Dispatch::Unref => {
                        let f = raw_in.load(std::sync::atomic::Ordering::Acquire);
                        if f != 0 {
                            // SAFETY: on the JS thread of this function's env; the function is
                            // alive (this item is one of its calls).
                            unsafe { napi::sys::napi_unref_threadsafe_function(ctx.env.raw(), f as _) };
                        }
                        ("unref".to_string(), String::new(), String::new()).into()
                    }
                })
            })?;
        raw.store(dispatch.raw() as usize, std::sync::atomic::Ordering::Release);
        Ok(Self {
            forward_stderr,
            dispatch: Mutex::new(Some(Arc::new(dispatch))),
            replies: Mutex::default(),
            batch,
            stderr_gate: StderrGate::new(StderrGate::BYTES),
        })
    }

    /// From now on the session's dispatch does not keep the event loop alive (a Codex thread idles
    /// between turns; what waits for a turn's events keeps the loop alive meanwhile). On the JS
    /// thread, right after [`JsHost::new`].
    pub fn unref(&self, env: &napi::Env) -> napi::Result<()> {
        let mut dispatch = self.dispatch.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(f) = dispatch.as_mut().and_then(Arc::get_mut) {
            #[allow(deprecated)] // the replacement (cloning to ref) cannot drop below one reference
            f.unref(env)?;
        }
        Ok(())
    }

    /// JS's answer to a call (on the JS thread, where it is written to the CLI).
    pub fn reply(&self, request_id: &str, result: CallResult) {
        let reply = self
            .replies
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(request_id);
        if let Some(reply) = reply {
            reply.send(result);
        }
    }

    /// The query's stream has ended (or was closed): no stderr chunk reaches JS any more, even
    /// one already queued.
    pub fn end_stderr(&self) {
        self.stderr_gate.close();
    }

    pub fn forwards_stderr(&self) -> bool {
        self.forward_stderr
    }

    /// A diagnostics line for the query's `stderr` option; false once the query is over.
    pub fn stderr_line(&self, line: &str) -> bool {
        self.notify("stderr", "", line.to_string())
    }

    /// Calls dispatch without expecting an answer. False when the session is over.
    pub fn notify(&self, kind: &str, id: &str, payload: String) -> bool {
        self.queue(Dispatch::Event(kind.to_string(), id.to_string(), payload))
    }

    fn queue(&self, item: Dispatch) -> bool {
        let dispatch = self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).clone();
        match dispatch {
            Some(f) => f.call(item, ThreadsafeFunctionCallMode::NonBlocking) == Status::Ok,
            None => false,
        }
    }

    /// Every call waiting for JS's answer is answered with an error (as its reply drops, after
    /// the lock is let go).
    fn drop_replies(&self) {
        let unanswered: Vec<Reply> = self
            .replies
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain()
            .map(|(_, r)| r)
            .collect();
        drop(unanswered);
    }

    /// Adds entries (see [`entries`]) to the batch; true when JS will get them (a `Calls` item
    /// is queued).
    fn add_to_batch(&self, entries: &str) -> bool {
        let mut batch = self.batch.lock().unwrap_or_else(|p| p.into_inner());
        let sep = if batch.text.is_empty() { '[' } else { ',' };
        batch.text.push(sep);
        batch.text.push_str(entries);
        if batch.queued {
            return true;
        }
        // Queued under the lock: the item cannot run (and take the batch) before `queued` is set.
        batch.queued = self.queue(Dispatch::Calls);
        if !batch.queued {
            batch.text.clear();
        }
        batch.queued
    }
}

/// The batch as JS gets it, `[[kind, id, payload], ...]`, leaving it empty (on the JS thread).
fn take_batch(batch: &Mutex<Batch>) -> String {
    let mut batch = batch.lock().unwrap_or_else(|p| p.into_inner());
    batch.queued = false;
    let mut text = std::mem::take(&mut batch.text);
    if text.is_empty() {
        text.push('[');
    }
    text.push(']');
    text
}

/// The calls as `[kind, id, payload]` entries, `,`-separated: payloads are JSON already and are
/// spliced in as they are. An id the CLI did not write as a plain string (a number, escapes)
/// adds its JSON as written: `[kind, id, payload, idAsWritten]`.
fn entries<'a>(calls: impl Iterator<Item = &'a Call>) -> String {
    let mut out = String::new();
    for call in calls {
        if !out.is_empty() {
            out.push(',');
        }
        out.push_str("[\"");
        out.push_str(call.kind.as_str());
        out.push_str("\",");
        out.push_str(&serde_json::to_string(&call.request_id).expect("a string serializes"));
        out.push(',');
        out.push_str(&call.payload);
        if let Some(json) = &call.request_id_json {
            out.push(',');
            out.push_str(json);
        }
        out.push(']');
    }
    out
}

impl Host for JsHost {
    fn invoke(&self, calls: Vec<(Call, Reply)>) {
        let entries = entries(calls.iter().map(|(call, _)| call));
        // The replies are in place before JS can see the calls (it answers on its thread, after
        // it took the batch).
        let replaced: Vec<Reply> = {
            let mut replies = self.replies.lock().unwrap_or_else(|p| p.into_inner());
            calls
                .into_iter()
                .filter_map(|(call, reply)| replies.insert(call.request_id, reply))
                .collect()
        };
        // A second call under an id still in flight replaces the first, answered with an error.
        drop(replaced);
        if !self.add_to_batch(&entries) {
            // JS can no longer be reached.
            self.drop_replies();
        }
    }

    fn cancel(&self, request_id: &str) {
        self.notify("cancel", request_id, String::new());
    }

    fn stderr(&self, chunk: &str) {
        let chunk = StderrChunk {
            text: chunk.to_string(),
            len: chunk.len(),
            gate: self.stderr_gate.clone(),
        };
        if !self.queue(Dispatch::Stderr(chunk)) {
            // JS can no longer be reached: the reader must not wait for room that never comes.
            self.stderr_gate.close();
        }
    }

    fn stderr_gate(&self) -> Option<Arc<StderrGate>> {
        Some(self.stderr_gate.clone())
    }

    fn detach(&self) {
        self.queue(Dispatch::Unref);
    }

    fn release(&self) {
        self.dispatch.lock().unwrap_or_else(|p| p.into_inner()).take();
        self.batch.lock().unwrap_or_else(|p| p.into_inner()).text.clear();
        self.drop_replies();
    }
}
