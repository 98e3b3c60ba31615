//! JSON text handed to JavaScript as a one-byte (Latin-1) V8 string: the engine encodes each
//! message that way as it reads it (`claude_agent_sdk::raw::MessageText::Latin1Json`), so V8 gets a compact
//! string it parses fast, with no UTF-8 decoding and no two-byte copy.

use napi::{Error, Result, Status};

pub struct JsonArrayText(Vec<u8>);

impl JsonArrayText {
    /// Latin-1 JSON lines joined into the text of one JSON array. A batch of one message that is
    /// an object (`{` first, as every CLI message) is that message's text as it is; JS tells it
    /// from an array by its first character. A large message then costs no copy on the JS thread
    /// before V8's own (measured on `stream_1m`: the join was a 1 MB allocation, page faults and
    /// copy per message).
    pub fn join(lines: Vec<Vec<u8>>) -> Self {
        if lines.len() == 1 && lines[0].first() == Some(&b'{') {
            return Self(lines.into_iter().next().expect("one line"));
        }
        let total: usize = lines.iter().map(|l| l.len() + 1).sum::<usize>() + 1;
        let mut out = Vec::with_capacity(total);
        out.push(b'[');
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(line);
        }
        out.push(b']');
        Self(out)
    }
}

impl napi::bindgen_prelude::ToNapiValue for JsonArrayText {
    // SAFETY: napi-rs calls this on the JS thread with its live environment `env`, which is what
    // the unsafe calls in the body need (each has its own note).
    unsafe fn to_napi_value(env: napi::sys::napi_env, val: Self) -> Result<napi::sys::napi_value> {
        let val = if val.0.len() >= EXTERNAL_MIN_BYTES {
            // SAFETY: `env` is the live environment of the JS thread this conversion runs on.
            match unsafe { external::latin1(env, val.0) } {
                Ok(Some(out)) => return Ok(out),
                Ok(None) => return Err(Error::new(Status::GenericFailure, "could not create the batch string")),
                Err(bytes) => Self(bytes),
            }
        } else {
            val
        };
        let mut out = std::ptr::null_mut();
        // SAFETY: `env` is the live environment napi-rs converts this return value in (the JS
        // thread); the pointer and length describe `val.0`, which outlives the call (V8 copies the
        // bytes); `out` is a valid place for the result. napi-rs has no safe constructor for a
        // Latin-1 string from raw bytes in a `ToNapiValue`.
        let status = napi::sys::napi_create_string_latin1(env, val.0.as_ptr().cast(), val.0.len() as isize, &mut out);
        if status != napi::sys::Status::napi_ok {
            return Err(Error::new(Status::GenericFailure, "could not create the batch string"));
        }
        Ok(out)
    }
}

/// From this size on, text crosses as an external string when the runtime can make one
/// (`node_api_create_external_string_latin1`: Node 18.18+/20.4+, Bun): V8 then points at the
/// engine's bytes instead of copying them. Below V8's large-object size (128 KiB) a copy is a
/// cheap young-generation allocation; above it each copy was fresh pages mapped on the JS thread
/// (a 1 MB message: a 1 MB copy and 256 page faults before `JSON.parse` even starts).
const EXTERNAL_MIN_BYTES: usize = 128 * 1024;

/// External Latin-1 strings over a `Vec<u8>` the string owns until V8 finalizes it.
mod external {
    use std::ffi::{c_char, c_void};

    use napi::sys::{napi_env, napi_finalize, napi_status, napi_value, Status};

    // SAFETY: the signature of `node_api_create_external_string_latin1` in js_native_api.h; it is
    // only called through `latin1`, whose contract says what its arguments must be.
    type CreateLatin1 = unsafe extern "C" fn(
        napi_env,
        *const c_char,
        isize,
        napi_finalize,
        *mut c_void,
        *mut napi_value,
        *mut bool,
    ) -> napi_status;

