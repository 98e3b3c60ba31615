//! The CLI's stdout read on the JS thread, under Node: a libuv poll on the pipe's fd in the JS
//! thread's own event loop drives the session's `ExternalReader`. Lines are framed and routed
//! in Rust as they are read, and the calls they produce (tool calls, permission prompts, hooks)
//! reach JS in the same wake-up, through one direct call of `dispatch`. That leaves no thread
//! hop on a round trip: the answer is written from the JS thread too (see `js_host.rs`).
//!
//! A stream of output (a whole read budget waiting at one wake-up) is read on the engine's
//! thread instead, in parallel with the consumer; the reader comes back when the CLI is quiet.
//!
//! libuv's functions are looked up in the host process when first needed (Node exports them);
//! where one is missing the session reads on the engine's thread instead. Everything here runs
//! on the JS thread that started the session.

use std::ffi::{c_int, c_void, CStr};
use std::ptr;
use std::sync::OnceLock;

use agent_core::session::{ExternalReader, ReadState};
use napi::bindgen_prelude::{FnArgs, FunctionRef, JsValue};
use napi::threadsafe_function::UnknownReturnValue;
use napi::{sys, Env};

use crate::js_host::JsHost;

type PollCb = unsafe extern "C" fn(*mut c_void, c_int, c_int);
type CloseCb = unsafe extern "C" fn(*mut c_void);

/// The libuv functions we use, from the host process.
struct Uv {
  handle_size: unsafe extern "C" fn(c_int) -> usize,
  poll_init: unsafe extern "C" fn(*mut c_void, *mut c_void, c_int) -> c_int,
  poll_start: unsafe extern "C" fn(*mut c_void, c_int, PollCb) -> c_int,
  poll_stop: unsafe extern "C" fn(*mut c_void) -> c_int,
  close: unsafe extern "C" fn(*mut c_void, Option<CloseCb>),
}

/// `uv_handle_type` `UV_POLL`, and the `UV_READABLE` event (uv.h).
const UV_POLL: c_int = 8;
const UV_READABLE: c_int = 1;

fn uv() -> Option<&'static Uv> {
  static UV: OnceLock<Option<Uv>> = OnceLock::new();
  UV.get_or_init(|| unsafe {
    Some(Uv {
      handle_size: sym(c"uv_handle_size")?,
      poll_init: sym(c"uv_poll_init")?,
      poll_start: sym(c"uv_poll_start")?,
      poll_stop: sym(c"uv_poll_stop")?,
      close: sym(c"uv_close")?,
    })
  })
  .as_ref()
}

/// A function of the host process by name, as the function-pointer type `F` it must have.
unsafe fn sym<F: Copy>(name: &CStr) -> Option<F> {
  let p = libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr());
  // SAFETY: `F` is a function-pointer type (pointer-sized), the signature libuv declares.
  (!p.is_null()).then(|| std::mem::transmute_copy::<*mut c_void, F>(&p))
}

/// Whether stdout can be read on this thread's event loop.
pub fn available() -> bool {
  uv().is_some()
}

pub type DispatchRef = FunctionRef<FnArgs<(String, String, String)>, UnknownReturnValue>;

/// What the poll's callback works with. Boxed, so the handle's `data` can point at it.
struct State {
  reader: Option<ExternalReader>,
  env: sys::napi_env,
  dispatch: DispatchRef,
  /// For `napi_make_callback`: it runs the microtasks the call queued (the handlers' promise
  /// continuations, and so their replies) before returning, as Node does for its own I/O.
  async_context: sys::napi_async_context,
  host: std::sync::Arc<JsHost>,
  /// The uv handle (`uv_poll_t`, allocated with libuv's size for it); null once closed.
  handle: *mut c_void,
  polling: bool,
}

/// Owns the poll; dropping it (or [`StdoutPoll::close`]) stops reading and closes the pipe.
pub struct StdoutPoll {
  state: Box<State>,
}

