//! A fake Claude Code CLI for `npm run bench` (not shipped).
//!
//! The SDK under test spawns it through `pathToClaudeCodeExecutable`. It speaks the real
//! stream-json control protocol (shapes from the wire traces of CLI 2.1.330 and 2.1.197):
//! answers `initialize`, reads the user message, emits `system/init`, runs one scenario, emits
//! `result`, then — like the real CLI — waits for stdin EOF and exits 0.
//!
//! Round trips are timed here, with a monotonic clock (`Instant`): from just before the request
//! is written to stdout until its `control_response` line has been read from stdin.
//!
//! One thread does everything. Sequential scenarios write a request and read until its answer;
//! `toolcall_conc` is self-clocked: it writes `FAKE_CLI_CONCURRENCY` requests, then one new
//! request for every answer read, so there is never a thread hand-off on the measured path.
//!
//! Environment:
//! - `FAKE_CLI_SCENARIO`: toolcall_seq | toolcall_conc | permission_seq | stream_1k | stream_1m |
//!   session (one agent session of the scale scenario: a permission prompt, then `FAKE_CLI_N`
//!   sequential tool calls, default 50; any wrong answer ends it with exit 2) | startup (default)
//! - `FAKE_CLI_N`: operations (calls, prompts or messages); default per scenario
//! - `FAKE_CLI_CONCURRENCY`: in-flight calls for toolcall_conc (default 64)
//! - `FAKE_CLI_HANDSHAKE`: `manifests` (default; CLI ≥ 2.1.330: tools come from `initialize`) or
//!   `legacy` (CLI 2.1.197: `mcp_message` initialize, notifications/initialized, tools/list)
//! - `FAKE_CLI_MSG_BYTES`: text bytes per assistant message for stream scenarios
//! - `FAKE_CLI_REPORT`: file the figures are written to (JSON), before `result` is emitted

use serde_json::{json, Value};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Stdin, Write};
use std::os::unix::io::FromRawFd;
use std::time::Instant;

const SESSION_ID: &str = "0b3e5b43-7c1e-4c5e-9b61-5e1f0c0ffee0";
const MODEL: &str = "claude-opus-5-5";
const VERSION: &str = "2.1.330";
const SERVER: &str = "bench";
const TOOL: &str = "echo";

fn env_str(name: &str, default: &str) -> String {
    std::env::var(name)
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| default.to_string())
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn uuid(n: u64) -> String {
    format!("00000000-0000-4000-8000-{n:012x}")
}

fn die(msg: &str) -> ! {
    eprintln!("bench-fake-cli: {msg}");
    std::process::exit(2)
}

struct Cli {
    input: BufReader<Stdin>,
    line: String,
    // fd 1 without std's LineWriter: we decide when to flush (per message for round trips, per
    // 64 KiB for streams).
    out: BufWriter<File>,
    eof: bool,
    started: Instant,
    init_at: Option<Instant>,
    user_at: Option<Instant>,
    /// Wall-clock (Unix µs) of the process start, for a timeline against the host's clock.
    started_unix_us: f64,
    /// Control requests from the SDK other than initialize (e.g. interrupt), answered `{}`.
    other_requests: u64,
    uuid_n: u64,
}

/// What one stdin line was, as far as the scenario cares.
enum Incoming {
    Response { request_id: String, msg: Value },
    Other,
}

impl Cli {
    fn new() -> Self {
        // SAFETY: fd 1 is open for the life of the process, and nothing else writes to it. (The
        // process ends with `exit`, so this File is never dropped.)
        let stdout = unsafe { File::from_raw_fd(1) };
        Cli {
            input: BufReader::with_capacity(1 << 16, std::io::stdin()),
            line: String::new(),
            out: BufWriter::with_capacity(1 << 16, stdout),
            eof: false,
            started: Instant::now(),
            started_unix_us: unix_us(),
            init_at: None,
            user_at: None,
            other_requests: 0,
            uuid_n: 0,
        }
    }

    fn next_uuid(&mut self) -> String {
        self.uuid_n += 1;
        uuid(self.uuid_n)
    }

