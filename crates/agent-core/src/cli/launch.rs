//! The command line and environment the CLI is started with, mapped from [`QueryOptions`]
//! exactly as the official SDK maps them (same flags, same order, same `--flag=value` form).

use serde_json::{Map, Value};

use crate::cli::discover::Executable;
use crate::error::Error;
use crate::options::{path_text, QueryOptions, ThinkingKind, Tools};

/// The official SDK version whose wire behaviour we mirror; the CLI reads it from the env.
pub const MIRRORED_SDK_VERSION: &str = "0.3.332";

/// A fully resolved process launch.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: Option<String>,
}

fn eq(flag: &str, value: impl std::fmt::Display) -> String {
    format!("{flag}={value}")
}

/// `--flag value`, or `--flag=value` when the value itself looks like a flag (so the CLI cannot
/// mistake it for one).
fn pair(flag: &str, value: String) -> Vec<String> {
    if value.len() > 1 && value.starts_with('-') {
        vec![eq(flag, value)]
    } else {
        vec![flag.to_string(), value]
    }
}

fn flag_if(args: &mut Vec<String>, on: Option<bool>, flag: &str) {
    if on == Some(true) {
        args.push(flag.to_string());
    }
}

/// Builds the CLI's arguments (without the executable).
pub fn cli_args(o: &QueryOptions) -> Result<Vec<String>, Error> {
    let mut a: Vec<String> = [
        "--output-format",
        "stream-json",
        "--verbose",
        "--input-format",
        "stream-json",
    ]
    .map(String::from)
    .to_vec();

    let thinking = match (&o.thinking, o.max_thinking_tokens) {
        (Some(t), _) => Some((t.kind.clone(), t.budget_tokens, t.display.as_ref())),
        (None, Some(0)) => Some((ThinkingKind::Disabled, None, None)),
        (None, Some(n)) => Some((ThinkingKind::Enabled, Some(n), None)),
        (None, None) => None,
    };
    if let Some((kind, budget, display)) = thinking {
        match (&kind, budget) {
            (ThinkingKind::Enabled, Some(n)) => a.push(eq("--max-thinking-tokens", n)),
            (ThinkingKind::Enabled, None) | (ThinkingKind::Adaptive, _) => a.push("--thinking=adaptive".into()),
            (ThinkingKind::Disabled, _) => a.push("--thinking=disabled".into()),
            (ThinkingKind::Other(other), _) => {
                return Err(Error::InvalidOption(format!(
                    "Invalid option `thinking.type`: {other:?} (expected \"enabled\", \"disabled\" or \"adaptive\")"
                )))
            }
        }
        if let (true, Some(d)) = (kind != ThinkingKind::Disabled, display) {
            a.push(eq("--thinking-display", d.as_str()));
        }
    }
    if let Some(e) = &o.effort {
        a.push(eq("--effort", e.as_str()));
    }
    if let Some(n) = o.max_turns.filter(|n| *n > 0) {
        a.push(eq("--max-turns", n));
    }
    if let Some(b) = o.max_budget_usd {
        a.push(eq("--max-budget-usd", b));
    }
    if let Some(total) = o.task_budget.as_ref().and_then(|t| t.total.as_ref()) {
        a.push(eq("--task-budget", total));
    }
    if let Some(m) = &o.model {
        a.push(eq("--model", m));
    }
    if let Some(agent) = &o.agent {
        a.push(eq("--agent", agent));
    }
    if !o.betas.is_empty() {
        a.push(eq("--betas", o.betas.join(",")));
    }
    if let Some(schema) = json_schema(o)? {
        a.push(eq("--json-schema", schema));
    }
    if let Some(f) = &o.debug_file {
        a.push(eq("--debug-file", path_text(f, "debugFile")?));
    } else {
        flag_if(&mut a, o.debug, "--debug");
    }
    if o.can_use_tool {
        if o.permission_prompt_tool_name.is_some() {
            return Err(Error::InvalidOption(
                "canUseTool callback cannot be used with permissionPromptToolName. Please use one or the other.".into(),
            ));
        }
        a.push("--permission-prompt-tool=stdio".into());
    } else if let Some(t) = &o.permission_prompt_tool_name {
        a.push(eq("--permission-prompt-tool", t));
    }
    if let Some(p) = &o.permission_prompts {
        a.push(eq("--permission-prompts", p.as_str()));
    }
    flag_if(&mut a, o.continue_conversation, "--continue");
    if let Some(r) = &o.resume {
        a.push(eq("--resume", r));
    }
    let allowed = o.allowed_tools_with_skills()?;
    if !allowed.is_empty() {
        a.push(eq("--allowedTools", allowed.join(",")));
    }
    if !o.disallowed_tools.is_empty() && !o.disallowed_tools_via_initialize() {
        a.push(eq("--disallowedTools", o.disallowed_tools.join(",")));
    }
    match &o.tools {
        None => {}
        Some(Tools::List(names)) => a.push(eq("--tools", names.join(","))),
        Some(Tools::Default) => a.push("--tools=default".into()),
    }
    if let Some(servers) = o
        .mcp_servers
        .as_ref()
        .filter(|s| !s.is_empty() && !o.mcp_servers_via_initialize())
    {
        let config = serde_json::json!({ "mcpServers": servers }).to_string();
        a.extend(pair("--mcp-config", config));
    }
    if let Some(sources) = &o.setting_sources {
        let names: Vec<&str> = sources.iter().map(|s| s.as_str()).collect();
        a.push(eq("--setting-sources", names.join(",")));
    }
    flag_if(&mut a, o.strict_mcp_config, "--strict-mcp-config");
    if let Some(m) = &o.permission_mode {
        a.push(eq("--permission-mode", m.as_str()));
    }
    flag_if(
        &mut a,
        o.allow_dangerously_skip_permissions,
        "--allow-dangerously-skip-permissions",
    );
    if let Some(f) = &o.fallback_model {
        if o.model.as_deref() == Some(f) {
            return Err(Error::InvalidOption(
        "Fallback model cannot be the same as the main model. Please specify a different model for fallbackModel option.".into(),
      ));
        }
        a.push(eq("--fallback-model", f));
    }
    flag_if(&mut a, o.include_hook_events, "--include-hook-events");
    flag_if(&mut a, o.include_partial_messages, "--include-partial-messages");
    if o.session_store {
        check_store_options(o)?;
        a.push("--session-mirror".into());
    }
    if let Some(root) = &o.project_config_root {
        a.push(eq("--project-config-root", path_text(root, "projectConfigRoot")?));
    }
    for d in &o.additional_directories {
        a.push(eq("--add-dir", path_text(d, "additionalDirectories")?));
    }
    if o.plugins_via_initialize()
        || o.managed_settings_via_initialize()
        || o.settings_via_initialize()
        || o.disallowed_tools_via_initialize()
        || o.mcp_servers_via_initialize()
    {
        a.push("--await-initialize".into());
    }
    for p in o.plugins.iter().flatten().filter(|_| !o.plugins_via_initialize()) {
        let skip_mcp = p.get("skipMcpDiscovery") == Some(&Value::Bool(true));
        match (
            p.get("type").and_then(Value::as_str),
            p.get("path").and_then(Value::as_str),
        ) {
            (Some("local"), Some(path)) => a.push(eq(
                if skip_mcp {
                    "--plugin-dir-no-mcp"
                } else {
                    "--plugin-dir"
                },
                path,
            )),
            (kind, _) => {
                return Err(Error::InvalidOption(format!(
                    "Unsupported plugin type: {}",
                    kind.unwrap_or("undefined")
                )))
            }
        }
    }
    flag_if(&mut a, o.fork_session, "--fork-session");
    if let Some(at) = &o.resume_session_at {
        a.push(eq("--resume-session-at", at));
    }
    if let Some(turn) = &o.resume_drops_turn {
        a.push(eq("--resume-drops-turn", turn));
    }
    if let Some(id) = &o.session_id {
        a.push(eq("--session-id", id));
    }
    if o.persist_session == Some(false) {
        a.push("--no-session-persistence".into());
    }
    let in_initialize: Vec<&str> = [
        ("settings", o.settings_via_initialize()),
        ("disallowedTools", o.disallowed_tools_via_initialize()),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect();
    if !in_initialize.is_empty() {
        a.push(eq("--initialize-fields", in_initialize.join(",")));
    }
    if o.managed_settings_via_initialize() {
        a.push("--managed-settings-in-initialize".into());
    } else if let Some(managed) = &o.managed_settings {
        let text = match managed {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        a.extend(pair("--managed-settings", text));
    }
    for (key, value) in extra_args(o)? {
        match value {
            None => a.push(format!("--{key}")),
            Some(v) => a.extend(pair(&format!("--{key}"), v)),
        }
    }
    for (i, arg) in a.iter().enumerate() {
        if arg.contains('\0') {
            return Err(Error::InvalidOption(format!(
                "argument {i} for the CLI contains a NUL byte: {:?}",
                truncate(arg, 80)
            )));
        }
    }
    Ok(a)
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// `outputFormat: {type: 'json_schema', schema}` becomes `--json-schema`.
fn json_schema(o: &QueryOptions) -> Result<Option<String>, Error> {
    let Some(format) = &o.output_format else {
        return Ok(None);
    };
    match (format.get("type").and_then(Value::as_str), format.get("schema")) {
        (Some("json_schema"), Some(schema)) => Ok(Some(schema.to_string())),
        _ => Err(Error::InvalidOption(
            "Invalid option `outputFormat`: expected { type: 'json_schema', schema: {...} }".into(),
        )),
    }
}

/// Settings paths whose lists `options.sandbox` extends rather than replaces.
const SANDBOX_UNION_PATHS: [&str; 5] = [
    "filesystem.denyRead",
    "filesystem.denyWrite",
    "network.deniedDomains",
    "credentials.files",
    "credentials.envVars",
];
/// Settings paths `options.sandbox` replaces whole even when both are objects.
const SANDBOX_REPLACE_PATHS: [&str; 2] = ["ripgrep", "network.tlsTerminate"];

fn merge_sandbox_objects(base: Option<&Value>, over: &Map<String, Value>, prefix: &str) -> Map<String, Value> {
    let mut out = match base {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    for (key, value) in over {
        if matches!(key.as_str(), "__proto__" | "constructor" | "prototype") {
            continue;
        }
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        let merged = match (out.get(key), value) {
            (Some(Value::Array(a)), Value::Array(b)) if SANDBOX_UNION_PATHS.contains(&path.as_str()) => {
                let mut list = a.clone();
                for v in b {
                    if !list.contains(v) {
                        list.push(v.clone());
                    }
                }
                Value::Array(list)
            }
            (Some(a @ Value::Object(_)), Value::Object(b)) if !SANDBOX_REPLACE_PATHS.contains(&path.as_str()) => {
                Value::Object(merge_sandbox_objects(Some(a), b, &path))
            }
            _ => value.clone(),
        };
        out.insert(key.clone(), merged);
    }
    out
}

/// `options.sandbox` merged into the settings' own `sandbox` as the official SDK merges them:
/// deeply, some deny lists extended, a `filesystem.disabled: true` or the proxy ports of the
/// settings dropped when the option's filesystem or network rules make them wrong, and
/// `failIfUnavailable: true` when the option enables the sandbox without saying.
fn merge_sandbox(base: Option<&Value>, over: &Value) -> Value {
    let Value::Object(over) = over else { return over.clone() };
    let mut merged = merge_sandbox_objects(base, over, "");
    let denies_files = over.get("filesystem").is_some()
        || matches!(over.get("credentials").and_then(|c| c.get("files")), Some(Value::Array(files))
      if files.iter().any(|f| f.get("mode") == Some(&Value::String("deny".into()))));
    let option_disabled = over.get("filesystem").and_then(|f| f.get("disabled"));
    if denies_files && option_disabled.is_none() {
        if let Some(Value::Object(fs)) = merged.get_mut("filesystem") {
            if fs.get("disabled") == Some(&Value::Bool(true)) {
                fs.remove("disabled");
            }
        }
    }
    let network = over.get("network");
    let restricts_network = network.is_some_and(|n| {
        n.get("allowedDomains").is_some()
            || n.get("deniedDomains")
                .and_then(Value::as_array)
                .is_some_and(|d| !d.is_empty())
            || n.get("strictAllowlist") == Some(&Value::Bool(true))
    });
    if restricts_network {
        if let Some(Value::Object(net)) = merged.get_mut("network") {
            for port in ["httpProxyPort", "socksProxyPort"] {
                if network.and_then(|n| n.get(port)).is_none() {
                    net.remove(port);
                }
            }
        }
    }
    if over.get("enabled") == Some(&Value::Bool(true)) && !merged.contains_key("failIfUnavailable") {
        merged.insert("failIfUnavailable".into(), Value::Bool(true));
    }
    Value::Object(merged)
}

/// `extraArgs`, plus `settings` (and `sandbox`, which travels inside the settings JSON).
fn extra_args(o: &QueryOptions) -> Result<Vec<(String, Option<String>)>, Error> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for (k, v) in o.extra_args.iter().flatten() {
        let value = match v {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        };
        out.push((k.clone(), value));
    }
    let settings = if o.settings_via_initialize() {
        None
    } else {
        merged_settings(o)?
    };
    if let Some(s) = settings {
        out.retain(|(k, _)| k != "settings");
        out.push(("settings".into(), Some(s)));
    }
    Ok(out)
}

/// The settings object `initialize` carries with `settingsDelivery: 'initialize'`: `settings`
/// with `sandbox` merged in, as the command line would have had them.
pub fn settings_for_initialize(o: &QueryOptions) -> Result<Option<Value>, Error> {
    if !o.settings_via_initialize() {
        return Ok(None);
    }
    Ok(merged_settings(o)?
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .filter(Value::is_object))
}

/// `settings` as the text `--settings` takes: a path or JSON as given, or, with `sandbox`, the
/// settings object with the sandbox merged in.
fn merged_settings(o: &QueryOptions) -> Result<Option<String>, Error> {
    let settings = match (&o.settings, &o.sandbox) {
    (None, None) => None,
    (Some(Value::String(s)), None) => Some(s.clone()),
    (Some(Value::String(s)), Some(_)) if !s.trim().starts_with('{') => {
      return Err(Error::InvalidOption(
        "Cannot use both a settings file path and the sandbox option. Include the sandbox configuration in your settings file instead.".into(),
      ))
    }
    (settings, sandbox) => {
      let mut obj: Map<String, Value> = match settings {
        None => Map::new(),
        Some(Value::String(s)) => serde_json::from_str(s.trim())
          .map_err(|_| Error::InvalidOption("Invalid JSON provided to the settings option.".into()))?,
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err(Error::InvalidOption("Invalid option `settings`: expected a file path, a JSON string or an object".into())),
      };
      if let Some(sb) = sandbox {
        let merged = merge_sandbox(obj.get("sandbox"), sb);
        obj.insert("sandbox".into(), merged);
      }
      Some(Value::Object(obj).to_string())
    }
  };
    Ok(settings)
}

fn truthy(v: Option<&String>) -> bool {
    matches!(
        v.map(|s| s.trim().to_ascii_lowercase()).as_deref(),
        Some("1" | "true" | "yes" | "on")
    )
}

/// The child's environment: the given env (the JS host passes `options.env ?? process.env`; with
/// none, this process's own environment) plus the SDK's own variables, set only where the user
/// did not set them, as the official SDK does.
pub fn child_env(o: &QueryOptions) -> Result<Vec<(String, String)>, Error> {
    let mut env: Vec<(String, String)> = Vec::new();
    if o.env.is_none() || !o.env_is_whole {
        // A Rust caller that gives no env gets what a spawned process normally gets: ours (variables
        // that are not valid UTF-8 cannot be represented in `Launch` and are left out); one that
        // gives changes gets them on top of ours.
        env.extend(std::env::vars_os().filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?))));
    }
    for (k, v) in o.env.iter().flatten() {
        let value = match v {
            Value::Null => {
                env.retain(|(name, _)| name != k);
                continue;
            }
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => {
                return Err(Error::InvalidOption(format!(
                    "Invalid option `env.{k}`: expected a string"
                )))
            }
        };
        if k.is_empty() || k.contains('=') || k.contains('\0') || value.contains('\0') {
            // Never echo the value: env values are secrets as often as not.
            return Err(Error::InvalidOption(format!(
                "Invalid option `env`: the variable {:?} has an invalid name or a NUL byte",
                truncate(k, 60)
            )));
        }
        if !o.env_is_whole {
            env.retain(|(name, _)| name != k);
        }
        env.push((k.clone(), value));
    }
    let has = |env: &Vec<(String, String)>, name: &str| env.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    if !has(&env, "CLAUDE_CODE_ENTRYPOINT") {
        env.push((
            "CLAUDE_CODE_ENTRYPOINT".into(),
            o.entrypoint.clone().unwrap_or_else(|| "sdk-ts".into()),
        ));
    }
    if !has(&env, "CLAUDE_AGENT_SDK_VERSION") {
        env.push(("CLAUDE_AGENT_SDK_VERSION".into(), MIRRORED_SDK_VERSION.into()));
    }
    if o.enable_file_checkpointing == Some(true) {
        env.push(("CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING".into(), "true".into()));
    }
    if !has(&env, "CLAUDE_CODE_SDK_READS_SESSION_STATE") {
        env.push(("CLAUDE_CODE_SDK_READS_SESSION_STATE".into(), "1".into()));
    }
    // toolConfig.askUserQuestion: what the AskUserQuestion tool offers, as env switches.
    let ask = o.tool_config.as_ref().and_then(|t| t.get("askUserQuestion"));
    if let Some(format) = ask
        .and_then(|a| a.get("previewFormat"))
        .and_then(Value::as_str)
        .filter(|f| !f.is_empty())
    {
        env.retain(|(k, _)| k != "CLAUDE_CODE_QUESTION_PREVIEW_FORMAT");
        env.push(("CLAUDE_CODE_QUESTION_PREVIEW_FORMAT".into(), format.into()));
    }
    for (key, name) in [
        ("extendedQuestions", "CLAUDE_CODE_QUESTION_EXTENDED"),
        ("optionalDescriptions", "CLAUDE_CODE_QUESTION_OPTIONAL_DESCRIPTIONS"),
    ] {
        if ask.and_then(|a| a.get(key)).is_some_and(truthy_json) {
            env.retain(|(k, _)| k != name);
            env.push((name.into(), "1".into()));
        }
    }
    env.retain(|(k, _)| k != "NODE_OPTIONS");
    let debug = truthy(env.iter().find(|(k, _)| k == "DEBUG_CLAUDE_AGENT_SDK").map(|(_, v)| v));
    env.retain(|(k, _)| k != "DEBUG");
    if debug {
        env.push(("DEBUG".into(), "1".into()));
    }
    bun_crash_reporting_off(&mut env);
    Ok(env)
}

