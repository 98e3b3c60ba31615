//! The data part of the official `Options` (everything but callbacks and live objects), as the
//! host hands it over in JSON. Callbacks are represented by what the wire needs: `canUseTool`
//! becomes a flag, hooks arrive already in their `initialize` form with callback ids.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Number, Value};

use crate::error::Error;

/// An enum of wire names as the official SDK types them, with `Other` for a value this SDK does
/// not know (one a newer CLI may accept): the official passes these through unchecked, so do we.
macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $wire:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vm])* $var,)+
            /// A value this SDK does not know, passed on as given.
            Other(String),
        }

        impl $name {
            /// The wire name.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$var => $wire,)+
                    Self::Other(s) => s,
                }
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                match s {
                    $($wire => Self::$var,)+
                    _ => Self::Other(s.to_string()),
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Ok(match Self::from(s.as_str()) {
                    Self::Other(_) => Self::Other(s),
                    known => known,
                })
            }
        }
    };
}

wire_enum! {
    /// `permissionMode` (`--permission-mode`).
    PermissionMode {
        Default = "default",
        AcceptEdits = "acceptEdits",
        BypassPermissions = "bypassPermissions",
        Plan = "plan",
        DontAsk = "dontAsk",
        Auto = "auto",
    }
}

wire_enum! {
    /// `effort` (`--effort`).
    Effort { Low = "low", Medium = "medium", High = "high", Xhigh = "xhigh", Max = "max" }
}

wire_enum! {
    /// An entry of `settingSources` (`--setting-sources`).
    SettingSource { User = "user", Project = "project", Local = "local" }
}

wire_enum! {
    /// `thinking.type`; the official maps the three it knows and ignores others, we refuse them.
    ThinkingKind { Enabled = "enabled", Disabled = "disabled", Adaptive = "adaptive" }
}

wire_enum! {
    /// `thinking.display` (`--thinking-display`).
    ThinkingDisplay { Summarized = "summarized", Omitted = "omitted" }
}

wire_enum! {
    /// `permissionPrompts` (`--permission-prompts`).
    PermissionPrompts { Host = "host", None = "none" }
}

wire_enum! {
    /// `sessionStoreFlush`: the official treats any value but `'eager'` as `'batched'`.
    SessionStoreFlush { Batched = "batched", Eager = "eager" }
}

/// How a launch field reaches the CLI (`mcpServersDelivery`, `pluginDelivery`,
/// `managedSettingsDelivery`, `settingsDelivery`, `disallowedToolsDelivery`). The official
/// refuses any other value ("Invalid pluginDelivery. Expected 'argv' or 'initialize'.").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Delivery {
    /// On the command line (the default).
    Argv,
    /// In the `initialize` request (the CLI is started with `--await-initialize`).
    Initialize,
}

/// `tools`: a list of built-in tool names (`--tools=a,b`), or anything else (the official's
/// `{type: 'preset', preset: 'claude_code'}`), which is the CLI's default set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tools {
    /// Only these (an empty list: no built-in tool).
    List(Vec<String>),
    /// Claude Code's default set.
    Default,
}

impl<'de> Deserialize<'de> for Tools {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Array(list) => Tools::List(
                list.iter()
                    .map(|v| v.as_str().unwrap_or_default().to_string())
                    .collect(),
            ),
            _ => Tools::Default,
        })
    }
}

/// `skills`: which skills the session may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skills {
    /// `'all'`: every skill (allowed as `Skill`).
    All,
    /// These names (each allowed as `Skill(name)`; sent in `initialize`).
    Only(Vec<Value>),
}

impl<'de> Deserialize<'de> for Skills {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) if s == "all" => Ok(Skills::All),
            Value::Array(names) => Ok(Skills::Only(names)),
            _ => Err(serde::de::Error::custom("expected a list of skill names or 'all'")),
        }
    }
}