    fn write_line(&mut self, line: &str) {
        if self
            .out
            .write_all(line.as_bytes())
            .and_then(|_| self.out.write_all(b"\n"))
            .is_err()
        {
            die("stdout closed");
        }
    }

    fn flush(&mut self) {
        if self.out.flush().is_err() {
            die("stdout closed");
        }
    }

    fn send(&mut self, v: &Value) {
        let s = v.to_string();
        self.write_line(&s);
        self.flush();
    }

    /// Reads one line; `None` at EOF. Returns the instant it was read (before parsing).
    fn read(&mut self) -> Option<(Instant, Value)> {
        loop {
            self.line.clear();
            match self.input.read_line(&mut self.line) {
                Ok(0) | Err(_) => {
                    self.eof = true;
                    return None;
                }
                Ok(_) => {}
            }
            let at = Instant::now();
            let t = self.line.trim();
            if t.is_empty() {
                continue;
            }
            match serde_json::from_str::<Value>(t) {
                Ok(v) => return Some((at, v)),
                Err(e) => eprintln!("bench-fake-cli: unparsable stdin line: {e}"),
            }
        }
    }

    /// Handles what the fake CLI answers by itself (control requests from the SDK) and classifies
    /// the rest.
    fn handle(&mut self, at: Instant, v: Value) -> Incoming {
        match v.get("type").and_then(Value::as_str) {
            Some("control_request") => {
                let id = v.get("request_id").cloned().unwrap_or(Value::Null);
                let subtype = v.pointer("/request/subtype").and_then(Value::as_str).unwrap_or("");
                let body = if subtype == "initialize" {
                    self.init_at = Some(at);
                    initialize_body(v.pointer("/request/sdkMcpServerManifests"))
                } else {
                    self.other_requests += 1;
                    json!({})
                };
                self.send(&json!({"type":"control_response","response":{"subtype":"success","request_id":id,"response":body}}));
                Incoming::Other
            }
            Some("control_response") => {
                let request_id = v
                    .pointer("/response/request_id")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                Incoming::Response { request_id, msg: v }
            }
            Some("user") => {
                if self.user_at.is_none() {
                    self.user_at = Some(at);
                }
                Incoming::Other
            }
            _ => Incoming::Other,
        }
    }

    /// Writes `request` (a control_request with `request_id`) and reads until its answer.
    fn round_trip(&mut self, request_id: &str, request: &str) -> (u64, Value) {
        let t0 = Instant::now();
        self.write_line(request);
        self.flush();
        loop {
            let Some((at, v)) = self.read() else {
                die(&format!("stdin closed while waiting for {request_id}"))
            };
            if let Incoming::Response { request_id: id, msg } = self.handle(at, v) {
                if id == request_id {
                    return ((at - t0).as_nanos() as u64, msg);
                }
            }
        }
    }

    fn wait_for_session(&mut self) {
        while self.init_at.is_none() || self.user_at.is_none() {
            let Some((at, v)) = self.read() else {
                die("stdin closed before initialize and the user message")
            };
            self.handle(at, v);
        }
    }

    fn wait_eof(&mut self) {
        while let Some((at, v)) = self.read() {
            self.handle(at, v);
        }
    }