/// The CLI is a Bun executable: its crash reports stay off (`BUN_ENABLE_CRASH_REPORTING=0`)
/// unless the app set either of Bun's crash-report variables to a non-empty value, as the
/// official SDK (0.3.332) does. The names are matched exactly, or in any case on Windows, where
/// the environment's names are case-insensitive.
fn bun_crash_reporting_off(env: &mut Vec<(String, String)>) {
    const NAMES: [&str; 2] = ["BUN_ENABLE_CRASH_REPORTING", "BUN_CRASH_REPORT_URL"];
    let is = |k: &str, name: &str| {
        if cfg!(windows) {
            k.eq_ignore_ascii_case(name)
        } else {
            k == name
        }
    };
    if env.iter().any(|(k, v)| NAMES.iter().any(|n| is(k, n)) && !v.is_empty()) {
        return;
    }
    env.retain(|(k, _)| !is(k, NAMES[0]));
    env.push((NAMES[0].into(), "0".into()));
}

/// JavaScript truthiness of a JSON value.
fn truthy_json(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        _ => true,
    }
}

/// Puts it together: program, argv, env and cwd. `default_runtime` runs script CLIs (`node` or
/// `bun`, whichever hosts us) unless `options.executable` says otherwise.
pub fn build_launch(o: &QueryOptions, exe: &Executable, default_runtime: &str) -> Result<Launch, Error> {
    let cli = cli_args(o)?;
    let env = child_env(o)?;
    let cwd = o.cwd.as_deref().map(|p| path_text(p, "cwd")).transpose()?;
    if let Some(cwd) = cwd {
        if !std::path::Path::new(cwd).is_dir() {
            return Err(Error::InvalidOption(format!(
                "Invalid option `cwd`: {cwd} is not an existing directory"
            )));
        }
    }
    let path = exe.path.to_string_lossy().into_owned();
    let (program, args) = if exe.is_script {
        let runtime = o.executable.clone().unwrap_or_else(|| default_runtime.to_string());
        (runtime, [o.executable_args.clone(), vec![path], cli].concat())
    } else {
        (path, [o.executable_args.clone(), cli].concat())
    };
    if o.lone_surrogates {
        // As Node's `spawn` encodes a lone surrogate in an argument or a variable: U+FFFD.
        let lossy = crate::sessions::surrogate::unmask_lossy;
        return Ok(Launch {
            program: lossy(program),
            args: args.into_iter().map(lossy).collect(),
            env: env.into_iter().map(|(k, v)| (lossy(k), lossy(v))).collect(),
            cwd: cwd.map(|c| lossy(c.to_string())),
        });
    }
    Ok(Launch {
        program,
        args,
        env,
        cwd: cwd.map(str::to_string),
    })
}

