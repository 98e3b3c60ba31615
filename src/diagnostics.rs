//! `tracing` output, off by default. `DEBUG_CLAUDE_AGENT_SDK=1` (or `options.debug`) turns it on:
//! one readable line per event. A session's events go to that query's `stderr` option when it
//! has one, everything else to the process's stderr. `CLAUDE_AGENT_SDK_LOG` refines the filter
//! (`tracing` env-filter syntax, e.g. `agent_core=trace`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock, Mutex, Once, Weak};

use tracing::field::{Field, Visit};
use tracing::{span, Event, Subscriber};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::prelude::*;
use tracing_subscriber::registry::LookupSpan;

use crate::js_host::JsHost;

static INIT: Once = Once::new();

/// Where each session's lines go, by the `sid` of its `session` span.
static SINKS: LazyLock<Mutex<HashMap<u64, Weak<JsHost>>>> = LazyLock::new(Default::default);

pub fn truthy(v: Option<String>) -> bool {
    matches!(
        v.map(|s| s.trim().to_ascii_lowercase()).as_deref(),
        Some("1" | "true" | "yes" | "on")
    )
}

/// Installs the subscriber once per process, if diagnostics are wanted.
pub fn init(requested: bool) {
    if !(requested || truthy(std::env::var("DEBUG_CLAUDE_AGENT_SDK").ok())) {
        return;
    }
    INIT.call_once(|| {
        let filter = std::env::var("CLAUDE_AGENT_SDK_LOG")
            .unwrap_or_else(|_| "agent_core=debug,claude_agent_sdk=debug,claude_agent_sdk_native=debug".into());
        let _ = tracing_subscriber::registry()
            .with(tracing_subscriber::EnvFilter::new(filter))
            .with(LineLayer)
            .try_init();
    });
}

/// Routes a session's diagnostics to its host (which forwards them to the `stderr` option).
pub fn register(sid: u64, host: &Arc<JsHost>) {
    let mut sinks = SINKS.lock().unwrap_or_else(|p| p.into_inner());
    sinks.retain(|_, w| w.strong_count() > 0);
    sinks.insert(sid, Arc::downgrade(host));
}

struct Sid(u64);

struct LineLayer;

impl<S: Subscriber + for<'a> LookupSpan<'a>> Layer<S> for LineLayer {
    fn on_new_span(&self, attrs: &span::Attributes<'_>, id: &span::Id, ctx: Context<'_, S>) {
        if attrs.metadata().name() != "session" {
            return;
        }
        let mut v = Fields::default();
        attrs.record(&mut v);
        if let (Some(sid), Some(span)) = (v.sid, ctx.span(id)) {
            span.extensions_mut().insert(Sid(sid));
        }
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let sid = ctx
            .event_scope(event)
            .and_then(|scope| scope.from_root().find_map(|s| s.extensions().get::<Sid>().map(|x| x.0)));
        let mut fields = Fields::default();
        event.record(&mut fields);
        let meta = event.metadata();
        let mut line = format!("[claude-agent-sdk-native] {} ", meta.level());
        if let Some(sid) = sid {
            let _ = write!(line, "session {sid}: ");
        }
        line.push_str(&fields.message);
        line.push_str(&fields.rest);
        line.push('\n');
        let host = sid.and_then(|s| {
            SINKS
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .get(&s)
                .and_then(Weak::upgrade)
        });
        let delivered = matches!(&host, Some(h) if h.forwards_stderr() && h.stderr_line(&line));
        if !delivered {
            eprint!("{line}");
        }
    }
}

#[derive(Default)]
struct Fields {
    message: String,
    rest: String,
    sid: Option<u64>,
}

impl Visit for Fields {
    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "sid" {
            self.sid = Some(value);
        } else {
            let _ = write!(self.rest, " {}={value}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message.push_str(value);
        } else {
            let _ = write!(self.rest, " {}={value:?}", field.name());
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        } else {
            let _ = write!(self.rest, " {}={value:?}", field.name());
        }
    }
}