    fn system(&mut self, extra: Value) {
        let mut v = json!({"type":"system"});
        if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
            m.extend(e);
        }
        self.send(&v);
    }

    fn session_state(&mut self, state: &str) {
        let u = self.next_uuid();
        self.system(json!({"subtype":"session_state_changed","state":state,"sdk_host_only":true,"uuid":u,"session_id":SESSION_ID}));
    }

    fn system_init(&mut self) {
        let u = self.next_uuid();
        let cwd = std::env::current_dir()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        self.system(json!({
            "subtype":"init","cwd":cwd,"session_id":SESSION_ID,
            "tools":["Task","Bash","Edit","Read","Write","WebFetch","WebSearch",format!("mcp__{SERVER}__{TOOL}")],
            "mcp_servers":[{"name":SERVER,"status":"connected","source":"sdk"}],
            "model":MODEL,"permissionMode":"default","slash_commands":["update-config","review"],
            "apiKeySource":"ANTHROPIC_API_KEY","claude_code_version":VERSION,"output_style":"default",
            "agents":["Explore","general-purpose"],"skills":[],"plugins":[],"analytics_disabled":true,
            "uuid":u,"fast_mode_state":"off"
        }));
    }

    fn assistant_text(&mut self, n: u64, text: &str) {
        let u = self.next_uuid();
        let line = assistant_line(n, &json_escape(text), &u);
        self.write_line(&line);
        self.flush();
    }

    fn result(&mut self, text: &str, turns: u64, duration_ms: u64) {
        let u = self.next_uuid();
        self.send(&json!({
            "type":"result","subtype":"success","is_error":false,"api_error_status":null,
            "duration_ms":duration_ms,"duration_api_ms":1,"num_turns":turns,"result":text,
            "stop_reason":"end_turn","session_id":SESSION_ID,"total_cost_usd":0.00044,
            "usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":20,
                     "server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard"},
            "modelUsage":{MODEL:{"inputTokens":10,"outputTokens":20,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,
                     "webSearchRequests":0,"costUSD":0.00044,"contextWindow":1000000,"maxOutputTokens":128000}},
            "permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","uuid":u
        }));
    }
}

/// The initialize answer, shaped like CLI 2.1.330's with the long lists cut.
fn initialize_body(manifests: Option<&Value>) -> Value {
    let parked: serde_json::Map<String, Value> = manifests
        .and_then(Value::as_object)
        .map(|m| m.keys().map(|k| (k.clone(), json!("parked"))).collect())
        .unwrap_or_default();
    json!({
        "commands":[{"name":"update-config","description":"Configure the Claude Code harness via settings.json.","argumentHint":"","builtin":true}],
        "agents":[{"name":"Explore","description":"Fast read-only search agent for locating code.","model":"inherit"}],
        "output_style":"default","available_output_styles":["default"],
        "models":[{"value":"default","resolvedModel":MODEL,"displayName":"Default (recommended)","description":"Use the default model"}],
        "account":{"tokenSource":"none","apiKeySource":"ANTHROPIC_API_KEY","apiProvider":"firstParty"},
        "pid":std::process::id(),"claude_code_version":VERSION,"current_permission_mode":"default",
        "sdk_mcp_manifests_parked":parked,"analytics_disabled":true,"fast_mode_state":"off",
        "session_state":"idle","capabilities":["ui_surface_v1"]
    })
}

fn json_escape(s: &str) -> String {
    let v = Value::String(s.to_string()).to_string();
    v[1..v.len() - 1].to_string()
}

/// An assistant message line (shape of the 2.1.330 trace) around already-escaped text.
fn assistant_line(n: u64, escaped_text: &str, uuid: &str) -> String {
    format!(
        concat!(
            r#"{{"type":"assistant","message":{{"id":"msg_{n}","type":"message","role":"assistant","model":"{model}","#,
            r#""content":[{{"type":"text","text":"{text}"}}],"stop_reason":null,"stop_sequence":null,"#,
            r#""usage":{{"input_tokens":5,"output_tokens":1}},"context_management":null}},"parent_tool_use_id":null,"#,
            r#""session_id":"{sid}","uuid":"{uuid}","timestamp":"2026-11-22T00:47:25.820Z"}}"#
        ),
        n = n,
        model = MODEL,
        text = escaped_text,
        sid = SESSION_ID,
        uuid = uuid
    )
}

/// Model-like prose of exactly `bytes` UTF-8 bytes: words, punctuation, a quote, newlines, and
/// a little non-ASCII, so the JSON has escapes and multi-byte characters to decode.
fn prose(bytes: usize, seed: u64) -> String {
    const WORDS: &[&str] = &[
        "the",
        "function",
        "returns",
        "a",
        "value",
        "of",
        "type",
        "string",
        "when",
        "called",
        "with",
        "\"quoted\"",
        "arguments;",
        "café",
        "naïve",
        "—",
        "result",
        "is",
        "cached",
        "and",
        "reused.",
        "Let's",
        "check",
        "src/main.rs",
        "line",
        "42:",
        "{ ok: true }",
        "then",
        "run",
        "tests.",
    ];
    let mut s = String::with_capacity(bytes + 16);
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut col = 0;
    while s.len() < bytes {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let w = WORDS[((x >> 33) as usize) % WORDS.len()];
        if col > 72 {
            s.push('\n');
            col = 0;
        } else if !s.is_empty() {
            s.push(' ');
            col += 1;
        }
        s.push_str(w);
        col += w.len();
    }
    // Cut back to `bytes` on a char boundary, then pad with ASCII.
    let mut cut = bytes.min(s.len());
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    s.truncate(cut);
    while s.len() < bytes {
        s.push('.');
    }
    s
}