/// The options the official refuses with a session store, with its messages.
fn check_store_options(o: &QueryOptions) -> Result<(), Error> {
    if o.persist_session == Some(false) {
        return Err(Error::InvalidOption(
      "sessionStore cannot be used with persistSession: false -- the storage adapter requires local writes to mirror from. \
       To avoid keeping a local copy, pass env: { ...process.env, CLAUDE_CONFIG_DIR: dir }, where dir is a new private directory \
       such as fs.mkdtempSync(path.join(os.tmpdir(), 'claude-')), and delete dir when the query ends."
        .into(),
    ));
    }
    if o.enable_file_checkpointing == Some(true) {
        return Err(Error::InvalidOption(
      "enableFileCheckpointing is not yet supported with sessionStore (backup blobs are not mirrored, so rewindFiles() fails \
       after a store-backed resume)."
        .into(),
    ));
    }
    Ok(())
}

/// Windows' limit on a command line that goes through `cmd.exe` (a `.cmd`/`.bat` CLI shim), and
/// the figure the official SDK's users hit. `CreateProcess` itself allows 32,767.
pub const WINDOWS_COMMAND_LINE_MAX: usize = 8191;

/// Refuses, on Windows, a launch whose command line would be longer than
/// [`WINDOWS_COMMAND_LINE_MAX`], naming the longest arguments. The long values the official SDK
/// keeps off the command line (agents, the system prompt, in-process MCP servers) travel in the
/// initialize request here too; what can remain long is user data such as `mcpServers`,
/// `settings`, `outputFormat` or `extraArgs`.
pub fn check_command_line(launch: &Launch) -> Result<(), Error> {
    if cfg!(windows) {
        check_windows_command_line(launch)
    } else {
        Ok(())
    }
}