    /// The runtime's `node_api_create_external_string_latin1`, looked up once: linked directly, a
    /// runtime without it (Node 18 before 18.18) could not load the addon at all.
    #[cfg(unix)]
    fn create_latin1() -> Option<CreateLatin1> {
        static FOUND: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let address = *FOUND.get_or_init(|| {
            // The runtime's executable exports Node-API; RTLD_DEFAULT searches what is loaded.
            // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated C string name.
            unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"node_api_create_external_string_latin1".as_ptr()) as usize }
        });
        // SAFETY: a non-null address of this exported function has this signature (js_native_api.h).
        (address != 0).then(|| unsafe { std::mem::transmute::<usize, CreateLatin1>(address) })
    }

    /// Windows: the copy (napi-rs resolves Node-API there through its own table, which has no
    /// entry for this function in the feature set the addon is built with).
    #[cfg(not(unix))]
    fn create_latin1() -> Option<CreateLatin1> {
        None
    }

    /// What the finalizer frees: the vector's parts.
    struct Owned {
        ptr: *mut u8,
        len: usize,
        cap: usize,
    }

    impl Owned {
        fn new(bytes: Vec<u8>) -> Self {
            let mut bytes = std::mem::ManuallyDrop::new(bytes);
            Self {
                ptr: bytes.as_mut_ptr(),
                len: bytes.len(),
                cap: bytes.capacity(),
            }
        }

        /// SAFETY: `self` came from [`Owned::new`] and the bytes are no longer used by anyone.
        unsafe fn free(self) {
            // SAFETY: the parts of a vector taken apart in `new`, put back together once.
            drop(unsafe { Vec::from_raw_parts(self.ptr, self.len, self.cap) });
        }
    }

    /// V8 is done with the string: frees the bytes and takes their size off the engine's count.
    // SAFETY: called only by the runtime, once per string made in `latin1`, with that string's
    // `Box<Owned>` as `hint` and its environment (or null once the environment is gone).
    unsafe extern "C" fn finalize(env: napi_env, _data: *mut c_void, hint: *mut c_void) {
        // SAFETY: `hint` is the `Box<Owned>` leaked in `latin1`, handed to this finalizer once.
        let owned = unsafe { Box::from_raw(hint.cast::<Owned>()) };
        let cap = owned.cap as i64;
        // SAFETY: the string that pointed at the bytes is gone.
        unsafe { owned.free() };
        // Node calls it with no environment when the environment is already gone (a terminated
        // Worker): nothing to count then.
        if !env.is_null() {
            let mut total = 0;
            // Adjusting the external memory count is allowed from a finalizer.
            // SAFETY: `env` is the live environment the finalizer runs in (checked non-null above).
            unsafe { napi::sys::napi_adjust_external_memory(env, -cap, &mut total) };
        }
    }

    /// An external one-byte string over `bytes`, or the bytes back when the runtime has no such
    /// function. The bytes' size is counted as external memory while the string lives, so the
    /// collector runs as often as it would for the copy (without that, peak RSS of 200 one-MB
    /// messages rose from 269 to 285–350 MB; with it, 193 MB).
    ///
    /// SAFETY: `env` is the live environment of the current (JS) thread.
    pub unsafe fn latin1(env: napi_env, bytes: Vec<u8>) -> std::result::Result<Option<napi_value>, Vec<u8>> {
        let Some(create) = create_latin1() else {
            return Err(bytes);
        };
        let len = bytes.len();
        let owned = Box::new(Owned::new(bytes));
        let (ptr, cap) = (owned.ptr, owned.cap);
        let mut total = 0;
        // Counted before the string exists: the finalizer, which takes it off, may run inside the
        // call below (a runtime that copies calls it at once).
        // SAFETY: `env` is live (see above).
        unsafe { napi::sys::napi_adjust_external_memory(env, cap as i64, &mut total) };
        let mut out = std::ptr::null_mut();
        let mut copied = false;
        // `ptr`/`len` describe the leaked vector, valid until `finalize` frees it; the leaked box goes
        // to `finalize`, which the runtime calls once: when the string is collected, or before
        // returning if it copied the bytes.
        // SAFETY: as just said; `env` is live (this function's contract).
        let status = unsafe {
            create(
                env,
                ptr.cast(),
                len as isize,
                Some(finalize),
                Box::into_raw(owned).cast(),
                &mut out,
                &mut copied,
            )
        };
        // A failure (a length past the engine's string limit, which the queue's bound rules out)
        // leaves the bytes to the runtime: freeing them here could free them twice.
        Ok((status == Status::napi_ok).then_some(out))
    }
}

impl napi::bindgen_prelude::TypeName for JsonArrayText {
    fn type_name() -> &'static str {
        "string"
    }

    fn value_type() -> napi::ValueType {
        napi::ValueType::String
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_join_into_one_json_array() {
        // `é` as its Latin-1 byte, `🌍` escaped: as the engine encodes them.
        let lines = vec![b"{\"a\":\"\xe9\\ud83c\\udf0d\"}".to_vec(), br#"{"b":1}"#.to_vec()];
        let text: String = JsonArrayText::join(lines).0.iter().map(|&b| b as char).collect();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v, serde_json::json!([{"a":"é🌍"}, {"b":1}]));
        let one: String = JsonArrayText::join(vec![br#"{"b":1}"#.to_vec()])
            .0
            .iter()
            .map(|&b| b as char)
            .collect();
        assert_eq!(one, r#"{"b":1}"#, "one message crosses as itself");
        let odd: String = JsonArrayText::join(vec![br#"["x"]"#.to_vec()])
            .0
            .iter()
            .map(|&b| b as char)
            .collect();
        assert_eq!(odd, r#"[["x"]]"#, "a line that is not an object is still wrapped");
    }
}