struct Stats {
    sorted_ns: Vec<u64>,
}

impl Stats {
    fn new(mut v: Vec<u64>) -> Self {
        v.sort_unstable();
        Stats { sorted_ns: v }
    }
    fn pct_us(&self, p: f64) -> f64 {
        if self.sorted_ns.is_empty() {
            return 0.0;
        }
        let i = ((p / 100.0) * (self.sorted_ns.len() - 1) as f64).round() as usize;
        self.sorted_ns[i] as f64 / 1000.0
    }
    fn json(&self) -> Value {
        let n = self.sorted_ns.len().max(1) as f64;
        let mean = self.sorted_ns.iter().sum::<u64>() as f64 / n / 1000.0;
        json!({
            "count": self.sorted_ns.len(),
            "p50_us": self.pct_us(50.0), "p90_us": self.pct_us(90.0), "p99_us": self.pct_us(99.0),
            "max_us": self.pct_us(100.0), "min_us": self.pct_us(0.0), "mean_us": mean,
        })
    }
}

fn tool_call_request(i: u64, id: &str) -> String {
    format!(
        concat!(
            r#"{{"type":"control_request","request_id":"{id}","request":{{"subtype":"mcp_message","server_name":"{server}","#,
            r#""message":{{"method":"tools/call","params":{{"name":"{tool}","arguments":{{"text":"hello {i}"}},"#,
            r#""_meta":{{"claudecode/toolUseId":"toolu_{i}","progressToken":{i}}}}},"jsonrpc":"2.0","id":{i}}}}}}}"#
        ),
        id = id,
        server = SERVER,
        tool = TOOL,
        i = i
    )
}

fn tool_call_ok(i: u64, msg: &Value) -> bool {
    msg.pointer("/response/subtype").and_then(Value::as_str) == Some("success")
        && msg
            .pointer("/response/response/mcp_response/result/content/0/text")
            .and_then(Value::as_str)
            == Some(format!("hello {i}").as_str())
}

fn permission_request(i: u64, id: &str) -> String {
    format!(
        concat!(
            r#"{{"type":"control_request","request_id":"{id}","request":{{"subtype":"can_use_tool","tool_name":"Bash","#,
            r#""input":{{"command":"echo {i}","description":"Print {i}"}},"permission_suggestions":[],"tool_use_id":"toolu_{i}"}}}}"#
        ),
        id = id,
        i = i
    )
}

fn permission_ok(msg: &Value) -> bool {
    msg.pointer("/response/subtype").and_then(Value::as_str) == Some("success")
        && msg.pointer("/response/response/behavior").and_then(Value::as_str) == Some("allow")
}

fn us(d: std::time::Duration) -> f64 {
    d.as_nanos() as f64 / 1000.0
}

/// Now as Unix microseconds (wall clock; the host compares it with its own).
fn unix_us() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1e6)
        .unwrap_or(0.0)
}