/// `taskBudget`: `{ total }` tokens (`--task-budget`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TaskBudget {
    pub total: Option<Number>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueryOptions {
    pub path_to_claude_code_executable: Option<PathBuf>,
    pub executable: Option<String>,
    #[serde(default)]
    pub executable_args: Vec<String>,
    pub cwd: Option<PathBuf>,
    /// The child's whole environment (the JS host always resolves `options.env ?? process.env`);
    /// `null` values mean "unset", like `undefined` in a JS env object. `None` (a Rust caller that
    /// says nothing): the child inherits this process's environment.
    pub env: Option<Map<String, Value>>,
    /// `env` is the whole environment (what the JS host always sends: true when deserialized),
    /// not changes to this process's (what the Rust SDK's builder makes: false by default).
    #[serde(skip_deserializing, default = "whole_env")]
    pub env_is_whole: bool,
    /// What the CLI is told the SDK is (`CLAUDE_CODE_ENTRYPOINT`, unless the env sets it): `None`
    /// is the TypeScript SDK's `sdk-ts`. Not part of the JS options (never deserialized): the Rust
    /// SDK sets it to name itself.
    #[serde(skip)]
    pub entrypoint: Option<String>,
    pub model: Option<String>,
    pub fallback_model: Option<String>,
    #[serde(default)]
    pub allowed_tools: Vec<String>,
    #[serde(default)]
    pub disallowed_tools: Vec<String>,
    pub permission_mode: Option<PermissionMode>,
    pub allow_dangerously_skip_permissions: Option<bool>,
    pub permission_prompt_tool_name: Option<String>,
    pub max_turns: Option<u64>,
    pub max_budget_usd: Option<f64>,
    pub max_thinking_tokens: Option<u64>,
    pub thinking: Option<Thinking>,
    pub effort: Option<Effort>,
    pub system_prompt: Option<Value>,
    pub include_partial_messages: Option<bool>,
    /// True when the host has a `canUseTool` callback.
    #[serde(default)]
    pub can_use_tool: bool,
    /// The host has an `onElicitation` callback (`elicitation` requests go to it).
    #[serde(default)]
    pub on_elicitation: bool,
    /// The host has an `onUserDialog` callback (`request_user_dialog` requests go to it).
    #[serde(default)]
    pub on_user_dialog: bool,
    /// The host has a `getOAuthToken` or `getHostAuthToken` callback (the CLI's token refreshes go
    /// to it).
    #[serde(default)]
    pub token_callbacks: bool,
    #[serde(rename = "continue")]
    pub continue_conversation: Option<bool>,
    pub resume: Option<String>,
    pub resume_session_at: Option<String>,
    pub fork_session: Option<bool>,
    pub session_id: Option<String>,
    pub persist_session: Option<bool>,
    #[serde(default)]
    pub additional_directories: Vec<PathBuf>,
    #[serde(default)]
    pub betas: Vec<String>,
    pub debug: Option<bool>,
    pub debug_file: Option<PathBuf>,
    pub strict_mcp_config: Option<bool>,
    pub setting_sources: Option<Vec<SettingSource>>,
    pub tools: Option<Tools>,
    /// Only the servers the CLI runs itself (stdio, sse, http); in-process ones travel separately.
    pub mcp_servers: Option<Map<String, Value>>,
    pub settings: Option<Value>,
    pub extra_args: Option<Map<String, Value>>,
    pub plugins: Option<Vec<Value>>,
    pub agents: Option<Value>,
    /// `initialize.hooks`, built by the host: `{Event: [{matcher, hookCallbackIds, timeout}]}`.
    pub hooks: Option<Value>,
    pub output_format: Option<Value>,
    pub sandbox: Option<Value>,
    pub enable_file_checkpointing: Option<bool>,
    /// The main-thread agent (`--agent`).
    pub agent: Option<String>,
    /// `{ total }`: a token budget for the task (`--task-budget`).
    pub task_budget: Option<TaskBudget>,
    pub include_hook_events: Option<bool>,
    pub project_config_root: Option<PathBuf>,
    pub permission_prompts: Option<PermissionPrompts>,
    pub plan_mode_instructions: Option<String>,
    pub tool_aliases: Option<Value>,
    pub title: Option<String>,
    pub prompt_suggestions: Option<bool>,
    pub agent_progress_summaries: Option<bool>,
    pub forward_subagent_text: Option<bool>,
    /// `toolConfig`: per-tool settings (`askUserQuestion.previewFormat` travels in the env).
    pub tool_config: Option<Value>,
    /// Dialog kinds the host's `onUserDialog` answers (sent in `initialize`).
    pub supported_dialog_kinds: Option<Vec<String>>,
    pub per_task_stop_affordance: Option<bool>,
    /// Options the official SDK reads and sends in `initialize` as given, though its `Options`
    /// type does not name them (0.3.330 and later): `rapidFollowupPreempt`,
    /// `forwardNestedSubagentToolCalls`, `offersBypassSwitchBack`, `keepsBypassHeld`.
    pub rapid_followup_preempt: Option<Value>,
    pub forward_nested_subagent_tool_calls: Option<Value>,
    pub offers_bypass_switch_back: Option<Value>,
    pub keeps_bypass_held: Option<Value>,
    /// `allowedControlRequests` (read by the official SDK 0.3.332, not in its `Options` type): the
    /// control-request subtypes from the CLI this host serves; any other is answered with the
    /// error "Control request not allowed by this host". `None`: all of them.
    pub allowed_control_requests: Option<Vec<String>>,
    /// `{ accepted, directory }`: the host's attestation that the user accepted a trust dialog for
    /// the session's folder (sent in `initialize`; the host drops an `accepted` one without an
    /// absolute `directory`, as the official does).
    pub workspace_trust: Option<Value>,
    /// `'initialize'`: process MCP servers travel in `initialize` rather than `--mcp-config`.
    pub mcp_servers_delivery: Option<Delivery>,
    /// `'initialize'`: plugins travel in `initialize` rather than `--plugin-dir`.
    pub plugin_delivery: Option<Delivery>,
    pub resume_drops_turn: Option<String>,
    /// Restrictive policy-tier settings (`--managed-settings`).
    pub managed_settings: Option<Value>,
    /// `'initialize'`: `managedSettings` travel in `initialize` (`--managed-settings-in-initialize`).
    pub managed_settings_delivery: Option<Delivery>,
    /// `'initialize'`: `settings` (with `sandbox` merged in) travel in `initialize`
    /// (`--initialize-fields settings`) when they are an object or a JSON object's text.
    pub settings_delivery: Option<Delivery>,
    /// `'initialize'`: `disallowedTools` travel in `initialize` (`--initialize-fields disallowedTools`).
    pub disallowed_tools_delivery: Option<Delivery>,
    /// Skills the session may use: a list of names, or `'all'`.
    pub skills: Option<Skills>,
    /// Milliseconds to wait for the CLI's answer to `initialize` before giving up.
    pub initialize_timeout_ms: Option<u64>,
    /// True when the host has a session store (`sessionStore`): the CLI mirrors its transcript
    /// writes (`--session-mirror`) and the session sends them to the store
    /// ([`crate::session::mirror`]).
    #[serde(default)]
    pub session_store: bool,
    /// `'eager'`: every transcript write goes to the store at once; otherwise (`'batched'`, the
    /// default) in batches.
    pub session_store_flush: Option<SessionStoreFlush>,
    /// Some string held a lone surrogate, read masked: lines built from these options go to the
    /// CLI through [`crate::sessions::surrogate::unmask`], the command line and environment as
    /// the host's `spawn` would encode them (each one as U+FFFD).
    #[serde(skip)]
    pub lone_surrogates: bool,
    /// Bounds on the memory and CPU time of the CLI and everything it starts.
    pub resource_limits: Option<crate::cli::limits::ResourceLimits>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Thinking {
    #[serde(rename = "type")]
    pub kind: ThinkingKind,
    pub budget_tokens: Option<u64>,
    pub display: Option<ThinkingDisplay>,
}

fn whole_env() -> bool {
    true
}

/// A path option as text (the command line and the environment are text): an error naming the
/// option when the path is not UTF-8.
pub fn path_text<'a>(path: &'a Path, option: &str) -> Result<&'a str, Error> {
    path.to_str()
        .ok_or_else(|| Error::InvalidOption(format!("Invalid option `{option}`: {path:?} is not valid UTF-8")))
}