// SAFETY: created, used and dropped on the JS thread only; the napi class that holds it must be
// Send for napi-rs, never for use elsewhere.
unsafe impl Send for StdoutPoll {}

impl StdoutPoll {
  /// Starts polling the reader's fd in `env`'s event loop.
  pub fn start(env: &Env, reader: ExternalReader, dispatch: DispatchRef, host: std::sync::Arc<JsHost>) -> napi::Result<Self> {
    let uv = uv().ok_or_else(|| napi::Error::from_reason("libuv is not available"))?;
    let raw_env = env.raw();
    let mut state = Box::new(State {
      reader: Some(reader),
      env: raw_env,
      dispatch,
      async_context: ptr::null_mut(),
      host,
      handle: ptr::null_mut(),
      polling: false,
    });
    unsafe {
      let mut uv_loop = ptr::null_mut();
      check(sys::napi_get_uv_event_loop(raw_env, &mut uv_loop), "napi_get_uv_event_loop")?;
      let mut resource = ptr::null_mut();
      check(sys::napi_create_object(raw_env, &mut resource), "napi_create_object")?;
      let mut name = ptr::null_mut();
      check(sys::napi_create_string_utf8(raw_env, c"ClaudeCodeStdout".as_ptr(), usize::MAX as isize, &mut name), "napi_create_string_utf8")?;
      check(sys::napi_async_init(raw_env, resource, name, &mut state.async_context), "napi_async_init")?;
      let handle = libc::calloc(1, (uv.handle_size)(UV_POLL));
      if handle.is_null() {
        return Err(napi::Error::from_reason("out of memory for a uv_poll_t"));
      }
      let fd = state.reader.as_ref().map(|r| r.fd()).unwrap_or(-1);
      if (uv.poll_init)(uv_loop.cast(), handle, fd) != 0 {
        libc::free(handle);
        return Err(napi::Error::from_reason("uv_poll_init failed on Claude Code's stdout"));
      }
      // `data` is the first field of every uv handle.
      *(handle as *mut *mut State) = &mut *state;
      state.handle = handle;
    }
    state.poll();
    Ok(Self { state })
  }

  /// For [`Resumer::resume`], which must run without the lock that guards this poll held.
  pub fn resumer(&mut self) -> Resumer {
    Resumer(&mut *self.state)
  }

  /// Stops reading for good (the session is closed): the CLI's stdout is closed with it.
  pub fn close(&mut self) {
    self.state.shut();
  }
}

/// Resumes a poll: dispatch('read') said the reader paused for the consumer queue and there is
/// room again, or it is back from the engine's thread.
pub struct Resumer(*mut State);

impl Resumer {
  /// # Safety
  /// On the JS thread, with the `StdoutPoll` alive and no borrow of it held: the calls into JS
  /// made from here may close the session (and so the poll) re-entrantly.
  pub unsafe fn resume(self) {
    let state = self.0;
    if (*state).reader.is_none() {
      let back = (*state).host.take_reader();
      if (*state).handle.is_null() {
        return; // closed meanwhile: the reader (and the pipe) just goes
      }
      (*state).reader = back;
    }
    State::pump(state);
  }
}

impl Drop for StdoutPoll {
  fn drop(&mut self) {
    self.state.shut();
    if !self.state.async_context.is_null() {
      unsafe { sys::napi_async_destroy(self.state.env, self.state.async_context) };
      self.state.async_context = ptr::null_mut();
    }
  }
}

unsafe extern "C" fn on_readable(handle: *mut c_void, _status: c_int, _events: c_int) {
  // An error status (EBADF, …) is left to read(2), which reports it and ends the stream.
  let state = *(handle as *mut *mut State);
  if !state.is_null() {
    State::pump(state);
  }
}

unsafe extern "C" fn on_closed(handle: *mut c_void) {
  libc::free(handle);
}

