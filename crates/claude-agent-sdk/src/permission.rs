//! Permission prompts answered by Rust code ([`OptionsBuilder::can_use_tool`]).
//!
//! [`OptionsBuilder::can_use_tool`]: crate::OptionsBuilder::can_use_tool

use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How the CLI should treat permission prompts, and which tools run without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum PermissionMode {
    /// Ask (through `can_use_tool`, or deny) for anything not allowed by a rule.
    Default,
    /// File edits run without asking.
    AcceptEdits,
    /// Everything runs without asking (needs
    /// [`OptionsBuilder::allow_dangerously_skip_permissions`](crate::OptionsBuilder::allow_dangerously_skip_permissions)).
    BypassPermissions,
    /// Planning only: no tool changes anything.
    Plan,
    /// Never ask: what is not allowed by a rule is denied.
    DontAsk,
    /// A classifier decides.
    Auto,
}

impl PermissionMode {
    /// The wire name (`acceptEdits`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionMode::Default => "default",
            PermissionMode::AcceptEdits => "acceptEdits",
            PermissionMode::BypassPermissions => "bypassPermissions",
            PermissionMode::Plan => "plan",
            PermissionMode::DontAsk => "dontAsk",
            PermissionMode::Auto => "auto",
        }
    }

    /// The mode a wire name names (`None` for a name outside the modes); the CLI's `manual` is
    /// `Default`, as the official SDK reads it.
    pub fn from_wire(name: &str) -> Option<Self> {
        Some(match name {
            "default" | "manual" => PermissionMode::Default,
            "acceptEdits" => PermissionMode::AcceptEdits,
            "bypassPermissions" => PermissionMode::BypassPermissions,
            "plan" => PermissionMode::Plan,
            "dontAsk" => PermissionMode::DontAsk,
            "auto" => PermissionMode::Auto,
            _ => return None,
        })
    }
}

/// What the CLI tells a permission callback besides the tool's name and input.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct PermissionContext {
    /// The id of the tool call.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// Rules the CLI suggests adding, to be returned in
    /// [`PermissionResult::Allow::updated_permissions`] to apply them.
    #[serde(default)]
    pub permission_suggestions: Option<Value>,
    /// The path that triggered the prompt, if any.
    #[serde(default)]
    pub blocked_path: Option<String>,
    /// Why the CLI asks.
    #[serde(default)]
    pub decision_reason: Option<String>,
    /// A title for the prompt, when the CLI has one.
    #[serde(default)]
    pub title: Option<String>,
    /// The subagent asking, when not the main agent.
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The request as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

/// The answer to a permission prompt.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PermissionResult {
    /// Run the tool.
    Allow {
        /// The input to run it with instead (default: as the model gave it).
        updated_input: Option<Value>,
        /// Permission updates to apply (e.g. a suggestion from the context).
        updated_permissions: Option<Value>,
    },
    /// Do not run it.
    Deny {
        /// Why, for the model.
        message: String,
        /// Also stop the turn.
        interrupt: bool,
    },
}

impl PermissionResult {
    /// Allow, with the input as given.
    pub fn allow() -> Self {
        PermissionResult::Allow {
            updated_input: None,
            updated_permissions: None,
        }
    }

    /// Allow, with a changed input given as any `Serialize` value (e.g. the tool's own argument
    /// type, read with [`tool_input`](crate::tool_input)). A value that does not serialize to
    /// JSON (a map with non-string keys, a failing `Serialize` impl) denies the call instead,
    /// telling the model why, so the tool never runs with an input nobody chose.
    pub fn allow_with(input: &impl Serialize) -> Self {
        match serde_json::to_value(input) {
            Ok(input) => Self::allow_with_input(input),
            Err(e) => Self::deny(format!(
                "The permission callback's updated input could not be serialized to JSON: {e}"
            )),
        }
    }

    /// Allow, with a changed input as JSON.
    pub fn allow_with_input(input: Value) -> Self {
        PermissionResult::Allow {
            updated_input: Some(input),
            updated_permissions: None,
        }
    }

    /// Deny, telling the model why; the turn goes on.
    pub fn deny(message: impl Into<String>) -> Self {
        PermissionResult::Deny {
            message: message.into(),
            interrupt: false,
        }
    }

    /// Deny and stop the turn.
    pub fn deny_and_interrupt(message: impl Into<String>) -> Self {
        PermissionResult::Deny {
            message: message.into(),
            interrupt: true,
        }
    }

    /// The wire form (`{"behavior": "allow" | "deny", ...}`).
    pub(crate) fn to_json(&self) -> Value {
        let mut v = serde_json::Map::new();
        match self {
            PermissionResult::Allow {
                updated_input,
                updated_permissions,
            } => {
                v.insert("behavior".into(), "allow".into());
                if let Some(i) = updated_input {
                    v.insert("updatedInput".into(), i.clone());
                }
                if let Some(p) = updated_permissions {
                    v.insert("updatedPermissions".into(), p.clone());
                }
            }
            PermissionResult::Deny { message, interrupt } => {
                v.insert("behavior".into(), "deny".into());
                v.insert("message".into(), message.clone().into());
                if *interrupt {
                    v.insert("interrupt".into(), true.into());
                }
            }
        }
        Value::Object(v)
    }
}

/// The permission callback, type-erased.
pub(crate) type CanUseToolFn =
    Arc<dyn Fn(String, Value, PermissionContext) -> BoxFuture<'static, PermissionResult> + Send + Sync>;

pub(crate) fn can_use_tool_fn<F, Fut>(f: F) -> CanUseToolFn
where
    F: Fn(String, Value, PermissionContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = PermissionResult> + Send + 'static,
{
    Arc::new(move |name, input, ctx| f(name, input, ctx).boxed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wire_forms() {
        assert_eq!(PermissionResult::allow().to_json(), json!({"behavior":"allow"}));
        assert_eq!(
            PermissionResult::deny_and_interrupt("no").to_json(),
            json!({"behavior":"deny","message":"no","interrupt":true})
        );
        assert_eq!(
            serde_json::to_value(PermissionMode::AcceptEdits).unwrap(),
            "acceptEdits"
        );
        assert_eq!(PermissionMode::DontAsk.as_str(), "dontAsk");
    }

    #[test]
    fn allow_with_a_typed_input_and_a_failing_one() {
        #[derive(Serialize)]
        struct Greet {
            name: &'static str,
        }
        assert_eq!(
            PermissionResult::allow_with(&Greet { name: "Bob" }).to_json(),
            json!({"behavior":"allow","updatedInput":{"name":"Bob"}})
        );
        let mut bad = std::collections::HashMap::new();
        bad.insert(vec![1], 2);
        match PermissionResult::allow_with(&bad) {
            PermissionResult::Deny { message, interrupt } => {
                assert!(message.contains("could not be serialized"), "{message}");
                assert!(!interrupt);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn wire_names_read_back_as_modes() {
        for m in [
            PermissionMode::Default,
            PermissionMode::AcceptEdits,
            PermissionMode::BypassPermissions,
            PermissionMode::Plan,
            PermissionMode::DontAsk,
            PermissionMode::Auto,
        ] {
            assert_eq!(PermissionMode::from_wire(m.as_str()), Some(m));
        }
        assert_eq!(PermissionMode::from_wire("manual"), Some(PermissionMode::Default));
        assert_eq!(PermissionMode::from_wire("toString"), None);
        assert_eq!(PermissionMode::from_wire(""), None);
    }
}