impl QueryOptions {
    /// The options' names as the host sends them (the JS options' camelCase keys), read from the
    /// serde derive itself: what the binding tells the JS side to hand over.
    pub fn names() -> &'static [&'static str] {
        let mut names: &'static [&'static str] = &[];
        let _ = QueryOptions::deserialize(FieldNames(&mut names));
        names
    }

    /// Whether process MCP servers travel in `initialize` (`mcpServersDelivery: 'initialize'`,
    /// and there are some: as the official, no `--await-initialize` for none).
    pub fn mcp_servers_via_initialize(&self) -> bool {
        self.mcp_servers_delivery == Some(Delivery::Initialize)
            && self.mcp_servers.as_ref().is_some_and(|s| !s.is_empty())
    }

    /// Whether plugins travel in `initialize` (`pluginDelivery: 'initialize'`, and there are some).
    pub fn plugins_via_initialize(&self) -> bool {
        self.plugin_delivery == Some(Delivery::Initialize) && self.plugins.as_ref().is_some_and(|p| !p.is_empty())
    }

    /// Whether `managedSettings` travel in `initialize` (`managedSettingsDelivery: 'initialize'`,
    /// and they are truthy, as the official tests them).
    pub fn managed_settings_via_initialize(&self) -> bool {
        self.managed_settings_delivery == Some(Delivery::Initialize)
            && self.managed_settings.as_ref().is_some_and(|v| {
                !matches!(v, Value::Null | Value::Bool(false)) && v.as_str() != Some("") && v.as_f64() != Some(0.0)
            })
    }

    /// Whether `disallowedTools` travel in `initialize` (`disallowedToolsDelivery: 'initialize'`,
    /// and there are some).
    pub fn disallowed_tools_via_initialize(&self) -> bool {
        self.disallowed_tools_delivery == Some(Delivery::Initialize) && !self.disallowed_tools.is_empty()
    }

    /// Whether `settings` go in `initialize` rather than on the command line: with
    /// `settingsDelivery: 'initialize'`, when they are absent or an object (or a JSON object's
    /// text) and, merged with `sandbox`, make an object. A settings file path stays on argv.
    pub fn settings_via_initialize(&self) -> bool {
        self.settings_delivery == Some(Delivery::Initialize)
            && (self.settings.is_some() || self.sandbox.is_some())
            && match &self.settings {
                None | Some(Value::Object(_)) => true,
                Some(Value::String(s)) => {
                    let t = s.trim();
                    t.starts_with('{') && t.ends_with('}')
                }
                Some(_) => false,
            }
    }

    /// `allowedTools` plus the `Skill` rules that `skills` adds (as the official: `'all'` is
    /// `Skill`, a name `Skill(name)`), without duplicates.
    pub fn allowed_tools_with_skills(&self) -> Result<Vec<String>, Error> {
        let mut allowed = self.allowed_tools.clone();
        let added: Vec<String> = match &self.skills {
            None => return Ok(allowed),
            Some(Skills::All) => vec!["Skill".into()],
            Some(Skills::Only(names)) => names
                .iter()
                .map(|n| match n.as_str() {
                    Some(name) if !name.trim().is_empty() => Ok(format!("Skill({name})")),
                    _ => Err(Error::InvalidOption("Skill names must be non-empty strings.".into())),
                })
                .collect::<Result<_, _>>()?,
        };
        for rule in added {
            if !self.allowed_tools.contains(&rule) {
                allowed.push(rule);
            }
        }
        Ok(allowed)
    }

    /// Parses the host's JSON; an ill-typed or unknown field is an error naming it.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        // Strings cut inside a surrogate pair (`JSON.stringify` writes `\udXXX`) read masked
        // ([`crate::sessions::surrogate::from_js`]); the session writes them back as they came.
        let (json, lone) = crate::sessions::surrogate::from_js(json);
        let de = &mut serde_json::Deserializer::from_str(&json);
        let parsed: Result<Self, _> = serde_path_to_error::deserialize(de);
        parsed
            .map(|o| Self {
                lone_surrogates: lone,
                ..o
            })
            .map_err(|e| {
                let path = e.path().to_string();
                let inner = e.into_inner().to_string();
                // serde's position suffix points into our own JSON, which means nothing to the user.
                let inner = inner.split(" at line ").next().unwrap_or(&inner).to_string();
                Error::InvalidOption(format!("Invalid option `{path}`: {inner}"))
            })
    }
}