fn main() {
    let scenario = env_str("FAKE_CLI_SCENARIO", "startup");
    let handshake = env_str("FAKE_CLI_HANDSHAKE", "manifests");
    let report_path = std::env::var("FAKE_CLI_REPORT").ok().filter(|s| !s.is_empty());
    let default_n = match scenario.as_str() {
        "toolcall_seq" | "toolcall_conc" | "permission_seq" => 5000,
        "stream_1k" => 20000,
        "stream_1m" => 50,
        "session" => 50,
        _ => 1,
    };
    let n = env_usize("FAKE_CLI_N", default_n) as u64;

    let mut cli = Cli::new();
    cli.wait_for_session();
    let session_at = Instant::now();
    let mut report = serde_json::Map::new();
    report.insert("scenario".into(), json!(scenario));
    report.insert("handshake".into(), json!(handshake));
    report.insert("n".into(), json!(n));
    report.insert(
        "spawn_to_initialize_us".into(),
        json!(us(cli.init_at.unwrap() - cli.started)),
    );
    report.insert("spawn_to_user_us".into(), json!(us(cli.user_at.unwrap() - cli.started)));
    // Wall-clock instants (Unix µs) for a timeline against the host's `performance.timeOrigin +
    // performance.now()`: process start, then the first message written after the user message.
    report.insert("started_unix_us".into(), json!(cli.started_unix_us));
    report.insert("first_write_unix_us".into(), json!(unix_us()));

    cli.session_state("running");
    let mut rid: u64 = 0;
    let mut next_id = || {
        rid += 1;
        format!("req_{rid}")
    };

    if handshake == "legacy" {
        // CLI 2.1.197: the server is brought up over mcp_message before system/init.
        let steps = [
            (
                "initialize",
                r#"{"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-code","title":"Claude Code","version":"2.1.197"}},"jsonrpc":"2.0","id":0}"#,
            ),
            (
                "notifications/initialized",
                r#"{"method":"notifications/initialized","jsonrpc":"2.0"}"#,
            ),
            ("tools/list", r#"{"method":"tools/list","jsonrpc":"2.0","id":1}"#),
        ];
        let mut times = serde_json::Map::new();
        for (name, message) in steps {
            let id = next_id();
            let req = format!(
                r#"{{"type":"control_request","request_id":"{id}","request":{{"subtype":"mcp_message","server_name":"{SERVER}","message":{message}}}}}"#
            );
            let (ns, msg) = cli.round_trip(&id, &req);
            if msg.pointer("/response/subtype").and_then(Value::as_str) != Some("success") {
                die(&format!("legacy handshake {name} failed: {msg}"));
            }
            if name == "tools/list" {
                let tools = msg
                    .pointer("/response/response/mcp_response/result/tools")
                    .and_then(Value::as_array);
                if !tools.is_some_and(|t| t.iter().any(|t| t.get("name").and_then(Value::as_str) == Some(TOOL))) {
                    die(&format!("tools/list does not list {TOOL}: {msg}"));
                }
            }
            times.insert(name.into(), json!(ns as f64 / 1000.0));
        }
        report.insert("legacy_handshake_us".into(), Value::Object(times));
    }
    cli.system_init();

    let mut last_text = String::from("done");
    let mut turns = 1;
    match scenario.as_str() {
        "toolcall_seq" | "permission_seq" => {
            let tool = scenario == "toolcall_seq";
            let mut lat = Vec::with_capacity(n as usize);
            let mut errors = 0u64;
            let t0 = Instant::now();
            for i in 0..n {
                let id = next_id();
                let req = if tool {
                    tool_call_request(i, &id)
                } else {
                    permission_request(i, &id)
                };
                let (ns, msg) = cli.round_trip(&id, &req);
                lat.push(ns);
                let ok = if tool {
                    tool_call_ok(i, &msg)
                } else {
                    permission_ok(&msg)
                };
                if !ok {
                    if errors == 0 {
                        eprintln!("bench-fake-cli: unexpected answer: {msg}");
                    }
                    errors += 1;
                }
            }
            let wall = t0.elapsed();
            report.insert("latency".into(), Stats::new(lat).json());
            report.insert("errors".into(), json!(errors));
            report.insert("wall_us".into(), json!(us(wall)));
            report.insert("ops_per_s".into(), json!(n as f64 / wall.as_secs_f64()));
            turns = n + 1;
        }
        "toolcall_conc" => {
            let window = env_usize("FAKE_CLI_CONCURRENCY", 64).max(1) as u64;
            report.insert("concurrency".into(), json!(window));
            let mut sent_at: Vec<Option<Instant>> = vec![None; n as usize];
            let mut lat = Vec::with_capacity(n as usize);
            let mut errors = 0u64;
            let mut sent = 0u64;
            let mut done = 0u64;
            let t0 = Instant::now();
            let send_one = |cli: &mut Cli, i: u64, sent_at: &mut Vec<Option<Instant>>| {
                let req = tool_call_request(i, &format!("req_c{i}"));
                sent_at[i as usize] = Some(Instant::now());
                cli.write_line(&req);
                cli.flush();
            };
            while sent < n.min(window) {
                send_one(&mut cli, sent, &mut sent_at);
                sent += 1;
            }
            while done < n {
                let Some((at, v)) = cli.read() else {
                    die("stdin closed during toolcall_conc")
                };
                let Incoming::Response { request_id, msg } = cli.handle(at, v) else {
                    continue;
                };
                let Some(i) = request_id.strip_prefix("req_c").and_then(|s| s.parse::<u64>().ok()) else {
                    continue;
                };
                let Some(t) = sent_at.get_mut(i as usize).and_then(Option::take) else {
                    continue;
                };
                lat.push((at - t).as_nanos() as u64);
                if !tool_call_ok(i, &msg) {
                    if errors == 0 {
                        eprintln!("bench-fake-cli: unexpected answer: {msg}");
                    }
                    errors += 1;
                }
                done += 1;
                if sent < n {
                    send_one(&mut cli, sent, &mut sent_at);
                    sent += 1;
                }
            }
            let wall = t0.elapsed();
            report.insert("latency".into(), Stats::new(lat).json());
            report.insert("errors".into(), json!(errors));
            report.insert("wall_us".into(), json!(us(wall)));
            report.insert("ops_per_s".into(), json!(n as f64 / wall.as_secs_f64()));
            turns = n + 1;
        }
        "stream_1k" | "stream_1m" => {
            let size = env_usize(
                "FAKE_CLI_MSG_BYTES",
                if scenario == "stream_1k" { 1024 } else { 1 << 20 },
            );
            // A few distinct texts, escaped once; every line still differs (id, uuid).
            let texts: Vec<String> = (0..8).map(|k| json_escape(&prose(size, k))).collect();
            let mut wire = 0u64;
            let t0 = Instant::now();
            for i in 0..n {
                let u = cli.next_uuid();
                let line = assistant_line(i + 1, &texts[(i % 8) as usize], &u);
                wire += line.len() as u64 + 1;
                cli.write_line(&line);
            }
            cli.flush();
            let wall = t0.elapsed();
            report.insert("text_bytes_per_message".into(), json!(size));
            report.insert("wire_bytes".into(), json!(wire));
            report.insert("write_wall_us".into(), json!(us(wall)));
            report.insert("write_mb_per_s".into(), json!(wire as f64 / 1e6 / wall.as_secs_f64()));
            last_text = "streamed".into();
        }
        "session" => {
            let t0 = Instant::now();
            let id = next_id();
            let (_, msg) = cli.round_trip(&id, &permission_request(0, &id));
            if !permission_ok(&msg) {
                die(&format!("session: permission prompt answered {msg}"));
            }
            for i in 0..n {
                let id = next_id();
                let (_, msg) = cli.round_trip(&id, &tool_call_request(i, &id));
                if !tool_call_ok(i, &msg) {
                    die(&format!("session: tool call {i} answered {msg}"));
                }
            }
            report.insert("wall_us".into(), json!(us(t0.elapsed())));
            cli.assistant_text(1, "ok");
            last_text = "ok".into();
            turns = n + 2;
        }
        "startup" => {
            cli.assistant_text(1, "ok");
            last_text = "ok".into();
        }
        other => die(&format!("unknown FAKE_CLI_SCENARIO {other}")),
    }

    report.insert("session_us".into(), json!(us(session_at.elapsed())));
    report.insert("other_control_requests".into(), json!(cli.other_requests));
    if let Some(path) = report_path {
        if let Err(e) = std::fs::write(&path, Value::Object(report).to_string()) {
            die(&format!("cannot write report {path}: {e}"));
        }
    }
    let ms = cli.started.elapsed().as_millis() as u64;
    cli.result(&last_text, turns, ms);
    cli.session_state("idle");
    cli.wait_eof();
    std::process::exit(0);
}