fn check(status: sys::napi_status, what: &str) -> napi::Result<()> {
  if status == sys::Status::napi_ok {
    Ok(())
  } else {
    Err(napi::Error::from_reason(format!("{what} failed ({status})")))
  }
}

impl State {
  /// Reads and routes what is there; then hands JS the calls that produced, in one call. JS may
  /// close the session (or resume it) from inside that call: no reference is held across it.
  unsafe fn pump(state: *mut State) {
    let read = {
      let Some(reader) = (*state).reader.as_mut() else { return };
      crate::js_host::on_js_thread(|| reader.read_ready())
    };
    if (*state).host.has_calls() {
      // The batch is complete now: it goes with the call, no `takeCalls()` crossing back.
      let calls = agent_core::codec::latin1_json(&(*state).host.take_calls());
      call_dispatch(state, "calls", &calls);
    }
    let state = &mut *state;
    match read {
      ReadState::Open => state.poll(),
      ReadState::Paused => state.pause(),
      ReadState::Ended => state.shut(),
      // A stream: the engine's thread reads it, in parallel with the consumer, and gives the
      // reader back when the CLI is quiet again.
      ReadState::Streaming => {
        state.pause();
        if let Some(reader) = state.reader.take() {
          reader.read_on_engine();
        }
      }
    }
  }

  fn poll(&mut self) {
    if self.polling || self.handle.is_null() {
      return;
    }
    let uv = uv().expect("checked at start");
    self.polling = unsafe { (uv.poll_start)(self.handle, UV_READABLE, on_readable) } == 0;
  }

  fn pause(&mut self) {
    if self.polling && !self.handle.is_null() {
      unsafe { (uv().expect("checked at start").poll_stop)(self.handle) };
      self.polling = false;
    }
  }

  /// Stops polling and closes the handle (its memory is freed by libuv's close callback); the
  /// reader, and with it the pipe, goes now (libuv has already stopped watching the fd).
  fn shut(&mut self) {
    if self.handle.is_null() {
      return;
    }
    self.pause();
    unsafe {
      *(self.handle as *mut *mut State) = ptr::null_mut();
      (uv().expect("checked at start").close)(self.handle, Some(on_closed));
    }
    self.handle = ptr::null_mut();
    self.reader = None;
  }
}

/// `dispatch(kind, '', payload)` (payload as Latin-1 text), called as Node calls its own I/O
/// callbacks. Only copies are taken from `state` before JS runs.
unsafe fn call_dispatch(state: *const State, kind: &str, payload: &[u8]) {
  let (env, async_context) = ((*state).env, (*state).async_context);
  let mut scope = ptr::null_mut();
  if sys::napi_open_handle_scope(env, &mut scope) != sys::Status::napi_ok {
    return;
  }
  let napi_env = Env::from_raw(env);
  if let Ok(func) = (*state).dispatch.borrow_back(&napi_env) {
    let func = func.raw();
    // napi_make_callback wants an object as `this` (undefined is refused).
    let mut recv = ptr::null_mut();
    sys::napi_get_global(env, &mut recv);
    let mut args = [ptr::null_mut(); 3];
    sys::napi_create_string_utf8(env, kind.as_ptr().cast(), kind.len() as isize, &mut args[0]);
    sys::napi_create_string_utf8(env, c"".as_ptr(), 0, &mut args[1]);
    sys::napi_create_string_latin1(env, payload.as_ptr().cast(), payload.len() as isize, &mut args[2]);
    let mut result = ptr::null_mut();
    if sys::napi_make_callback(env, async_context, recv, func, 3, args.as_ptr(), &mut result) == sys::Status::napi_pending_exception {
      // dispatch catches what user code throws; anything else is the app's uncaught error.
      let mut err = ptr::null_mut();
      sys::napi_get_and_clear_last_exception(env, &mut err);
      sys::napi_fatal_exception(env, err);
    }
  }
  sys::napi_close_handle_scope(env, scope);
}