fn check_windows_command_line(launch: &Launch) -> Result<(), Error> {
    let len = windows_command_line_len(&launch.program, &launch.args);
    if len <= WINDOWS_COMMAND_LINE_MAX {
        return Ok(());
    }
    let mut longest: Vec<&String> = launch.args.iter().collect();
    longest.sort_by_key(|a| std::cmp::Reverse(a.len()));
    let named: Vec<String> = longest
        .iter()
        .take(3)
        .map(|a| format!("{} ({} chars)", truncate(a, 40), a.len()))
        .collect();
    Err(Error::InvalidOption(format!(
        "The Claude Code command line would be {len} characters, over Windows' limit of {WINDOWS_COMMAND_LINE_MAX}. \
     Longest arguments: {}. Move large values into files (a settings file path for `settings`, an MCP config file \
     through `extraArgs: {{'mcp-config': path}}`) or use in-process MCP servers, whose definitions travel over stdin.",
        named.join(", ")
    )))
}

/// The length of the command line Windows receives for `program args…`, quoted the way Rust's
/// standard library (and the MSVC runtime's parser) does it.
pub fn windows_command_line_len(program: &str, args: &[String]) -> usize {
    fn quoted_len(arg: &str) -> usize {
        let needs_quotes = arg.is_empty() || arg.contains([' ', '\t', '"']);
        if !needs_quotes {
            return arg.len();
        }
        let (mut n, mut backslashes) = (2, 0);
        for c in arg.chars() {
            match c {
                '\\' => {
                    backslashes += 1;
                    n += 1;
                }
                '"' => {
                    n += backslashes + 2; // each preceding backslash doubled, the quote escaped
                    backslashes = 0;
                }
                _ => {
                    n += c.len_utf8();
                    backslashes = 0;
                }
            }
        }
        n + backslashes // backslashes before the closing quote are doubled
    }
    quoted_len(program) + args.iter().map(|a| 1 + quoted_len(a)).sum::<usize>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(json: &str) -> Vec<String> {
        cli_args(&QueryOptions::from_json(json).unwrap()).unwrap()[5..].to_vec()
    }

    #[test]
    fn sandbox_merges_into_settings_as_the_official() {
        // From __test__/fixtures/official/options.json (sandbox-enabled, sandbox+settings-merge).
        assert_eq!(
            args(r#"{"sandbox":{"enabled":true}}"#),
            ["--settings", r#"{"sandbox":{"enabled":true,"failIfUnavailable":true}}"#]
        );
        assert_eq!(
            args(r#"{"sandbox":{"enabled":true,"failIfUnavailable":false}}"#),
            [
                "--settings",
                r#"{"sandbox":{"enabled":true,"failIfUnavailable":false}}"#
            ]
        );
        let merged = args(
            r#"{"settings":{"model":"claude-sonnet-4-5","sandbox":{"enabled":false,"filesystem":{"denyRead":["/a"],"disabled":true},"network":{"httpProxyPort":8080,"allowedDomains":["old.example"]},"ripgrep":{"command":"rg","args":["-x"]}}},"sandbox":{"enabled":true,"filesystem":{"denyRead":["/b","/a"]},"network":{"allowedDomains":["new.example"]},"ripgrep":{"command":"rg2"}}}"#,
        );
        assert_eq!(
            merged,
            [
                "--settings",
                r#"{"model":"claude-sonnet-4-5","sandbox":{"enabled":true,"filesystem":{"denyRead":["/a","/b"]},"network":{"allowedDomains":["new.example"]},"ripgrep":{"command":"rg2"},"failIfUnavailable":true}}"#
            ]
        );
    }

    #[test]
    fn options_that_travel_in_argv_as_the_official_sends_them() {
        assert_eq!(
            args(r#"{"skills":["pdf","xlsx"]}"#),
            ["--allowedTools=Skill(pdf),Skill(xlsx)"]
        );
        assert_eq!(
            args(r#"{"skills":"all","allowedTools":["Read","Skill"]}"#),
            ["--allowedTools=Read,Skill"]
        );
        assert!(cli_args(&QueryOptions::from_json(r#"{"skills":[" "]}"#).unwrap()).is_err());
        assert_eq!(
            args(r#"{"resume":"r","resumeDropsTurn":"t"}"#),
            ["--resume=r", "--resume-drops-turn=t"]
        );
        assert_eq!(
            args(r#"{"managedSettings":{"permissions":{"deny":["WebFetch"]}},"extraArgs":{"x":null}}"#),
            ["--managed-settings", r#"{"permissions":{"deny":["WebFetch"]}}"#, "--x"]
        );
        assert_eq!(
            args(r#"{"pluginDelivery":"initialize","plugins":[{"type":"local","path":"/p"}]}"#),
            ["--await-initialize"]
        );
        assert_eq!(
            args(r#"{"plugins":[{"type":"local","path":"/p","skipMcpDiscovery":true}]}"#),
            ["--plugin-dir-no-mcp=/p"]
        );
        assert_eq!(
            args(r#"{"mcpServersDelivery":"initialize","mcpServers":{"s":{"command":"c"}}}"#),
            ["--await-initialize"]
        );
        // Nothing to deliver: no `--await-initialize` (the official's `mcpServersViaInitialize` and
        // `pluginsViaInitialize` need at least one server or plugin).
        assert!(args(r#"{"mcpServersDelivery":"initialize"}"#).is_empty());
        // From __test__/fixtures/official/options.json (the *Delivery: 'initialize' cases).
        assert_eq!(
            args(
                r#"{"managedSettingsDelivery":"initialize","managedSettings":{"permissions":{"deny":["WebFetch"]}},"settingsDelivery":"initialize","settings":{"model":"m"},"sandbox":{"enabled":true},"disallowedToolsDelivery":"initialize","disallowedTools":["Bash"]}"#
            ),
            [
                "--await-initialize",
                "--initialize-fields=settings,disallowedTools",
                "--managed-settings-in-initialize"
            ]
        );
        // A settings file path stays on the command line; no disallowed tools, nothing to deliver.
        assert_eq!(
            args(r#"{"settingsDelivery":"initialize","settings":"/s.json","disallowedToolsDelivery":"initialize"}"#),
            ["--settings", "/s.json"]
        );
        assert!(args(r#"{"mcpServersDelivery":"initialize","mcpServers":{}}"#).is_empty());
        assert!(args(r#"{"pluginDelivery":"initialize","plugins":[]}"#).is_empty());
    }

    #[test]
    fn tool_config_travels_in_the_env() {
        let o = QueryOptions::from_json(
            r#"{"env":{},"toolConfig":{"askUserQuestion":{"previewFormat":"html","extendedQuestions":true}}}"#,
        )
        .unwrap();
        let env = child_env(&o).unwrap();
        assert!(env.contains(&("CLAUDE_CODE_QUESTION_PREVIEW_FORMAT".into(), "html".into())));
        assert!(env.contains(&("CLAUDE_CODE_QUESTION_EXTENDED".into(), "1".into())));
        assert!(!env
            .iter()
            .any(|(k, _)| k == "CLAUDE_CODE_QUESTION_OPTIONAL_DESCRIPTIONS"));
    }

    #[test]
    fn base_flags_and_issue_options_in_official_order() {
        assert_eq!(
            cli_args(&QueryOptions::default()).unwrap(),
            [
                "--output-format",
                "stream-json",
                "--verbose",
                "--input-format",
                "stream-json"
            ]
        );
        assert_eq!(
            args(
                r#"{"model":"m","maxTurns":3,"allowedTools":["a","b"],"disallowedTools":["c"],"permissionMode":"acceptEdits","canUseTool":true,"includePartialMessages":true}"#
            ),
            [
                "--max-turns=3",
                "--model=m",
                "--permission-prompt-tool=stdio",
                "--allowedTools=a,b",
                "--disallowedTools=c",
                "--permission-mode=acceptEdits",
                "--include-partial-messages"
            ]
        );
    }

    #[test]
    fn mcp_config_and_extra_args_use_a_separate_value_unless_it_looks_like_a_flag() {
        assert_eq!(
            args(r#"{"mcpServers":{"fs":{"command":"npx","args":["x"]}}}"#),
            [
                "--mcp-config",
                r#"{"mcpServers":{"fs":{"command":"npx","args":["x"]}}}"#
            ]
        );
        assert_eq!(
            args(r#"{"extraArgs":{"foo":null,"bar":"baz","neg":"-1"}}"#),
            ["--foo", "--bar", "baz", "--neg=-1"]
        );
    }

    #[test]
    fn hostile_values_cannot_become_flags_or_nul() {
        // A value glued with `=` stays one argv entry whatever it contains.
        assert_eq!(
            args(r#"{"model":"--dangerously-skip-permissions"}"#),
            ["--model=--dangerously-skip-permissions"]
        );
        let err = cli_args(&QueryOptions::from_json(r#"{"model":"a\u0000b"}"#).unwrap()).unwrap_err();
        assert!(err.to_string().contains("NUL"), "{err}");
    }

    #[test]
    fn conflicting_options_are_refused() {
        let e = cli_args(&QueryOptions::from_json(r#"{"canUseTool":true,"permissionPromptToolName":"x"}"#).unwrap())
            .unwrap_err();
        assert!(e.to_string().contains("permissionPromptToolName"));
        let e = cli_args(&QueryOptions::from_json(r#"{"model":"a","fallbackModel":"a"}"#).unwrap()).unwrap_err();
        assert!(e.to_string().contains("Fallback model"));
    }

    #[test]
    fn bun_crash_reports_stay_off_unless_the_app_turns_them_on() {
        let env = |json: &str| child_env(&QueryOptions::from_json(json).unwrap()).unwrap();
        let bun = |e: &[(String, String)]| {
            e.iter()
                .filter(|(k, _)| k.starts_with("BUN_"))
                .cloned()
                .collect::<Vec<_>>()
        };
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(bun(&env(r#"{"env":{}}"#)), [pair("BUN_ENABLE_CRASH_REPORTING", "0")]);
        // An empty value is not a choice: replaced.
        assert_eq!(
            bun(&env(r#"{"env":{"BUN_ENABLE_CRASH_REPORTING":""}}"#)),
            [pair("BUN_ENABLE_CRASH_REPORTING", "0")]
        );
        // Either variable set to something: the app's choice stands, nothing added.
        assert_eq!(
            bun(&env(r#"{"env":{"BUN_ENABLE_CRASH_REPORTING":"1"}}"#)),
            [pair("BUN_ENABLE_CRASH_REPORTING", "1")]
        );
        assert_eq!(
            bun(&env(r#"{"env":{"BUN_CRASH_REPORT_URL":"http://x"}}"#)),
            [pair("BUN_CRASH_REPORT_URL", "http://x")]
        );
        // Elsewhere than Windows, another spelling is another variable.
        if !cfg!(windows) {
            let e = env(r#"{"env":{"bun_enable_crash_reporting":"1"}}"#);
            assert!(
                e.contains(&pair("bun_enable_crash_reporting", "1"))
                    && e.contains(&pair("BUN_ENABLE_CRASH_REPORTING", "0"))
            );
        }
    }

    #[test]
    fn env_replaces_and_gains_sdk_variables() {
        let o = QueryOptions::from_json(r#"{"env":{"A":"1","NODE_OPTIONS":"--x","DEBUG":"y","U":null}}"#).unwrap();
        let env = child_env(&o).unwrap();
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "A",
                "CLAUDE_CODE_ENTRYPOINT",
                "CLAUDE_AGENT_SDK_VERSION",
                "CLAUDE_CODE_SDK_READS_SESSION_STATE",
                "BUN_ENABLE_CRASH_REPORTING"
            ]
        );
        let o = QueryOptions::from_json(r#"{"env":{"CLAUDE_CODE_ENTRYPOINT":"mine","DEBUG_CLAUDE_AGENT_SDK":"1"}}"#)
            .unwrap();
        let env = child_env(&o).unwrap();
        assert!(env.contains(&("CLAUDE_CODE_ENTRYPOINT".into(), "mine".into())));
        assert!(env.contains(&("DEBUG".into(), "1".into())));
    }

    #[test]
    fn windows_command_lines_are_measured_as_quoted_and_long_ones_refused() {
        assert_eq!(
            windows_command_line_len("claude.exe", &["--a".into(), "b c".into(), "".into(), r#"x\"y"#.into()]),
            10 + 4 + 6 + 3 + 9
        );
        let mut launch = Launch {
            program: "C:/claude.exe".into(),
            args: vec!["--verbose".into()],
            env: vec![],
            cwd: None,
        };
        assert!(check_windows_command_line(&launch).is_ok());
        launch.args.push(format!("--mcp-config={}", "x".repeat(9000)));
        let e = check_windows_command_line(&launch).unwrap_err().to_string();
        assert!(
            e.contains("8191") && e.contains("--mcp-config=") && e.contains("9013 chars"),
            "{e}"
        );
        // Agents and the system prompt never reach the command line, however long.
        let o = QueryOptions::from_json(&format!(
            r#"{{"systemPrompt":"{0}","agents":{{"a":{{"description":"d","prompt":"{0}"}}}}}}"#,
            "p".repeat(20000)
        ))
        .unwrap();
        let exe = Executable {
            path: "C:/claude.exe".into(),
            is_script: false,
        };
        assert!(check_windows_command_line(&build_launch(&o, &exe, "node").unwrap()).is_ok());
    }

    #[test]
    fn scripts_run_through_the_runtime() {
        let o = QueryOptions::from_json(r#"{"executableArgs":["--x"]}"#).unwrap();
        let exe = Executable {
            path: "/p/cli.mjs".into(),
            is_script: true,
        };
        let l = build_launch(&o, &exe, "node").unwrap();
        assert_eq!(l.program, "node");
        assert_eq!(&l.args[..2], ["--x", "/p/cli.mjs"]);
        let exe = Executable {
            path: "/p/claude".into(),
            is_script: false,
        };
        assert_eq!(build_launch(&o, &exe, "node").unwrap().program, "/p/claude");
    }

    #[test]
    fn no_env_inherits_ours_and_the_entrypoint_can_be_named() {
        // `PATH` is set for any test run; the JS host always passes an env, so only Rust callers
        // reach the inheriting branch.
        let path = std::env::var("PATH").unwrap();
        let o = QueryOptions {
            entrypoint: Some("sdk-rust".into()),
            ..Default::default()
        };
        let env = child_env(&o).unwrap();
        assert!(env.contains(&("PATH".into(), path)), "inherited");
        assert!(env.contains(&("CLAUDE_CODE_ENTRYPOINT".into(), "sdk-rust".into())));
        let o = QueryOptions::from_json(r#"{"env":{"A":"1"}}"#).unwrap();
        let env = child_env(&o).unwrap();
        assert!(!env.iter().any(|(k, _)| k == "PATH"), "a given env replaces ours");
        assert!(env.contains(&("CLAUDE_CODE_ENTRYPOINT".into(), "sdk-ts".into())));
        assert!(
            QueryOptions::from_json(r#"{"entrypoint":"x"}"#).is_err(),
            "not a JS option"
        );
    }
}