/// A deserializer that only records the field names a derived `Deserialize` asks a struct for.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(serde::de::Error::custom("only a struct's field names are read"))
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
        unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod mapping;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ill_typed_and_unknown_options_are_named() {
        let e = QueryOptions::from_json(r#"{"maxTurns":"three"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("`maxTurns`") && e.contains("expected u64"), "{e}");
        let e = QueryOptions::from_json(r#"{"allowedTools":[1]}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("allowedTools[0]"), "{e}");
        let e = QueryOptions::from_json(r#"{"modle":"x"}"#).unwrap_err().to_string();
        assert!(e.contains("modle"), "{e}");
        let ok = QueryOptions::from_json(r#"{"model":"m","maxTurns":3,"continue":true}"#).unwrap();
        assert!(!ok.lone_surrogates);
        assert_eq!(ok.max_turns, Some(3));
        assert_eq!(ok.continue_conversation, Some(true));
    }

    #[test]
    fn strings_cut_inside_a_surrogate_pair_are_read_and_go_out_as_they_came() {
        let o = QueryOptions::from_json(
            r#"{"systemPrompt":"sp \ud83d","agents":{"a":{"description":"d","prompt":"p \udc00x"}},"env":{"K":"e \ud83d"}}"#,
        )
        .unwrap();
        assert!(o.lone_surrogates);
        let init = crate::session::initialize_request(&o, &[]).unwrap().to_string();
        let line = crate::sessions::surrogate::unmask(&init);
        assert!(
            line.contains(r#""sp \ud83d""#) && line.contains(r#""p \udc00x""#),
            "{line}"
        );
        let env = crate::cli::launch::child_env(&o).unwrap();
        let k = env.iter().find(|(k, _)| k == "K").map(|(_, v)| v.clone()).unwrap();
        // The environment is encoded as Node's `spawn` encodes it: U+FFFD (see `build_launch`).
        assert_eq!(crate::sessions::surrogate::unmask_lossy(k), "e \u{FFFD}");
    }
}
